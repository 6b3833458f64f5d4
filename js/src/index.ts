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
import { loadRuntime, type Runtime } from './runtime.js';

/** A JSON Schema object, as tool registries accept it. */
export type JSONSchema = Record<string, unknown>;

/** What a tool returns: the shape agent CLIs use. */
export interface ToolResult {
  /** What the model reads: a compact text rendering of the result. */
  llmContent: string;
  /** What a person sees in the UI. */
  returnDisplay: string;
  /** The structured result (or the error) for programs. */
  metadata: Record<string, unknown>;
}

/** One tool, ready to register. */
export interface LoupeTool {
  name: string;
  description: string;
  parameters: JSONSchema;
  execute(params: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ToolResult>;
}

export interface CreateToolsOptions {
  /** The directory no path may leave. */
  workspaceRoot: string;
  /** Per-call time limits; on timeout the partial result comes back with truncated: true. */
  timeouts?: { astGrepMs?: number; structuralAnalysisMs?: number };
  /** Files larger than maxFileSize bytes are skipped and reported. */
  limits?: { maxFileSize?: number };
  /** Where loupe.wasm, wasm_exec.cjs and grammars/ live (default: this package's dist/). */
  assetsDir?: string;
}

/** The tools, or none and the reason they could not be loaded. */
export interface CreateToolsResult {
  tools: LoupeTool[];
  reason?: string;
}

let nextCall = 0;

/**
 * Loads the module and returns both tools for one workspace. It never
 * throws and never takes the host down: if the module cannot load (an old
 * runtime, a missing file), it returns no tools and the reason.
 */
export async function createTools(options: CreateToolsOptions): Promise<CreateToolsResult> {
  let runtime: Runtime;
  try {
    runtime = await loadRuntime(options.assetsDir);
  } catch (err) {
    return { tools: [], reason: `loupe could not load: ${errorText(err)}` };
  }
  let init: { session: string; tools: { name: string; description: string; parameters: JSONSchema }[] };
  try {
    init = (await runtime.init({
      workspaceRoot: options.workspaceRoot,
      timeouts: options.timeouts ?? {},
      limits: options.limits ?? {},
    })) as typeof init;
  } catch (err) {
    return { tools: [], reason: `loupe could not start: ${errorText(err)}` };
  }
  const tools = init.tools.map((info): LoupeTool => ({
    name: info.name,
    description: info.description,
    parameters: info.parameters,
    async execute(params, opts) {
      const id = String(++nextCall);
      const signal = opts?.signal;
      if (signal?.aborted) {
        return cancelledResult();
      }
      const onAbort = () => runtime.cancel(id);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const out = await runtime.call(init.session, info.name, params ?? {}, id);
        if ('error' in out) {
          const message = String(out.error);
          return { llmContent: `Error: ${message}`, returnDisplay: `Error: ${message}`, metadata: { error: message } };
        }
        const text = String(out.text ?? '');
        return { llmContent: text, returnDisplay: text, metadata: (out.result ?? {}) as Record<string, unknown> };
      } catch (err) {
        const message = errorText(err);
        return { llmContent: `Error: ${message}`, returnDisplay: `Error: ${message}`, metadata: { error: message } };
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
  }));
  return { tools };
}

function cancelledResult(): ToolResult {
  const text = 'Cancelled before it started: no results.';
  return { llmContent: text, returnDisplay: text, metadata: { truncated: true, reason: 'cancelled' } };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
