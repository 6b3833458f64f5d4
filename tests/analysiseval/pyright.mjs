// The Python truth of the structural_analysis measurement: pyright's own
// answers (its language server's call hierarchy, references and document
// symbols, over LSP stdio) for a seeded sample of the functions, methods
// and properties whose names are shared by several declarations of a
// project (a property is measured by its references only).
//
//   node pyright.mjs <pyright package dir> < request.json > answers.json
//
// request and answers are truth.mjs's: {root, dir, seed, sample,
// extraPaths} in (extraPaths: folders relative to root the project puts on
// sys.path);
// {files, declarations, shared, queries: [{name, qual, kind, file, line,
// callable, callers, overridden, refsAll, refsStructural, defs, sharedName}]} out,
// paths relative to root, each answer a list of "file:line"
// ("file:module" for a caller that is a module's top level). A module's
// qualifier is its file's stem (its folder's name for __init__.py); a
// method's is its class. refsStructural keeps the references
// structural_analysis finds: calls, imports and class bases. overridden,
// for a method, are the callers of the members it overrides: the methods
// of the same name in its class's supertypes, transitively (the bases
// written in its class statement, found by pyright's definition), which a
// call through a base class reaches when the object is of this class.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { sampleShared, sourceFiles } from './sample.mjs';

const req = JSON.parse(fs.readFileSync(0, 'utf8'));
const root = path.resolve(req.root);

const files = sourceFiles(path.join(root, req.dir), /\.py$/);
const texts = new Map(files.map((f) => [f, fs.readFileSync(f, 'utf8')]));
const lines = new Map([...texts].map(([f, t]) => [f, t.split('\n')]));
const rel = (f) => path.relative(root, f).split(path.sep).join('/');
const uri = (f) => pathToFileURL(f).href;
const inRoot = (f) => texts.has(f);

// A minimal LSP client over the server's stdio.
const server = spawn(process.execPath, [path.join(process.argv[2], 'langserver.index.js'), '--stdio'],
  { stdio: ['pipe', 'pipe', 'inherit'] });
// setting answers the server's configuration request for one section:
// the request's extraPaths (the folders the project puts on sys.path, as
// node-gyp's gyp_main.py does with pylib/) as python.analysis.extraPaths.
const extraPaths = (req.extraPaths || []).map((p) => path.join(root, p));
function setting(item) {
  if (extraPaths.length === 0) return null;
  if (item.section === 'python.analysis') return { extraPaths };
  if (item.section === 'python') return { analysis: { extraPaths } };
  return null;
}
let buf = Buffer.alloc(0);
let nextId = 1;
const pending = new Map();
function send(msg) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...msg }));
  server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  server.stdin.write(body);
}
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
}
const notify = (method, params) => send({ method, params });
server.stdout.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  for (;;) {
    const sep = buf.indexOf('\r\n\r\n');
    if (sep < 0) return;
    const m = /Content-Length: (\d+)/i.exec(buf.subarray(0, sep).toString());
    const len = Number(m[1]);
    if (buf.length < sep + 4 + len) return;
    const msg = JSON.parse(buf.subarray(sep + 4, sep + 4 + len).toString());
    buf = buf.subarray(sep + 4 + len);
    if (msg.id !== undefined && msg.method) {
      // A server request (configuration, progress): answer it.
      const items = msg.params && msg.params.items;
      send({ id: msg.id, result: msg.method === 'workspace/configuration' ? items.map(setting) : null });
    } else if (msg.id !== undefined && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
      else p.resolve(msg.result);
    }
  }
});

await request('initialize', {
  processId: process.pid, rootUri: uri(root), workspaceFolders: [{ uri: uri(root), name: 'eval' }],
  capabilities: { workspace: { configuration: true },
    textDocument: { callHierarchy: {}, references: {}, documentSymbol: { hierarchicalDocumentSymbolSupport: true } } },
  initializationOptions: {},
});
notify('initialized', {});
for (const f of files) {
  notify('textDocument/didOpen', { textDocument: { uri: uri(f), languageId: 'python', version: 1, text: texts.get(f) } });
}

// The qualifier a declaration is asked about with: its class for a method,
// else its module.
function moduleName(f) {
  const stem = path.basename(f, '.py');
  return stem === '__init__' ? path.basename(path.dirname(f)) : stem;
}

// isProperty reports whether the def on line (0-based) of f is decorated
// as a property (@property, @x.setter, @cached_property): pyright's call
// hierarchy counts its attribute reads as calls, which are not call sites;
// it is measured by its references only.
function isProperty(f, line) {
  const ls = lines.get(f);
  for (let i = line - 1; i >= 0 && /^\s*@/.test(ls[i]); i--) {
    if (/^\s*@(\w+\.)*(property|cached_property|setter|getter|deleter)\b/.test(ls[i])) return true;
  }
  return false;
}

// Declarations: top-level functions and classes, and the methods of
// top-level classes (document symbols: 5 class, 6 method, 12 function).
const decls = [];
for (const f of files) {
  const syms = (await request('textDocument/documentSymbol', { textDocument: { uri: uri(f) } })) || [];
  for (const s of syms) {
    const at = s.selectionRange.start;
    if (s.kind === 12) decls.push({ name: s.name, kind: 'function', file: f, at, callable: true, qual: moduleName(f) });
    if (s.kind !== 5) continue;
    const cls = { name: s.name, kind: 'class', file: f, at, callable: false, qual: moduleName(f), methods: [] };
    decls.push(cls);
    for (const m of s.children || []) {
      if (m.kind === 6 || m.kind === 12 || m.kind === 7) {
        const property = m.kind === 7 || isProperty(f, m.selectionRange.start.line);
        const d = { name: m.name, kind: property ? 'property' : 'method', file: f, at: m.selectionRange.start,
          callable: !property, qual: s.name, cls };
        decls.push(d);
        cls.methods.push(d);
      }
    }
  }
}

const { sample, shared } = sampleShared(decls, rel, req.seed, req.sample, (d) => d.kind !== 'class' && !/^__.*__$/.test(d.name));

// structural reports whether the reference at (line, character) is a
// call, an import or a class base: the uses structural_analysis finds.
function structural(f, pos, name) {
  const text = lines.get(f)[pos.line];
  const after = text.slice(pos.character + name.length).trimStart();
  if (after.startsWith('(')) return true;
  if (/^\s*(from\s+\S+\s+)?import\s/.test(text)) return true;
  return /^\s*class\s+\w+\s*\(/.test(text);
}

// enclosingDef finds the line of the def around line of f, by
// indentation: the nearest def line above it indented less, lines that
// close a bracket aside; -1 at the top level.
function enclosingDef(f, line) {
  const ls = lines.get(f);
  let indent = ls[line].search(/\S/);
  for (let i = line - 1; i >= 0; i--) {
    const at = ls[i].search(/\S/);
    if (at < 0 || at >= indent || ')]}'.includes(ls[i][at])) continue; // a bracket closing a def's parameters
    if (/^\s*(async\s+)?def\s/.test(ls[i])) return i;
    if (/^\s*class\s/.test(ls[i]) || at === 0) return -1;
    indent = at;
  }
  return -1;
}

// declares reports whether the name at pos is another declaration of the
// symbol asked about (def prereleases(self, value) under
// @prereleases.setter, which pyright counts as one symbol with the
// getter): a definition, as the TypeScript truth leaves its own out.
function declares(f, pos) {
  return /(^|\s)(async\s+)?def\s+$/.test(lines.get(f)[pos.line].slice(0, pos.character));
}

const key = (f, line) => `${rel(f)}:${line + 1}`;

// callersOf asks pyright's call hierarchy for the callers of the
// declaration at pos: "file:line" of each, or "file:module". sites, when
// given, gets the "file:line" of each call.
async function callersOf(pos, sites) {
  const out = [];
  for (const item of (await request('textDocument/prepareCallHierarchy', pos)) || []) {
    for (const c of (await request('callHierarchy/incomingCalls', { item })) || []) {
      const f = fileURLToPath(c.from.uri);
      if (!inRoot(f)) continue;
      for (const r of (sites && c.fromRanges) || []) sites.push(key(f, r.start.line));
      // A module's top level: pyright names the module (kind 2, or 1 file).
      // A lambda's call is the function's around it, as the TypeScript
      // truth counts a function literal's.
      const at = c.from.selectionRange.start;
      const line = c.from.kind === 2 || c.from.kind === 1 ? -1 : lines.get(f)[at.line].startsWith('lambda', at.character) ? enclosingDef(f, at.line) : at.line;
      out.push(line < 0 ? `${rel(f)}:module` : key(f, line));
    }
  }
  return out;
}

// bases finds the classes of the project cls's class statement names as
// its bases (class A(B, m.C):), by pyright's definition of each name.
const classAt = new Map(decls.filter((d) => d.kind === 'class').map((d) => [`${d.file}:${d.at.line}`, d]));
const basesMemo = new Map();
async function bases(cls) {
  if (basesMemo.has(cls)) return basesMemo.get(cls);
  const out = [];
  basesMemo.set(cls, out);
  const ls = lines.get(cls.file);
  const line = ls[cls.at.line];
  const open = line.indexOf('(', cls.at.character + cls.name.length);
  if (open < 0) return out;
  // The bases up to the closing parenthesis, on the class's line.
  const close = line.indexOf(')', open);
  const list = line.slice(open + 1, close < 0 ? line.length : close);
  for (const m of list.matchAll(/[A-Za-z_][\w.]*/g)) {
    if (/=/.test(list.slice(0, m.index).split(',').pop())) continue; // metaclass=X
    const character = open + 1 + m.index + m[0].length - 1; // the last segment of a.b.C
    const defs = (await request('textDocument/definition', { textDocument: { uri: uri(cls.file) }, position: { line: cls.at.line, character } })) || [];
    for (const loc of Array.isArray(defs) ? defs : [defs]) {
      const u = loc.targetUri || loc.uri;
      const r = loc.targetSelectionRange || loc.range;
      const b = u && r && classAt.get(`${fileURLToPath(u)}:${r.start.line}`);
      if (b && b !== cls) out.push(b);
    }
  }
  return out;
}

// overridden lists the callers of the methods named d.name in the
// supertypes of d's class, transitively (each class once).
async function overridden(d) {
  const out = [];
  const seen = new Set([d.cls]);
  const todo = [...(await bases(d.cls))];
  while (todo.length > 0) {
    const c = todo.shift();
    if (seen.has(c)) continue;
    seen.add(c);
    for (const m of c.methods) {
      if (m.name === d.name && m.callable) out.push(...(await callersOf({ textDocument: { uri: uri(m.file) }, position: m.at })));
    }
    todo.push(...(await bases(c)));
  }
  return out;
}

const queries = [];
for (const d of sample) {
  const q = { name: d.name, qual: d.qual, kind: d.kind, file: rel(d.file), line: d.at.line + 1, callable: d.callable,
    callers: [], overridden: [], refsAll: [], refsStructural: [], defs: [key(d.file, d.at.line)], sharedName: true };
  const pos = { textDocument: { uri: uri(d.file) }, position: d.at };
  for (const r of (await request('textDocument/references', { ...pos, context: { includeDeclaration: false } })) || []) {
    const f = fileURLToPath(r.uri);
    if (!inRoot(f) || declares(f, r.range.start)) continue;
    const k = key(f, r.range.start.line);
    q.refsAll.push(k);
    if (structural(f, r.range.start, d.name)) q.refsStructural.push(k);
  }
  if (d.callable) {
    // A call pyright's call hierarchy ties to the declaration is one of
    // its references, even where textDocument/references leaves it out:
    // a module named as one of the standard library's (json, email) is
    // typed by typeshed's stub, and references matches the stub's
    // declaration, not the source's (self.policy.header_fetch_parse(k, v)
    // in email/message.py is a caller of email/_policybase.py's
    // Compat32.header_fetch_parse, and not among its references).
    const sites = [];
    q.callers = await callersOf(pos, sites);
    q.refsAll.push(...sites);
    q.refsStructural.push(...sites);
  }
  if (d.callable && d.cls) q.overridden = await overridden(d);
  for (const k of ['defs', 'refsAll', 'refsStructural', 'callers', 'overridden']) q[k] = [...new Set(q[k])].sort();
  queries.push(q);
}

await request('shutdown', null);
notify('exit', null);
process.stdout.write(JSON.stringify({ files: files.length, declarations: decls.length, shared, queries }));
