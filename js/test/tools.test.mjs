// Tests of the JS face through the built package: real modules, real files.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTools } from '../dist/index.js';

let root;
let tools;
let astGrep;
let analysis;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'loupe-js-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/a.ts'), 'class A {\n  run() {\n    this.foo();\n    // this.foo()\n    other.foo(1, 2);\n  }\n}\n');
  writeFileSync(join(root, 'src/b.test.ts'), 'x.foo();\n');
  writeFileSync(join(root, 'src/bin.ts'), Buffer.from([0x61, 0x00, 0x01]));
  writeFileSync(join(root, 'src/calls.ts'), 'export function top() { mid(); }\nexport function mid() { leaf(); }\nexport function leaf() { return 1; }\n');
  const outside = mkdtempSync(join(tmpdir(), 'loupe-out-'));
  writeFileSync(join(outside, 'o.ts'), 'y.foo();\n');
  symlinkSync(outside, join(root, 'escape'));
  const created = await createTools({ workspaceRoot: root });
  assert.equal(created.reason, undefined);
  tools = created.tools;
  astGrep = tools.find((t) => t.name === 'ast_grep');
  analysis = tools.find((t) => t.name === 'structural_analysis');
});

test('tools carry what the Go registry declares: name, description, schema, category, permissions, examples', () => {
  assert.ok(astGrep, 'ast_grep registered');
  assert.match(astGrep.description, /not text search/);
  assert.equal(astGrep.parameters.type, 'object');
  assert.ok(astGrep.parameters.properties.pattern);
  assert.ok(astGrep.parameters.properties.rule);
  assert.equal(astGrep.title, 'Structural code search');
  assert.equal(astGrep.category.name, 'Search & Discovery');
  assert.equal(analysis.category.name, 'Code Analysis');
  for (const t of tools) {
    // The writing tools ask for approval; the others only read.
    assert.equal(t.requiresApproval, !(t.permissions.length === 1 && t.permissions[0] === 'ReadFiles'), t.name);
    assert.match(t.termination, /terminate=true/, t.name);
    assert.ok(t.guide && t.examples.length > 0, t.name);
    for (const e of t.examples) {
      for (const k of Object.keys(e.params)) assert.ok(t.parameters.properties[k], `${t.name} example ${e.use}: ${k}`);
    }
  }
});

test('the system prompt lists the tools by category, from Go', async () => {
  const created = await createTools({ workspaceRoot: root, workers: 0 });
  assert.match(created.prompt, /^## Search & Discovery\n/);
  assert.match(created.prompt, /### ast_grep: Structural code search\n/);
  assert.match(created.prompt, /## Code Analysis\n[^]*### structural_analysis: /);
  assert.match(created.prompt, /When to stop: /);
  // A disabled tool is left out of the tools and the prompt alike.
  const fewer = await createTools({ workspaceRoot: root, workers: 0, tools: { structural_analysis: { enabled: false } } });
  assert.ok(!fewer.tools.some((t) => t.name === 'structural_analysis'));
  assert.ok(fewer.tools.some((t) => t.name === 'ast_grep'));
  assert.doesNotMatch(fewer.prompt, /structural_analysis/);
  // A category goes with its last tool.
  const none = await createTools({ workspaceRoot: root, workers: 0, tools: { structural_analysis: { enabled: false }, outline: { enabled: false } } });
  assert.doesNotMatch(none.prompt, /structural_analysis|outline|Code Analysis/);
});

test('pattern search returns matches with captures (REQ-ASTGREP-002/007)', async () => {
  const r = await astGrep.execute({ pattern: '$OBJ.foo($$$ARGS)', language: 'typescript' });
  const m = r.metadata;
  assert.equal(m.totalMatches, 3);
  assert.equal(m.truncated, false);
  assert.deepEqual(m.matches.map((x) => `${x.file}:${x.startLine}:${x.text}`), [
    'src/a.ts:3:this.foo()', 'src/a.ts:5:other.foo(1, 2)', 'src/b.test.ts:1:x.foo()',
  ]);
  // The rule form (REQ-ASTGREP-003).
  const rule = await astGrep.execute({ rule: { kind: 'call_expression', has: { field: 'function', regex: '^other' } }, language: 'ts' });
  assert.deepEqual(rule.metadata.matches.map((x) => x.text), ['other.foo(1, 2)']);
  assert.equal(m.matches[0].metaVariables.single.OBJ, 'this');
  assert.deepEqual(m.matches[1].metaVariables.multi.ARGS, ['1', '2']);
  assert.equal(m.skippedFiles, 1);
  assert.match(r.llmContent, /src\/a\.ts:3:5 \[call_expression\] this\.foo\(\)/);
});

test('maxResults truncates and counts (REQ-ASTGREP-008)', async () => {
  const r = await astGrep.execute({ pattern: '$OBJ.foo($$$ARGS)', language: 'ts', maxResults: 1 });
  assert.equal(r.metadata.matches.length, 1);
  assert.equal(r.metadata.truncated, true);
  assert.equal(r.metadata.totalMatches, 3);
});

test('globs include and exclude (REQ-ASTGREP-010)', async () => {
  const r = await astGrep.execute({ pattern: '$OBJ.foo($$$ARGS)', language: 'ts', globs: ['!*.test.ts'] });
  assert.deepEqual([...new Set(r.metadata.matches.map((x) => x.file))], ['src/a.ts']);
});

test('errors come back as results, never throws (REQ-ASTGREP-004/006/011/013)', async () => {
  const cases = [
    [{ pattern: 'a', rule: { kind: 'identifier' }, language: 'ts' }, /exactly one of pattern or rule/],
    [{ language: 'ts' }, /exactly one of pattern or rule/],
    [{ pattern: 'a', language: 'ts', path: '../' }, /outside the workspace/],
    [{ pattern: 'a', language: 'ts', path: 'escape/o.ts' }, /outside the workspace/],
    [{ pattern: 'a', path: 'src' }, /language is required/],
    [{ pattern: 'a; b', language: 'ts' }, /invalid typescript pattern/],
    [{ patern: 'a' }, /unknown field "patern"/],
  ];
  for (const [params, re] of cases) {
    const r = await astGrep.execute(params);
    assert.match(String(r.metadata.error), re, JSON.stringify(params));
    assert.match(r.llmContent, /^Error: /);
  }
});

test('default path and single-file language detection (REQ-ASTGREP-005/013)', async () => {
  const all = await astGrep.execute({ pattern: 'other.foo($$$A)', language: 'ts', path: '' });
  assert.equal(all.metadata.totalMatches, 1);
  const one = await astGrep.execute({ pattern: 'other.foo($$$A)', path: 'src/a.ts' });
  assert.equal(one.metadata.totalMatches, 1);
});

test('empty results (REQ-ASTGREP-009)', async () => {
  const r = await astGrep.execute({ pattern: 'nothing($A)', language: 'ts' });
  assert.deepEqual(r.metadata.matches, []);
  assert.equal(r.metadata.truncated, false);
});

test('an aborted signal cancels (REQ-ASTGREP-015)', async () => {
  const ac = new AbortController();
  ac.abort();
  const r = await astGrep.execute({ pattern: '$A.foo()', language: 'ts' }, { signal: ac.signal });
  assert.equal(r.metadata.truncated, true);
  assert.equal(r.metadata.reason, 'cancelled');
});

test('a missing module degrades to no tools with a reason (REQ-ASTGREP-012)', async () => {
  const r = await createTools({ workspaceRoot: root, assetsDir: join(root, 'nowhere') });
  assert.deepEqual(r.tools, []);
  assert.match(r.reason, /could not load/);
});

test('files passed in memory are searched without touching the disk', async () => {
  const { tools: mem, reason } = await createTools({
    workspaceRoot: 'unused',
    files: { 'src/m.py': 'def f():\n    return g(1)\n', 'src/n.ts': 'g(2);\n', 'lib/deep/o.py': 'g(3)\n' },
  });
  assert.equal(reason, undefined);
  const ag = mem.find((t) => t.name === 'ast_grep');
  const r = await ag.execute({ pattern: 'g($A)', language: 'python' });
  assert.deepEqual(r.metadata.matches.map((m) => `${m.file}:${m.metaVariables.single.A}`), ['lib/deep/o.py:3', 'src/m.py:1']);
  const one = await ag.execute({ pattern: 'g($A)', path: 'src/n.ts' });
  assert.equal(one.metadata.totalMatches, 1);
  const out = await ag.execute({ pattern: 'g($A)', language: 'python', path: '../../etc' });
  assert.match(String(out.metadata.error), /outside the workspace/);
  // The disk workspace of the other session is unaffected.
  const disk = await astGrep.execute({ pattern: 'other.foo($$$A)', language: 'ts' });
  assert.equal(disk.metadata.totalMatches, 1);
});

test('files larger than an instance\'s heap parse on instances sized for them, between small ones', async () => {
  // Over 1 MiB a file gets a grammar instance of its own, dropped after
  // its parse; the small files around it share one. Every match must
  // still come from the right file and line.
  const big = (name, lines) => Array.from({ length: lines }, (_, i) => `${name}.call(${i}, 'padding padding padding padding');`).join('\n') + '\n';
  const files = { 'a.js': big('alpha', 30000), 'b.js': 'beta.call(0);\n', 'c.js': big('gamma', 45000), 'd.js': 'delta.call(0);\n' };
  assert.ok(files['a.js'].length > 1 << 20 && files['c.js'].length > files['a.js'].length);
  const { tools: mem, reason } = await createTools({ workspaceRoot: 'unused', files, workers: 1 });
  assert.equal(reason, undefined);
  const ag = mem.find((t) => t.name === 'ast_grep');
  const r = await ag.execute({ pattern: '$F.call($$$ARGS)', language: 'javascript' });
  assert.equal(r.metadata.totalMatches, 30000 + 1 + 45000 + 1);
  const last = await ag.execute({ pattern: 'gamma.call(44999, $$$REST)', language: 'javascript' });
  assert.deepEqual(last.metadata.matches.map((m) => `${m.file}:${m.startLine}`), ['c.js:45000']);
  const small = await ag.execute({ pattern: '$F.call(0)', language: 'javascript' });
  assert.deepEqual(small.metadata.matches.map((m) => `${m.file}:${m.startLine}:${m.text}`), ['b.js:1:beta.call(0)', 'd.js:1:delta.call(0)']);
});

test('tool defaults: disable a tool or override its description (REQ-INFRA-004)', async () => {
  const r = await createTools({
    workspaceRoot: root,
    tools: { structural_analysis: { enabled: false }, ast_grep: { description: 'custom' } },
  });
  assert.ok(!r.tools.some((t) => t.name === 'structural_analysis'));
  assert.equal(r.tools.find((t) => t.name === 'ast_grep').description, 'custom');
});

test('outline through the JS surface: the exports of a directory, the members in a file, pages', async () => {
  const outline = tools.find((t) => t.name === 'outline');
  assert.equal(outline.category.name, 'Code Analysis');
  // A directory: its exported items, no members; files without any left out.
  const dir = await outline.execute({});
  assert.equal(dir.llmContent, 'src/calls.ts\n1: export function top() { mid(); }\n2: export function mid() { leaf(); }\n3: export function leaf() { return 1; }\n');
  assert.deepEqual(dir.metadata.symbols.map((s) => `${s.file}:${s.line} ${s.type} ${s.name}`),
    ['src/calls.ts:1 function top', 'src/calls.ts:2 function mid', 'src/calls.ts:3 function leaf']);
  assert.equal(dir.metadata.total, 3);
  // A file: its items and their members, indented.
  const file = await outline.execute({ path: 'src/a.ts' });
  assert.equal(file.llmContent, 'src/a.ts\n1: class A {\n  2: run() {\n');
  assert.deepEqual(file.metadata.symbols.map((s) => [s.name, !!s.member]), [['A', false], ['run', true]]);
  // Pages: offset and limit, with the index tools' words and next_offset.
  const first = await outline.execute({ limit: 2 });
  assert.match(first.llmContent, /\n1 more of 3: call again with offset=2\n$/);
  assert.equal(first.metadata.next_offset, 2);
  const last = await outline.execute({ limit: 2, offset: first.metadata.next_offset });
  assert.deepEqual(last.metadata.symbols.map((s) => s.name), ['leaf']);
  assert.equal(last.metadata.next_offset, undefined);
  const bad = await outline.execute({ type: 'klass' });
  assert.match(String(bad.metadata.error), /Unknown outline symbol type `klass`/);
});

test('structural_analysis through the JS surface (REQ-SA-*)', async () => {
  assert.ok(analysis, 'structural_analysis registered');
  assert.match(analysis.description, /labelled resolved .* or name-only/);
  assert.deepEqual(analysis.parameters.properties.mode.enum, ['callers', 'callees', 'definitions', 'hierarchy', 'references', 'dependencies', 'exports']);
  const r = await analysis.execute({ mode: 'callers', language: 'typescript', symbol: 'leaf', depth: 2 });
  assert.equal(r.metadata.error, undefined, r.llmContent);
  assert.match(r.llmContent, /mid\(\)/);
  assert.match(r.llmContent, /top\(\)/);
  assert.match(r.llmContent, /via: /);
  const bad = await analysis.execute({ mode: 'sideways', language: 'typescript', symbol: 'x' });
  assert.match(String(bad.metadata.error), /callers.*callees.*definitions/);
  const out = await analysis.execute({ mode: 'exports', language: 'typescript', target: '../x.ts' });
  assert.match(String(out.metadata.error), /outside the workspace/);
  const none = await analysis.execute({ mode: 'definitions', language: 'typescript', symbol: 'NoSuchThing' });
  assert.equal(none.metadata.truncated, false);
  // The file form names a symbol by its file; a qualifier matching nothing
  // is an error naming the near candidates.
  const named = await analysis.execute({ mode: 'callers', language: 'typescript', symbol: 'src/calls.ts#leaf' });
  assert.equal(named.metadata.error, undefined, named.llmContent);
  assert.match(named.llmContent, /mid\(\)/);
  const near = await analysis.execute({ mode: 'callers', language: 'typescript', symbol: 'Nope.leaf' });
  assert.match(String(near.metadata.error), /near candidates: leaf src\/calls\.ts:3/);
});
