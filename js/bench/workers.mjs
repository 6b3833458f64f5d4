// Does a worker_threads pool pay? Go under js is single-threaded, so the
// only parallelism is several Go instances. This runs one parse-heavy query
// over typescript's lib/*.d.ts in memory: once in this thread, then split
// across N workers, each with its own instance, and prints the wall times.
//   node js/bench/workers.mjs [N]
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus } from 'node:os';

const repo = resolve(new URL('../..', import.meta.url).pathname);
const lib = join(process.env.LOUPE_CACHE ?? join(repo, '.cache'), 'corpus', 'typescript@5.9.3', 'package', 'lib');
const query = { rule: { kind: 'interface_declaration' }, language: 'typescript', maxResults: 1 };

async function search(files) {
  const { createTools } = await import(join(repo, 'js/dist/index.js'));
  const { tools, reason } = await createTools({ workspaceRoot: '/', files, timeouts: { astGrepMs: 600000 } });
  if (reason) throw new Error(reason);
  const r = await tools.find((t) => t.name === 'ast_grep').execute(query);
  if (r.metadata.error) throw new Error(r.metadata.error);
  return r.metadata.totalMatches;
}

if (!isMainThread) {
  const started = performance.now();
  const total = await search(workerData.files);
  parentPort.postMessage({ total, ms: performance.now() - started });
} else {
  const n = Number(process.argv[2] ?? Math.min(cpus().length, 4));
  const names = readdirSync(lib).filter((f) => f.endsWith('.d.ts'));
  const all = Object.fromEntries(names.map((f) => [f, readFileSync(join(lib, f), 'utf8')]));
  const mb = Object.values(all).reduce((s, c) => s + c.length, 0) / 1e6;

  let t = performance.now();
  const single = await search(all);
  const singleMs = performance.now() - t;

  // Split by size so the shards take about as long.
  const shards = Array.from({ length: n }, () => ({ files: {}, size: 0 }));
  for (const f of names.sort((a, b) => all[b].length - all[a].length)) {
    const s = shards.reduce((m, x) => (x.size < m.size ? x : m));
    s.files[f] = all[f];
    s.size += all[f].length;
  }
  t = performance.now();
  const results = await Promise.all(shards.map((s) => new Promise((ok, fail) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { files: s.files } });
    w.once('message', ok);
    w.once('error', fail);
  })));
  const poolMs = performance.now() - t;
  const pooled = results.reduce((s, r) => s + r.total, 0);
  console.log(`${names.length} files, ${mb.toFixed(1)} MB, query ${JSON.stringify(query.rule)}`);
  console.log(`one thread: ${singleMs.toFixed(0)} ms (${single} matches)`);
  console.log(`${n} workers: ${poolMs.toFixed(0)} ms wall incl. worker start-up (${pooled} matches; per worker ${results.map((r) => r.ms.toFixed(0)).join(', ')} ms)`);
}
