// Does the worker_threads pool pay? Go under js is single-threaded, so the
// only parallelism is several Go instances. This runs one parse-heavy query
// over typescript's lib/*.d.ts in memory, through createTools with
// workers: 1 (one instance) and workers: N (each worker searching its
// shard), and prints the wall times of the query (the tools are loaded
// and warmed up first).
//   node js/bench/workers.mjs [N]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { repo, typescriptLib } from './corpus.mjs';

const lib = typescriptLib();
const query = { rule: { kind: 'interface_declaration' }, language: 'typescript', maxResults: 1 };
const { createTools } = await import(join(repo, 'js/dist/index.js'));

async function time(files, workers) {
  const { tools, reason } = await createTools({ workspaceRoot: '/', files, workers, timeouts: { astGrepMs: 600000 }, treeCache: false });
  if (reason) throw new Error(reason);
  const ag = tools.find((t) => t.name === 'ast_grep');
  await ag.execute({ pattern: 'warm_up()', language: 'typescript', path: Object.keys(files)[0] });
  const t = performance.now();
  const r = await ag.execute(query);
  if (r.metadata.error) throw new Error(r.metadata.error);
  return { ms: performance.now() - t, total: r.metadata.totalMatches };
}

const n = Number(process.argv[2] ?? Math.min(cpus().length, 4));
const names = readdirSync(lib).filter((f) => f.endsWith('.d.ts'));
const all = Object.fromEntries(names.map((f) => [f, readFileSync(join(lib, f), 'utf8')]));
const mb = Object.values(all).reduce((s, c) => s + c.length, 0) / 1e6;
const single = await time(all, 1);
const pooled = await time(all, n);
console.log(`${names.length} files, ${mb.toFixed(1)} MB, query ${JSON.stringify(query.rule)}`);
console.log(`1 worker: ${single.ms.toFixed(0)} ms (${single.total} matches)`);
console.log(`${n} workers: ${pooled.ms.toFixed(0)} ms (${pooled.total} matches)`);
