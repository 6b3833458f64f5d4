// The worker pool: ast_grep split across two worker threads must answer
// exactly as one instance does. Real modules, real files.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createTools } from '../dist/index.js';
import { openPool, mergeAstGrep, comparePaths } from '../dist/pool.js';

let root;
let one;
let two;
const files = {};

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'loupe-pool-'));
  for (let i = 0; i < 16; i++) {
    const dir = ['src', 'src/deep', 'lib', 'src/a'][i % 4];
    files[`${dir}/f${i}.ts`] = `export function f${i}() {\n  x${i}.foo(${i});\n  if (${i} > 3) { y.foo(); }\n  return bar(${i});\n}\n`;
  }
  files['src/a.ts'] = 'a.foo(a.foo(1));\n';
  files['src/ünï.ts'] = "const café = 'é'; café.foo();\n";
  files['src/t.test.ts'] = 'it.foo();\n';
  files['src/m.py'] = 'g.foo()\n';
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), c);
  }
  writeFileSync(join(root, 'src/bin.ts'), Buffer.from([0x61, 0x00, 0x01]));
  const [a, b] = await Promise.all([createTools({ workspaceRoot: root, workers: 1 }), createTools({ workspaceRoot: root, workers: 2 })]);
  assert.equal(a.reason, undefined);
  assert.equal(b.reason, undefined);
  one = a.tools.find((t) => t.name === 'ast_grep');
  two = b.tools.find((t) => t.name === 'ast_grep');
});

const queries = [
  { pattern: '$OBJ.foo($$$ARGS)', language: 'typescript' },
  { pattern: '$OBJ.foo($$$ARGS)', language: 'typescript', maxResults: 5 },
  { pattern: '$OBJ.foo($$$ARGS)', language: 'typescript', maxResults: 1 },
  { pattern: '$OBJ.foo($$$ARGS)', language: 'typescript', maxResults: 5000 },
  { pattern: '$OBJ.foo($$$ARGS)', language: 'typescript', globs: ['!*.test.ts', '!lib/**'] },
  { pattern: '$OBJ.foo($$$ARGS)', language: 'typescript', globs: ['src/deep/**'] },
  { pattern: '$OBJ.foo($$$ARGS)', language: 'typescript', path: 'src/a' },
  { pattern: '$OBJ.foo($$$ARGS)', path: 'src/a.ts' },
  { rule: { kind: 'call_expression', has: { field: 'function', regex: '^bar' } }, language: 'ts' },
  { rule: { kind: 'call_expression', has: { kind: 'number' } }, language: 'ts' },
  { pattern: 'nothing($A)', language: 'typescript' },
  { pattern: '$x.foo()', language: 'typescript' },
  { pattern: '$A.foo()', language: 'python' },
  { pattern: '$A.foo()', language: 'go' },
  // Errors.
  { pattern: 'a', rule: { kind: 'identifier' }, language: 'ts' },
  { pattern: 'a', language: 'ts', path: '../' },
  { pattern: 'a; b', language: 'ts' },
  { pattern: 'a', language: 'ts', maxResults: -1 },
  { patern: 'a' },
];

test('two workers answer exactly as one instance', async () => {
  for (const q of queries) {
    const [a, b] = await Promise.all([one.execute(q), two.execute(q)]);
    assert.deepEqual(b.metadata, a.metadata, JSON.stringify(q));
    assert.equal(b.llmContent, a.llmContent, JSON.stringify(q));
  }
  const all = await two.execute(queries[0]);
  assert.equal(all.metadata.totalMatches, 36);
  assert.equal(all.metadata.skippedFiles, 1);
  assert.deepEqual(all.metadata.skipped, [{ file: 'src/bin.ts', reason: 'binary' }]);
  const cut = await two.execute(queries[2]);
  assert.equal(cut.metadata.truncated, true);
  assert.equal(cut.metadata.reason, 'maxResults');
});

test('the pool really splits: each worker searches a share of the files', async () => {
  const splitter = await openPool({ size: 2, config: { workspaceRoot: root, timeouts: {}, limits: {} } });
  assert.ok(splitter, 'the pool boots');
  const merged = await splitter.run('ast_grep', queries[0], 100);
  const single = await one.execute(queries[0]);
  assert.deepEqual(merged, single.metadata);
  // In-memory files: each worker mounts them itself.
  const mem = await openPool({ size: 2, config: { workspaceRoot: '', timeouts: {}, limits: {} }, files });
  const fromMemory = await mem.run('ast_grep', queries[0], 100);
  assert.equal(fromMemory.totalMatches, 36);
  assert.equal(fromMemory.filesSearched, single.metadata.filesSearched);
});

test('in-memory files through createTools with a pool', async () => {
  const [a, b] = await Promise.all([
    createTools({ workspaceRoot: 'unused', files, workers: 1 }),
    createTools({ workspaceRoot: 'unused', files, workers: 2 }),
  ]);
  const q = { pattern: '$OBJ.foo($$$ARGS)', language: 'typescript', maxResults: 7 };
  const [x, y] = await Promise.all([a.tools[0].execute(q), b.tools[0].execute(q)]);
  assert.equal(x.metadata.totalMatches, 36);
  assert.deepEqual(y.metadata, x.metadata);
});

test('cancellation reaches every worker', async () => {
  const ac = new AbortController();
  ac.abort();
  const q = queries[0];
  assert.deepEqual((await two.execute(q, { signal: ac.signal })).metadata, (await one.execute(q, { signal: ac.signal })).metadata);
  for (const tool of [one, two]) {
    const live = new AbortController();
    const pending = tool.execute(q, { signal: live.signal });
    live.abort();
    const r = await pending;
    assert.equal(r.metadata.reason, 'cancelled', tool === one ? 'one' : 'two');
    assert.equal(r.metadata.truncated, true);
  }
});

test('a pool that cannot boot degrades to one instance', async () => {
  assert.equal(await openPool({ size: 2, assetsDir: join(root, 'nowhere'), config: { workspaceRoot: root, timeouts: {}, limits: {} } }), undefined);
});

test('merge: path order, fallback labels and hints as one instance', () => {
  const names = ['a.ts', 'a/b.ts', 'a-b/c.ts', 'B.ts', 'a/a/z.ts', 'é.ts', 'z.ts'];
  assert.deepEqual([...names].sort(comparePaths), ['B.ts', 'a/a/z.ts', 'a/b.ts', 'a-b/c.ts', 'a.ts', 'z.ts', 'é.ts']);
  const m = (file, startLine) => ({ file, startLine, startCol: 1 });
  const res = (over) => ({ result: { matches: [], truncated: false, totalMatches: 0, filesSearched: 2, skippedFiles: 0, ...over } });
  const noFiles = 'no typescript files (extensions .ts, .mts) were found under path; check path, globs and language';
  // A shard's fallback results give way to another shard's direct matches.
  const direct = mergeAstGrep([res({ matches: [m('b.ts', 1)], totalMatches: 1 }), res({ matches: [m('a.ts', 1)], totalMatches: 1, hints: ['fallback'] })], 100);
  assert.deepEqual(direct.matches, [m('b.ts', 1)]);
  assert.equal(direct.totalMatches, 1);
  assert.equal(direct.hints, undefined);
  const fallback = mergeAstGrep([res({ hints: ['why not'] }), res({ matches: [m('a.ts', 1)], totalMatches: 1, hints: ['fallback'] })], 100);
  assert.deepEqual(fallback.hints, ['fallback']);
  const empty = mergeAstGrep([res({ filesSearched: 0, hints: [noFiles, 'x'] }), res({ hints: ['x'] })], 100);
  assert.deepEqual(empty.hints, ['x']);
  const none = mergeAstGrep([res({ filesSearched: 0, hints: [noFiles] }), res({ filesSearched: 0, hints: [noFiles] })], 100);
  assert.deepEqual(none.hints, [noFiles]);
  const cut = mergeAstGrep([res({ matches: [m('b.ts', 2), m('b.ts', 5)], totalMatches: 2 }), res({ matches: [m('a.ts', 9)], totalMatches: 4, truncated: true, reason: 'maxResults' })], 2);
  assert.deepEqual(cut.matches, [m('a.ts', 9), m('b.ts', 2)]);
  assert.equal(cut.totalMatches, 6);
  assert.equal(cut.reason, 'maxResults');
  const timeout = mergeAstGrep([res({ truncated: true, reason: 'timeout' }), res({})], 100);
  assert.equal(timeout.reason, 'timeout');
  assert.equal(timeout.truncated, true);
  assert.deepEqual(mergeAstGrep([res({}), { error: 'bad' }], 100), { error: 'bad' });
});
