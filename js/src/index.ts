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
import { localEngine } from './engine.js';
import { DEFAULT_MEMORY_LIMIT_MIB, nodeEnv, treeCacheFolder } from './node.js';
import { poolEngine } from './pool.js';
import { createToolsWith, type CreateToolsResult, type ToolsOptions } from './tools.js';

export type { AnyLoupeTool, ApprovalRequest, CreateToolsResult, LoupeTool, ToolResult, JSONSchema, ToolsOptions } from './tools.js';
export type * from './tooltypes.js';

export interface CreateToolsOptions extends ToolsOptions {
  /** The directory no path may leave. */
  workspaceRoot: string;
  /** Search these files (path → content) in memory instead of workspaceRoot's disk contents. */
  files?: Record<string, string | Uint8Array>;
  /** Where loupe.wasm, wasm_exec.js and grammars/ live (default: this package's dist/). */
  assetsDir?: string;
  /**
   * Worker threads that run the calls, each with its own Go instance
   * (default: the number of cores, at most 4). Each ast_grep call is split
   * between them, each searching its share of the files; other calls run in
   * one. 0 runs every call in this thread instead: the calls then block it,
   * and an abort takes effect only when Go next looks. The workers are
   * shared by every createTools call and never keep the process alive.
   */
  workers?: number;
  /**
   * The most memory one Go instance may take, in MiB (default 1024): a
   * call that needs more fails with an error saying so, and the instance
   * is replaced. Grammar instances (one per parse) are not counted.
   */
  memoryLimitMiB?: number;
  /**
   * Where parsed trees are kept between processes: a folder, or false for
   * none (trees are then kept in memory only, for this process's calls).
   * By default the folder loupe's CLI uses, which both then share
   * ($LOUPE_TREE_CACHE_DIR, else loupe/trees in the user's cache folder;
   * none when LOUPE_NO_CACHE is set): a new process's first search of
   * files parsed before, by either, reads their trees instead of parsing
   * them. It holds node records, never source text, and is bounded
   * (1 GiB, least recently used first); a damaged entry is parsed again.
   * Calls with different folders use different workers.
   */
  treeCache?: string | false;
}

/**
 * Loads the module and returns the tools for one workspace. It never
 * throws and never takes the host down: if the module cannot load (an old
 * runtime, a missing file), it returns no tools and the reason; a call that
 * kills its Go instance fails with an error, and the next call runs on a
 * new one.
 */
export function createTools(options: CreateToolsOptions): Promise<CreateToolsResult> {
  const workers = Math.max(0, Math.floor(options.workers ?? Math.min(os.availableParallelism?.() ?? os.cpus().length, 4)));
  const memoryLimitMiB = options.memoryLimitMiB ?? DEFAULT_MEMORY_LIMIT_MIB;
  const treeCache = treeCacheFolder(options.treeCache);
  const load = workers > 0
    ? () => poolEngine({ size: workers, assetsDir: options.assetsDir, memoryLimitMiB, customParseMs: options.customParseMs, treeCache })
    : () => localEngine(nodeEnv(options.assetsDir, { memoryLimitMiB, treeCache }));
  return createToolsWith(load, options, options.files);
}
