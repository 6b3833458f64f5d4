// A file whose match never ends in practice (utilities calling each other
// 2^21 times over at each of its 2,000 calls) is stopped by
// timeouts.astGrepMs inside that file, in a worker and in this thread: Go
// reads the call's deadline on the clock while it matches, where the
// timer that would end the call cannot fire. Real modules, real files.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTools } from '../dist/index.js';

// u0 … u19: each any of the next utility twice, the last a regex no call
// matches, so every branch is tried: about two million steps a call, far
// inside the step limit of one node's match, so only the time limit can
// end the call (natively the file takes minutes).
const utils = {};
for (let i = 0; i < 20; i++) utils[`u${i}`] = { any: [{ matches: `u${i + 1}` }, { matches: `u${i + 1}` }] };
utils.u20 = { regex: '^never$' };
const hostile = { rule: { utils, rule: { kind: 'call_expression', matches: 'u0' } }, language: 'javascript' };

let root;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'loupe-budget-'));
  writeFileSync(join(root, 'a.js'), 'f(1);\n'.repeat(2000) + 'h(2);\n');
});

for (const workers of [1, 0]) {
  test(`timeouts.astGrepMs stops one file's endless match, and the tools go on (workers: ${workers})`, { timeout: 120000 }, async () => {
    const { tools, reason } = await createTools({ workspaceRoot: root, workers, timeouts: { astGrepMs: 3000 } });
    assert.equal(reason, undefined);
    const ag = tools.find((t) => t.name === 'ast_grep');
    const r = await ag.execute(hostile);
    assert.equal(r.metadata.error, undefined, String(r.metadata.error));
    assert.equal(r.metadata.truncated, true);
    assert.equal(r.metadata.reason, 'timeout');
    const next = await ag.execute({ pattern: 'h($A)', language: 'javascript' });
    assert.deepEqual(next.metadata.matches.map((m) => m.text), ['h(2)'], JSON.stringify(next.metadata));
  });
}
