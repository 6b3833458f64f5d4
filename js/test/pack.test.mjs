// The published package is complete: pack it, install the tarball in an
// empty project and run a query from there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

test('npm pack → install → query', () => {
  const dest = mkdtempSync(join(tmpdir(), 'loupe-pack-'));
  const packed = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', dest], { cwd: pkgDir, encoding: 'utf8' }));
  const tgz = join(dest, packed[0].filename);
  const files = packed[0].files.map((f) => f.path);
  for (const want of ['dist/index.js', 'dist/index.d.ts', 'dist/pool.js', 'dist/worker.js', 'dist/loupe.wasm', 'dist/wasm_exec.js', 'dist/grammars/typescript.wasm', 'dist/grammars/python.wasm']) {
    assert.ok(files.includes(want), `package lacks ${want}`);
  }
  console.log(`package: ${(statSync(tgz).size / 1e6).toFixed(1)} MB packed, ${(packed[0].unpackedSize / 1e6).toFixed(1)} MB unpacked`);

  const app = mkdtempSync(join(tmpdir(), 'loupe-app-'));
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
