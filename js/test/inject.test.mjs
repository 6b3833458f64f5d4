// The playground's engine (wasm/playground.go) searches the code injected
// in its source, as `loupe run` and `loupe scan` do: a pattern in each
// region's language, a rule of the region's language, positions in the
// source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRuntime } from '../dist/runtime.js';
import { nodeEnv } from '../dist/node.js';

const source = '<p>x</p>\n<script>console.log(1)</script>\n<style>p { color: red }</style>\n';

test('a pattern finds code in a <script> of HTML, at its place in the page', async () => {
  const runtime = await loadRuntime(nodeEnv());
  const r = JSON.parse(await runtime.playground({ op: 'run', language: 'html', source, pattern: 'console.log($A)', rewrite: 'log($A)' }));
  assert.equal(r.error, undefined);
  assert.deepEqual(r.matches.map((m) => `${m.language} ${m.range.start.line}:${m.range.start.column} ${m.text}`), ['JavaScript 1:8 console.log(1)']);
  assert.equal(r.rewritten, source.replace('console.log(1)', 'log(1)'));
});

test('a rule of CSS runs on the <style> of HTML, without a warning', async () => {
  const runtime = await loadRuntime(nodeEnv());
  const rule = 'id: red\nlanguage: css\nrule:\n  kind: plain_value\n  regex: ^red$\nfix: blue\n';
  const r = JSON.parse(await runtime.playground({ op: 'run', language: 'html', source, rule }));
  assert.equal(r.error, undefined);
  assert.equal(r.warning, undefined);
  assert.deepEqual(r.matches.map((m) => `${m.ruleId} ${m.range.start.line}:${m.range.start.column} ${m.text}`), ['red 2:18 red']);
  assert.equal(r.rewritten, source.replace('red', 'blue'));
});
