// The ten project-index tools (seed 004) through the npm package in Node,
// against `loupe mcp` on the same repositories from the registries: a pnpm
// workspace (@icebreakers/monorepo-templates, its assets as the root and
// its templates as the workspace's packages) and a Go module
// (golang.org/x/mod). Every scenario of the seed, its exact messages
// included, gives the same text and structured result in both faces, over
// one index file that either face builds and both read. make test builds
// bin/loupe and the package first.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTools } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../..');
const loupe = join(repo, 'bin/loupe');
const cache = process.env.LOUPE_CACHE || join(repo, '.cache');

/** An npm package's unpacked tarball, fetched into the cache (as tests/difftest's NpmPackage). */
function npmPackage(name, version) {
  const dest = join(cache, 'corpora', `${name}-${version}`);
  const pkg = join(dest, 'package');
  if (existsSync(pkg)) return pkg;
  mkdirSync(dirname(dest), { recursive: true });
  const tmp = mkdtempSync(join(dirname(dest), '.fetch-'));
  try {
    const tgz = execFileSync('npm', ['pack', '--silent', `${name}@${version}`, '--pack-destination', tmp], { encoding: 'utf8' }).trim();
    mkdirSync(join(tmp, 'x'));
    execFileSync('tar', ['xzf', join(tmp, tgz), '-C', join(tmp, 'x')]);
    renameSync(join(tmp, 'x'), dest);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return pkg;
}

/** A Go module's folder in the module cache (go mod download). */
function goModule(path, version) {
  return JSON.parse(execFileSync('go', ['mod', 'download', '-json', `${path}@${version}`], { encoding: 'utf8' })).Dir;
}

/** Copies src to a new temporary folder, writable (the module cache's files are not). */
function copy(src, prefix) {
  const root = join(mkdtempSync(join(tmpdir(), prefix)), 'repo');
  cpSync(src, root, { recursive: true });
  const writable = (p) => {
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
    if (statSync(p).isDirectory()) for (const e of readdirSync(p)) writable(join(p, e));
  };
  writable(root);
  return root;
}

const repos = {};
before(() => {
  assert.ok(existsSync(loupe), `${loupe} is missing: run make build (make test does)`);
  const templates = npmPackage('@icebreakers/monorepo-templates', '2.0.1');
  const pnpm = copy(join(templates, 'assets'), 'loupe-pnpm-');
  cpSync(join(templates, 'templates'), join(pnpm, 'templates'), { recursive: true });
  repos.pnpm = pnpm;
  repos.go = copy(goModule('golang.org/x/mod', 'v0.42.0'), 'loupe-gomod-');
});

/** The scenarios of seed 004 on one repository: [tool, arguments], with the names it holds. */
function scenarios(pkg, dependency, symbol, pkgWord, symWord) {
  return [
    ['search_packages', { query: pkgWord }],
    ['search_packages', { query: '' }],
    ['search_packages', { query: '   ' }],
    ['search_packages', { query: '"web" OR NEAR(a b) c++ -x* ( name:core ^start' }],
    ['get_package', { name: pkg }],
    ['get_package', { name: 'left-pad' }],
    ['package_dependencies', { name: pkg, internal_only: false }],
    ['package_dependencies', { name: pkg, internal_only: true }],
    ['package_dependents', { name: dependency }],
    ['dependency_graph', { name: pkg, depth: 2 }],
    ['dependency_graph', { name: pkg, depth: 1000 }],
    ['list_packages', {}],
    ['list_packages', { kind: 'npm' }],
    ['list_packages', { kind: 'go' }],
    ['index_status', {}],
    ['search_symbols', { query: symWord }],
    ['search_symbols', { query: '' }],
    ['search_symbols', { query: symWord, package: pkg }],
    ['search_symbols', { query: symWord, kind: 'function' }],
    ['search_symbols', { query: '"(' }],
    ['get_package_symbols', { package: pkg }],
    ['get_package_symbols', { package: pkg, kind: 'function' }],
    ['get_symbol', { name: symbol }],
    ['get_symbol', { name: symbol, package: pkg }],
    ['get_symbol', { name: 'noSuchSymbolAnywhere' }],
  ];
}

const cases = {
  pnpm: () => scenarios('usage-esm', 'icebreaker-npm-basic-package', 'sayHello', 'basic', 'sayHello'),
  go: () => scenarios('golang.org/x/mod', 'golang.org/x/tools', 'Parse', 'mod', 'version'),
};

/** Every scenario's answer through the MCP server over db: {text, structured} or {error}. */
async function mcpAnswers(root, db, calls) {
  const client = new Client({ name: 'index-npm-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: loupe, args: ['mcp', '-w', root, '--index', db], stderr: 'pipe' }));
  try {
    const out = [];
    for (const [name, args] of calls) {
      const r = await client.callTool({ name, arguments: args });
      out.push(r.isError ? { error: r.content[0].text } : { text: r.content[0].text, structured: r.structuredContent });
    }
    return out;
  } finally {
    await client.close();
  }
}

/** The same through the npm package. */
async function npmAnswers(root, index, calls) {
  const { tools, reason } = await createTools({ workspaceRoot: root, workers: 1, index });
  assert.equal(reason, undefined);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const out = [];
  for (const [name, args] of calls) {
    assert.ok(byName[name], `the npm package lists ${name}`);
    const r = await byName[name].execute(args);
    out.push(typeof r.metadata.error === 'string' ? { error: r.metadata.error } : { text: r.llmContent, structured: r.structured });
  }
  return out;
}

/** Asserts two faces' answers are the same, scenario by scenario. */
function same(calls, got, want, ignoreIndexedAt = false) {
  for (let i = 0; i < calls.length; i++) {
    let [g, w] = [got[i], want[i]];
    if (ignoreIndexedAt && calls[i][0] === 'index_status') {
      const drop = (a) => ({ ...a, text: a.text.replace(/"indexed_at":"[^"]*"/, ''), structured: { ...a.structured, indexed_at: undefined } });
      [g, w] = [drop(g), drop(w)];
    }
    assert.deepEqual(g, w, `${calls[i][0]} ${JSON.stringify(calls[i][1])}`);
  }
}

for (const name of ['pnpm', 'go']) {
  test(`${name}: every scenario of seed 004 answers as loupe mcp does, over the index loupe index built`, async () => {
    const root = repos[name];
    const db = join(mkdtempSync(join(tmpdir(), 'loupe-index-db-')), 'index.db');
    execFileSync(loupe, ['index', '--db', db, root]);
    const calls = cases[name]();
    const want = await mcpAnswers(root, db, calls);
    // The scenarios found something: the repository is the one they name.
    for (const i of [0, 6, 8, 15, 22]) assert.ok(JSON.parse(want[i].text).length > 0, `${calls[i][0]}: ${want[i].text}`);
    assert.equal(want[1].text, 'Search query must not be empty');
    assert.equal(want[5].text, "Package 'left-pad' not found");
    assert.equal(want[16].text, 'Search query must not be empty');
    assert.equal(want[10].structured.depth, 20);
    same(calls, await npmAnswers(root, { path: db }, calls), want);
  });

  test(`${name}: the index the npm package builds is the one loupe mcp reads, and answers the same`, async () => {
    const root = repos[name];
    const db = join(mkdtempSync(join(tmpdir(), 'loupe-index-db-')), 'index.db');
    const calls = cases[name]();
    const got = await npmAnswers(root, { path: db, build: true }, calls);
    assert.ok(existsSync(db), 'the npm package wrote the index file');
    same(calls, got, await mcpAnswers(root, db, calls), false);
    // Built again by the CLI, the npm package reads it as it is now.
    execFileSync(loupe, ['index', '--db', db, root]);
    same(calls, await npmAnswers(root, { path: db }, calls), await mcpAnswers(root, db, calls));
  });
}

test('without an index and without build, the npm package lists no project-index tools, as loupe mcp does', async () => {
  const { tools } = await createTools({ workspaceRoot: repos.go, workers: 0, index: { path: join(tmpdir(), 'no-such-dir', 'index.db') } });
  assert.ok(tools.length > 0);
  assert.deepEqual(tools.filter((t) => ['search_symbols', 'index_status'].includes(t.name)), []);
});

after(() => {
  for (const root of Object.values(repos)) rmSync(dirname(root), { recursive: true, force: true });
});
