// npm pack and npm publish run this first: it builds everything the package
// ships into dist/ (`make js-build` at the repository root: the TypeScript,
// the Go core as GOOS=js wasm, wasm_exec.js, the grammar modules) and fails,
// saying how to build, rather than let a package without them be packed.
// LOUPE_REPO names the loupe checkout when the package folder is a copy.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = process.cwd(); // npm runs lifecycle scripts in the package folder
const repo = process.env.LOUPE_REPO ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(pkgDir, 'dist');
const how = 'the package is built from a loupe checkout with Go 1.26, make and Node 18+: run `make js` at the repository root, then `npm pack` in js/';

function fail(why) {
  console.error(`prepack: ${why}; ${how}`);
  process.exit(1);
}

if (!existsSync(join(repo, 'go.mod')) || !existsSync(join(repo, 'grammars', 'wasm'))) {
  fail(`no loupe checkout at ${repo} (set LOUPE_REPO)`);
}
for (const [tool, args] of [['go', ['version']], ['make', ['--version']]]) {
  try {
    execFileSync(tool, args, { stdio: 'ignore' });
  } catch {
    fail(`${tool} not found`);
  }
}
if (!existsSync(join(repo, 'js', 'node_modules', '.bin', 'tsc'))) {
  fail('TypeScript is not installed in js/node_modules (make js-deps installs it)');
}
if (!readFileSync(join(pkgDir, 'LICENSE')).equals(readFileSync(join(repo, 'LICENSE')))) {
  fail('js/LICENSE differs from the repository LICENSE (copy it)');
}
try {
  // make's output goes to stderr: `npm pack --json` prints its answer on stdout.
  execFileSync('make', ['--no-print-directory', '-C', repo, 'js-build', `JS_DIST=${dist}`], { stdio: ['ignore', 2, 2] });
} catch {
  fail('make js-build failed (see above)');
}
const grammars = readdirSync(join(repo, 'grammars', 'wasm')).filter((f) => f.endsWith('.wasm'));
for (const f of ['index.js', 'index.d.ts', 'browser.js', 'loupe.wasm', 'wasm_exec.js', ...grammars.map((g) => `grammars/${g}`)]) {
  if (!existsSync(join(dist, f))) fail(`dist/${f} is missing after the build`);
}
