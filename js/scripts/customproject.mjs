// A project's rules through the npm package, for the Go test
// TestCustomProjects (tests/difftest/customprojects_test.go): each rule
// runs as the ast_grep tool's rule parameter (the rule file's body, as an
// agent passes it) over a folder of the project, in Node with workers: 0,
// in Node with the worker pool, and in headless Chromium over the project's
// files in memory; the matches come out as JSON lines, one a match:
//
//   {"mode":"node","rule":"ID","file":"a/b.cmake","startLine":1,"startCol":1,"endLine":1,"endCol":9}
//
// (the tool's own 1-based lines and columns), then one a rule and mode:
// {"mode","rule","total","calls"} (matches and tool calls), or
// {"mode","rule","error"} when the tool failed; a mode that cannot run
// here prints {"mode","skip"} instead.
//
//   node js/scripts/customproject.mjs MANIFEST.json
//
// The manifest: {"root": the project folder, whose sgconfig.yml is the one
// the package reads, "path": the folder searched (relative to root),
// "rules": [{"id", "rule": the rule file's body as YAML text, "globs":
// [...], optional}], "modes": those to run, of node, node-pool and
// chromium (default all), "maxResults": of a call (default 1000, the
// most the tool allows)}. A call whose matches are cut is asked again
// folder by folder and file by file, as an agent narrows a search; hidden
// entries are not asked, as a search of the folder passes them over.
import { createServer } from 'node:http';
import { readFileSync, readdirSync, lstatSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, dirname, extname, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const { createTools } = await import(join(dist, 'index.js'));

const manifest = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { root, rules } = manifest;
const path = manifest.path ?? '.';
const maxResults = manifest.maxResults ?? 1000;

const out = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);

/** Every regular file under root (relative, slash-separated), .git left out; symbolic links are counted apart. */
function listFiles() {
  const files = [];
  let links = 0;
  const walk = (rel) => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== '.git') walk(r);
      } else if (e.isFile()) {
        files.push(r);
      } else if (e.isSymbolicLink()) {
        links++;
      }
    }
  };
  walk('');
  return { files, links };
}

/** The entries directly inside a folder of the project (relative), hidden ones left out. */
function children(dir) {
  const abs = join(root, dir);
  if (!lstatSync(abs).isDirectory()) return [];
  return readdirSync(abs).filter((n) => !n.startsWith('.')).sort().map((n) => (dir === '.' ? n : posix.join(dir, n)));
}

/**
 * Runs rule over path with execute (the tool's execute, resolving to its
 * metadata): its matches and the calls it took, narrowing the path while
 * the matches are cut.
 */
async function searchRule(execute, r, at) {
  const params = { rule: r.rule, path: at, maxResults };
  if (r.globs?.length) params.globs = r.globs;
  const m = await execute(params);
  if (m.error) throw new Error(m.error);
  if (m.truncated && m.reason !== 'maxResults' && m.reason !== 'maxBytes') {
    throw new Error(`${at}: the search stopped early (${m.reason})`);
  }
  if (m.matches.length === m.totalMatches) return { matches: m.matches, calls: 1 };
  const kids = children(at);
  if (kids.length === 0) throw new Error(`${at}: ${m.totalMatches} matches, ${m.matches.length} returned, and no narrower path`);
  const all = { matches: [], calls: 1 };
  for (const k of kids) {
    const sub = await searchRule(execute, r, k);
    all.matches.push(...sub.matches);
    all.calls += sub.calls;
  }
  return all;
}

async function runMode(mode, execute) {
  for (const r of rules) {
    try {
      const { matches, calls } = await searchRule(execute, r, path);
      for (const m of matches) {
        out({ mode, rule: r.id, file: m.file, startLine: m.startLine, startCol: m.startCol, endLine: m.endLine, endCol: m.endCol });
      }
      out({ mode, rule: r.id, total: matches.length, calls });
    } catch (e) {
      out({ mode, rule: r.id, error: String(e?.message ?? e) });
    }
  }
}

async function nodeMode(mode, workers) {
  const { tools, reason } = await createTools({ workspaceRoot: root, workers });
  if (reason) {
    out({ mode, skip: `createTools: ${reason}` });
    return;
  }
  const ag = tools.find((t) => t.name === 'ast_grep');
  await runMode(mode, async (params) => (await ag.execute(params)).metadata);
}

/** Chromium: the package from dist/ and the project's files served over HTTP, read into memory by the page. */
async function chromiumMode(mode) {
  const { onPage, noChromium } = await import('./chromium.mjs');
  if (noChromium) {
    out({ mode, skip: noChromium });
    return;
  }
  const { files, links } = listFiles();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    try {
      if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>loupe</title>');
        return;
      }
      const p = decodeURIComponent(url.pathname);
      if (p.split('/').includes('..')) throw new Error('not found');
      let body;
      if (p.startsWith('/loupe/')) body = await readFile(join(dist, p.slice('/loupe/'.length)));
      else if (p.startsWith('/project/')) body = await readFile(join(root, p.slice('/project/'.length)));
      else throw new Error('not found');
      const type = { '.js': 'text/javascript', '.wasm': 'application/wasm' }[extname(p)] ?? 'application/octet-stream';
      res.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}/`;
  try {
    const { value: ran, errors } = await onPage(base, async (page) => {
      const reason = await page.evaluate(async (files) => {
        const { createTools } = await import('/loupe/browser.js');
        const mem = {};
        for (const f of files) {
          const r = await fetch(`/project/${f.split('/').map(encodeURIComponent).join('/')}`);
          if (!r.ok) throw new Error(`${f}: ${r.status}`);
          mem[f] = new Uint8Array(await r.arrayBuffer());
        }
        const { tools, reason } = await createTools({ files: mem, baseUrl: '/loupe/' });
        globalThis.astGrep = tools.find((t) => t.name === 'ast_grep');
        return reason;
      }, files);
      if (reason) {
        out({ mode, skip: `createTools: ${reason}` });
        return false;
      }
      if (links > 0) out({ mode, note: `${links} symbolic links of the project not passed (an in-memory workspace holds none)` });
      await runMode(mode, (params) => page.evaluate(async (p) => (await globalThis.astGrep.execute(p)).metadata, params));
      return true;
    });
    if (ran && errors.length > 0) out({ mode, error: `page errors: ${errors.join('; ')}` });
  } finally {
    server.close();
  }
}

const modes = manifest.modes ?? ['node', 'node-pool', 'chromium'];
if (modes.includes('node')) await nodeMode('node', 0);
if (modes.includes('node-pool')) await nodeMode('node-pool', 2);
if (modes.includes('chromium')) await chromiumMode('chromium');
