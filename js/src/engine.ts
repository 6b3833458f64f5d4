/**
 * Where tool calls run. An Engine opens sessions (one workspace each) and
 * runs their calls: in Node on a pool of worker threads (pool.ts), in
 * browsers (and with workers: 0) on one Go instance in this thread
 * (localEngine, below). tools.ts turns a session into tool objects.
 */
import { loadRuntime, openSession, runTool, type Approve, type Env, type Files, type Runtime, type SessionConfig, type ToolInfo } from './runtime.js';

export type { Approve, Files, SessionConfig, ToolInfo } from './runtime.js';

/** Opens sessions. */
export interface Engine {
  /**
   * Opens a session over config.workspaceRoot, or over files in memory,
   * whose writes approve is asked about (without it they are refused);
   * rejects if it cannot.
   */
  open(config: SessionConfig, files?: Files, approve?: Approve): Promise<EngineSession>;
}

/** One workspace's tools and a way to call them. */
export interface EngineSession {
  /** The tools, as Go describes them. */
  tools: ToolInfo[];
  /** The tools formatted for a system prompt, by Go. */
  prompt: string;
  /**
   * Runs a tool call and resolves to Go's reply (JSON {text, result} or
   * {error}); after signal aborts, to the partial result Go returns when
   * it stops. Rejects with an AbortError when the call had to be stopped
   * by force (the engine's instance was replaced), and with an Error when
   * the instance running it died (InstanceDiedError) or could not run it.
   */
  call(name: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<string>;
}

/** The error of a call stopped by its AbortSignal: the signal's reason, or an AbortError. */
export function abortError(signal?: AbortSignal): Error {
  const reason = signal?.reason as unknown;
  if (reason instanceof Error) return reason;
  return new DOMException('The operation was aborted', 'AbortError');
}

let nextCall = 0;

/**
 * An engine on one Go instance in this thread. A call blocks the thread
 * while Go computes, so an abort takes effect when Go next checks it. When
 * the instance dies, its calls reject with the reason and the next call
 * boots a new instance and opens the session again.
 */
export async function localEngine(env: Env): Promise<Engine> {
  await loadRuntime(env);
  return {
    async open(config, files, approve) {
      const connect = async () => {
        const runtime = await loadRuntime(env);
        return { runtime, ...await openSession(runtime, config, files, approve) };
      };
      let current = connect();
      const first = await current;
      return {
        tools: first.tools,
        prompt: first.prompt,
        async call(name, params, signal) {
          if (signal?.aborted) throw abortError(signal);
          let c: { runtime: Runtime; session: string };
          try {
            c = await current;
            if (c.runtime.dead) throw c.runtime.dead;
          } catch {
            current = connect();
            c = await current;
          }
          const id = `local-${++nextCall}`;
          const onAbort = () => c.runtime.cancel(id);
          signal?.addEventListener('abort', onAbort, { once: true });
          try {
            return await runTool(c.runtime, c.session, name, params, id, () => signal?.aborted === true);
          } finally {
            signal?.removeEventListener('abort', onAbort);
          }
        },
      };
    },
  };
}
