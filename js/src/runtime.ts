/**
 * Loads the Go module once per process and the grammar modules on demand.
 */
import { readFileSync, existsSync } from 'node:fs';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { webcrypto } from 'node:crypto';

/** The Go side's API (wasm/main.go). */
interface LoupeGlobal {
  init(loader: GrammarLoader, config: string): Promise<string>;
  call(session: string, name: string, params: string, id: string): Promise<string>;
  cancel(id: string): void;
  parse(params: string): string;
}

interface GrammarLoader {
  instantiate(name: string): WebAssembly.Instance;
}

/** A loaded module. */
export interface Runtime {
  init(config: unknown): Promise<Record<string, unknown>>;
  call(session: string, name: string, params: unknown, id: string): Promise<Record<string, unknown>>;
  cancel(id: string): void;
  parse(language: string, source: string): Record<string, unknown>;
}

const loaded = new Map<string, Promise<Runtime>>();

/** Loads (once per assets dir) the Go module and returns its API. */
export function loadRuntime(assetsDir?: string): Promise<Runtime> {
  const dir = assetsDir ?? dirname(fileURLToPath(import.meta.url));
  let p = loaded.get(dir);
  if (!p) {
    p = boot(dir);
    loaded.set(dir, p);
    p.catch(() => loaded.delete(dir)); // a failed load may be retried
  }
  return p;
}

async function boot(dir: string): Promise<Runtime> {
  if (typeof WebAssembly !== 'object') {
    throw new Error('this JavaScript runtime has no WebAssembly');
  }
  for (const f of ['loupe.wasm', 'wasm_exec.cjs', 'grammars']) {
    if (!existsSync(join(dir, f))) {
      throw new Error(`missing ${join(dir, f)}`);
    }
  }
  // Go's js/wasm support reaches the file system and a few Web APIs
  // through globals.
  const g = globalThis as Record<string, unknown>;
  g.fs ??= fs;
  g.crypto ??= webcrypto;
  const require = createRequire(import.meta.url);
  require(join(dir, 'wasm_exec.cjs'));
  const Go = g.Go as new () => { importObject: WebAssembly.Imports; run(i: WebAssembly.Instance): Promise<void>; env: Record<string, string> };
  const go = new Go();
  const ready = new Promise<void>((resolve) => {
    g.__loupeReady = resolve;
  });
  const { instance } = await WebAssembly.instantiate(readFileSync(join(dir, 'loupe.wasm')), go.importObject);
  go.run(instance).catch(() => undefined);
  await ready;
  delete g.__loupeReady;
  const api = g.loupe as LoupeGlobal;
  delete g.loupe;

  const modules = new Map<string, WebAssembly.Module>();
  const loader: GrammarLoader = {
    instantiate(name: string) {
      let m = modules.get(name);
      if (!m) {
        m = new WebAssembly.Module(readFileSync(join(dir, 'grammars', `${name}.wasm`)));
        modules.set(name, m);
      }
      return new WebAssembly.Instance(m, {});
    },
  };
  const parseJSON = (s: string) => JSON.parse(s) as Record<string, unknown>;
  return {
    async init(config) {
      const out = parseJSON(await api.init(loader, JSON.stringify(config)));
      if ('error' in out) throw new Error(String(out.error));
      return out;
    },
    async call(session, name, params, id) {
      return parseJSON(await api.call(session, name, JSON.stringify(params), id));
    },
    cancel(id) {
      api.cancel(id);
    },
    parse(language, source) {
      return parseJSON(api.parse(JSON.stringify({ language, source })));
    },
  };
}
