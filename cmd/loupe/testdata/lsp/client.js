// An LSP client session over stdio, driven by the protocol library VS Code's
// language client is built on (vscode-languageserver-protocol).
//
//   node client.js PROJECT SERVER [ARGS...]
//
// starts SERVER with ARGS in the folder PROJECT (an ast-grep project) and
// plays one editor session against it: initialize and initialized; open
// each file of the session and wait for its diagnostics; ask for the quick
// fixes of each diagnostic and for the fix-all source action; apply a quick
// fix and the fix-all edit, send each result as a didChange and wait for the
// new diagnostics; hover on a diagnostic with a note; run the apply-all-fixes
// command; change a rule file and report it as a watched file's change;
// call a method no server has; close a file; shutdown and exit. PROJECT's
// rules/no-eval.yml is rewritten: run it on a copy.
// It prints the transcript as JSON on stdout: every response and
// server-to-client message the session depends on, with file URIs made
// relative to PROJECT ("file:///…/src/app.ts" becomes "src/app.ts"), so that
// two servers' transcripts can be compared. Log and show-message
// notifications are left out: their wording is each server's own.
"use strict";

const cp = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const url = require("node:url");
const rpc = require("vscode-languageserver-protocol/node");

const [project, server, ...serverArgs] = process.argv.slice(2);
if (!project || !server) {
  console.error("usage: node client.js PROJECT SERVER [ARGS...]");
  process.exit(2);
}
const root = fs.realpathSync(project);
const rootURI = url.pathToFileURL(root).href;
const uriOf = (rel) => url.pathToFileURL(path.join(root, rel)).href;

// relative rewrites every file URI under the project in v as a path
// relative to it.
function relative(v) {
  return JSON.parse(
    JSON.stringify(v ?? null).replaceAll(rootURI + "/", "").replaceAll(JSON.stringify(rootURI), '"."'),
  );
}

// applyEdits returns text with LSP text edits applied (positions in
// characters of the text's lines).
function applyEdits(text, edits) {
  const lines = text.split("\n");
  const offset = (p) => {
    let off = 0;
    for (let i = 0; i < p.line; i++) off += lines[i].length + 1;
    return off + p.character;
  };
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) {
    text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  }
  return text;
}

const child = cp.spawn(server, serverArgs, { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
let stderr = "";
child.stderr.on("data", (d) => (stderr += d));
const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));

const conn = rpc.createProtocolConnection(
  new rpc.StreamMessageReader(child.stdout),
  new rpc.StreamMessageWriter(child.stdin),
);

const transcript = [];
const record = (step, value) => transcript.push({ step, value: relative(value) });

// Diagnostics arrive as notifications; waiters take them in order per URI.
const published = new Map(); // uri -> queued params
const waiting = new Map(); // uri -> resolve
conn.onNotification(rpc.PublishDiagnosticsNotification.type, (params) => {
  const w = waiting.get(params.uri);
  if (w) {
    waiting.delete(params.uri);
    w(params);
    return;
  }
  if (!published.has(params.uri)) published.set(params.uri, []);
  published.get(params.uri).push(params);
});
function nextDiagnostics(uri) {
  const q = published.get(uri);
  if (q && q.length) return Promise.resolve(q.shift());
  return new Promise((resolve) => waiting.set(uri, resolve));
}

const registrations = [];
conn.onRequest(rpc.RegistrationRequest.type, (params) => {
  registrations.push(params);
  return null;
});
conn.onRequest(rpc.WorkspaceFoldersRequest.type, () => [{ uri: rootURI, name: path.basename(root) }]);
const applied = [];
conn.onRequest(rpc.ApplyWorkspaceEditRequest.type, (params) => {
  applied.push(params);
  return { applied: true };
});
conn.onNotification(rpc.LogMessageNotification.type, () => {});
conn.onNotification(rpc.ShowMessageNotification.type, () => {});
conn.listen();

const docs = new Map(); // uri -> {text, version}

async function open(rel, languageId) {
  const uri = uriOf(rel);
  const text = fs.readFileSync(path.join(root, rel), "utf8");
  docs.set(uri, { text, version: 1 });
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId, version: 1, text },
  });
  const d = await nextDiagnostics(uri);
  record(`didOpen ${rel}: publishDiagnostics`, d);
  return d;
}

async function change(rel, text) {
  const uri = uriOf(rel);
  const doc = docs.get(uri);
  doc.text = text;
  doc.version++;
  await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: doc.version },
    contentChanges: [{ text }],
  });
  const d = await nextDiagnostics(uri);
  record(`didChange ${rel} v${doc.version}: publishDiagnostics`, d);
  return d;
}

async function main() {
  const init = await conn.sendRequest(rpc.InitializeRequest.type, {
    processId: process.pid,
    rootUri: rootURI,
    workspaceFolders: [{ uri: rootURI, name: path.basename(root) }],
    capabilities: {
      workspace: {
        workspaceFolders: true,
        applyEdit: true,
        didChangeWatchedFiles: { dynamicRegistration: true },
      },
      textDocument: {
        synchronization: { didSave: true },
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        hover: { contentFormat: ["markdown", "plaintext"] },
        codeAction: {
          codeActionLiteralSupport: {
            codeActionKind: { valueSet: ["", "quickfix", "source", "source.fixAll"] },
          },
          isPreferredSupport: true,
        },
      },
    },
  });
  record("initialize", init);
  await conn.sendNotification(rpc.InitializedNotification.type, {});

  const files = {
    "src/app.ts": "typescript",
    "src/legacy/old.ts": "typescript",
    "src/tool.py": "python",
    "src/list.ts": "typescript",
    "src/other.js": "javascript",
  };
  const opened = {};
  for (const [rel, languageId] of Object.entries(files)) opened[rel] = await open(rel, languageId);
  // The server registers its watchers from initialized; by now it has.
  record("client/registerCapability", registrations);

  const appURI = uriOf("src/app.ts");
  // In position order: servers may publish a document's diagnostics in
  // any order (ast-grep's come rule by rule, in hash order).
  const byPosition = (a, b) =>
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    String(a.code).localeCompare(String(b.code));
  const quickfixes = {};
  for (const rel of Object.keys(files)) {
    quickfixes[rel] = [];
    for (const d of [...opened[rel].diagnostics].sort(byPosition)) {
      const actions = await conn.sendRequest(rpc.CodeActionRequest.type, {
        textDocument: { uri: uriOf(rel) },
        range: d.range,
        context: { diagnostics: [d], triggerKind: 1 },
      });
      quickfixes[rel].push({ code: d.code, range: d.range, actions });
      record(`codeAction ${rel} ${d.code} ${d.range.start.line}:${d.range.start.character}`, actions);
    }
  }
  const none = await conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: appURI },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [] },
  });
  record("codeAction src/app.ts without diagnostics", none);

  for (const rel of Object.keys(files)) {
    const actions = await conn.sendRequest(rpc.CodeActionRequest.type, {
      textDocument: { uri: uriOf(rel) },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ["source.fixAll"] },
    });
    record(`codeAction ${rel} only source.fixAll`, actions);
  }

  // Apply the first quick fix offered (the preferred one of the first
  // diagnostic with a fix) and send the result as an edit.
  const first = quickfixes["src/app.ts"].find((q) => q.actions && q.actions.length > 0);
  const edits = first.actions[0].edit.changes[appURI];
  await change("src/app.ts", applyEdits(docs.get(appURI).text, edits));

  const hover = await conn.sendRequest(rpc.HoverRequest.type, {
    textDocument: { uri: appURI },
    position: { line: 10, character: 20 },
  });
  record("hover src/app.ts 10:20", hover);
  const noHover = await conn.sendRequest(rpc.HoverRequest.type, {
    textDocument: { uri: appURI },
    position: { line: 0, character: 0 },
  });
  record("hover src/app.ts 0:0", noHover);

  // Fix everything in the legacy file with the fix-all action's edit.
  const oldURI = uriOf("src/legacy/old.ts");
  const [fixAll] = await conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: oldURI },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [], only: ["source.fixAll"] },
  });
  const fixed = applyEdits(docs.get(oldURI).text, fixAll.edit.changes[oldURI]);
  await change("src/legacy/old.ts", fixed);
  record("src/legacy/old.ts after fix-all", fixed);
  const listURI = uriOf("src/list.ts");
  const [fixList] = await conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: listURI },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [], only: ["source.fixAll"] },
  });
  const list = applyEdits(docs.get(listURI).text, fixList.edit.changes[listURI]);
  await change("src/list.ts", list);
  record("src/list.ts after fix-all", list);

  // The apply-all-fixes command: the server asks the client to apply the
  // edit (workspace/applyEdit) before it answers.
  const doc = docs.get(appURI);
  const cmd = await conn.sendRequest(rpc.ExecuteCommandRequest.type, {
    command: "ast-grep.applyAllFixes",
    arguments: [{ uri: appURI, languageId: "typescript", version: doc.version, text: doc.text }],
  });
  record("executeCommand ast-grep.applyAllFixes", cmd);
  record("workspace/applyEdit", applied);

  // A rule changes on disk: the server reloads the rules and republishes
  // every open document's diagnostics.
  const ruleFile = path.join(root, "rules/no-eval.yml");
  fs.writeFileSync(ruleFile, fs.readFileSync(ruleFile, "utf8").replace("severity: error", "severity: warning"));
  await conn.sendNotification(rpc.DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: uriOf("rules/no-eval.yml"), type: rpc.FileChangeType.Changed }],
  });
  for (const rel of Object.keys(files)) {
    record(`didChangeWatchedFiles: publishDiagnostics ${rel}`, await nextDiagnostics(uriOf(rel)));
  }

  try {
    const r = await conn.sendRequest("loupe/noSuchMethod", {});
    record("loupe/noSuchMethod", { result: r });
  } catch (e) {
    record("loupe/noSuchMethod", { error: e.code });
  }

  await conn.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri: appURI } });
  // A request after the close: its answer comes after whatever the close
  // made the server send.
  const afterClose = await conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: appURI },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [], only: ["source.fixAll"] },
  });
  record("didClose src/app.ts: publishDiagnostics", published.get(appURI) ?? []);
  record("codeAction src/app.ts after didClose", afterClose);

  record("shutdown", await conn.sendRequest(rpc.ShutdownRequest.type));
  await conn.sendNotification(rpc.ExitNotification.type);
  const status = await exited;
  record("exit", status);
  conn.dispose();
  process.stdout.write(JSON.stringify(transcript, null, 1) + "\n");
}

main().catch((e) => {
  console.error("client:", e && e.stack ? e.stack : e);
  if (stderr) console.error("server stderr:\n" + stderr);
  child.kill();
  process.exit(1);
});
