// Benchmarks the npm package against @ast-grep/napi on the same corpus and
// queries, in one run: cold start (load + first query), each query's first
// call (its trees parsed), its first call in a new process over the trees
// this one saved (firstCached), and a repeated call. Match counts must
// agree.
//   node js/bench/bench.mjs            (run from the repo root after `make js`)
import { mkdtempSync, rmSync, statSync, readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repo, typescriptLib } from './corpus.mjs';
import { createRequire } from 'node:module';

const lib = typescriptLib();

const queries = [
  { name: 'console.log($$$A)', pattern: 'console.log($$$A)', lang: 'javascript' },
  { name: 'kind: function_declaration', rule: { kind: 'function_declaration' }, lang: 'javascript' },
  { name: 'interface $I { $$$B }', pattern: 'interface $I { $$$B }', lang: 'typescript' },
];

// A tree cache of its own, empty: this process's first calls parse. Each
// query's first call is then timed again in a new process over the trees
// this one saved, as an agent's next session gets them.
const treeCache = mkdtempSync(join(tmpdir(), 'loupe-bench-trees-'));
const t0 = performance.now();
const { createTools } = await import(join(repo, 'js/dist/index.js'));
const { tools, reason } = await createTools({ workspaceRoot: lib, timeouts: { astGrepMs: 600000 }, treeCache });
if (reason) throw new Error(reason);
const astGrep = tools.find((t) => t.name === 'ast_grep');

const require = createRequire(join(repo, 'package.json'));
const napi = require('@ast-grep/napi');
const napiLang = { javascript: napi.Lang.JavaScript, typescript: napi.Lang.TypeScript };

async function runLoupe(q) {
  const params = { language: q.lang, maxResults: 1, ...(q.pattern ? { pattern: q.pattern } : { rule: q.rule }) };
  const t = performance.now();
  const r = await astGrep.execute(params);
  if (r.metadata.error) throw new Error(r.metadata.error);
  return { ms: performance.now() - t, count: r.metadata.totalMatches };
}

// findInFiles resolves with the number of files it sent to the callback,
// which may still be queued then: the run ends when the last one arrives.
async function runNapi(q) {
  const t = performance.now();
  let count = 0;
  let files = 0;
  let expected = Infinity;
  let done;
  const delivered = new Promise((resolve) => { done = resolve; });
  expected = await napi.findInFiles(napiLang[q.lang], {
    paths: [lib],
    matcher: q.pattern ? { rule: { pattern: q.pattern } } : { rule: q.rule },
  }, (err, nodes) => {
    files++;
    if (!err) count += nodes.length;
    if (files === expected) done();
  });
  if (files >= expected) done();
  await delivered;
  return { ms: performance.now() - t, count };
}

const first = await runLoupe(queries[0]);
const cold = performance.now() - t0;
const rows = [];
for (const q of queries) {
  const napiRun = await runNapi(q);
  const loupeFirst = q === queries[0] ? first : await runLoupe(q);
  const loupeWarm = await runLoupe(q);
  rows.push({ query: q.name, napiMs: napiRun.ms.toFixed(0), loupeFirstMs: loupeFirst.ms.toFixed(0), loupeWarmMs: loupeWarm.ms.toFixed(0), ratioFirst: (loupeFirst.ms / napiRun.ms).toFixed(2), napiCount: napiRun.count, loupeCount: loupeFirst.count });
}
// firstFromCache times q's first call in a new process, over the trees
// this one saved.
function firstFromCache(q) {
  const script = `
    const { createTools } = await import(${JSON.stringify(join(repo, 'js/dist/index.js'))});
    const { tools } = await createTools({ workspaceRoot: ${JSON.stringify(lib)}, timeouts: { astGrepMs: 600000 }, treeCache: ${JSON.stringify(treeCache)} });
    const params = ${JSON.stringify({ language: q.lang, maxResults: 1, ...(q.pattern ? { pattern: q.pattern } : { rule: q.rule }) })};
    const t = performance.now();
    const r = await tools.find((t) => t.name === 'ast_grep').execute(params);
    process.stdout.write(JSON.stringify({ ms: performance.now() - t, count: r.metadata.totalMatches }));
    process.exit(0);`;
  return JSON.parse(String(execFileSync(process.execPath, ['--input-type=module', '-e', script])));
}
for (const [i, q] of queries.entries()) {
  const r = firstFromCache(q);
  if (r.count !== rows[i].loupeCount) throw new Error(`${q.name}: ${r.count} matches from the tree cache, ${rows[i].loupeCount} parsed`);
  rows[i].firstCachedMs = r.ms.toFixed(0);
  rows[i].ratioFirstCached = (r.ms / Number(rows[i].napiMs)).toFixed(2);
}
console.log(`cold start (load + first query): ${cold.toFixed(0)} ms`);
console.table(rows);
// File access: Go's fs shim (Node's async fs, one callback per call) against
// walking and reading in JS and passing the contents in memory.
{
  const q = { pattern: 'console.log($$$A)', language: 'javascript', maxResults: 1 };
  const t1 = performance.now();
  const viaGo = await astGrep.execute(q);
  const goMs = performance.now() - t1;
  const t2 = performance.now();
  const files = {};
  const walkRead = (d, rel) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walkRead(p, r);
      else if (e.name.endsWith('.js')) files[r] = readFileSync(p);
    }
  };
  walkRead(lib, '');
  const mem = (await createTools({ workspaceRoot: lib, files, timeouts: { astGrepMs: 600000 }, treeCache })).tools.find((t) => t.name === 'ast_grep');
  const viaJs = await mem.execute(q);
  const jsMs = performance.now() - t2;
  console.log(`file access (warm trees): Go fs shim ${goMs.toFixed(0)} ms, JS walk+read+mount ${jsMs.toFixed(0)} ms; matches ${viaGo.metadata.totalMatches} / ${viaJs.metadata.totalMatches}`);
}
const dist = join(repo, 'js/dist');
let size = 0;
const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else size += statSync(p).size; } };
walk(dist);
console.log(`package dist/: ${(size / 1e6).toFixed(1)} MB`);
rmSync(treeCache, { recursive: true, force: true });
process.exit(0);
