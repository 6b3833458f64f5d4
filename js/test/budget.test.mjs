// The context budget (js/bench/budget.mjs): everything a client loads
// from `loupe mcp` before its first call fits in 8,000 o200k tokens, and
// no tool's definition takes more than 1,200. make test builds bin/loupe
// before it runs these tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measure, limits } from '../bench/budget.mjs';

test('what a client loads before its first call fits the context budget', async () => {
  const m = await measure();
  // Every tool is counted: the fourteen of the registry and the index's ten.
  assert.equal(m.tools.length, 24, m.tools.map((t) => t.name).join(', '));
  for (const t of m.tools) {
    assert.ok(t.total <= limits.perTool, `${t.name} takes ${t.total} tokens, over ${limits.perTool}`);
  }
  // The outline, the repository map an agent reads first, stays small.
  const outline = m.tools.find((t) => t.name === 'outline');
  assert.ok(outline && outline.total <= 300, `outline takes ${outline?.total} tokens, over 300`);
  assert.ok(m.total <= limits.total, `${m.total} tokens before the first call, over ${limits.total}`);
  // The instructions say how the tools combine, not what each one says.
  assert.ok(m.instructions <= 400, `instructions take ${m.instructions} tokens`);
});
