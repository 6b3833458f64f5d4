/**
 * The browser playground's engine (js/playground): Go's playground entry
 * (wasm/playground.go) on the browser entry's Go instance, which the
 * playground's structural_analysis sessions (createTools) share.
 */
import { browserEnv } from './browser.js';
import { loadRuntime } from './runtime.js';

/** Runs one playground request (op languages, run or dump) and returns Go's answer. */
export type PlaygroundEngine = (params: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Loads the module from baseUrl and returns the playground's engine. */
export async function loadPlayground(baseUrl: string | URL): Promise<PlaygroundEngine> {
  const env = browserEnv(baseUrl);
  return async (params) => {
    // A Go instance that died is replaced by the next load.
    const runtime = await loadRuntime(env);
    return JSON.parse(await runtime.playground(params)) as Record<string, unknown>;
  };
}
