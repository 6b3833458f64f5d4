// The persistent tree cache from Node: a new process's first search of
// files that an earlier process, or loupe's CLI, parsed reads their trees
// from the cache folder instead of parsing them, and finds the same
// matches. Each search runs in a process of its own, as an agent's
// sessions do. Real modules, real files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { treeCacheFolder } from '../dist/node.js';

const index = new URL('../dist/index.js', import.meta.url).href;
const cli = new URL('../../bin/loupe', import.meta.url).pathname;

/** A workspace of a few JavaScript files, of content no other test has. */
function workspace() {
  const root = mkdtempSync(join(tmpdir(), 'loupe-trees-ws-'));
  const tag = root.replace(/\W/g, '_');
  for (let i = 0; i < 3; i++) writeFileSync(join(root, `f${i}.js`), `// ${tag}\nfunction f${i}() { g${i}.call(${i}); }\n`);
  return root;
}

/**
 * Runs one ast_grep call in a new Node process with createTools options
 * and environment env (the test's own tree cache settings cleared), and
 * returns its matches as file:text.
 */
function search(root, options, env = {}) {
  const script = `
    const { createTools } = await import(${JSON.stringify(index)});
    const { tools, reason } = await createTools({ workspaceRoot: ${JSON.stringify(root)}, ...${JSON.stringify(options)} });
    if (reason) throw new Error(reason);
    const r = await tools.find((t) => t.name === 'ast_grep').execute({ pattern: '$F.call($$$A)', language: 'javascript' });
    if (r.metadata.error) throw new Error(r.metadata.error);
    process.stdout.write(JSON.stringify(r.metadata.matches.map((m) => m.file + ':' + m.text)));
    process.exit(0);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, LOUPE_NO_CACHE: '', LOUPE_TREE_CACHE_DIR: '', ...env },
  });
  return JSON.parse(String(out));
}

/** The pack files under dir, at any depth, sorted. */
function packs(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.pack')).sort();
}

for (const workers of [0, 2]) {
  test(`a second process reads the trees the first saved, and parses only what changed (workers: ${workers})`, async () => {
    const root = workspace();
    const dir = mkdtempSync(join(tmpdir(), 'loupe-trees-'));
    const want = ['f0.js:g0.call(0)', 'f1.js:g1.call(1)', 'f2.js:g2.call(2)'];
    assert.deepEqual(search(root, { workers, treeCache: dir }), want);
    const saved = packs(dir);
    assert.ok(saved.length > 0, 'the first process saved no trees');
    // Had it parsed, the second process would have saved its trees anew.
    assert.deepEqual(search(root, { workers, treeCache: dir }), want);
    assert.deepEqual(packs(dir), saved, 'the second process parsed the files again');
    writeFileSync(join(root, 'f1.js'), 'h.call(7);\n');
    assert.deepEqual(search(root, { workers, treeCache: dir }), ['f0.js:g0.call(0)', 'f1.js:h.call(7)', 'f2.js:g2.call(2)']);
    assert.equal(packs(dir).length, saved.length + 1, 'the changed file was not parsed and saved, or others were too');
  });
}

test('the default folder is the CLI\'s; LOUPE_NO_CACHE and treeCache: false turn it off', () => {
  const root = workspace();
  const home = mkdtempSync(join(tmpdir(), 'loupe-home-'));
  const env = { HOME: home, XDG_CACHE_HOME: join(home, 'xdg'), LocalAppData: join(home, 'local') };
  const folder = treeCacheFolder(undefined, env);
  const expected = { win32: join(home, 'local'), darwin: join(home, 'Library', 'Caches') }[process.platform] ?? join(home, 'xdg');
  assert.equal(folder, join(expected, 'loupe', 'trees'));
  assert.equal(treeCacheFolder(undefined, { ...env, LOUPE_TREE_CACHE_DIR: join(home, 'mine') }), join(home, 'mine'));
  for (const off of ['1', 'true', 'yes']) assert.equal(treeCacheFolder(undefined, { ...env, LOUPE_NO_CACHE: off }), undefined);
  for (const on of ['', '0', 'false']) assert.equal(treeCacheFolder(undefined, { ...env, LOUPE_NO_CACHE: on }), folder);
  assert.equal(treeCacheFolder(false, env), undefined);
  assert.equal(treeCacheFolder(join(home, 'given'), { ...env, LOUPE_NO_CACHE: '1' }), join(home, 'given'));
  assert.equal(treeCacheFolder(undefined, {}), undefined, 'no home, no folder');

  search(root, { workers: 0, treeCache: false }, env);
  search(root, { workers: 0 }, { ...env, LOUPE_NO_CACHE: '1' });
  assert.deepEqual(packs(home), [], 'trees were saved with the cache off');
  search(root, { workers: 0 }, env);
  assert.ok(packs(folder).length > 0, `no trees saved in the default folder ${folder}`);
});

test('trees the CLI saved are read by the npm package', (t) => {
  if (!existsSync(cli)) {
    t.skip(`no ${cli}: run make build`);
    return;
  }
  const root = workspace();
  const dir = mkdtempSync(join(tmpdir(), 'loupe-trees-'));
  const out = execFileSync(cli, ['run', '-p', '$F.call($$$A)', '-l', 'js', '--json=stream', root], {
    env: { ...process.env, LOUPE_NO_CACHE: '', LOUPE_TREE_CACHE_DIR: dir },
  });
  assert.equal(String(out).trim().split('\n').length, 3);
  const saved = packs(dir);
  assert.ok(saved.length > 0, 'the CLI saved no trees');
  assert.deepEqual(search(root, { workers: 0, treeCache: dir }), ['f0.js:g0.call(0)', 'f1.js:g1.call(1)', 'f2.js:g2.call(2)']);
  assert.deepEqual(packs(dir), saved, 'the npm package parsed what the CLI had');
});
