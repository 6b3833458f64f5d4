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
import { nodeEnv } from './node.js';
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
}

/**
 * Loads the module and returns both tools for one workspace. It never
 * throws and never takes the host down: if the module cannot load (an old
 * runtime, a missing file), it returns no tools and the reason.
 */
export function createTools(options: CreateToolsOptions): Promise<CreateToolsResult> {
  return createToolsWith(() => loadRuntime(nodeEnv(options.assetsDir)), options, options.files);
}
