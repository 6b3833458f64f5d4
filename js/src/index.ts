/**
 * loupe's JavaScript face: the ast_grep and structural_analysis tools for a
 * TypeScript agent, with no native addon. The Go core runs as a GOOS=js
 * WebAssembly module and the tree-sitter grammars run on this engine's own
 * WebAssembly; one call into Go per tool invocation.
 *
 * ```ts
 * const { tools, reason } = await createTools({ workspaceRoot: process.cwd() });
 * for (const tool of tools) registry.register(tool); // none if reason is set
 * ```
 */
import * as os from 'node:os';
import { nodeEnv } from './node.js';
import { openPool } from './pool.js';
import { loadRuntime } from './runtime.js';
import { createToolsWith, type CreateToolsResult, type ToolsOptions } from './tools.js';

export type { CreateToolsResult, LoupeTool, ToolResult, JSONSchema, ToolsOptions } from './tools.js';

export interface CreateToolsOptions extends ToolsOptions {
  /** The directory no path may leave. */
  workspaceRoot: string;
  /** Search these files (path → content) in memory instead of workspaceRoot's disk contents. */
  files?: Record<string, string | Uint8Array>;
  /** Where loupe.wasm, wasm_exec.js and grammars/ live (default: this package's dist/). */
  assetsDir?: string;
  /**
   * Worker threads that split each ast_grep call, each searching its share
   * of the files with its own Go instance (default: the number of cores,
   * at most 4; 0 or 1 runs every call in this thread). The workers are
   * shared by every createTools call and never keep the process alive.
   */
  workers?: number;
}

/**
 * Loads the module and returns both tools for one workspace. It never
 * throws and never takes the host down: if the module cannot load (an old
 * runtime, a missing file), it returns no tools and the reason.
 */
export function createTools(options: CreateToolsOptions): Promise<CreateToolsResult> {
  const workers = Math.floor(options.workers ?? Math.min(os.availableParallelism?.() ?? os.cpus().length, 4));
  const split = workers > 1
    ? (config: Parameters<typeof openPool>[0]['config'], files?: Record<string, string | Uint8Array>) =>
        openPool({ size: workers, assetsDir: options.assetsDir, config, files })
    : undefined;
  return createToolsWith(() => loadRuntime(nodeEnv(options.assetsDir)), options, options.files, split);
}
