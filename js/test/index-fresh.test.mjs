// The project index through the npm package follows the package's own
// writes: a write through its file tools is in the index before the tool
// returns. make test builds bin/loupe and the package first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTools } from '../dist/index.js';
import { loupe } from '../scripts/indexrepos.mjs';

test('an index the CLI built follows the writes of the package\'s file tools', async () => {
  assert.ok(existsSync(loupe), `${loupe} is missing: run make build (make test does)`);
  const root = mkdtempSync(join(tmpdir(), 'loupe-index-fresh-'));
  writeFileSync(join(root, 'go.mod'), 'module example.com/fresh\n\ngo 1.22\n');
  writeFileSync(join(root, 'a.go'), 'package fresh\n\nfunc Alpha() {}\n');
  writeFileSync(join(root, 'b.go'), 'package fresh\n\nfunc Doomed() {}\n');
  execFileSync(loupe, ['index', root], { stdio: 'ignore' });
  const { tools, reason } = await createTools({ workspaceRoot: root, workers: 1, approve: async () => true });
  assert.equal(reason, undefined);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const symbols = async (name) => {
    const r = await byName.get_symbol.execute({ name });
    assert.equal(r.metadata.error, undefined, r.llmContent);
    return r.structured.symbols.map((s) => `${s.file_path}:${s.line}`);
  };
  try {
    assert.deepEqual(await symbols('Alpha'), ['a.go:3']);
    assert.deepEqual(await symbols('Beta'), []);

    const edit = await byName.edit_lines.execute({ path: 'a.go', operation: 'insert', line: 3, content: 'func Beta() {}' });
    assert.equal(edit.metadata.error, undefined, edit.llmContent);
    assert.deepEqual(await symbols('Beta'), ['a.go:4'], 'a write through edit_lines is in the index on the next call');

    const del = await byName.delete_file.execute({ path: 'b.go' });
    assert.equal(del.metadata.error, undefined, del.llmContent);
    assert.deepEqual(await symbols('Doomed'), [], 'a file delete_file removed');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
