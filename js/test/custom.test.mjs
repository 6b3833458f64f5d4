// Custom languages (sgconfig.yml's customLanguages) through the npm
// package: the workspace's module is loaded by Go from the workspace and
// handed to the JavaScript engine, in one instance and in the worker pool
// in Node and over in-memory files in Chromium; a module that imports
// anything or starts with too much memory is refused; a module whose parse
// never ends, or grows its memory without end, is stopped by its fuel
// (host.MeterModule), in one instance, in the pool and in Chromium, and
// one that reads out of bounds fails, each reported while the other
// languages go on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTools } from '../dist/index.js';
import { onPage, noChromium } from '../scripts/chromium.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/**
 * A module posing as a grammar module (the exports of grammars/glue/glue.c)
 * whose loupe_parse does parse: 'loop' forever, 'grow' its memory a page at
 * a time until it cannot, or 'oob', a read far out of bounds; with
 * importing, it imports wasi_snapshot_preview1.fd_write, and it starts
 * with pages of memory: host/hostile's modules, assembled here from the
 * binary format.
 */
function hostile({ parse = 'honest', importing = false, pages = 1 } = {}) {
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
  const i32 = (v) => [0x41, ...uleb(v)]; // non-negative constants below 2^31 only
  const parses = {
    honest: i32(0),
    loop: [0x03, 0x40, 0x0c, 0x00, 0x0b, ...i32(0)], // loop br 0 end
    // loop: memory.grow(1) != -1 → br_if 0; end; memory.size
    grow: [0x03, 0x40, ...i32(1), 0x40, 0x00, 0x41, 0x7f, 0x47, 0x0d, 0x00, 0x0b, 0x3f, 0x00],
    oob: [...i32(0x7ffffff0), 0x28, 0x02, 0x00], // i32.load
  };
  const fns = [
    ['loupe_init', 0, i32(0)],
    ['loupe_names', 0, i32(16)],
    ['loupe_input', 1, i32(1024)],
    ['loupe_parse', 1, parses[parse]],
    ['loupe_output', 0, i32(0)],
    ['loupe_cancel_flag', 0, i32(64)],
  ];
  const imported = importing ? 1 : 0;
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, 0x00, 0x01, 0x7f], [0x60, 0x01, 0x7f, 0x01, 0x7f], [0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f]])),
    ...(importing ? section(2, vec([[...str('wasi_snapshot_preview1'), ...str('fd_write'), 0x00, 0x02]])) : []),
    ...section(3, vec(fns.map(([, t]) => [t]))),
    ...section(5, vec([[0x00, ...uleb(pages)]])),
    ...section(7, vec([[...str('memory'), 0x02, 0x00], ...fns.map(([n], i) => [...str(n), 0x00, ...uleb(imported + i)])])),
    ...section(10, vec(fns.map(([, , body]) => {
      const code = [0x00, ...body, 0x0b];
      return [...uleb(code.length), ...code];
    }))),
  ]);
}

/** The hostile custom languages of the tests, their modules and their sgconfig.yml entries. */
const hostileModules = {
  loopy: hostile({ parse: 'loop' }),
  grow: hostile({ parse: 'grow' }),
  oob: hostile({ parse: 'oob' }),
  huge: hostile({ pages: 16385 }), // over the cap of 1 GiB
};
const hostileFiles = Object.fromEntries(Object.entries(hostileModules).map(([l, m]) => [`grammars/${l}.wasm`, m]));
const sgconfig = 'customLanguages:\n'
  + '  cjson: {libraryPath: grammars/cjson.wasm, extensions: [cjson]}\n'
  + '  evil: {libraryPath: grammars/evil.wasm, extensions: [evil]}\n'
  + Object.keys(hostileModules).map((l) => `  ${l}: {libraryPath: grammars/${l}.wasm, extensions: [${l}]}\n`).join('');

/**
 * Searches each hostile language, then cjson, with the tool: the errors of
 * the first, by language, and cjson's matches.
 */
async function searchHostile(tool) {
  const errors = {};
  for (const language of Object.keys(hostileModules)) {
    errors[language] = (await tool.execute({ pattern: 'x', language })).metadata.error;
  }
  const r = await tool.execute({ pattern: 'null', language: 'cjson' });
  return { errors, matches: r.metadata.matches.map((m) => `${m.file}:${m.startLine}:${m.startCol}`) };
}

/** Checks what searchHostile returned, under the fuel of a parse limit of limit. */
function assertHostile({ errors, matches }, limit = '30s') {
  const fuel = `jshost: \\S+: parse stopped at its limit of \\d+ units of fuel \\(for a 1-byte source, the work of at most ${limit}\\): host: grammar module over its time limit`;
  assert.match(errors.loopy, new RegExp(`language loopy \\(\\S*loopy\\.wasm\\): ${fuel}`));
  assert.match(errors.grow, new RegExp(`language grow \\(\\S*grow\\.wasm\\): ${fuel}`));
  assert.match(errors.oob, /language oob \(\S*oob\.wasm\): jshost: \S+: parse: .*memory access out of bounds/);
  assert.match(errors.huge, /module \S*huge\.wasm refused: starts with 16385 pages of memory, over the 16384 allowed/);
  assert.deepEqual(matches, ['data/a.cjson:1:7', 'data/a.cjson:1:22']);
}

let root;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'loupe-custom-'));
  const files = {
    // The built-in json module's bytes under another name: a real grammar.
    'grammars/cjson.wasm': readFileSync(join(dist, 'grammars', 'json.wasm')),
    ...hostileFiles,
    'grammars/evil.wasm': hostile({ importing: true }),
    'data/a.cjson': '{"a": null, "b": [1, null]}\n',
    'data/c.evil': 'x\n',
    'sgconfig.yml': sgconfig,
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

  test(`hostile modules are stopped or refused, and reported, while the other languages go on (workers: ${workers})`, { timeout: 120000 }, async () => {
    assertHostile(await searchHostile(await astGrep({ workers })));
  });
}

test('a custom module that loops is stopped, by its fuel or the pool, and the pool goes on', async () => {
  const tool = await astGrep({ workers: 1, customParseMs: 200 });
  const stopped = await tool.execute({ pattern: 'x', language: 'loopy' });
  // Whichever comes first: its fuel of 200 ms, or the pool's watchdog.
  assert.match(stopped.metadata.error, /custom language's grammar module parsed one file for over 200 ms and was stopped|parse stopped at its limit of \d+ units of fuel \(for a 1-byte source, the work of at most 200ms\)/);
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

test('a custom language over in-memory files in Chromium, hostile modules stopped or refused', { timeout: 120000, skip: noChromium }, async () => {
  const { value: r, errors } = await onPage(base, (page) => page.evaluate(async ({ evil, modules, sgconfig }) => {
    const { createTools } = await import('/loupe/browser.js');
    const json = new Uint8Array(await (await fetch('/loupe/grammars/json.wasm')).arrayBuffer());
    const files = {
      'grammars/cjson.wasm': json,
      'grammars/evil.wasm': new Uint8Array(evil),
      ...Object.fromEntries(Object.entries(modules).map(([l, m]) => [`grammars/${l}.wasm`, new Uint8Array(m)])),
      'data/a.cjson': '{"a": null, "b": [1, null]}\n',
      'sgconfig.yml': sgconfig,
    };
    const { tools, reason } = await createTools({ files, baseUrl: '/loupe/' });
    const ag = tools.find((t) => t.name === 'ast_grep');
    const byName = await ag.execute({ pattern: 'null', language: 'cjson' });
    const byPath = await ag.execute({ pattern: 'null', path: 'data/a.cjson' });
    const refused = await ag.execute({ pattern: 'x', language: 'evil' });
    // As searchHostile does in Node.
    const errors = {};
    for (const language of Object.keys(modules)) {
      errors[language] = (await ag.execute({ pattern: 'x', language })).metadata.error;
    }
    const after = await ag.execute({ pattern: 'null', language: 'cjson' });
    const matches = after.metadata.matches.map((m) => `${m.file}:${m.startLine}:${m.startCol}`);
    return { reason, byName: byName.metadata, byPath: byPath.metadata, refused: refused.metadata, hostile: { errors, matches } };
  }, {
    evil: [...hostile({ importing: true })],
    modules: Object.fromEntries(Object.entries(hostileModules).map(([l, m]) => [l, [...m]])),
    sgconfig,
  }));
  assert.deepEqual(errors, []);
  assert.equal(r.reason, undefined);
  for (const m of [r.byName, r.byPath]) {
    assert.deepEqual(m.matches.map((x) => `${x.file}:${x.startLine}:${x.startCol}:${x.nodeKind}`), ['data/a.cjson:1:7:null', 'data/a.cjson:1:22:null']);
  }
  assert.match(r.refused.error, /imports wasi_snapshot_preview1\.fd_write, and a grammar module may import nothing/);
  assertHostile(r.hostile);
});
