// A call can take its Go instance down (out of memory, a fatal error), or
// run on while its caller aborts: the host must not notice beyond the
// call's own answer. Real modules, real worker threads, a real child process
// for what would end one.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTools } from '../dist/index.js';
import { poolEngine } from '../dist/pool.js';
import { DEFAULT_MEMORY_LIMIT_MIB } from '../dist/node.js';

const index = pathToFileURL(join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../dist/index.js')).href;

// The rule that grew the MCP server to 23.6 GB (issue 18): every string
// fragment replaced by 100,000 y's.
const hostile = {
  rule: {
    rule: { kind: 'string_fragment', pattern: '$A' },
    transform: { B: { replace: { source: '$A', replace: '', by: 'y'.repeat(100000) } } },
  },
  language: 'typescript',
};

let root;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'loupe-safety-'));
  writeFileSync(join(root, 'a.ts'), Array.from({ length: 50 }, (_, i) => `const s${i} = "string fragment ${i}";`).join('\n') + '\n');
});

/**
 * Runs the hostile call and then a normal one in a child process with the
 * package; resolves to the messages it sent, its exit code and everything
 * it printed.
 */
function child(workers) {
  const code = `
    import { createTools } from ${JSON.stringify(index)};
    const { tools, reason } = await createTools({
      workspaceRoot: ${JSON.stringify(root)}, workers: ${workers}, memoryLimitMiB: 32, timeouts: { astGrepMs: 1500 },
    });
    if (reason) throw new Error(reason);
    const ag = tools.find((t) => t.name === 'ast_grep');
    process.send({ hostile: (await ag.execute(${JSON.stringify(hostile)})).metadata });
    process.send({ next: (await ag.execute({ pattern: 'const $A = $B', language: 'typescript' })).metadata });
    // Past the calls' time limit: a dead instance's timer would fire now.
    await new Promise((r) => setTimeout(r, 2500));
    process.send({ alive: true });
    process.disconnect();
  `;
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const messages = {};
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('message', (m) => Object.assign(messages, m));
    p.on('exit', (exitCode) => resolve({ messages, exitCode, stdout, stderr }));
  });
}

for (const workers of [2, 0]) {
  test(`a call that kills its Go instance fails alone, silently, and the next call works (workers: ${workers})`, { timeout: 120000 }, async () => {
    const { messages, exitCode, stdout, stderr } = await child(workers);
    assert.equal(stdout, '', 'nothing on the host\'s stdout');
    assert.equal(stderr, '', 'nothing on the host\'s stderr');
    assert.equal(exitCode, 0);
    assert.equal(messages.alive, true, 'the host outlives the dead instance\'s timers');
    // The instance runs out of its 32 MiB (or, once Go bounds the
    // transform, the rule its budget): either way an error that says so.
    assert.match(String(messages.hostile?.error), /ran out of memory \(limit 32 MiB\)|exceeded its budget/);
    assert.equal(messages.next?.totalMatches, 50);
  });
}

/** In-memory files too big to parse in 16 MiB: each is about 2 MB of JavaScript. */
function bigFiles(n) {
  const files = { 'small.js': 'beta.call(1);\n' };
  for (let f = 0; f < n; f++) {
    files[`big${f}.js`] = Array.from({ length: 40000 }, (_, i) => `function f${f}_${i}() { return alpha.call(${i}, 'padding'); }`).join('\n');
  }
  return files;
}

for (const workers of [1, 0]) {
  test(`an instance that runs out of memory is replaced, again and again (workers: ${workers})`, { timeout: 120000 }, async () => {
    const { tools, reason } = await createTools({ workspaceRoot: 'unused', files: bigFiles(1), workers, memoryLimitMiB: 16, treeCache: false });
    assert.equal(reason, undefined);
    const ag = tools.find((t) => t.name === 'ast_grep');
    for (let round = 0; round < 2; round++) {
      const big = await ag.execute({ pattern: '$F.call($$$A)', language: 'javascript' });
      assert.match(String(big.metadata.error), /^loupe's Go instance ran out of memory \(limit 16 MiB\) and stopped: fatal error: out of memory$/);
      const small = await ag.execute({ pattern: '$F.call($$$A)', path: 'small.js' });
      assert.deepEqual(small.metadata.matches?.map((m) => m.text), ['beta.call(1)']);
    }
  });
}

// Parsing these in memory never waits for the event loop, so Go cannot
// see a cancel until it is done: the abort must stop the worker by force.
// They are parsed every time (no tree cache), as these tests need.
const heavy = bigFiles(4);
const calls = {
  ast_grep: { rule: { kind: 'function_declaration' }, language: 'javascript' },
  structural_analysis: { mode: 'callers', language: 'javascript', symbol: 'alpha' },
};

for (const [name, params] of Object.entries(calls)) {
  test(`aborting ${name} settles it with a cancellation, and the pool serves the next call`, { timeout: 120000 }, async () => {
    const { tools, reason } = await createTools({ workspaceRoot: 'unused', files: heavy, workers: 2, treeCache: false });
    assert.equal(reason, undefined);
    const tool = tools.find((t) => t.name === name);
    for (let round = 0; round < 2; round++) {
      const ac = new AbortController();
      const pending = tool.execute(params, { signal: ac.signal });
      await new Promise((r) => setTimeout(r, 200)); // the call is in Go
      ac.abort();
      const r = await pending;
      assert.equal(r.metadata.reason, 'cancelled', r.llmContent.slice(0, 200));
      assert.equal(r.metadata.truncated, true);
    }
    const ag = tools.find((t) => t.name === 'ast_grep');
    const next = await ag.execute({ pattern: '$F.call($$$A)', path: 'small.js' });
    assert.deepEqual(next.metadata.matches?.map((m) => m.text), ['beta.call(1)']);
  });
}

test('an abort stops no other call: a worker running another one is left to finish it', { timeout: 120000 }, async () => {
  const { tools, reason } = await createTools({ workspaceRoot: 'unused', files: heavy, workers: 2, treeCache: false });
  assert.equal(reason, undefined);
  const [ag, sa] = ['ast_grep', 'structural_analysis'].map((n) => tools.find((t) => t.name === n));
  const whole = ag.execute({ ...calls.ast_grep, maxResults: 1 });
  const ac = new AbortController();
  const aborted = sa.execute(calls.structural_analysis, { signal: ac.signal });
  await new Promise((r) => setTimeout(r, 200));
  ac.abort();
  assert.equal((await aborted).metadata.reason, 'cancelled');
  const r = await whole;
  assert.equal(r.metadata.error, undefined, r.llmContent.slice(0, 200));
  assert.equal(r.metadata.totalMatches, 4 * 40000);
});

test('a call its workers cannot stop rejects with an AbortError in the engine; the next call succeeds', { timeout: 120000 }, async () => {
  // A pool of its own (another memory limit) with one worker. Before each
  // round a small call of the same language readies that worker (a new one
  // after a forced stop): loading the grammar yields to the event loop, and
  // a cancel seen there would settle the call as cancelled instead. The
  // rule nests has … stopBy: end six deep; over a call nested twenty deep each statement costs tens of
  // millions of matching steps, under the per-node step limit (so the call
  // never ends early on an error), and the file has 300 such statements:
  // billions of counted steps, which no machine runs in the 200 ms before
  // the abort. Go under js cannot look at a cancel before it yields to the
  // event loop, which it does not do inside one match, so the worker must
  // be stopped by force.
  const engine = await poolEngine({ size: 1, memoryLimitMiB: DEFAULT_MEMORY_LIMIT_MIB / 2 });
  const deep = 'f('.repeat(20) + '1' + ')'.repeat(20) + ';\n';
  const files = { 'small.js': 'beta.call(1);\n', 'deep.js': deep.repeat(300) };
  const session = await engine.open({ workspaceRoot: '', timeouts: {}, limits: {} }, files);
  let rule = '{kind: string}';
  for (let i = 0; i < 6; i++) rule = `{has: {stopBy: end, all: [${rule}]}}`;
  const small = async () => JSON.parse(await session.call('ast_grep', { pattern: '$F.call($$$A)', path: 'small.js' }));
  for (let round = 0; round < 2; round++) {
    assert.equal((await small()).result.totalMatches, 1);
    const ac = new AbortController();
    const pending = session.call('ast_grep', { rule: `kind: call_expression\nall: [${rule}]\n`, language: 'javascript', path: 'deep.js' }, ac.signal);
    await new Promise((r) => setTimeout(r, 200));
    ac.abort();
    await assert.rejects(pending, { name: 'AbortError' });
  }
  assert.equal((await small()).result.totalMatches, 1);
});
