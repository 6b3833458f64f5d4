// What the benchmarks share: the repository's root and the pinned
// typescript@5.9.3 corpus, fetched from the npm registry into the cache
// folder (LOUPE_CACHE, default .cache/) on first use, never committed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository's root folder. */
export const repo = resolve(new URL('../..', import.meta.url).pathname);

/** Returns typescript@5.9.3's lib/ folder, fetching the package first if it is not cached. */
export function typescriptLib() {
  const corpusDir = join(process.env.LOUPE_CACHE ?? join(repo, '.cache'), 'corpus', 'typescript@5.9.3');
  const lib = join(corpusDir, 'package', 'lib');
  if (!existsSync(lib)) {
    mkdirSync(corpusDir, { recursive: true });
    const tgz = execFileSync('npm', ['pack', '--silent', 'typescript@5.9.3'], { cwd: corpusDir, encoding: 'utf8' }).trim().split('\n').pop();
    execFileSync('tar', ['xzf', tgz], { cwd: corpusDir });
  }
  return lib;
}
