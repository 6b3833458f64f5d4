// The published package is complete: pack it, install the tarball in an
// empty project and run a query from there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(pkgDir, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

test('npm pack → install → query', (t) => {
  const temp = (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  // Packed from a copy of the package without dist/: its prepack script
  // must build everything the package ships (into the copy, so the dist/
  // other tests load is left alone).
  const pkg = temp('loupe-pkg-');
  const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  for (const f of ['package.json', 'README.md', 'LICENSE', 'scripts', ...manifest.files.filter((f) => !f.startsWith('dist'))]) {
    cpSync(join(pkgDir, f), join(pkg, f), { recursive: true });
  }
  const dest = temp('loupe-pack-');
  const packed = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', dest], {
    cwd: pkg,
    encoding: 'utf8',
    env: { ...process.env, LOUPE_REPO: repo },
    stdio: ['ignore', 'pipe', 'pipe'], // make's output (stderr) only shows in a failure
  }));
  const tgz = join(dest, packed[0].filename);
  const files = packed[0].files.map((f) => f.path);
  const grammars = readdirSync(join(repo, 'grammars', 'wasm')).filter((f) => f.endsWith('.wasm')).map((f) => `dist/grammars/${f}`);
  assert.ok(grammars.length >= 28, `${grammars.length} grammar modules in grammars/wasm`);
  for (const want of ['README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/browser.js', 'dist/pool.js', 'dist/worker.js', 'dist/loupe.wasm', 'dist/wasm_exec.js', ...grammars]) {
    assert.ok(files.includes(want), `package lacks ${want}`);
  }
  assert.deepEqual(readFileSync(join(pkgDir, 'LICENSE')), readFileSync(join(repo, 'LICENSE')), 'js/LICENSE differs from the repository LICENSE');
  console.log(`package: ${(statSync(tgz).size / 1e6).toFixed(1)} MB packed, ${(packed[0].unpackedSize / 1e6).toFixed(1)} MB unpacked`);

  const app = temp('loupe-app-');
  writeFileSync(join(app, 'package.json'), '{"name":"app","private":true,"type":"module"}');
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--offline', tgz], { cwd: app, stdio: 'pipe' });
  writeFileSync(join(app, 'code.py'), 'def f(x):\n    return g(x, 1)\n');
  writeFileSync(join(app, 'run.mjs'), `
    import { createTools } from '@loupe-dev/loupe';
    const { tools, reason } = await createTools({ workspaceRoot: process.cwd() });
    if (reason) throw new Error(reason);
    const r = await tools.find((t) => t.name === 'ast_grep').execute({ pattern: 'g($$$A)', language: 'python' });
    console.log(JSON.stringify(r.metadata.matches.map((m) => m.text)));
  `);
  const out = execFileSync(process.execPath, ['run.mjs'], { cwd: app, encoding: 'utf8' });
  assert.equal(out.trim(), '["g(x, 1)"]');
});
