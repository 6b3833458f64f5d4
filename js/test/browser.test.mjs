// The browser build in a real browser (Debian's Chromium, driven by
// playwright-core): files passed in memory, modules fetched over HTTP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

const page = `<!doctype html><script type="module">
import { createTools } from '/loupe/browser.js';
const files = {
  'src/app.ts': 'export class App extends Base {\\n  run() { this.log("x"); helper.log(1, 2); }\\n}\\n',
  'src/util.py': 'def f():\\n    return log(3)\\n',
};
const { tools, reason } = await createTools({ files, baseUrl: '/loupe/' });
const ag = tools.find((t) => t.name === 'ast_grep');
const ts = await ag.execute({ pattern: '$O.log($$$A)', language: 'typescript' });
const py = await ag.execute({ pattern: 'log($A)', path: 'src/util.py' });
const bad = await ag.execute({ pattern: 'x', path: '../../etc/passwd' });
window.result = { reason, names: tools.map((t) => t.name), ts: ts.metadata, py: py.metadata, bad: bad.metadata };
</script>`;

let server;
let base;
before(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    try {
      if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(page);
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

// Without a browser the test is skipped with one line saying what to install.
const skip = existsSync(chromiumPath) ? false : `no Chromium at ${chromiumPath}: apt-get install -y chromium, or set CHROMIUM to a Chromium binary`;

test('ast_grep over in-memory files in Chromium', { timeout: 120000, skip }, async () => {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const p = await browser.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(String(e)));
    await p.goto(base);
    await p.waitForFunction(() => window.result || false, null, { timeout: 90000 });
    const r = await p.evaluate(() => window.result);
    if (!r.ts.matches) console.log(JSON.stringify(r));
    assert.deepEqual(errors, []);
    assert.equal(r.reason, undefined);
    assert.ok(r.names.includes('ast_grep'));
    assert.deepEqual(r.ts.matches.map((m) => m.text), ['this.log("x")', 'helper.log(1, 2)']);
    assert.deepEqual(r.py.matches.map((m) => `${m.file}:${m.startLine}`), ['src/util.py:2']);
    assert.match(String(r.bad.error), /outside the workspace/);
  } finally {
    await browser.close();
  }
});
