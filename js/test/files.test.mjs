// The agent file tools of seed 003 through the npm package in Node: every
// scenario, on real files, with the host's approval callback. The tools
// come from Go's registry; this test only drives them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createTools } from '../dist/index.js';

/** A workspace holding files (path → content). */
function workspace(files) {
  const root = mkdtempSync(join(tmpdir(), 'loupe-files-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  return root;
}

/**
 * The tools over root, by name, and the approval requests the host was
 * asked (approve answers them; null gives the package no approver).
 */
async function open(root, approve = () => true, options = {}) {
  const asked = [];
  const created = await createTools({
    workspaceRoot: root,
    workers: 1,
    ...options,
    approve: approve && (async (request) => {
      asked.push(request);
      return approve(request);
    }),
  });
  assert.equal(created.reason, undefined);
  return { tools: Object.fromEntries(created.tools.map((t) => [t.name, t])), asked, prompt: created.prompt };
}

const lines = (n, f = (i) => `line ${i}`) => Array.from({ length: n }, (_, i) => `${f(i + 1)}\n`).join('');
const read = (root, name) => readFileSync(join(root, name), 'utf8');
const isError = (r) => typeof r.metadata.error === 'string';

test('grep: a code pattern with line numbers, context and max_results; case, file type, no match, invalid regex', async () => {
  const root = workspace({
    'src/engine.rs': 'pub struct Engine;\n// runs tools\nimpl Engine {\n    pub async fn execute(&self) {}\n}\n',
    'src/other.rs': 'async fn execute_all() {}\nASYNC FN EXECUTE() {}\n',
    'web/app.ts': 'async function execute() {}\n',
  });
  const { tools } = await open(root);
  // Search for code pattern.
  let r = await tools.grep.execute({ pattern: 'async fn.*execute', max_results: 1 });
  assert.ok(!isError(r), r.llmContent);
  assert.equal(r.metadata.matches.length, 1);
  assert.equal(r.metadata.total_matches, 2);
  assert.equal(r.metadata.truncated, true);
  const m = r.metadata.matches[0];
  assert.deepEqual([m.file, m.line], ['src/engine.rs', 4]);
  assert.deepEqual(m.before.map((c) => c.line), [2, 3]);
  assert.deepEqual(m.after.map((c) => c.line), [5]);
  assert.match(r.llmContent, /src\/engine\.rs/);
  assert.match(r.metadata.suggestion, /\w/);
  // Case-insensitive search.
  r = await tools.grep.execute({ pattern: 'async fn execute', case_sensitive: false, file_type: 'rs' });
  assert.deepEqual(r.metadata.matches.map((x) => `${x.file}:${x.line}`), ['src/engine.rs:4', 'src/other.rs:1', 'src/other.rs:2']);
  // Filter by file type.
  r = await tools.grep.execute({ pattern: 'execute', file_type: 'ts' });
  assert.deepEqual(r.metadata.matches.map((x) => x.file), ['web/app.ts']);
  // No matches found: a success with a message.
  r = await tools.grep.execute({ pattern: 'no such text anywhere' });
  assert.ok(!isError(r));
  assert.equal(r.metadata.matches.length, 0);
  assert.match(r.llmContent, /[Nn]o match/);
  // Invalid regex: a tool error that explains and suggests.
  r = await tools.grep.execute({ pattern: 'fn(' });
  assert.ok(isError(r), r.llmContent);
  assert.match(r.llmContent, /missing closing \)/);
  assert.match(r.llmContent, /literal|escape|\\\(/);
});

test('glob: by extension, sorted, with default and given exclusions; test files; invalid pattern; no match', async () => {
  const root = workspace({
    'src/b/Button.tsx': '', 'src/App.tsx': '', 'node_modules/react/index.tsx': '', 'dist/App.tsx': '',
    'src/a/util.test.ts': '', 'src/a/deep/er/x.test.ts': '', 'test/y.test.ts': '', 'fixtures/f.tsx': '',
  });
  const { tools } = await open(root);
  let r = await tools.glob.execute({ pattern: '**/*.tsx' });
  assert.deepEqual(r.metadata.files, ['fixtures/f.tsx', 'src/App.tsx', 'src/b/Button.tsx']);
  r = await tools.glob.execute({ pattern: 'src/**/*.test.ts' });
  assert.deepEqual(r.metadata.files, ['src/a/deep/er/x.test.ts', 'src/a/util.test.ts']);
  r = await tools.glob.execute({ pattern: '**/*.tsx', exclude: ['fixtures', 'b'] });
  assert.deepEqual(r.metadata.files, ['src/App.tsx']);
  r = await tools.glob.execute({ pattern: 'src/[a-' });
  assert.ok(isError(r), r.llmContent);
  assert.match(r.llmContent, /pattern/i);
  r = await tools.glob.execute({ pattern: '**/*.vue' });
  assert.ok(!isError(r));
  assert.equal(r.metadata.total_files, 0);
  assert.match(r.llmContent, /[Nn]o files? match/);
});

test('replace_in_file: text and regex replacement ask approval; a preview or 0 matches does not; a missing file is named', async () => {
  const root = workspace({ 'src/registry.ts': 'oldText();\nconst a = oldText;\n', 'src/api.go': 'assertEqual(a, b)\nassertEqual(c, d)\n' });
  const { tools, asked } = await open(root);
  let r = await tools.replace_in_file.execute({ path: 'src/registry.ts', find: 'oldText', replace: 'newText' });
  assert.ok(!isError(r), r.llmContent);
  assert.equal(r.metadata.replacements, 2);
  assert.equal(read(root, 'src/registry.ts'), 'newText();\nconst a = newText;\n');
  assert.equal(asked.length, 1);
  assert.deepEqual([asked[0].tool, asked[0].permission, asked[0].path], ['replace_in_file', ['WriteFiles'], 'src/registry.ts']);
  assert.match(asked[0].diff, /^-oldText\(\);$/m);
  r = await tools.replace_in_file.execute({ path: 'src/api.go', find: String.raw`assertEqual\((\w+), (\w+)\)`, replace: 'assertEqual($2, $1)', is_regex: true });
  assert.equal(r.metadata.replacements, 2);
  assert.equal(read(root, 'src/api.go'), 'assertEqual(b, a)\nassertEqual(d, c)\n');
  // Preview mode: a diff, no write, no approval.
  r = await tools.replace_in_file.execute({ path: 'src/api.go', find: 'assertEqual', replace: 'check', preview_only: true });
  assert.match(r.llmContent, /^\+check\(b, a\)$/m);
  assert.equal(read(root, 'src/api.go'), 'assertEqual(b, a)\nassertEqual(d, c)\n');
  // Pattern not found: "0 replacements", no write, no approval.
  r = await tools.replace_in_file.execute({ path: 'src/api.go', find: 'absent', replace: 'x' });
  assert.ok(!isError(r));
  assert.match(r.llmContent, /0 replacements/);
  assert.equal(asked.length, 2);
  // File not found.
  r = await tools.replace_in_file.execute({ path: 'src/missing.ts', find: 'a', replace: 'b' });
  assert.ok(isError(r));
  assert.match(r.llmContent, /src\/missing\.ts/);
});

test('edit_lines: insert, delete and replace with the new line count and approval; out of range gives the range; a missing file is named', async () => {
  const root = workspace({ 'app.py': lines(20) });
  const { tools, asked } = await open(root);
  let r = await tools.edit_lines.execute({ path: 'app.py', operation: 'insert', line: 10, content: 'import logging' });
  assert.ok(!isError(r), r.llmContent);
  assert.equal(r.metadata.total_lines, 21);
  assert.deepEqual(read(root, 'app.py').split('\n').slice(9, 12), ['line 10', 'import logging', 'line 11']);
  r = await tools.edit_lines.execute({ path: 'app.py', operation: 'delete', start_line: 5, end_line: 8 });
  assert.equal(r.metadata.total_lines, 17);
  assert.deepEqual(read(root, 'app.py').split('\n').slice(3, 5), ['line 4', 'line 9']);
  r = await tools.edit_lines.execute({ path: 'app.py', operation: 'replace', start_line: 10, end_line: 15, content: 'def main():\n    run()\n' });
  assert.equal(r.metadata.total_lines, 13);
  assert.equal(asked.length, 3);
  r = await tools.edit_lines.execute({ path: 'app.py', operation: 'delete', start_line: 12, end_line: 40 });
  assert.ok(isError(r));
  assert.match(r.llmContent, /1.*13/);
  assert.equal(asked.length, 3);
  r = await tools.edit_lines.execute({ path: 'nope.py', operation: 'delete', start_line: 1 });
  assert.ok(isError(r));
  assert.match(r.llmContent, /nope\.py/);
});

test('search: by name with a file type, excluded directories, and a limit with the total and a suggestion', async () => {
  const files = { 'src/registry.rs': '', 'src/registry.ts': '', 'tests/registry_test.rs': '', 'examples/registry.rs': '' };
  for (let i = 0; i < 30; i++) files[`many/config_${i}.json`] = '';
  const root = workspace(files);
  const { tools } = await open(root);
  let r = await tools.search.execute({ query: 'registry', file_type: 'rs' });
  assert.deepEqual(r.metadata.results.map((h) => h.path), ['examples/registry.rs', 'src/registry.rs', 'tests/registry_test.rs']);
  r = await tools.search.execute({ query: 'registry', file_type: 'rs', exclude_dirs: ['tests', 'examples'] });
  assert.deepEqual(r.metadata.results.map((h) => h.path), ['src/registry.rs']);
  r = await tools.search.execute({ query: 'config', max_results: 5 });
  assert.equal(r.metadata.results.length, 5);
  assert.equal(r.metadata.total_matches, 30);
  assert.equal(r.metadata.truncated, true);
  assert.match(r.metadata.suggestion, /\w/);
});

test('categories, permissions, approval rules and guidance come from Go, and the prompt groups the tools', async () => {
  const { tools, prompt } = await open(workspace({}));
  const cats = Object.fromEntries(Object.values(tools).map((t) => [t.name, t.category.name]));
  for (const n of ['grep', 'glob', 'search', 'list_directory']) assert.equal(cats[n], 'Search & Discovery');
  assert.equal(cats.read_file, 'File Reading');
  for (const n of ['create_file', 'update_file', 'append_file', 'replace_in_file', 'edit_lines']) assert.equal(cats[n], 'File Writing');
  assert.equal(cats.delete_file, 'File Management');
  assert.match(tools.edit_lines.category.description, /approval/);
  assert.match(tools.delete_file.category.description, /Destructive/);
  for (const n of ['grep', 'glob', 'search', 'list_directory', 'read_file']) {
    assert.deepEqual(tools[n].permissions, ['ReadFiles'], n);
    assert.equal(tools[n].requiresApproval, false, n);
  }
  for (const n of ['replace_in_file', 'edit_lines']) assert.deepEqual(tools[n].permissions, ['ReadFiles', 'WriteFiles'], n);
  assert.ok(tools.create_file.permissions.includes('CreateFiles'));
  assert.deepEqual(tools.delete_file.permissions, ['DeleteFiles']);
  for (const n of ['create_file', 'update_file', 'append_file', 'replace_in_file', 'edit_lines', 'delete_file']) assert.equal(tools[n].requiresApproval, true, n);
  assert.match(tools.grep.termination, /terminate=false when the results need further processing/);
  assert.match(tools.edit_lines.termination, /preview_only=true first/);
  assert.match(tools.grep.guide, /Important options/);
  assert.deepEqual(tools.grep.examples[0].params, { pattern: 'async fn.*execute', file_type: 'rs' });
  assert.match(prompt, /## File Writing\n[^]*### edit_lines: [^]*Examples:\n- insert after line 10: `\{"path":"src\/app\.py"/);
});

test('limits: grep 50 and glob 100 by default with totals and suggestions; a larger max_results is lowered to 500 and said so', async () => {
  const files = { 'hits.txt': lines(120, () => 'hit') };
  for (let i = 0; i < 520; i++) files[`f/${String(i).padStart(3, '0')}.md`] = '';
  const root = workspace(files);
  const { tools } = await open(root);
  let r = await tools.grep.execute({ pattern: 'hit' });
  assert.equal(r.metadata.matches.length, 50);
  assert.equal(r.metadata.total_matches, 120);
  assert.match(r.metadata.suggestion, /\w/);
  r = await tools.glob.execute({ pattern: '**/*.md' });
  assert.equal(r.metadata.files.length, 100);
  assert.equal(r.metadata.total_files, 520);
  assert.match(r.metadata.suggestion, /\w/);
  r = await tools.glob.execute({ pattern: '**/*.md', max_results: 700 });
  assert.equal(r.metadata.files.length, 500);
  assert.ok(r.metadata.warnings.some((w) => /700.*500/.test(w)), JSON.stringify(r.metadata.warnings));
  r = await tools.glob.execute({ pattern: '**/*.md', max_results: 7 });
  assert.equal(r.metadata.files.length, 7);
});

test('safety: grep skips files over 1 MB and directories deeper than 10 levels with warnings, and abandons a file past its time limit', async () => {
  const deep = Array.from({ length: 12 }, (_, i) => `d${i}`).join('/');
  const root = workspace({
    'big.txt': 'needle\n'.repeat(200_000),
    'a_small.txt': 'needle\n',
    [`${deep}/deep.txt`]: 'needle\n',
    'slow/a.txt': 'needle and hay\n'.repeat(60_000),
  });
  const { tools } = await open(root);
  let r = await tools.grep.execute({ pattern: 'needle', path: '.', max_results: 500, file_type: 'txt' });
  const files = new Set(r.metadata.matches.map((m) => m.file));
  assert.ok(files.has('a_small.txt') && !files.has('big.txt') && ![...files].some((f) => f.startsWith('d0/')), [...files].join());
  assert.ok(r.metadata.warnings.some((w) => /big\.txt/.test(w) && /MiB/.test(w)), JSON.stringify(r.metadata.warnings));
  assert.ok(r.metadata.warnings.some((w) => /depth|deeper|levels/.test(w)), JSON.stringify(r.metadata.warnings));
  // A per-file time limit of 1 ms: the 840 KB file cannot be searched in
  // it and is abandoned, with a warning; the small file is still searched.
  const { tools: hasty } = await open(root, () => true, { timeouts: { grepFileMs: 1 } });
  r = await hasty.grep.execute({ pattern: 'needle', path: '.', max_results: 500, file_type: 'txt' });
  assert.ok(r.metadata.warnings.some((w) => /abandoned/.test(w) && /slow\/a\.txt/.test(w)), JSON.stringify(r.metadata.warnings));
  assert.ok(r.metadata.matches.some((m) => m.file === 'a_small.txt'));
  assert.ok(!r.metadata.matches.some((m) => m.file === 'slow/a.txt'));
});

test('approval: without a callback writes are refused with a clear message; a no, a throw and a late yes are each honoured', async () => {
  const root = workspace({ 'a.txt': 'one\ntwo\n' });
  const refuse = await open(root, null);
  let r = await refuse.tools.append_file.execute({ path: 'a.txt', content: 'three' });
  assert.ok(isError(r));
  assert.match(r.llmContent, /approval is unavailable/);
  r = await refuse.tools.replace_in_file.execute({ path: 'a.txt', find: 'one', replace: '1', preview_only: true });
  assert.ok(!isError(r), r.llmContent);
  const no = await open(root, () => false);
  r = await no.tools.delete_file.execute({ path: 'a.txt' });
  assert.ok(isError(r));
  assert.match(r.llmContent, /did not approve/);
  assert.equal(no.asked[0].permission[0], 'DeleteFiles');
  const broken = await open(root, () => { throw new Error('no terminal to ask on'); });
  r = await broken.tools.update_file.execute({ path: 'a.txt', content: 'x\n' });
  assert.ok(isError(r));
  assert.match(r.llmContent, /no terminal to ask on/);
  assert.equal(read(root, 'a.txt'), 'one\ntwo\n');
  const late = await open(root, () => new Promise((resolve) => setTimeout(() => resolve(true), 50)));
  r = await late.tools.create_file.execute({ path: 'new/dir/b.txt', content: 'bee\n' });
  assert.ok(!isError(r), r.llmContent);
  assert.deepEqual(late.asked[0].permission, ['CreateFiles']);
  assert.equal(read(root, 'new/dir/b.txt'), 'bee\n');
});

test('writes keep CRLF, the BOM, a missing final newline and the mode; paths outside the workspace are refused', async () => {
  const root = workspace({ 'win.txt': '\uFEFFone\r\ntwo\r\nthree', 'run.sh': '#!/bin/sh\necho a\n' });
  chmodSync(join(root, 'run.sh'), 0o755);
  const outside = workspace({ 'secret.txt': 'secret\n' });
  symlinkSync(outside, join(root, 'escape'));
  const { tools, asked } = await open(root);
  let r = await tools.edit_lines.execute({ path: 'win.txt', operation: 'insert', line: 1, content: 'one and a half' });
  assert.ok(!isError(r), r.llmContent);
  assert.equal(read(root, 'win.txt'), '\uFEFFone\r\none and a half\r\ntwo\r\nthree');
  r = await tools.replace_in_file.execute({ path: 'run.sh', find: 'echo a', replace: 'echo b' });
  assert.equal(statSync(join(root, 'run.sh')).mode & 0o777, 0o755);
  r = await tools.update_file.execute({ path: 'run.sh', content: '#!/bin/sh\necho c\n' });
  assert.equal(read(root, 'run.sh'), '#!/bin/sh\necho c\n');
  assert.equal(statSync(join(root, 'run.sh')).mode & 0o777, 0o755);
  const before = asked.length;
  for (const [name, params] of [
    ['read_file', { path: '../x.txt' }],
    ['read_file', { path: join(outside, 'secret.txt') }],
    ['read_file', { path: 'escape/secret.txt' }],
    ['update_file', { path: 'escape/secret.txt', content: 'pwned\n' }],
    ['delete_file', { path: 'escape/secret.txt' }],
  ]) {
    r = await tools[name].execute(params);
    assert.ok(isError(r), `${name} ${JSON.stringify(params)}: ${r.llmContent}`);
    assert.match(r.llmContent, /outside the workspace/);
    // Where the link leads is never told.
    if (!params.path.startsWith('/')) assert.doesNotMatch(r.llmContent, new RegExp(outside));
  }
  assert.equal(asked.length, before);
  assert.equal(read(outside, 'secret.txt'), 'secret\n');
  assert.ok(existsSync(join(outside, 'secret.txt')));
});

test('read_file, list_directory and append_file', async () => {
  const root = workspace({ 'src/a.ts': lines(30), 'src/b/c.ts': '', 'log.md': '# log\n' });
  const { tools } = await open(root);
  let r = await tools.read_file.execute({ path: 'src/a.ts', start_line: 10, end_line: 12 });
  assert.equal(r.metadata.content, 'line 10\nline 11\nline 12\n');
  assert.match(r.llmContent, /10.*line 10/);
  r = await tools.list_directory.execute({ path: 'src' });
  assert.deepEqual(r.metadata.entries.map((e) => `${e.name}:${e.type}`), ['a.ts:file', 'b:directory']);
  r = await tools.append_file.execute({ path: 'log.md', content: '- entry' });
  assert.equal(read(root, 'log.md'), '# log\n- entry\n');
  assert.equal(r.metadata.total_lines, 2);
});

test('in memory (browsers, or files passed in): the file tools read and write the in-memory workspace, never the host\'s arrays', async () => {
  const original = new TextEncoder().encode('one\r\ntwo\r\n');
  const files = { 'src/a.ts': 'export const a = oldName;\n', 'win.txt': original, 'gone.txt': 'x\n' };
  const asked = [];
  const { tools, reason } = await createTools({ workspaceRoot: '', files, workers: 1, approve: (r) => (asked.push(r.tool), true) });
  assert.equal(reason, undefined);
  const t = Object.fromEntries(tools.map((x) => [x.name, x]));
  let r = await t.replace_in_file.execute({ path: 'src/a.ts', find: 'oldName', replace: 'newName' });
  assert.ok(!isError(r), r.llmContent);
  r = await t.read_file.execute({ path: 'src/a.ts' });
  assert.equal(r.metadata.content, 'export const a = newName;\n');
  r = await t.edit_lines.execute({ path: 'win.txt', operation: 'insert', line: 1, content: 'one and a half' });
  assert.ok(!isError(r), r.llmContent);
  r = await t.read_file.execute({ path: 'win.txt' });
  assert.equal(r.metadata.content, 'one\r\none and a half\r\ntwo\r\n');
  assert.equal(new TextDecoder().decode(original), 'one\r\ntwo\r\n');
  r = await t.create_file.execute({ path: 'new/dir/b.ts', content: 'export {};\n' });
  assert.ok(!isError(r), r.llmContent);
  r = await t.delete_file.execute({ path: 'gone.txt' });
  assert.ok(!isError(r), r.llmContent);
  r = await t.glob.execute({ pattern: '**/*' });
  assert.deepEqual(r.metadata.files, ['new/dir/b.ts', 'src/a.ts', 'win.txt']);
  r = await t.grep.execute({ pattern: 'newName' });
  assert.deepEqual(r.metadata.matches.map((m) => m.file), ['src/a.ts']);
  r = await t.ast_grep.execute({ pattern: 'export const $A = $B', language: 'typescript' });
  assert.match(r.llmContent, /newName/);
  assert.deepEqual(asked, ['replace_in_file', 'edit_lines', 'create_file', 'delete_file']);
  // Links cannot be made in memory, and nothing leaves it.
  r = await t.read_file.execute({ path: '../outside.txt' });
  assert.match(r.llmContent, /outside the workspace/);
});

test('a kill -9 at any moment of a write leaves the old file or the new one, never a torn one', async () => {
  const { spawn } = await import('node:child_process');
  const { readdirSync } = await import('node:fs');
  const body = 'a line of the file, the same in both versions\n'.repeat(60000);
  const versions = new Set(['version A\n' + body, 'version B\n' + body]);
  const root = workspace({ 'f.txt': 'version A\n' + body });
  const script = new URL('../fixtures/write-loop.mjs', import.meta.url).pathname;
  for (let round = 0; round < 8; round++) {
    const child = spawn(process.execPath, [script, root], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve, reject) => {
      child.stdout.once('data', resolve);
      child.once('exit', (code) => reject(new Error(`the writer exited (${code}) before it was ready`)));
    });
    // Some writes in, at a different moment each round.
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 60));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    assert.ok(versions.has(read(root, 'f.txt')), `round ${round}: f.txt is torn`);
  }
  // A killed write may leave its temporary file behind, which the listing
  // tools never show.
  const { tools } = await open(root);
  const listed = (await tools.list_directory.execute({})).metadata.entries.map((e) => e.name);
  assert.deepEqual(listed, ['f.txt'], `on disk: ${readdirSync(root).join(', ')}`);
});

test('a parameter spelt in another case, or named twice, is refused: the write never hits the file the approval does not show (issue 33 item 1)', async () => {
  const root = workspace({ 'shown.txt': 'shown\n', 'hidden.txt': 'hidden\n' });
  const { tools, asked } = await open(root);
  const attacks = [
    [tools.update_file, { path: 'shown.txt', PATH: 'hidden.txt', content: 'x\n' }, /unknown field "PATH".*did you mean "path"/],
    [tools.delete_file, { path: 'shown.txt', Path: 'hidden.txt' }, /unknown field "Path"/],
    [tools.create_file, { path: 'new.txt', pAtH: 'hidden.txt', content: 'x\n', overwrite: true }, /unknown field "pAtH"/],
    [tools.append_file, { path: 'shown.txt', PATH: 'hidden.txt', content: 'x\n' }, /unknown field "PATH"/],
  ];
  for (const [tool, params, re] of attacks) {
    const r = await tool.execute(params);
    assert.ok(isError(r), JSON.stringify(params));
    assert.match(r.metadata.error, re);
  }
  assert.equal(asked.length, 0);
  assert.equal(read(root, 'shown.txt'), 'shown\n');
  assert.equal(read(root, 'hidden.txt'), 'hidden\n');
  assert.equal(existsSync(join(root, 'new.txt')), false);
});
