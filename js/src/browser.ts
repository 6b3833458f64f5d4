/**
 * loupe for browsers (and any runtime without a file system): the files to
 * search are passed in memory, and the modules are fetched from baseUrl.
 *
 * ```ts
 * import { createTools } from '@loupe-dev/loupe/browser';
 * const { tools } = await createTools({ files: { 'src/a.ts': code }, baseUrl: '/loupe/' });
 * ```
 */
import { createToolsWith, type CreateToolsResult, type ToolsOptions } from './tools.js';
import { localEngine } from './engine.js';
import type { Env } from './runtime.js';

export type { AnyLoupeTool, CreateToolsResult, LoupeTool, ToolResult, JSONSchema } from './tools.js';
export type * from './tooltypes.js';

export interface BrowserToolsOptions extends ToolsOptions {
  /** The workspace: slash-separated paths and their contents. */
  files: Record<string, string | Uint8Array>;
  /** The URL of the folder holding loupe.wasm, wasm_exec.js and grammars/. */
  baseUrl: string | URL;
}

/** The browser Env: modules fetched from baseUrl. */
export function browserEnv(baseUrl: string | URL): Env {
  const base = new URL(String(baseUrl), globalThis.location?.href);
  const url = (p: string) => new URL(p, base);
  return {
    key: `url:${base.href}`,
    async loadGoSupport() {
      await import(/* @vite-ignore */ url('wasm_exec.js').href);
    },
    async goModule() {
      const r = await fetch(url('loupe.wasm'));
      if (!r.ok) throw new Error(`fetch loupe.wasm: ${r.status}`);
      return r.arrayBuffer();
    },
    async grammar(name) {
      const r = await fetch(url(`grammars/${name}.wasm`));
      if (!r.ok) throw new Error(`fetch grammar ${name}: ${r.status}`);
      return WebAssembly.compile(await r.arrayBuffer());
    },
  };
}

/** Loads the module and returns the tools over the in-memory files. */
export function createTools(options: BrowserToolsOptions): Promise<CreateToolsResult> {
  return createToolsWith(() => localEngine(browserEnv(options.baseUrl)), options, options.files);
}
