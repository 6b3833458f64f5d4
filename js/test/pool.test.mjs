// The worker pool: ast_grep split across two worker threads must answer
// exactly as one instance does. Real modules, real files.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createTools } from '../dist/index.js';
import { poolEngine } from '../dist/pool.js';
import { loadRuntime } from '../dist/runtime.js';
import { DEFAULT_MEMORY_LIMIT_MIB, nodeEnv } from '../dist/node.js';

/** A session of the pool of two workers that createTools({ workers: 2 }) uses. */
async function openPool(config, files) {
  const engine = await poolEngine({ size: 2, memoryLimitMiB: DEFAULT_MEMORY_LIMIT_MIB });
  return engine.open({ timeouts: {}, limits: {}, ...config }, files);
}

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
  const [a, b] = await Promise.all([createTools({ workspaceRoot: root, workers: 0 }), createTools({ workspaceRoot: root, workers: 2 })]);
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

test('the pool really splits: each worker searches a share of the files, Go merges their replies', async () => {
  const runtime = await loadRuntime(nodeEnv());
  const session = await openPool({ workspaceRoot: root });
  const replies = await session.shards('ast_grep', queries[0]);
  assert.equal(replies.length, 2);
  const shards = replies.map((r) => JSON.parse(r).result);
  for (const r of shards) {
    assert.ok(r.totalMatches > 0 && r.totalMatches < 36, `a shard found ${r.totalMatches} of 36 matches`);
    assert.ok(r.shard, 'a shard says what the merge needs');
  }
  const single = await one.execute(queries[0]);
  const merged = JSON.parse(runtime.merge('ast_grep', queries[0], replies));
  assert.deepEqual(merged, { text: single.llmContent, result: single.metadata, structured: single.structured });
  // In-memory files: each worker mounts them itself.
  const mem = await openPool({ workspaceRoot: '' }, files);
  const fromMemory = JSON.parse(runtime.merge('ast_grep', queries[0], await mem.shards('ast_grep', queries[0]))).result;
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

test('a pool that cannot boot is no tools and the reason', async () => {
  await assert.rejects(poolEngine({ size: 2, assetsDir: join(root, 'nowhere'), memoryLimitMiB: 256 }), /missing .*nowhere/);
  const r = await createTools({ workspaceRoot: root, assetsDir: join(root, 'nowhere'), workers: 2 });
  assert.deepEqual(r.tools, []);
  assert.match(r.reason, /could not load: missing/);
});

test('path order, the fallback query and no-files hints: the pool answers as one instance', async () => {
  const names = ['a.ts', 'a/b.ts', 'a-b/c.ts', 'B.ts', 'a/a/z.ts', 'é.ts', 'z.ts'];
  const mem = Object.fromEntries(names.map((n) => [n, 'x.foo();\n']));
  // Go reads a bare call pattern as a conversion; the fallback query reads
  // it as a call, and finds calls in one shard only (big.go, in the other
  // shard, has none).
  mem['go/big.go'] = `package g\n\n// ${'padding '.repeat(200)}\nfunc big() {}\n`;
  mem['go/a.go'] = 'package g\n\nimport "fmt"\n\nfunc a() error { return fmt.Errorf("a") }\n';
  mem['go/b.go'] = 'package g\n\nimport "fmt"\n\nfunc b() error { _ = fmt.Errorf("b"); return fmt.Errorf("c") }\n';
  mem['lib/x.rb'] = 'x.foo\n';
  const [a, b] = await Promise.all([
    createTools({ workspaceRoot: 'unused', files: mem, workers: 1 }),
    createTools({ workspaceRoot: 'unused', files: mem, workers: 2 }),
  ]);
  const [x, y] = [a.tools[0], b.tools[0]];
  const qs = [
    { pattern: '$A.foo()', language: 'typescript' },
    { pattern: '$A.foo()', language: 'typescript', maxResults: 3 },
    { pattern: 'fmt.Errorf($$$A)', language: 'go' },
    { pattern: 'fmt.Errorf($$$A)', language: 'go', maxResults: 1 },
    { pattern: 'fmt.Errorf($$$A)', path: 'go/big.go' },
    { pattern: 'nothing.Here($$$A)', language: 'go' },
    { pattern: '$A.foo', language: 'ruby' },
    { pattern: '$A.bar', language: 'ruby' },
    { pattern: '$A.foo()', language: 'python' },
  ];
  const got = [];
  for (const q of qs) {
    const [r1, r2] = await Promise.all([x.execute(q), y.execute(q)]);
    assert.deepEqual(r2.metadata, r1.metadata, JSON.stringify(q));
    assert.equal(r2.llmContent, r1.llmContent, JSON.stringify(q));
    got.push(r2.metadata);
  }
  assert.deepEqual(got[0].matches.map((m) => m.file), ['B.ts', 'a/a/z.ts', 'a/b.ts', 'a-b/c.ts', 'a.ts', 'z.ts', 'é.ts']);
  assert.equal(got[2].totalMatches, 3);
  assert.match(got[2].hints.join('\n'), /these matches come from the same pattern read as a call/);
  assert.equal(got[3].reason, 'maxResults');
  assert.match(got[4].hints.join('\n'), /not a call/);
  assert.doesNotMatch(got[4].hints.join('\n'), /no go files/);
  assert.equal(got[7].hints, undefined, 'no ruby file in one shard is no hint when the other searched one');
  assert.match(got[8].hints.join('\n'), /^no python files/);
  // The shards really split the fallback: one used it, one ran it in vain.
  const runtime = await loadRuntime(nodeEnv());
  const pool = await openPool({ workspaceRoot: '' }, mem);
  const replies = await pool.shards('ast_grep', qs[2]);
  const shards = replies.map((r) => JSON.parse(r).result.shard);
  assert.deepEqual(shards.map((s) => [s.query !== undefined, s.fallback !== undefined]).sort(), [[false, true], [true, false]]);
  assert.deepEqual(JSON.parse(runtime.merge('ast_grep', qs[2], replies)).result, got[2]);
});

test('merge: the first error wins', async () => {
  const runtime = await loadRuntime(nodeEnv());
  const ok = await one.execute(queries[0]);
  const reply = JSON.stringify({ text: ok.llmContent, result: ok.metadata });
  assert.deepEqual(JSON.parse(runtime.merge('ast_grep', {}, [reply, '{"error":"bad"}', '{"error":"worse"}'])), { error: 'bad' });
  assert.deepEqual(JSON.parse(runtime.merge('ast_grep', {}, [reply])).result, ok.metadata);
  assert.ok('error' in JSON.parse(runtime.merge('structural_analysis', {}, [reply])));
});

// Node's fs is called synchronously (vfs.ts): opening a fifo, which waits
// for its other end, would hold the thread for good, with no way for a
// cancel or the call's timeout to reach Go. The pool goes first: held
// there, a worker fails the test through its timeout, where this thread,
// held, could not.
test('a fifo in the workspace is refused at once, in the pool and in this thread', { skip: process.platform === 'win32', timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-fifo-'));
  writeFileSync(join(dir, 'a.ts'), 'a.foo();\n');
  execFileSync('mkfifo', [join(dir, 'p.ts')]);
  for (const workers of [2, 0]) {
    const { tools } = await createTools({ workspaceRoot: dir, workers, approve: () => true });
    const tool = (name) => tools.find((t) => t.name === name);
    for (const [name, params] of [['read_file', { path: 'p.ts' }], ['append_file', { path: 'p.ts', content: 'x' }]]) {
      assert.match((await tool(name).execute(params)).llmContent, /not a regular file/, `${name}, workers ${workers}`);
    }
    assert.equal((await tool('ast_grep').execute({ pattern: '$X.foo()', language: 'typescript' })).metadata.totalMatches, 1);
  }
});
