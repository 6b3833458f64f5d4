/**
 * The tool objects an agent registers, over an engine's session (engine.ts).
 * Everything about a tool comes from Go's registry (package tools): its
 * name, title, description, JSON Schema, category, permissions, approval
 * rule, termination guidance and examples, and the system prompt.
 */
import type { Engine, EngineSession, ToolInfo } from './engine.js';
import type { ToolName, ToolTypes } from './tooltypes.js';

/** A JSON Schema object, as tool registries accept it. */
export type JSONSchema = Record<string, unknown>;

/**
 * What a tool returns: the shape agent CLIs use. R is the tool's
 * structured result type (ToolTypes[name]['result']).
 */
export interface ToolResult<R = Record<string, unknown>> {
  /** What the model reads: a compact text rendering of the result. */
  llmContent: string;
  /** What a person sees in the UI. */
  returnDisplay: string;
  /** The whole result (or {error}) for programs. */
  metadata: Record<string, unknown>;
  /**
   * The compact structured result that the tool's outputSchema describes
   * (the MCP server's structuredContent): each item once, texts clipped,
   * at most 32 KiB of JSON. Absent when the call failed or was stopped.
   */
  structured?: R;
}

/**
 * One tool, ready to register. N is its name; execute's parameters and
 * result are typed by it (ToolTypes, generated from Go's registry).
 */
export interface LoupeTool<N extends ToolName = ToolName> {
  name: N;
  /** A short human-readable name. */
  title: string;
  description: string;
  /** The JSON Schema of the parameters. */
  parameters: JSONSchema;
  /** The JSON Schema of the structured result (ToolResult.structured). */
  outputSchema: JSONSchema;
  /** A system prompt's prose about it: common uses and the options that matter. */
  guide: string;
  /** The category a system prompt lists it under (Search & Discovery, Code Analysis, ...). */
  category: { name: string; description: string };
  /** What it needs: ReadFiles, WriteFiles, CreateFiles, DeleteFiles. */
  permissions: string[];
  /** Some calls write, and those ask for approval first. */
  requiresApproval: boolean;
  /** When a call's result should end the agent's turn (terminate=true) and when it feeds further steps. */
  termination: string;
  /** Example calls: what each is for and its parameters. */
  examples: { use: string; params: Record<string, unknown> }[];
  execute(params: ToolTypes[N]['params'], options?: { signal?: AbortSignal }): Promise<ToolResult<ToolTypes[N]['result']>>;
}

/**
 * Any one of the tools, told apart by its name: `tools.find((t) => t.name
 * === 'ast_grep')` or `if (t.name === 'grep')` gives the tool with its
 * parameters and result typed.
 */
export type AnyLoupeTool = { [N in ToolName]: LoupeTool<N> }[ToolName];

/** A write a tool is about to make, as the host's approver is asked about it. */
export interface ApprovalRequest {
  /** The tool's name (create_file, replace_in_file, ...). */
  tool: string;
  /** What the write needs: WriteFiles, CreateFiles or DeleteFiles. */
  permission: string[];
  /** The file, relative to the workspace root. */
  path: string;
  /** What will change, in one sentence. */
  summary: string;
  /** The change as a unified diff, when the tool can tell it. */
  diff?: string;
}

/** Options every environment shares. */
export interface ToolsOptions {
  /**
   * Asked before a tool writes, and only then (never for a preview or a
   * change that changes nothing): true lets the write go ahead; false, a
   * throw or a rejection refuses it, and the tool tells the model nothing
   * was written. Without it the tools that write refuse to, saying so.
   * Calls may ask at the same time.
   */
  approve?: (request: ApprovalRequest) => boolean | Promise<boolean>;
  /**
   * Time limits: per ast_grep and structural_analysis call (on timeout the
   * partial result comes back with truncated: true), and grep's per file
   * (a file that takes longer is abandoned with a warning; default 5000).
   */
  timeouts?: { astGrepMs?: number; structuralAnalysisMs?: number; grepFileMs?: number };
  /** Files larger than maxFileSize bytes are skipped and reported. */
  limits?: { maxFileSize?: number };
  /**
   * How long a custom language's grammar module (sgconfig.yml's
   * customLanguages) may take to parse one file, in ms (default 30000).
   * The module counts its own work and is stopped when it has done what
   * this allows (a count, not a clock: about this long for a loop of its
   * own, and never more than a file's size allows, which real files need
   * a few hundredths of), failing that file; in Node's worker pool the
   * worker of a parse that runs over this time is also replaced.
   */
  customParseMs?: number;
  /**
   * The project index the ten project-index tools read (search_packages,
   * search_symbols, ...): path is its file (default:
   * WORKSPACE/.loupe/index.db, the one `loupe index` builds, which the
   * CLI and this package share); with build, the first such call builds
   * it when there is none (in memory for files passed in). Without build
   * the tools are listed only when the file exists, as `loupe mcp` does.
   */
  index?: { path?: string; build?: boolean };
  /** Per-tool defaults: turn a tool off, or replace its description. */
  tools?: Record<string, { enabled?: boolean; description?: string }>;
}

/** The tools, or none and the reason they could not be loaded. */
export interface CreateToolsResult {
  tools: AnyLoupeTool[];
  /**
   * The tools formatted for an agent's system prompt, grouped by category,
   * with examples and termination guidance (Markdown; "" with no tools).
   */
  prompt: string;
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
  // Disabled tools are left out by Go, from the tools and the prompt alike.
  const disabled = Object.keys(settings).filter((name) => settings[name]?.enabled === false);
  const config = { workspaceRoot: options.workspaceRoot ?? '', timeouts: options.timeouts ?? {}, limits: options.limits ?? {}, customParseMs: options.customParseMs, index: options.index ?? {}, disabled };
  let engine: Engine;
  try {
    engine = await load();
  } catch (err) {
    return { tools: [], prompt: '', reason: `loupe could not load: ${errorText(err)}` };
  }
  let session: EngineSession;
  try {
    const approve = options.approve;
    session = await engine.open(config, files, approve ? async (request: string) => (await approve(JSON.parse(request) as ApprovalRequest)) === true : undefined);
  } catch (err) {
    return { tools: [], prompt: '', reason: `loupe could not start: ${errorText(err)}` };
  }
  const tools = session.tools.map((info: ToolInfo): LoupeTool => ({
    name: info.name as ToolName,
    title: info.title,
    description: settings[info.name]?.description ?? info.description,
    parameters: info.inputSchema,
    outputSchema: info.outputSchema,
    guide: info.guide,
    category: info.category,
    permissions: info.permissions,
    requiresApproval: info.requiresApproval,
    termination: info.termination,
    examples: info.examples,
    async execute(params, opts) {
      const signal = opts?.signal;
      if (signal?.aborted) return cancelledResult('Cancelled before it started: no results.');
      try {
        // After an abort this is Go's partial result, or an AbortError when the call was stopped by force.
        const out = JSON.parse(await session.call(info.name, params ?? {}, signal)) as Record<string, unknown>;
        if ('error' in out) return errorResult(String(out.error));
        const text = String(out.text ?? '');
        return { llmContent: text, returnDisplay: text, metadata: (out.result ?? {}) as Record<string, unknown>, structured: out.structured as never };
      } catch (err) {
        if (signal?.aborted) return cancelledResult('Cancelled: stopped before any result came back.');
        return errorResult(errorText(err));
      }
    },
  }));
  // Go's registry and the generated ToolTypes list the same tools (go run ./tools/internal/tstypes).
  return { tools: tools as AnyLoupeTool[], prompt: session.prompt };
}

function errorResult<R>(message: string): ToolResult<R> {
  return { llmContent: `Error: ${message}`, returnDisplay: `Error: ${message}`, metadata: { error: message } };
}

function cancelledResult<R>(text: string): ToolResult<R> {
  return { llmContent: text, returnDisplay: text, metadata: { truncated: true, reason: 'cancelled' } };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
