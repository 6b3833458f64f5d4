/** The Node environment: files are read from this package's dist/. */
import * as fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHash, webcrypto } from 'node:crypto';
import { limitMemory, type Env, type ParseWatch } from './runtime.js';

/**
 * The default memory ceiling of one Go instance, in MiB: a quarter of
 * wasm32's 4 GiB, room for the tree cache (512 MiB) and a large parse (44 MB
 * of Go source, all in one instance, searched and analysed within it).
 */
export const DEFAULT_MEMORY_LIMIT_MIB = 1024;

/**
 * The memory a Go instance starts with, in MiB (at most its limit). In V8
 * every memory.grow replaces the memory's ArrayBuffer and counts all of it
 * again as external memory, which sets off garbage collections in the
 * instance's thread; Go grows its memory 4 MiB (an arena) at a time from
 * the module's 5 MiB, so during the first .d.ts query of js/bench/bench.mjs
 * the process collected 26 times, and 10 times with this. Memory the
 * instance never touches costs address space, not RAM.
 */
const GO_INITIAL_MIB = 256;

/** The folder of this package's assets (loupe.wasm, wasm_exec.js, grammars/). */
export function assetsFolder(dir?: string): string {
  return dir ?? dirname(fileURLToPath(import.meta.url));
}

function checkAssets(base: string): void {
  for (const f of ['loupe.wasm', 'wasm_exec.js', 'grammars']) {
    if (!fs.existsSync(join(base, f))) throw new Error(`missing ${join(base, f)}`);
  }
}

/**
 * Compiles loupe.wasm from dir with its memory limited to memoryLimitMiB
 * (0: unlimited), once for every instance that will run it.
 */
export async function compileGoModule(dir: string | undefined, memoryLimitMiB: number): Promise<WebAssembly.Module> {
  const base = assetsFolder(dir);
  checkAssets(base);
  const bytes = await readFile(join(base, 'loupe.wasm'));
  return WebAssembly.compile(memoryLimitMiB > 0 ? limitMemory(bytes, memoryLimitMiB, GO_INITIAL_MIB) : bytes);
}

/** Compiles the grammar module of language name from dir. */
export async function compileGrammar(dir: string | undefined, name: string): Promise<WebAssembly.Module> {
  return WebAssembly.compile(await readFile(join(assetsFolder(dir), 'grammars', `${name}.wasm`)));
}

/** How nodeEnv's instance is set up. */
export interface NodeEnvOptions {
  /** The Go instance cannot grow past this many MiB (0 or absent: no limit but wasm32's). */
  memoryLimitMiB?: number;
  /** loupe.wasm already compiled with that limit (compileGoModule). */
  module?: WebAssembly.Module;
  /** Where compiled grammar modules come from (default: compiled here). */
  grammar?: (name: string) => Promise<WebAssembly.Module>;
  /** Told when a custom language's module starts and ends a parse (a pool worker's watchdog). */
  watchParse?: ParseWatch;
  /** The persistent tree cache's folder (Env.treeCache; absent: none). */
  treeCache?: string;
}

/**
 * The folder of the persistent tree cache for a createTools treeCache
 * option, as loupe's CLI finds its own, so that both share it: none for
 * false or when LOUPE_NO_CACHE is set (but to "", "0" or "false"); the
 * folder given; else $LOUPE_TREE_CACHE_DIR, else loupe/trees in the
 * user's cache folder (%LocalAppData% on Windows, ~/Library/Caches on
 * macOS, $XDG_CACHE_HOME or ~/.cache elsewhere). Undefined when there is
 * no such folder (no home).
 */
export function treeCacheFolder(setting: string | false | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (setting === false) return undefined;
  if (typeof setting === 'string') return resolve(setting);
  const off = (env.LOUPE_NO_CACHE ?? '').trim().toLowerCase();
  if (off !== '' && off !== '0' && off !== 'false') return undefined;
  if (env.LOUPE_TREE_CACHE_DIR) return resolve(env.LOUPE_TREE_CACHE_DIR);
  let base: string | undefined;
  if (process.platform === 'win32') base = env.LocalAppData;
  else if (process.platform === 'darwin') base = env.HOME && join(env.HOME, 'Library', 'Caches');
  else base = (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined) ?? (env.HOME && join(env.HOME, '.cache'));
  return base ? join(base, 'loupe', 'trees') : undefined;
}

/** The Node Env for the assets in dir (default: this file's folder). */
export function nodeEnv(dir?: string, opts: NodeEnvOptions = {}): Env {
  const base = assetsFolder(dir);
  const limit = opts.memoryLimitMiB ?? 0;
  return {
    key: `node:${base}:${limit}:${opts.treeCache ?? ''}`,
    memoryLimitMiB: limit > 0 ? limit : undefined,
    treeCache: opts.treeCache,
    async loadGoSupport() {
      checkAssets(base);
      const g = globalThis as Record<string, unknown>;
      g.crypto ??= webcrypto; // Node 18 has no global crypto
      // wasm_exec.js installs fallback globals fs and path where there are
      // none; the runtime sets its own while Go starts, so they go again.
      const had = { fs: 'fs' in g, path: 'path' in g };
      await import(pathToFileURL(join(base, 'wasm_exec.js')).href);
      if (!had.fs) delete g.fs;
      if (!had.path) delete g.path;
    },
    async goModule() {
      if (opts.module) return opts.module;
      const bytes = await readFile(join(base, 'loupe.wasm'));
      return limit > 0 ? limitMemory(bytes, limit, GO_INITIAL_MIB) : bytes;
    },
    grammar: opts.grammar ?? ((name) => compileGrammar(base, name)),
    watchParse: opts.watchParse,
    nodeFs: fs as unknown as Env['nodeFs'],
    sha256: (prefix, src) => createHash('sha256').update(prefix).update(src).digest(),
  };
}
