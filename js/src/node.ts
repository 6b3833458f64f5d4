/** The Node environment: files are read from this package's dist/. */
import * as fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { webcrypto } from 'node:crypto';
import type { Env } from './runtime.js';

/** The Node Env for the assets in dir (default: this file's folder). */
export function nodeEnv(dir?: string): Env {
  const base = dir ?? dirname(fileURLToPath(import.meta.url));
  return {
    key: `node:${base}`,
    async loadGoSupport() {
      for (const f of ['loupe.wasm', 'wasm_exec.js', 'grammars']) {
        if (!fs.existsSync(join(base, f))) throw new Error(`missing ${join(base, f)}`);
      }
      const g = globalThis as Record<string, unknown>;
      g.crypto ??= webcrypto; // Node 18 has no global crypto
      await import(pathToFileURL(join(base, 'wasm_exec.js')).href);
    },
    goModule: () => readFile(join(base, 'loupe.wasm')),
    grammar: async (name) => WebAssembly.compile(await readFile(join(base, 'grammars', `${name}.wasm`))),
    grammarSync: (name) => new WebAssembly.Module(readFileSync(join(base, 'grammars', `${name}.wasm`))),
    nodeFs: fs as unknown as Env['nodeFs'],
  };
}
