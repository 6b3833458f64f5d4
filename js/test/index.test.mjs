// The project index's MCP tools (seed 004) through the official
// TypeScript MCP client: `loupe index` builds the index of a copy of
// index/testdata/shop, and `loupe mcp --index` serves it; every scenario
// of the seed is one test. make test builds bin/loupe first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = dirname(fileURLToPath(import.meta.url));
const loupe = join(here, '../../bin/loupe');
const fixture = join(here, '../../index/testdata/shop');

let root, db, client;
before(async () => {
  assert.ok(existsSync(loupe), `${loupe} is missing: run make build (make test does)`);
  root = mkdtempSync(join(tmpdir(), 'loupe-index-'));
  cpSync(fixture, root, { recursive: true });
  db = join(mkdtempSync(join(tmpdir(), 'loupe-index-db-')), 'index.db');
  const out = execFileSync(loupe, ['index', '--db', db, root], { encoding: 'utf8' });
  assert.match(out, /^Indexed 4 files \(4 parsed, 0 removed\), 5 packages, \d+ symbols in /);
  client = new Client({ name: 'index-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: loupe, args: ['mcp', '-w', root, '--index', db], stderr: 'pipe' }));
});
after(async () => client?.close());

/** Calls a tool and returns its text, asserting it is not an error. */
async function call(name, args = {}) {
  const res = await client.callTool({ name, arguments: args });
  assert.equal(res.isError, undefined, `${name}: ${res.content[0].text}`);
  assert.ok(res.structuredContent, `${name}: no structured content`);
  return res.content[0].text;
}
const json = async (name, args) => JSON.parse(await call(name, args));

test('Server lifecycle: Start with existing index — served over stdio beside the other tools, the index read-only', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const n of ['search_packages', 'get_package', 'package_dependencies', 'package_dependents', 'dependency_graph',
    'list_packages', 'index_status', 'search_symbols', 'get_package_symbols', 'get_symbol', 'ast_grep', 'structural_analysis']) {
    assert.ok(names.includes(n), n);
  }
  for (const t of tools.filter((t) => t.name.includes('package') || t.name.includes('symbol') || t.name === 'index_status')) {
    assert.equal(t.annotations.readOnlyHint, true, t.name);
  }
  // Read-only: a build while the server runs is not blocked by it.
  execFileSync(loupe, ['index', '--db', db, root]);
});

test('Server lifecycle: Start without index — the process exits with an error suggesting loupe index', () => {
  const r = spawnSync(loupe, ['mcp', '-w', root, '--index', join(root, 'missing.db')], { input: '', encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /no project index at .*missing\.db: build it first with `loupe index/);
});

test('search_packages: Search by keyword — JSON with name, path, kind, version, description, metadata, at most 20', async () => {
  const ps = await json('search_packages', { query: 'pricing' });
  assert.equal(ps.length, 1);
  assert.deepEqual(Object.keys(ps[0]), ['name', 'path', 'kind', 'version', 'description', 'metadata']);
  assert.deepEqual({ ...ps[0], metadata: undefined }, { name: '@shop/core', path: 'packages/core', kind: 'npm', version: '1.0.0', description: 'Cart and pricing rules', metadata: undefined });
  assert.equal(ps[0].metadata.workspace, 'package.json');
  assert.ok((await json('search_packages', { query: 'shop' })).length <= 20);
});

test('search_packages: Empty query — "Search query must not be empty"', async () => {
  assert.equal(await call('search_packages', { query: '' }), 'Search query must not be empty');
  assert.equal(await call('search_packages', { query: '   ' }), 'Search query must not be empty');
});

test('search_packages: Special characters in query — sanitised, no FTS5 syntax error', async () => {
  for (const query of ['"web', 'web" OR x', 'NEAR(a b)', 'c++ -x*', '(', 'name:core', 'AND', '^start']) {
    assert.ok(Array.isArray(await json('search_packages', { query })), query);
  }
  const web = await json('search_packages', { query: '"web"' });
  assert.deepEqual(web.map((p) => p.name), ['@shop/web']);
});

test('get_package: Package exists — full details as JSON', async () => {
  const p = await json('get_package', { name: '@shop/web' });
  assert.equal(p.path, 'packages/web');
  assert.equal(p.manifest, 'packages/web/package.json');
  assert.deepEqual(p.dependencies.map((d) => [d.name, d.kind, d.is_internal]),
    [['react-dom', 'peer', false], ['@shop/core', 'runtime', true], ['react', 'runtime', false]]);
});

test("get_package: Package not found — \"Package '<name>' not found\"", async () => {
  assert.equal(await call('get_package', { name: 'left-pad' }), "Package 'left-pad' not found");
});

test('package_dependencies: All dependencies — internal and external', async () => {
  const ds = await json('package_dependencies', { name: '@shop/web', internal_only: false });
  assert.deepEqual(ds.map((d) => d.name).sort(), ['@shop/core', 'react', 'react-dom']);
});

test('package_dependencies: Internal only — only is_internal = 1', async () => {
  const ds = await json('package_dependencies', { name: '@shop/web', internal_only: true });
  assert.deepEqual(ds.map((d) => [d.name, d.is_internal]), [['@shop/core', true]]);
});

test('package_dependents: Find dependents — every package declaring a dependency on B', async () => {
  const ds = await json('package_dependents', { name: '@shop/core' });
  assert.deepEqual(ds.map((d) => d.package), ['@shop/web']);
});

test('dependency_graph: Graph query — edges (from, to, dep_kind), depth clamped to 20', async () => {
  const edges = await json('dependency_graph', { name: '@shop/web', depth: 2 });
  assert.deepEqual(edges, [
    { from: '@shop/web', to: 'react-dom', dep_kind: 'peer' },
    { from: '@shop/web', to: '@shop/core', dep_kind: 'runtime' },
    { from: '@shop/web', to: 'react', dep_kind: 'runtime' },
    { from: '@shop/core', to: 'decimal.js', dep_kind: 'runtime' },
  ]);
  const res = await client.callTool({ name: 'dependency_graph', arguments: { name: '@shop/web', depth: 1000 } });
  assert.equal(res.structuredContent.depth, 20);
  assert.equal((await json('dependency_graph', { name: '@shop/web', depth: 1 })).length, 3);
});

test('list_packages: Unfiltered — all packages, ordered by name', async () => {
  const ps = await json('list_packages');
  assert.deepEqual(ps.map((p) => p.name), ['@shop/core', '@shop/web', 'example.com/shop/api', 'shop', 'shop-tools']);
});

test('list_packages: Filtered by kind — only packages of that kind', async () => {
  assert.deepEqual((await json('list_packages', { kind: 'npm' })).map((p) => p.name), ['@shop/core', '@shop/web', 'shop']);
  assert.deepEqual((await json('list_packages', { kind: 'python' })).map((p) => p.name), ['shop-tools']);
});

test('index_status: Status query — indexed_at, git_commit, package_count from the meta table, files_changed since', async () => {
  const s = await json('index_status');
  assert.deepEqual(Object.keys(s), ['indexed_at', 'git_commit', 'package_count', 'files_changed']);
  assert.equal(typeof s.files_changed, 'number');
  assert.ok(!Number.isNaN(Date.parse(s.indexed_at)));
  assert.equal(s.git_commit, '');
  assert.equal(s.package_count, 5);
});

test('search_symbols: Search by keyword — JSON with name, kind, signature, package, file_path, line, return_type, parameters, at most 50', async () => {
  const ss = await json('search_symbols', { query: 'cart' });
  assert.ok(ss.length >= 3 && ss.length <= 50);
  const r = ss.find((s) => s.name === 'renderCart');
  assert.deepEqual(r, { name: 'renderCart', kind: 'function', signature: 'function renderCart(cart: Cart, el: HTMLElement): void',
    package: '@shop/web', file_path: 'packages/web/src/app.ts', line: 3, return_type: 'void', parameters: '(cart: Cart, el: HTMLElement)' });
});

test('search_symbols: Optional package filter — only that package', async () => {
  const ss = await json('search_symbols', { query: 'cart', package: '@shop/core' });
  assert.ok(ss.length > 0 && ss.every((s) => s.package === '@shop/core'));
});

test('search_symbols: Optional kind filter — only that kind', async () => {
  const ss = await json('search_symbols', { query: 'cart', kind: 'function' });
  assert.deepEqual(ss.map((s) => s.name).sort(), ['emptyCart', 'renderCart']);
});

test('get_package_symbols: List symbols — ordered by file_path then line', async () => {
  const ss = await json('get_package_symbols', { package: '@shop/core' });
  assert.deepEqual(ss.map((s) => [s.file_path, s.line, s.name]), [
    ['packages/core/src/cart.ts', 1, 'Item'], ['packages/core/src/cart.ts', 3, 'Cart'], ['packages/core/src/cart.ts', 4, 'items'],
    ['packages/core/src/cart.ts', 5, 'add'], ['packages/core/src/cart.ts', 6, 'total'], ['packages/core/src/cart.ts', 9, 'emptyCart']]);
});

test('get_package_symbols: Kind filter — only that kind', async () => {
  assert.deepEqual((await json('get_package_symbols', { package: '@shop/core', kind: 'method' })).map((s) => s.name), ['add', 'total']);
});

test('get_symbol: Lookup by name — every matching symbol', async () => {
  const ss = await json('get_symbol', { name: 'Server' });
  assert.deepEqual(ss.map((s) => [s.package, s.file_path, s.kind]), [['example.com/shop/api', 'api/server.go', 'struct']]);
});

test('get_symbol: Scoped by package — only that package', async () => {
  writeFileSync(join(root, 'packages/web/src/server.ts'), 'export class Server {}\n');
  execFileSync(loupe, ['index', '--db', db, root]);
  assert.equal((await json('get_symbol', { name: 'Server' })).length, 2);
  const web = await json('get_symbol', { name: 'Server', package: '@shop/web' });
  assert.deepEqual(web.map((s) => [s.package, s.file_path]), [['@shop/web', 'packages/web/src/server.ts']]);
});
