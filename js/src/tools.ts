/** The tool objects an agent registers, over an engine's session (engine.ts). */
import type { Engine, EngineSession, ToolInfo } from './engine.js';

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

/**
 * Loads the engine and opens a session over workspaceRoot, or over files
 * in memory. Never throws: a failure is no tools and a reason.
 */
export async function createToolsWith(
  load: () => Promise<Engine>,
  options: ToolsOptions & { workspaceRoot?: string },
  files?: Record<string, string | Uint8Array>,
): Promise<CreateToolsResult> {
  const settings = options.tools ?? {};
  const config = { workspaceRoot: options.workspaceRoot ?? '', timeouts: options.timeouts ?? {}, limits: options.limits ?? {} };
  let engine: Engine;
  try {
    engine = await load();
  } catch (err) {
    return { tools: [], reason: `loupe could not load: ${errorText(err)}` };
  }
  let session: EngineSession;
  try {
    session = await engine.open(config, files);
  } catch (err) {
    return { tools: [], reason: `loupe could not start: ${errorText(err)}` };
  }
  const tools = session.tools.filter((info: ToolInfo) => settings[info.name]?.enabled !== false).map((info): LoupeTool => ({
    name: info.name,
    description: settings[info.name]?.description ?? info.description,
    parameters: info.parameters,
    async execute(params, opts) {
      const signal = opts?.signal;
      if (signal?.aborted) return cancelledResult('Cancelled before it started: no results.');
      try {
        // After an abort this is Go's partial result, or an AbortError when the call was stopped by force.
        const out = JSON.parse(await session.call(info.name, params ?? {}, signal)) as Record<string, unknown>;
        if ('error' in out) return errorResult(String(out.error));
        const text = String(out.text ?? '');
        return { llmContent: text, returnDisplay: text, metadata: (out.result ?? {}) as Record<string, unknown> };
      } catch (err) {
        if (signal?.aborted) return cancelledResult('Cancelled: stopped before any result came back.');
        return errorResult(errorText(err));
      }
    },
  }));
  return { tools };
}

function errorResult(message: string): ToolResult {
  return { llmContent: `Error: ${message}`, returnDisplay: `Error: ${message}`, metadata: { error: message } };
}

function cancelledResult(text: string): ToolResult {
  return { llmContent: text, returnDisplay: text, metadata: { truncated: true, reason: 'cancelled' } };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
