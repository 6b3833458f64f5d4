// Cold start of the npm package in a fresh process: import, createTools
// (boot the Go module, open a workspace) and a first ast_grep query on a
// small workspace (testdata/demo), which compiles one grammar module; the
// default worker pool boots alongside.
//   node js/bench/coldstart.mjs
import { join, resolve } from 'node:path';

const repo = resolve(new URL('../..', import.meta.url).pathname);
const t0 = performance.now();
const { createTools } = await import(join(repo, 'js/dist/index.js'));
const { tools, reason } = await createTools({ workspaceRoot: join(repo, 'testdata/demo'), treeCache: false });
if (reason) throw new Error(reason);
const t1 = performance.now();
const r = await tools.find((t) => t.name === 'ast_grep').execute({ pattern: 'console.log($$$A)', language: 'typescript' });
const t2 = performance.now();
console.log(`cold start: load ${(t1 - t0).toFixed(0)} ms + first query ${(t2 - t1).toFixed(0)} ms = ${(t2 - t0).toFixed(0)} ms (${r.metadata.totalMatches} matches)`);
