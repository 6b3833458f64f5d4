// Where the first call of a parse-all query goes (issue #16): the .d.ts
// query of bench.mjs against @ast-grep/napi's, then the same query over a
// copy of the files with a line added to each (trees not cached, the code
// already compiled and optimised), then repeated. Each with its wall time
// and the process's CPU time (every thread's: the workers', V8's compiler
// and collector threads', napi's). The pool is warmed up first as in
// bench.mjs (a console.log query over lib/*.js) and left to boot its
// spares. One first call per process: run it several times.
//   node js/bench/firstcall.mjs
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repo, typescriptLib } from './corpus.mjs';

const lib = typescriptLib();
const copy = join(lib, '../../../typescript@5.9.3-copy');
if (!existsSync(copy)) {
  mkdirSync(copy, { recursive: true });
  for (const f of readdirSync(lib).filter((n) => n.endsWith('.d.ts'))) {
    writeFileSync(join(copy, f), `${readFileSync(join(lib, f), 'utf8')}\n// copy\n`);
  }
}

const { createTools } = await import(join(repo, 'js/dist/index.js'));
const astGrep = async (root) => {
  const { tools, reason } = await createTools({ workspaceRoot: root, timeouts: { astGrepMs: 600000 }, treeCache: false });
  if (reason) throw new Error(reason);
  return tools.find((t) => t.name === 'ast_grep');
};
const [original, copied] = [await astGrep(lib), await astGrep(copy)];
const napi = createRequire(join(repo, 'package.json'))('@ast-grep/napi');
const pattern = 'interface $I { $$$B }';

async function measure(f) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const count = await f();
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { ms: Math.round(ms), cpuMs: Math.round((used.user + used.system) / 1000), count };
}
const loupe = (tool, params) => async () => {
  const r = await tool.execute({ maxResults: 1, ...params });
  if (r.metadata.error) throw new Error(r.metadata.error);
  return r.metadata.totalMatches;
};
// findInFiles resolves with the number of files it sent to the callback,
// which may still be queued then: the run ends when the last one arrives.
async function napiQuery() {
  let count = 0;
  let files = 0;
  let expected = Infinity;
  let done;
  const delivered = new Promise((resolve) => { done = resolve; });
  expected = await napi.findInFiles(napi.Lang.TypeScript, { paths: [lib], matcher: { rule: { pattern } } }, (err, nodes) => {
    if (!err) count += nodes.length;
    if (++files === expected) done();
  });
  if (files >= expected) done();
  await delivered;
  return count;
}

await loupe(original, { pattern: 'console.log($$$A)', language: 'javascript' })();
await new Promise((resolve) => setTimeout(resolve, 3000));
const q = { pattern, language: 'typescript' };
const rows = {
  napi: await measure(napiQuery),
  'loupe first call': await measure(loupe(original, q)),
  'loupe, copy (trees not cached)': await measure(loupe(copied, q)),
  'loupe repeated': await measure(loupe(original, q)),
};
console.table(rows);
process.exit(0);
