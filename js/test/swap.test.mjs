// Issue 18 item 4 through the npm package: while another process keeps
// swapping a directory of the workspace for a link to one outside it, no
// call returns a byte of the outside files and no write lands outside.
// Under GOOS=js os.Root checks a path before it opens it, so the race is
// real here; core/search.Confined asks Linux where each opened file is.
// LOUPE_ADVERSARIAL_FULL=1 (make adversarial) runs 5,000 calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTools } from '../dist/index.js';

const linux = existsSync('/proc/self/fd') ? false : 'needs Linux /proc/self/fd to confine opens under GOOS=js';

test('a directory swapped for a link outside never leaks a byte nor takes a write', { skip: linux, timeout: 600000 }, async () => {
  const calls = process.env.LOUPE_ADVERSARIAL_FULL ? 5000 : 300;
  const base = mkdtempSync(join(tmpdir(), 'loupe-swap-'));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(join(ws, 'd'), { recursive: true });
  mkdirSync(outside);
  for (let i = 0; i < 8; i++) {
    writeFileSync(join(ws, 'd', `f${i}.ts`), `export function shared${i}() { return 'inside'; }\nshared${i}();\n`);
    writeFileSync(join(outside, `f${i}.ts`), `export function shared${i}() { return 'OUTSIDE_SECRET'; }\nshared${i}();\n`);
  }
  const { tools, reason } = await createTools({ workspaceRoot: ws, workers: 2, approve: () => true });
  assert.equal(reason, undefined);
  const t = Object.fromEntries(tools.map((x) => [x.name, x]));
  const kinds = [
    () => t.ast_grep.execute({ pattern: "return '$S'", language: 'typescript' }),
    () => t.structural_analysis.execute({ mode: 'definitions', language: 'typescript', symbol: 'shared3' }),
    () => t.grep.execute({ pattern: 'return' }),
    () => t.read_file.execute({ path: 'd/f2.ts' }),
    () => t.append_file.execute({ path: 'd/f5.ts', content: '// appended' }),
  ];
  const swapper = spawn(process.execPath, [new URL('../fixtures/swap-loop.mjs', import.meta.url).pathname, ws, outside], { stdio: 'ignore' });
  let leaks = 0;
  let found = 0;
  try {
    for (let i = 0; i < calls; i++) {
      const r = await kinds[i % kinds.length]();
      const text = r.llmContent + JSON.stringify(r.metadata);
      if (text.includes('OUTSIDE_SECRET')) leaks++;
      if (text.includes('inside')) found++;
    }
  } finally {
    swapper.kill('SIGKILL');
  }
  assert.equal(leaks, 0, `${leaks} of ${calls} calls returned outside content`);
  // The reads did find the inside files (a test that could not fail would not count).
  assert.ok(found > calls / 4, `only ${found} of ${calls} calls found the inside files`);
  // Nothing was written outside: no appended line, no temporary file.
  for (const f of readdirSync(outside)) {
    assert.doesNotMatch(readFileSync(join(outside, f), 'utf8'), /appended/, f);
  }
  assert.equal(readdirSync(outside).length, 8, readdirSync(outside).join());
});
