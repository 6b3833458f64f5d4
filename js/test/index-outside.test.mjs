// The project index through the npm package follows changes other
// processes make (an editor, git checkout): there is no watching under
// GOOS=js, so each project-index call first runs a stat pass that applies
// them, per file, to the copy of the index the package answers from.
// indexed_at stays the build's; files_changed counts the files updated.
// make test builds bin/loupe and the package first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTools } from '../dist/index.js';
import { loupe } from '../scripts/indexrepos.mjs';

const git = (root, ...args) => execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'ignore' });

test('outside edits, new files, deletions and a checkout of 100 files reach the npm package\'s index on the next call', async () => {
  assert.ok(existsSync(loupe), `${loupe} is missing: run make build (make test does)`);
  const root = mkdtempSync(join(tmpdir(), 'loupe-index-outside-'));
  const file = (i) => join(root, 'pkg', `f${String(i).padStart(3, '0')}.go`);
  writeFileSync(join(root, 'go.mod'), 'module example.com/outside\n\ngo 1.22\n');
  writeFileSync(join(root, 'a.go'), 'package outside\n\nfunc Alpha() {}\n');
  writeFileSync(join(root, 'b.go'), 'package outside\n\nfunc Doomed() {}\n');
  mkdirSync(join(root, 'pkg'));
  for (let i = 0; i < 100; i++) writeFileSync(file(i), `package pkg\n\nfunc Old${i}() {}\n`);
  git(root, 'init', '-q');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'old');
  git(root, 'checkout', '-q', '-b', 'new');
  for (let i = 0; i < 100; i++) writeFileSync(file(i), `package pkg\n\nfunc New${i}() {}\n`);
  git(root, 'commit', '-q', '-am', 'new');
  execFileSync(loupe, ['index', root], { stdio: 'ignore' });

  const { tools, reason } = await createTools({ workspaceRoot: root, workers: 1 });
  assert.equal(reason, undefined);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const call = async (name, args) => {
    const r = await byName[name].execute(args);
    assert.equal(r.metadata.error, undefined, r.llmContent);
    return r;
  };
  const where = async (name) => (await call('get_symbol', { name })).structured.symbols.map((s) => `${s.file_path}:${s.line}`);
  const status = async () => (await call('index_status', {})).structured;
  try {
    assert.deepEqual(await where('Alpha'), ['a.go:3']);
    assert.deepEqual(await where('New7'), ['pkg/f007.go:3']);
    const built = (await status()).indexed_at;
    assert.equal((await status()).files_changed, 0);

    writeFileSync(join(root, 'a.go'), 'package outside\n\nfunc Alpha() {}\n\nfunc Beta() {}\n');
    assert.deepEqual(await where('Beta'), ['a.go:5'], 'an outside edit');
    writeFileSync(join(root, 'c.go'), 'package outside\n\nfunc Gamma() {}\n');
    assert.deepEqual(await where('Gamma'), ['c.go:3'], 'an outside new file');
    unlinkSync(join(root, 'b.go'));
    assert.deepEqual(await where('Doomed'), [], 'an outside deletion');
    let s = await status();
    assert.equal(s.indexed_at, built, 'indexed_at stays the build\'s');
    assert.equal(s.files_changed, 3);

    git(root, 'checkout', '-q', '-'); // back to the first commit's branch
    assert.equal(readFileSync(file(7), 'utf8'), 'package pkg\n\nfunc Old7() {}\n');
    assert.deepEqual(await where('Old7'), ['pkg/f007.go:3'], 'a checkout of 100 files');
    assert.deepEqual(await where('New7'), []);
    const olds = await call('search_symbols', { query: 'Old99' });
    assert.deepEqual(olds.structured.symbols.map((x) => x.file_path), ['pkg/f099.go']);
    s = await status();
    assert.equal(s.indexed_at, built);
    assert.equal(s.files_changed, 103);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
