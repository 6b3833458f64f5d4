// Issues 18 item 4 and 33 item 2 through the npm package: while another
// process keeps swapping a directory of the workspace for a link to one
// outside it, no call returns a byte or a name of the outside files, and
// no delete, create, mkdir or write acts outside. Under GOOS=js there is
// no openat: internal/safefs walks an open directory handle down through
// /proc/self/fd and acts relative to it. The outside files are named as
// nothing inside is (secretN.txt), so a listing that strays shows it,
// besides victims named as files inside are (victimN.txt), so a delete
// that strays removes one. LOUPE_ADVERSARIAL_FULL=1 (make adversarial)
// runs 5,000 calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createTools } from '../dist/index.js';

const linux = existsSync('/proc/self/fd') ? false : 'needs Linux /proc/self/fd to confine opens under GOOS=js';

/** Every path below dir, sorted, with the content of each file. */
function snapshot(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      const st = statSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory()) {
        out.push(`${relative(dir, p)}/`);
        walk(p);
      } else {
        out.push(`${relative(dir, p)}=${st ? readFileSync(p, 'utf8') : '?'}`);
      }
    }
  };
  walk(dir);
  return out;
}

test('a directory swapped for a link outside never leaks a byte or a name, nor takes a write, delete or mkdir', { skip: linux, timeout: 3600000 }, async () => {
  const calls = process.env.LOUPE_ADVERSARIAL_FULL ? 5000 : 300;
  const base = mkdtempSync(join(tmpdir(), 'loupe-swap-'));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(join(ws, 'd'), { recursive: true });
  mkdirSync(outside);
  for (let i = 0; i < 8; i++) {
    writeFileSync(join(ws, 'd', `f${i}.ts`), `export function shared${i}() { return 'inside'; }\nshared${i}();\n`);
    writeFileSync(join(outside, `secret${i}.ts`), `export function shared${i}() { return 'OUTSIDE_SECRET'; }\nshared${i}();\n`);
    writeFileSync(join(outside, `victim${i}.txt`), 'OUTSIDE_VICTIM\n');
  }
  const before = snapshot(outside);
  const { tools, reason } = await createTools({ workspaceRoot: ws, workers: 2, approve: () => true });
  assert.equal(reason, undefined);
  const t = Object.fromEntries(tools.map((x) => [x.name, x]));
  const kinds = [
    () => t.ast_grep.execute({ pattern: "return '$S'", language: 'typescript' }),
    () => t.structural_analysis.execute({ mode: 'definitions', language: 'typescript', symbol: 'shared3' }),
    () => t.grep.execute({ pattern: 'return' }),
    () => t.read_file.execute({ path: 'd/f2.ts' }),
    () => t.append_file.execute({ path: 'd/f5.ts', content: '// appended' }),
    () => t.list_directory.execute({ path: 'd' }),
    () => t.list_directory.execute({ path: 'd', recursive: true }),
    async (i) => {
      // A victim inside, made through loupe (never by a path the swap
      // could redirect), then deleted: named as one outside.
      const name = `d/victim${i % 8}.txt`;
      await t.create_file.execute({ path: name, content: 'inside\n', overwrite: true });
      return t.delete_file.execute({ path: name });
    },
    (i) => t.create_file.execute({ path: `d/new${i}/made.txt`, content: 'inside\n' }),
  ];
  const swapper = spawn(process.execPath, [new URL('../fixtures/swap-loop.mjs', import.meta.url).pathname, ws, outside], { stdio: 'ignore' });
  let leaks = 0;
  let found = 0;
  const leaked = [];
  try {
    for (let i = 0; i < calls; i++) {
      const r = await kinds[i % kinds.length](i);
      const text = r.llmContent + JSON.stringify(r.metadata);
      if (text.includes('OUTSIDE') || text.includes('secret') || text.includes(outside)) {
        leaks++;
        if (leaked.length < 3) leaked.push(`kind ${i % kinds.length}: ${text.slice(0, 300)}`);
      }
      if (text.includes('inside') || text.includes('f3.ts')) found++;
    }
  } finally {
    swapper.kill('SIGKILL');
  }
  const after = snapshot(outside);
  const changed = after.filter((e) => !before.includes(e)).concat(before.filter((e) => !after.includes(e)));
  console.log(`${calls} calls: ${found} found inside content, ${leaks} told of the outside, ${changed.length} outside entries changed`);
  assert.equal(leaks, 0, `${leaks} of ${calls} calls told of the outside:\n${leaked.join('\n')}`);
  // The reads did find the inside files (a test that could not fail would not count).
  assert.ok(found > calls / 4, `only ${found} of ${calls} calls found the inside files`);
  // Nothing was written, deleted or made outside.
  assert.deepEqual(changed, [], `the outside directory changed: ${changed.join(', ')}`);
});
