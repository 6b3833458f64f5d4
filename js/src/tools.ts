/** The tool objects an agent registers, over a booted runtime. */
import type { Runtime } from './runtime.js';

/** A JSON Schema object, as tool registries accept it. */
export type JSONSchema = Record<string, unknown>;

/** What a tool returns: the shape agent CLIs use. */
export interface ToolResult {
  /** What the model reads: a compact text rendering of the result. */
  llmContent: string;
  /** What a person sees in the UI. */
  returnDisplay: string;
  /** The structured result (or {error}) for programs. */
  metadata: Record<string, unknown>;
}

/** One tool, ready to register. */
export interface LoupeTool {
  name: string;
  description: string;
  parameters: JSONSchema;
  execute(params: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ToolResult>;
}

/** Options every environment shares. */
export interface ToolsOptions {
  /** Per-call time limits; on timeout the partial result comes back with truncated: true. */
  timeouts?: { astGrepMs?: number; structuralAnalysisMs?: number };
  /** Files larger than maxFileSize bytes are skipped and reported. */
  limits?: { maxFileSize?: number };
  /** Per-tool defaults: turn a tool off, or replace its description. */
  tools?: Record<string, { enabled?: boolean; description?: string }>;
}

/** The tools, or none and the reason they could not be loaded. */
export interface CreateToolsResult {
  tools: LoupeTool[];
  reason?: string;
}

let nextCall = 0;

/**
 * Boots the runtime and opens a session over workspaceRoot, or over files
 * mounted in memory. Never throws: a failure is no tools and a reason.
 */
export async function createToolsWith(
  load: () => Promise<Runtime>,
  options: ToolsOptions & { workspaceRoot?: string },
  files?: Record<string, string | Uint8Array>,
): Promise<CreateToolsResult> {
  let runtime: Runtime;
  try {
    runtime = await load();
  } catch (err) {
    return { tools: [], reason: `loupe could not load: ${errorText(err)}` };
  }
  let session: string;
  let infos: { name: string; description: string; parameters: JSONSchema }[];
  try {
    let root = options.workspaceRoot ?? '';
    if (files) {
      root = runtime.mount(files);
      await runtime.prepare([...new Set(Object.keys(files).map((f) => runtime.languageFor(f)))]);
    }
    const out = await runtime.init({ workspaceRoot: root, timeouts: options.timeouts ?? {}, limits: options.limits ?? {} });
    session = String(out.session);
    infos = out.tools as typeof infos;
  } catch (err) {
    return { tools: [], reason: `loupe could not start: ${errorText(err)}` };
  }
  const settings = options.tools ?? {};
  const tools = infos.filter((info) => settings[info.name]?.enabled !== false).map((info): LoupeTool => ({
    name: info.name,
    description: settings[info.name]?.description ?? info.description,
    parameters: info.parameters,
    async execute(params, opts) {
      const signal = opts?.signal;
      if (signal?.aborted) return cancelledResult();
      const id = String(++nextCall);
      const onAbort = () => runtime.cancel(id);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const lang = typeof params?.language === 'string' ? params.language : String(params?.path ?? '');
        await runtime.prepare([runtime.languageFor(lang)]);
        const out = await runtime.call(session, info.name, params ?? {}, id);
        if ('error' in out) return errorResult(String(out.error));
        const text = String(out.text ?? '');
        return { llmContent: text, returnDisplay: text, metadata: (out.result ?? {}) as Record<string, unknown> };
      } catch (err) {
        return errorResult(errorText(err));
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
  }));
  return { tools };
}

function errorResult(message: string): ToolResult {
  return { llmContent: `Error: ${message}`, returnDisplay: `Error: ${message}`, metadata: { error: message } };
}

function cancelledResult(): ToolResult {
  const text = 'Cancelled before it started: no results.';
  return { llmContent: text, returnDisplay: text, metadata: { truncated: true, reason: 'cancelled' } };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
