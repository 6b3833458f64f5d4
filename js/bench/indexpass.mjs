// The npm package's stat pass, which applies changes other processes make
// to the copy of the project index it answers from, before each
// project-index call (there is no file watching under GOOS=js): on a tree
// indexed by the CLI (loupe index --db into a temporary folder), the
// first call (reading the index and a whole pass), a call when nothing
// changed, and a call after one file changed. Wall time of the call.
//   node js/bench/indexpass.mjs DIR...
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = resolve(new URL('../..', import.meta.url).pathname);
const loupe = join(repo, 'bin', 'loupe');
const { createTools } = await import(join(repo, 'js/dist/index.js'));

/** The first .go, .ts, .py or .rs file below dir, depth first. */
function sourceFile(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isFile() && /\.(go|ts|py|rs)$/.test(e.name) && !e.name.endsWith('_test.go')) return p;
    if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'testdata') {
      const f = sourceFile(p);
      if (f) return f;
    }
  }
  return undefined;
}

console.log('| tree | first call (read + whole pass) | nothing changed (p50 of 5) | one file changed |');
console.log('|---|---:|---:|---:|');
for (const arg of process.argv.slice(2)) {
  const tmp = mkdtempSync(join(tmpdir(), 'loupe-indexpass-'));
  const root = join(tmp, 'tree');
  cpSync(arg, root, { recursive: true });
  const db = join(tmp, 'index.db');
  execFileSync(loupe, ['index', '--db', db, root], { stdio: 'ignore' });
  const { tools, reason } = await createTools({ workspaceRoot: root, index: { path: db } });
  if (reason) throw new Error(reason);
  const status = tools.find((t) => t.name === 'index_status');
  const timed = async () => {
    const t0 = performance.now();
    const r = await status.execute({});
    if (typeof r.metadata.error === 'string') throw new Error(r.metadata.error);
    return performance.now() - t0;
  };
  const first = await timed();
  // Past the racy window (2 s), in which every recent file is hashed again.
  await new Promise((ok) => setTimeout(ok, 2500));
  const idle = [];
  for (let i = 0; i < 5; i++) idle.push(await timed());
  idle.sort((a, b) => a - b);
  const f = sourceFile(root);
  writeFileSync(f, readFileSync(f, 'utf8') + '\n');
  const one = await timed();
  const changed = (await status.execute({})).structured.files_changed;
  if (changed !== 1) throw new Error(`${arg}: files_changed is ${changed} after one edit`);
  console.log(`| ${arg} | ${first.toFixed(0)} ms | ${idle[2].toFixed(0)} ms | ${one.toFixed(0)} ms |`);
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
