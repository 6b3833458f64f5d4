// The browser build in a real browser (Debian's Chromium, driven by
// playwright-core): files passed in memory, modules fetched over HTTP.
// Every language goes through both tools, and the browser's answers must
// be Node's for the same files and calls; the project index, built in
// memory over the files passed in, answers as loupe mcp does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTools } from '../dist/index.js';
import { onPage, noChromium as skip } from '../scripts/chromium.mjs';
import { cases, loupe, mcpAnswers, repositories, same, textFiles } from '../scripts/indexrepos.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const samples = join(here, '..', '..', 'testdata', 'parse');
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

/** Each language's sample (testdata/parse/LANG/sample.*), as LANG/sample.EXT → content. */
function sampleFiles() {
  const files = {};
  for (const lang of readdirSync(samples).sort()) {
    const name = readdirSync(join(samples, lang)).find((f) => f.startsWith('sample.'));
    files[`${lang}/${name}`] = readFileSync(join(samples, lang, name), 'utf8');
  }
  return files;
}

/**
 * The calls each language goes through: ast_grep with a rule any grammar
 * can match (every leaf token), and structural_analysis's exports of the
 * sample (an error naming the supported languages where there is no
 * analysis for the language).
 */
function callsFor(files) {
  const calls = [];
  for (const path of Object.keys(files)) {
    const language = path.split('/')[0];
    calls.push({ tool: 'ast_grep', params: { rule: { regex: '\\S', not: { has: { regex: '\\S' } } }, path, maxResults: 3 } });
    calls.push({ tool: 'structural_analysis', params: { mode: 'exports', language, target: path } });
  }
  return calls;
}

let server;
let base;
before(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    try {
      if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>loupe</title>');
        return;
      }
      if (!url.pathname.startsWith('/loupe/') || url.pathname.includes('..')) throw new Error('not found');
      const body = await readFile(join(dist, url.pathname.slice('/loupe/'.length)));
      res.writeHead(200, { 'content-type': types[extname(url.pathname)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(() => server.close());

/** Runs fn(page) on a blank page of base in a fresh Chromium; page errors fail the test. */
async function inChromium(fn) {
  const { value, errors } = await onPage(base, fn);
  assert.deepEqual(errors, []);
  return value;
}

test('ast_grep over in-memory files in Chromium', { timeout: 120000, skip }, async () => {
  const r = await inChromium((page) => page.evaluate(async () => {
    const { createTools } = await import('/loupe/browser.js');
    const files = {
      'src/app.ts': 'export class App extends Base {\n  run() { this.log("x"); helper.log(1, 2); }\n}\n',
      'src/util.py': 'def f():\n    return log(3)\n',
    };
    const { tools, reason } = await createTools({ files, baseUrl: '/loupe/' });
    const ag = tools.find((t) => t.name === 'ast_grep');
    const ts = await ag.execute({ pattern: '$O.log($$$A)', language: 'typescript' });
    const py = await ag.execute({ pattern: 'log($A)', path: 'src/util.py' });
    const bad = await ag.execute({ pattern: 'x', path: '../../etc/passwd' });
    return { reason, names: tools.map((t) => t.name), ts: ts.metadata, py: py.metadata, bad: bad.metadata };
  }));
  assert.equal(r.reason, undefined);
  assert.deepEqual(r.names.slice(0, 4), ['ast_grep', 'structural_analysis', 'outline', 'grep']);
  assert.deepEqual(r.ts.matches.map((m) => m.text), ['this.log("x")', 'helper.log(1, 2)']);
  assert.deepEqual(r.py.matches.map((m) => `${m.file}:${m.startLine}`), ['src/util.py:2']);
  assert.match(String(r.bad.error), /outside the workspace/);
});

// The languages structural analysis covers beside the one asked for
// (typescript's include tsx, tsx's typescript) are loaded by Go when it
// needs them, even when no file of the workspace is in them: a browser
// cannot compile a grammar behind Go's back.
for (const [language, files] of Object.entries({
  typescript: {
    'src/base.ts': 'export class Base {\n  log(m: string) { console.log(m); }\n}\n',
    'src/app.ts': 'import { Base } from "./base";\nexport class App extends Base {\n  run() { this.log("x"); }\n}\n',
  },
  tsx: {
    'src/base.tsx': 'export class Base {\n  log(m: string) { console.log(m); return <b>{m}</b>; }\n}\n',
    'src/app.tsx': 'import { Base } from "./base";\nexport class App extends Base {\n  run() { return this.log("x"); }\n}\n',
  },
})) {
  test(`structural_analysis for ${language} in Chromium`, { timeout: 120000, skip }, async () => {
    const r = await inChromium((page) => page.evaluate(async ({ language, files }) => {
      const { createTools } = await import('/loupe/browser.js');
      const { tools } = await createTools({ files, baseUrl: '/loupe/' });
      const sa = tools.find((t) => t.name === 'structural_analysis');
      const ag = tools.find((t) => t.name === 'ast_grep');
      const hierarchy = (await sa.execute({ mode: 'hierarchy', language, symbol: 'App' })).metadata;
      const callers = (await sa.execute({ mode: 'callers', language, symbol: 'log' })).metadata;
      const search = (await ag.execute({ pattern: 'this.log($A)', language })).metadata;
      return { hierarchy, callers, search };
    }, { language, files }));
    const ext = language === 'tsx' ? 'tsx' : 'ts';
    assert.equal(r.hierarchy.error, undefined);
    assert.deepEqual(r.hierarchy.hierarchy.supertypes.map((t) => `${t.name} ${t.file}`), [`Base src/base.${ext}`]);
    assert.equal(r.callers.error, undefined);
    // Base.log's console.log calls the library's log, not the workspace's: left out.
    assert.deepEqual(r.callers.callers.map((c) => `${c.name} ${c.file}:${c.viaLine}`), [`run src/app.${ext}:3`]);
    assert.deepEqual(r.search.matches.map((m) => m.text), ['this.log("x")']);
  });
}

test('every language through ast_grep and structural_analysis in Chromium, as in Node', { timeout: 300000, skip }, async () => {
  const files = sampleFiles();
  assert.equal(Object.keys(files).length, 30); // ast-grep's 28, Svelte and Vue
  const calls = callsFor(files);
  const inBrowser = await inChromium((page) => page.evaluate(async ({ files, calls }) => {
    const { createTools } = await import('/loupe/browser.js');
    const { tools, reason } = await createTools({ files, baseUrl: '/loupe/' });
    if (reason) return { reason };
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const out = [];
    for (const c of calls) out.push((await byName[c.tool].execute(c.params)).metadata);
    return { out };
  }, { files, calls }));
  assert.equal(inBrowser.reason, undefined);

  const { tools } = await createTools({ workspaceRoot: '/', files, workers: 0 });
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  for (const [i, c] of calls.entries()) {
    const got = inBrowser.out[i];
    const what = `${c.tool} ${c.params.path ?? c.params.target}`;
    assert.deepEqual(got, (await byName[c.tool].execute(c.params)).metadata, what);
    if (c.tool === 'ast_grep') {
      assert.ok(got.totalMatches > 0, `${what}: ${JSON.stringify(got)}`);
    } else if (got.error) {
      assert.match(got.error, /^structural analysis does not support /, what);
    } else {
      assert.ok(got.exports.length > 0, `${what}: ${JSON.stringify(got)}`);
    }
  }
  const analysed = calls.filter((c, i) => c.tool === 'structural_analysis' && !inBrowser.out[i].error).map((c) => c.params.language);
  assert.deepEqual(analysed, ['c', 'cpp', 'csharp', 'go', 'java', 'javascript', 'kotlin', 'php', 'python', 'ruby', 'rust', 'tsx', 'typescript']);
});

test('the file tools over in-memory files in Chromium: search, read, and writes the host approves', { timeout: 120000, skip }, async () => {
  const r = await inChromium((page) => page.evaluate(async () => {
    const { createTools } = await import('/loupe/browser.js');
    const files = { 'src/app.ts': 'export const name = oldName;\n', 'notes.md': '# notes\r\n' };
    const asked = [];
    const { tools, reason } = await createTools({ files, baseUrl: '/loupe/', approve: async (req) => (asked.push(`${req.tool} ${req.path}`), true) });
    const t = Object.fromEntries(tools.map((x) => [x.name, x]));
    const out = {};
    out.grep = (await t.grep.execute({ pattern: 'oldName' })).metadata.matches.map((m) => `${m.file}:${m.line}`);
    out.preview = (await t.replace_in_file.execute({ path: 'src/app.ts', find: 'oldName', replace: 'newName', preview_only: true })).llmContent;
    out.replace = (await t.replace_in_file.execute({ path: 'src/app.ts', find: 'oldName', replace: 'newName' })).metadata.replacements;
    out.append = (await t.append_file.execute({ path: 'notes.md', content: '- one' })).metadata.total_lines;
    out.create = (await t.create_file.execute({ path: 'src/new.ts', content: 'export {};\n' })).metadata.created;
    out.read = (await t.read_file.execute({ path: 'notes.md' })).metadata.content;
    out.glob = (await t.glob.execute({ pattern: '**/*.ts' })).metadata.files;
    out.outside = (await t.read_file.execute({ path: '../x' })).llmContent;
    const denied = await createTools({ files, baseUrl: '/loupe/' });
    out.noApprover = (await denied.tools.find((x) => x.name === 'delete_file').execute({ path: 'notes.md' })).llmContent;
    return { reason, asked, out };
  }));
  assert.equal(r.reason, undefined);
  assert.deepEqual(r.out.grep, ['src/app.ts:1']);
  assert.match(r.out.preview, /^\+export const name = newName;$/m);
  assert.equal(r.out.replace, 1);
  assert.equal(r.out.append, 2);
  assert.equal(r.out.create, true);
  assert.equal(r.out.read, '# notes\r\n- one\r\n');
  assert.deepEqual(r.out.glob, ['src/app.ts', 'src/new.ts']);
  assert.match(r.out.outside, /outside the workspace/);
  assert.match(r.out.noApprover, /approval is unavailable/);
  assert.deepEqual(r.asked, ['replace_in_file src/app.ts', 'append_file notes.md', 'create_file src/new.ts']);
});

test('the project index in Chromium, built in memory over the files passed in, answers every scenario of seed 004 as loupe mcp does', { timeout: 600000, skip }, async () => {
  const repos = repositories();
  try {
    for (const [name, root] of Object.entries(repos)) {
      const calls = cases[name]();
      const files = textFiles(root);
      const inBrowser = await inChromium((page) => page.evaluate(async ({ files, calls }) => {
        const { createTools } = await import('/loupe/browser.js');
        const { tools, reason } = await createTools({ files, baseUrl: '/loupe/', index: { build: true } });
        if (reason) return { reason };
        const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
        const out = [];
        for (const [tool, args] of calls) {
          const r = await byName[tool].execute(args);
          out.push(typeof r.metadata.error === 'string' ? { error: r.metadata.error } : { text: r.llmContent, structured: r.structured });
        }
        return { out };
      }, { files, calls }));
      assert.equal(inBrowser.reason, undefined, name);
      const db = join(mkdtempSync(join(tmpdir(), 'loupe-index-db-')), 'index.db');
      execFileSync(loupe, ['index', '--db', db, root]);
      same(calls, inBrowser.out, await mcpAnswers(root, db, calls), true);
    }
  } finally {
    for (const root of Object.values(repos)) rmSync(dirname(root), { recursive: true, force: true });
  }
});
