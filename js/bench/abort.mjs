// Abort-to-idle latency of the npm package: calls on typescript's lib/
// (the pinned corpus bench.mjs fetches) are aborted mid-flight, and this
// measures the milliseconds from controller.abort() to
//   - settled: the call's promise settling;
//   - ready: the pool answering a call again (a query on a missing file,
//     which every worker answers at once with an error: the pool is booted,
//     has the session open and is not busy);
//   - next query: a real query on one small file answered (its time on an
//     idle pool is printed beside it).
//   node js/bench/abort.mjs [runs per tool, default 24] [workers, default the package's]
// VERBOSE=1 prints every run.
import { join } from 'node:path';
import { repo, typescriptLib } from './corpus.mjs';

const lib = typescriptLib();

const runs = Number(process.argv[2] ?? 24);
const workers = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const { createTools } = await import(join(repo, 'js/dist/index.js'));
const { tools, reason } = await createTools({ workspaceRoot: lib, workers, timeouts: { astGrepMs: 600000, structuralAnalysisMs: 600000 }, treeCache: false });
if (reason) throw new Error(reason);
const tool = (name) => tools.find((t) => t.name === name);

// Calls that take 0.1–0.3 s on warm trees and 1–3 s on cold ones (the first
// call, and after an abort replaced a worker, whose trees went with it).
const calls = {
  ast_grep: [
    { rule: { kind: 'call_expression', inside: { kind: 'function_declaration', stopBy: 'end' } }, language: 'javascript', maxResults: 1 },
    { pattern: 'if ($A) { $$$B }', language: 'javascript', maxResults: 1 },
  ],
  structural_analysis: [
    { mode: 'callers', language: 'javascript', symbol: 'getSourceFileOfNode', depth: 3 },
    { mode: 'hierarchy', language: 'typescript', symbol: 'Node' },
  ],
};
const probe = { pattern: 'interface $I { $$$B }', language: 'typescript', path: 'lib.es2015.symbol.d.ts' };
const ping = { pattern: 'x', language: 'typescript', path: 'no-such-file.ts' };
const delays = [20, 60, 150, 400];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function runProbe() {
  const r = await tool('ast_grep').execute(probe);
  if (r.metadata.totalMatches !== 1) throw new Error(`probe: ${r.llmContent}`);
}

async function runPing() {
  const r = await tool('ast_grep').execute(ping);
  if (!r.metadata.error) throw new Error(`ping: ${r.llmContent}`);
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

const probeMs = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  await runProbe();
  probeMs.push(performance.now() - t);
}

const rows = [];
for (const [name, params] of Object.entries(calls)) {
  const settle = [];
  const ready = [];
  const idle = [];
  const outcome = { partial: 0, forced: 0, whole: 0, finished: 0 };
  for (let i = 0; i < runs; i++) {
    const ac = new AbortController();
    const pending = tool(name).execute(params[i % params.length], { signal: ac.signal });
    let done = false;
    pending.then(() => { done = true; });
    await sleep(delays[i % delays.length]);
    if (done) {
      outcome.finished++;
      continue;
    }
    const t0 = performance.now();
    ac.abort();
    const r = await pending;
    settle.push(performance.now() - t0);
    await runPing();
    ready.push(performance.now() - t0);
    await runProbe();
    idle.push(performance.now() - t0);
    if (r.metadata.error) throw new Error(`an aborted call failed: ${r.llmContent.slice(0, 200)}`);
    if (r.metadata.reason !== 'cancelled') outcome.whole++; // its answer was on its way
    else if (/stopped before any result/.test(r.llmContent)) outcome.forced++;
    else outcome.partial++;
    if (process.env.VERBOSE) console.log(name, i, delays[i % delays.length], r.metadata.reason, /stopped before/.test(r.llmContent) ? 'forced' : '', settle.at(-1).toFixed(1), ready.at(-1).toFixed(1), idle.at(-1).toFixed(1));
    await sleep(300); // the spare worker boots again
  }
  rows.push({
    tool: name,
    aborted: settle.length,
    'settle median ms': quantile(settle, 0.5)?.toFixed(1),
    'settle p95 ms': quantile(settle, 0.95)?.toFixed(1),
    'ready median ms': quantile(ready, 0.5)?.toFixed(1),
    'ready p95 ms': quantile(ready, 0.95)?.toFixed(1),
    'next query median ms': quantile(idle, 0.5)?.toFixed(1),
    'next query p95 ms': quantile(idle, 0.95)?.toFixed(1),
    'Go stopped': outcome.partial,
    'worker replaced': outcome.forced,
    'answered anyway': outcome.whole,
    'done before abort': outcome.finished,
  });
}
console.log(`abort to settled, ready and next query answered: ${runs} calls per tool aborted after ${delays.join('/')} ms, on typescript lib/ (the next query on an idle pool: median ${quantile(probeMs, 0.5).toFixed(1)} ms)`);
console.table(rows);
process.exit(0);
