// What fuel metering costs a custom language (host.MeterModule): the same
// grammar module, json's, searched as the built-in json and as a custom
// language (sgconfig.yml's customLanguages, so sandboxed and metered),
// through createTools with workers: 0, over files of 1 MiB of dense JSON.
// Each round searches a file of each (distinct contents, so no tree is
// cached); prints the median time of a search of each and the difference.
//   node js/bench/custom.mjs [rounds]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from './corpus.mjs';

const { createTools } = await import(join(repo, 'js/dist/index.js'));
const rounds = Number(process.argv[2] ?? 15);

const json = (i) => `[${i}, ${'12345, 6.5e3, '.repeat((1 << 20) / 14)}0]\n`;
const files = {
  'grammars/cjson.wasm': readFileSync(join(repo, 'js/dist/grammars/json.wasm')),
  'sgconfig.yml': 'customLanguages:\n  cjson: {libraryPath: grammars/cjson.wasm, extensions: [cjson]}\n',
};
for (let i = 0; i <= rounds; i++) {
  files[`r${i}.json`] = json(i);
  files[`r${i}.cjson`] = json(i);
}
const { tools, reason } = await createTools({ workspaceRoot: '/', files, workers: 0, timeouts: { astGrepMs: 600000 }, treeCache: false });
if (reason) throw new Error(reason);
const ag = tools.find((t) => t.name === 'ast_grep');

async function search(path) {
  const t = performance.now();
  const r = await ag.execute({ rule: { kind: 'object' }, path }); // no object in the files, nothing to filter them out by
  if (r.metadata.error) throw new Error(r.metadata.error);
  return performance.now() - t;
}

const times = { json: [], cjson: [] };
await search('r0.json'); // round 0 warms both up
await search('r0.cjson');
for (let i = 1; i <= rounds; i++) {
  // Alternate which goes first, so that drift falls on both.
  const order = i % 2 ? ['json', 'cjson'] : ['cjson', 'json'];
  for (const ext of order) times[ext].push(await search(`r${i}.${ext}`));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const builtIn = median(times.json);
const custom = median(times.cjson);
console.log(`1 MiB of JSON, median of ${rounds}: built-in ${builtIn.toFixed(1)} ms, custom (metered) ${custom.toFixed(1)} ms: ${((custom / builtIn - 1) * 100).toFixed(1)}%`);
