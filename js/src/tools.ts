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

/**
 * Runs a tool's calls split across several instances (pool.ts); the
 * caller's instance merges their replies (Runtime.merge).
 */
export interface Splitter {
  /**
   * The instances' replies, as Go wrote them, in shard order; undefined
   * when the split could not run (a worker failed), and the call should
   * run in one instance instead.
   */
  run(name: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<string[] | undefined>;
}

/** Starts a Splitter for a session's config and in-memory files; undefined if it cannot. */
export type StartSplitter = (
  config: { workspaceRoot: string; timeouts: unknown; limits: unknown },
  files?: Record<string, string | Uint8Array>,
) => Promise<Splitter | undefined>;

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
  split?: StartSplitter,
): Promise<CreateToolsResult> {
  const settings = options.tools ?? {};
  const config = { workspaceRoot: options.workspaceRoot ?? '', timeouts: options.timeouts ?? {}, limits: options.limits ?? {} };
  // The pool boots alongside this thread's instance; only ast_grep uses it.
  const splitting = split && settings.ast_grep?.enabled !== false
    ? split(config, files).catch(() => undefined)
    : Promise.resolve(undefined);
  let runtime: Runtime;
  try {
    runtime = await load();
  } catch (err) {
    return { tools: [], reason: `loupe could not load: ${errorText(err)}` };
  }
  let session: string;
  let infos: { name: string; description: string; parameters: JSONSchema }[];
  try {
    let root = config.workspaceRoot;
    if (files) {
      root = runtime.mount(files);
      await runtime.prepare([...new Set(Object.keys(files).map((f) => runtime.languageFor(f)))]);
    }
    const out = await runtime.init({ ...config, workspaceRoot: root });
    session = String(out.session);
    infos = out.tools as typeof infos;
  } catch (err) {
    return { tools: [], reason: `loupe could not start: ${errorText(err)}` };
  }
  const splitter = await splitting;
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
        let reply: string | undefined;
        if (splitter && info.name === 'ast_grep') {
          const replies = await splitter.run(info.name, params ?? {}, signal);
          if (replies) reply = runtime.merge(info.name, params ?? {}, replies);
        }
        if (reply === undefined) {
          const lang = typeof params?.language === 'string' ? params.language : String(params?.path ?? '');
          await runtime.prepare([runtime.languageFor(lang)]);
          const pending = runtime.call(session, info.name, params ?? {}, id);
          if (signal?.aborted) runtime.cancel(id); // aborted while the grammar was prepared
          reply = await pending;
        }
        const out = JSON.parse(reply) as Record<string, unknown>;
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
