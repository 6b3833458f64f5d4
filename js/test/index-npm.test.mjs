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
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createTools } from '../dist/index.js';
import { cases, copy, loupe, mcpAnswers, repositories, same } from '../scripts/indexrepos.mjs';

let repos = {};
before(() => {
  assert.ok(existsSync(loupe), `${loupe} is missing: run make build (make test does)`);
  repos = repositories();
});

/** Every scenario's answer through the npm package in Node, as mcpAnswers gives the MCP server's. */
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
    // indexed_at included: a face's catch-up pass is an update, which
    // keeps the time of the last build.
    same(calls, got, await mcpAnswers(root, db, calls));
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

test('a copy read while the index is being written is never used: the npm package answers from the last whole index', async () => {
  const root = copy(join(dirname(loupe), '..', 'index', 'testdata', 'shop'), 'loupe-shop-');
  const db = join(mkdtempSync(join(tmpdir(), 'loupe-index-db-')), 'index.db');
  execFileSync(loupe, ['index', '--db', db, root]);
  const built = readFileSync(db);
  const { tools } = await createTools({ workspaceRoot: root, workers: 0, index: { path: db } });
  const getSymbol = tools.find((t) => t.name === 'get_symbol');
  const servers = async () => {
    const r = await getSymbol.execute({ name: 'Server' });
    assert.equal(r.metadata.error, undefined, r.llmContent);
    return JSON.parse(r.llmContent).map((s) => s.file_path).sort();
  };
  assert.deepEqual(await servers(), ['api/server.go']);
  writeFileSync(join(root, 'packages/web/src/server.ts'), 'export class Server {}\n');
  assert.deepEqual(await servers(), ['api/server.go', 'packages/web/src/server.ts'], 'an outside edit, applied by the stat pass');
  // An update in place under way, as a killed or running build leaves it:
  // half the file written, its rollback journal beside it. The package
  // goes on with the copy it has.
  writeFileSync(db, built.subarray(0, built.length >> 1));
  writeFileSync(`${db}-journal`, 'a journal: the file beside it is mid-transaction');
  assert.deepEqual(await servers(), ['api/server.go', 'packages/web/src/server.ts']);
  // The update done (the file as the CLI's build left it, before the
  // edit), the next call reads it and its stat pass applies the edit again.
  writeFileSync(db, built);
  rmSync(`${db}-journal`);
  assert.deepEqual(await servers(), ['api/server.go', 'packages/web/src/server.ts']);
});

after(() => {
  for (const root of Object.values(repos)) rmSync(dirname(root), { recursive: true, force: true });
});
