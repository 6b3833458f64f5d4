/**
 * Boots the Go module (GOOS=js) once per environment and exposes its API.
 * Environment-agnostic: where the module and grammar files come from is an
 * Env (node.ts reads files; browser.ts fetches URLs).
 */
import { VirtualFS } from './vfs.js';

/** Where a runtime's files come from. */
export interface Env {
  /** A key that identifies the environment's files (one runtime per key). */
  key: string;
  /** Loads Go's wasm_exec.js, which defines globalThis.Go. */
  loadGoSupport(): Promise<void>;
  /** The bytes of loupe.wasm. */
  goModule(): Promise<BufferSource>;
  /** Compiles a grammar module asynchronously. */
  grammar(name: string): Promise<WebAssembly.Module>;
  /** Compiles a grammar module synchronously, where the environment can. */
  grammarSync?(name: string): WebAssembly.Module;
  /** Node's callback fs, when there is one. */
  nodeFs?: Record<string, unknown> & { constants: Record<string, number> };
}

/** The Go side's API (wasm/main.go). */
interface LoupeGlobal {
  init(loader: GrammarLoader, config: string): Promise<string>;
  call(session: string, name: string, params: string, id: string): Promise<string>;
  cancel(id: string): void;
  languageFor(path: string): string;
  merge(name: string, params: string, replies: string[]): string;
}

interface GrammarLoader {
  instantiate(name: string): WebAssembly.Instance;
}

/** A booted module. */
export interface Runtime {
  /** Opens a session (one workspace) and lists its tools. */
  init(config: unknown): Promise<Record<string, unknown>>;
  /** Runs a tool; id identifies the call for cancel. Resolves to Go's reply, JSON {text, result} or {error}. */
  call(session: string, name: string, params: unknown, id: string): Promise<string>;
  cancel(id: string): void;
  /** Mounts files as an in-memory workspace and returns its root. */
  mount(files: Record<string, string | Uint8Array>): string;
  /** Makes sure the grammar modules of these languages are compiled. */
  prepare(languages: string[]): Promise<void>;
  /** The canonical name of a language name or alias, or of a path's extension; "" if none. */
  languageFor(path: string): string;
  /**
   * The reply one instance gives to a call (JSON {text, result} or {error})
   * from the replies of the instances that split it (pool.ts), merged by
   * the Go side.
   */
  merge(name: string, params: unknown, replies: string[]): string;
}

const booted = new Map<string, Promise<Runtime>>();

/** Boots (once per env.key) the Go module and returns its API. */
export function loadRuntime(env: Env): Promise<Runtime> {
  let p = booted.get(env.key);
  if (!p) {
    p = boot(env);
    booted.set(env.key, p);
    p.catch(() => booted.delete(env.key)); // a failed load may be retried
  }
  return p;
}

async function boot(env: Env): Promise<Runtime> {
  if (typeof WebAssembly !== 'object') {
    throw new Error('this JavaScript runtime has no WebAssembly');
  }
  await env.loadGoSupport();
  const g = globalThis as Record<string, unknown>;
  const Go = g.Go as new () => { importObject: WebAssembly.Imports; run(i: WebAssembly.Instance): Promise<void> };
  if (typeof Go !== 'function') {
    throw new Error("wasm_exec.js did not define Go");
  }
  const vfs = new VirtualFS(env.nodeFs);
  // Go's syscall package reads globalThis.fs (and path) once, at start-up;
  // the host's globals are put back right after.
  const saved = { fs: g.fs, path: g.path };
  g.fs = vfs.goFS();
  const go = new Go();
  // Go's timers (a call's timeout, say) become JS timeouts that would keep
  // Node alive until they fire, long after the call returned. They are
  // unref'd; instead, each call in flight holds the event loop (see call).
  const timeouts = (go as unknown as { _scheduledTimeouts?: Map<number, unknown> })._scheduledTimeouts;
  if (timeouts) {
    const set = timeouts.set.bind(timeouts);
    timeouts.set = (k: number, v: unknown) => {
      (v as { unref?: () => void })?.unref?.();
      return set(k, v);
    };
  }
  const ready = new Promise<void>((resolve) => {
    g.__loupeReady = resolve;
  });
  let api: LoupeGlobal;
  try {
    const { instance } = await WebAssembly.instantiate(await env.goModule(), go.importObject);
    go.run(instance).catch(() => undefined);
    await ready;
    api = g.loupe as LoupeGlobal;
  } finally {
    delete g.__loupeReady;
    delete g.loupe;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete g[k];
      else g[k] = v;
    }
  }

  const compiled = new Map<string, WebAssembly.Module>();
  const loader: GrammarLoader = {
    instantiate(name: string) {
      let m = compiled.get(name);
      if (!m) {
        if (!env.grammarSync) throw new Error(`grammar ${name} was not prepared`);
        m = env.grammarSync(name);
        compiled.set(name, m);
      }
      return new WebAssembly.Instance(m, {});
    },
  };
  const parseJSON = (s: string) => JSON.parse(s) as Record<string, unknown>;
  return {
    async init(config) {
      const out = parseJSON(await api.init(loader, JSON.stringify(config)));
      if ('error' in out) throw new Error(String(out.error));
      return out;
    },
    async call(session, name, params, id) {
      const hold = setInterval(() => undefined, 1 << 30); // keeps the process alive while Go works
      try {
        return await api.call(session, name, JSON.stringify(params), id);
      } finally {
        clearInterval(hold);
      }
    },
    cancel(id) {
      api.cancel(id);
    },
    mount(files) {
      return vfs.mount(files);
    },
    async prepare(languages) {
      await Promise.all(languages.filter((l) => l && !compiled.has(l)).map(async (l) => {
        compiled.set(l, await env.grammar(l));
      }));
    },
    languageFor(path) {
      return api.languageFor(path);
    },
    merge(name, params, replies) {
      return api.merge(name, JSON.stringify(params), replies);
    },
  };
}
