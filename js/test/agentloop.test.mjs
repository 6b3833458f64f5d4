// The offline agent loop (js/bench/agentloop.mjs): a scripted client that
// follows only what loupe's tools say answers every navigation question
// about the pinned corpus right, paging capped answers to their end. make
// test builds bin/loupe before it runs these tests; the corpus is fetched
// with npm into .cache on first use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../bench/agentloop.mjs';

test('a scripted agent answers the navigation questions right by following the tools', async () => {
  const results = await run();
  assert.ok(results.length >= 10, `${results.length} questions`);
  for (const r of results) {
    assert.deepEqual(r.answer, r.expected, r.q);
    // An empty answer would agree with an empty expectation and prove nothing.
    assert.ok(r.answer !== undefined && (!Array.isArray(r.answer) || r.answer.length > 0), `${r.q}: an empty answer`);
    assert.ok(r.tokens > 0 && r.calls > 0, `${r.q}: nothing read`);
  }
});
