// Custom languages (sgconfig.yml's customLanguages) through the npm
// package: the workspace's module is loaded by Go from the workspace and
// handed to the JavaScript engine, in one instance and in the worker pool
// in Node and over in-memory files in Chromium; a module that imports
// anything is refused; a module whose parse never ends is stopped by the
// pool's watchdog, and the pool goes on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTools } from '../dist/index.js';
import { launchChromium, noChromium } from '../scripts/chromium.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/**
 * A module posing as a grammar module (the exports of grammars/glue/glue.c)
 * whose loupe_parse loops forever, or, with importing, that imports
 * wasi_snapshot_preview1.fd_write: host/hostile's modules, assembled here
 * from the binary format.
 */
function hostile({ loop = false, importing = false } = {}) {
  const uleb = (v) => {
    const out = [];
    do {
      let b = v & 0x7f;
      v >>>= 7;
      if (v) b |= 0x80;
      out.push(b);
    } while (v);
    return out;
  };
  const str = (s) => [...uleb(s.length), ...Buffer.from(s)];
  const vec = (items) => [...uleb(items.length), ...items.flat()];
  const section = (id, body) => [id, ...uleb(body.length), ...body];
  const i32 = (v) => [0x41, ...uleb(v)]; // small non-negative constants only
  const fns = [
    ['loupe_init', 0, i32(0)],
    ['loupe_names', 0, i32(16)],
    ['loupe_input', 1, i32(1024)],
    ['loupe_parse', 1, loop ? [0x03, 0x40, 0x0c, 0x00, 0x0b, ...i32(0)] : i32(0)],
    ['loupe_output', 0, i32(0)],
    ['loupe_cancel_flag', 0, i32(64)],
  ];
  const imported = importing ? 1 : 0;
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, 0x00, 0x01, 0x7f], [0x60, 0x01, 0x7f, 0x01, 0x7f], [0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f]])),
    ...(importing ? section(2, vec([[...str('wasi_snapshot_preview1'), ...str('fd_write'), 0x00, 0x02]])) : []),
    ...section(3, vec(fns.map(([, t]) => [t]))),
    ...section(5, vec([[0x00, 0x01]])),
    ...section(7, vec([[...str('memory'), 0x02, 0x00], ...fns.map(([n], i) => [...str(n), 0x00, ...uleb(imported + i)])])),
    ...section(10, vec(fns.map(([, , body]) => {
      const code = [0x00, ...body, 0x0b];
      return [...uleb(code.length), ...code];
    }))),
  ]);
}

let root;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'loupe-custom-'));
  const files = {
    // The built-in json module's bytes under another name: a real grammar.
    'grammars/cjson.wasm': readFileSync(join(dist, 'grammars', 'json.wasm')),
    'grammars/loopy.wasm': hostile({ loop: true }),
    'grammars/evil.wasm': hostile({ importing: true }),
    'data/a.cjson': '{"a": null, "b": [1, null]}\n',
    'data/b.loopy': 'x\n',
    'data/c.evil': 'x\n',
    'sgconfig.yml': 'customLanguages:\n'
      + '  cjson: {libraryPath: grammars/cjson.wasm, extensions: [cjson]}\n'
      + '  loopy: {libraryPath: grammars/loopy.wasm, extensions: [loopy]}\n'
      + '  evil: {libraryPath: grammars/evil.wasm, extensions: [evil]}\n',
  };
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), c);
  }
});

const astGrep = async (options) => {
  const created = await createTools({ workspaceRoot: root, ...options });
  assert.equal(created.reason, undefined);
  return created.tools.find((t) => t.name === 'ast_grep');
};

for (const workers of [0, 2]) {
  test(`a custom language is searched by name and by extension (workers: ${workers})`, async () => {
    const tool = await astGrep({ workers });
    for (const params of [{ pattern: 'null', language: 'cjson' }, { pattern: 'null', path: 'data/a.cjson' }]) {
      const r = await tool.execute(params);
      assert.deepEqual(r.metadata.matches.map((m) => `${m.file}:${m.startLine}:${m.startCol}:${m.nodeKind}`),
        ['data/a.cjson:1:7:null', 'data/a.cjson:1:22:null'], JSON.stringify(params));
    }
  });

  test(`a module that imports is refused, naming the import (workers: ${workers})`, async () => {
    const tool = await astGrep({ workers });
    const r = await tool.execute({ pattern: 'x', language: 'evil' });
    assert.match(r.metadata.error, /module \S+evil\.wasm refused: imports wasi_snapshot_preview1\.fd_write, and a grammar module may import nothing/);
  });
}

test('a custom module that loops is stopped by the pool, which goes on', async () => {
  const tool = await astGrep({ workers: 1, customParseMs: 200 });
  const stopped = await tool.execute({ pattern: 'x', language: 'loopy' });
  assert.match(stopped.metadata.error, /custom language's grammar module parsed one file for over 200 ms and was stopped/);
  const r = await tool.execute({ pattern: 'null', language: 'cjson' });
  assert.equal(r.metadata.totalMatches, 2);
});

// Chromium: the workspace in memory, the modules fetched from dist/.
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
      const type = { '.js': 'text/javascript', '.wasm': 'application/wasm' }[extname(url.pathname)] ?? 'application/octet-stream';
      res.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(() => server?.close());

test('a custom language over in-memory files in Chromium', { timeout: 120000, skip: noChromium }, async () => {
  const chromium = await launchChromium();
  try {
    const page = await chromium.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(base);
    const r = await page.evaluate(async (evil) => {
      const { createTools } = await import('/loupe/browser.js');
      const json = new Uint8Array(await (await fetch('/loupe/grammars/json.wasm')).arrayBuffer());
      const files = {
        'grammars/cjson.wasm': json,
        'grammars/evil.wasm': new Uint8Array(evil),
        'data/a.cjson': '{"a": null, "b": [1, null]}\n',
        'sgconfig.yml': 'customLanguages:\n'
          + '  cjson: {libraryPath: grammars/cjson.wasm, extensions: [cjson]}\n'
          + '  evil: {libraryPath: grammars/evil.wasm, extensions: [evil]}\n',
      };
      const { tools, reason } = await createTools({ files, baseUrl: '/loupe/' });
      const ag = tools.find((t) => t.name === 'ast_grep');
      const byName = await ag.execute({ pattern: 'null', language: 'cjson' });
      const byPath = await ag.execute({ pattern: 'null', path: 'data/a.cjson' });
      const refused = await ag.execute({ pattern: 'x', language: 'evil' });
      return { reason, byName: byName.metadata, byPath: byPath.metadata, refused: refused.metadata };
    }, [...hostile({ importing: true })]);
    assert.deepEqual(errors, []);
    assert.equal(r.reason, undefined);
    for (const m of [r.byName, r.byPath]) {
      assert.deepEqual(m.matches.map((x) => `${x.file}:${x.startLine}:${x.startCol}:${x.nodeKind}`), ['data/a.cjson:1:7:null', 'data/a.cjson:1:22:null']);
    }
    assert.match(r.refused.error, /imports wasi_snapshot_preview1\.fd_write, and a grammar module may import nothing/);
  } finally {
    await chromium.close();
  }
});
