/**
 * Boots the Go module (GOOS=js) once per environment and exposes its API.
 * Environment-agnostic: where the module and grammar files come from is an
 * Env (node.ts reads files; browser.ts fetches URLs).
 *
 * A Go instance can die: it runs out of memory, calls exit after a fatal
 * error, or traps. A dead instance never throws into the host (no uncaught
 * "Go program has already exited"), never prints (Go's stdout and stderr
 * are kept, their tail goes into the error), and its calls reject with an
 * InstanceDiedError; the next loadRuntime boots a fresh instance.
 */
import { VirtualFS } from './vfs.js';

/** Where a runtime's files come from. */
export interface Env {
  /** A key that identifies the environment's files and settings (one runtime per key). */
  key: string;
  /** Loads Go's wasm_exec.js, which defines globalThis.Go. */
  loadGoSupport(): Promise<void>;
  /** loupe.wasm: its bytes, or the module compiled (a pool compiles it once for all its workers). */
  goModule(): Promise<BufferSource | WebAssembly.Module>;
  /** Compiles a grammar module asynchronously. */
  grammar(name: string): Promise<WebAssembly.Module>;
  /** Node's callback fs, when there is one. */
  nodeFs?: Record<string, unknown> & { constants: Record<string, number> };
  /**
   * The memory ceiling of the Go instance in MiB, when goModule's memory
   * was limited to it (limitMemory); Go's garbage collector is then told
   * (GOMEMLIMIT) to work harder before it is reached.
   */
  memoryLimitMiB?: number;
  /** Told when a custom language's module starts and ends a parse (a pool worker's watchdog). */
  watchParse?: ParseWatch;
  /**
   * The folder of the persistent tree cache the Go instance reads parsed
   * trees from and saves them to, shared with other processes and with
   * loupe's CLI (treeCacheFolder); absent: trees are kept in memory only.
   */
  treeCache?: string;
  /**
   * The SHA-256 of prefix followed by src, natively, for the tree cache's
   * keys: Go's own runs as wasm at about 170 MB/s.
   */
  sha256?: (prefix: Uint8Array, src: Uint8Array) => Uint8Array;
}

/** Hears of a custom language's parses, which nothing on their thread can stop. */
export interface ParseWatch {
  start(): void;
  end(): void;
}

/** The Go side's API (wasm/main.go). */
interface LoupeGlobal {
  init(loader: GrammarLoader, config: string, approve?: Approve): Promise<string>;
  call(session: string, name: string, params: string, id: string): Promise<string>;
  cancel(id: string): void;
  languageFor(path: string): string;
  merge(name: string, params: string, replies: string[]): string;
  playground(loader: GrammarLoader, params: string): Promise<string>;
  setHash(sha256: (prefix: Uint8Array, src: Uint8Array) => Uint8Array): void;
}

/**
 * How Go gets grammar modules (host/jshost): it calls load the first time
 * it needs a language, whichever call needs it and for whatever reason,
 * then instantiate for each instance. A custom language's module (a
 * project's customLanguages) is not among the files: Go reads it from the
 * workspace, checks it (no imports, memory capped) and hands its bytes to
 * loadBytes instead of calling load.
 */
interface GrammarLoader {
  load(name: string): Promise<void>;
  loadBytes(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  instantiate(name: string): WebAssembly.Instance;
}

/** What a session is opened with: the workspace, the limits, and for pools the shard. */
export type SessionConfig = Record<string, unknown> & { workspaceRoot: string };

/** Files searched in memory: slash-separated paths and their contents. */
export type Files = Record<string, string | Uint8Array>;

/** A tool as Go's registry describes it (toolspec.Info, package tools). */
export interface ToolInfo {
  name: string;
  title: string;
  summary: string;
  description: string;
  guide: string;
  category: { name: string; description: string };
  permissions: string[];
  requiresApproval: boolean;
  termination: string;
  examples: { use: string; params: Record<string, unknown> }[];
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  /** Its calls may be split between instances searching shards of the files (pool.ts). */
  split: boolean;
}

/**
 * The error of every call to a Go instance that died (ran out of memory,
 * exited after a fatal error, trapped). Its message says why in one line;
 * output holds the last lines Go printed.
 */
export class InstanceDiedError extends Error {
  /** The tail of what Go wrote to its stdout and stderr. */
  readonly output: string;

  constructor(message: string, output: string) {
    super(message);
    this.name = 'InstanceDiedError';
    this.output = output;
  }
}

/** A booted module. */
export interface Runtime {
  /** Set once the instance died; every call then rejects with it. */
  readonly dead?: InstanceDiedError;
  /** Calls f when the instance dies (at once if it is dead). */
  onDeath(f: (err: InstanceDiedError) => void): void;
  /**
   * Opens a session (one workspace) and lists its tools; approve, when
   * given, is asked about each write (see Approve).
   */
  init(config: unknown, approve?: Approve): Promise<Record<string, unknown>>;
  /** Runs a tool; id identifies the call for cancel. Resolves to Go's reply, JSON {text, result} or {error}. */
  call(session: string, name: string, params: unknown, id: string): Promise<string>;
  cancel(id: string): void;
  /** Mounts files as an in-memory workspace and returns its root. */
  mount(files: Files): string;
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
  /** The browser playground's entry (wasm/playground.go): Go's reply, JSON. */
  playground(params: unknown): Promise<string>;
}

const booted = new Map<string, Promise<Runtime>>();

/**
 * Boots (once per env.key) the Go module and returns its API; once that
 * instance died, the next call boots a new one.
 */
export function loadRuntime(env: Env): Promise<Runtime> {
  let p = booted.get(env.key);
  if (!p) {
    const booting = boot(env, () => {
      if (booted.get(env.key) === booting) booted.delete(env.key);
    });
    p = booting;
    booted.set(env.key, p);
    p.catch(() => booted.delete(env.key)); // a failed load may be retried
  }
  return p;
}

/**
 * A session's approver, as Go calls it: given a write's request as JSON
 * (toolspec.Request: tool, permission, path, summary, diff), true allows
 * the write; false, a throw or a rejection refuses it.
 */
export type Approve = (request: string) => boolean | Promise<boolean>;

/**
 * Opens a session in runtime: mounts files when given (as the workspace),
 * compiles their languages' grammars, and inits the session with its
 * approver, if any.
 */
export async function openSession(
  runtime: Runtime, config: SessionConfig, files?: Files, approve?: Approve,
): Promise<{ session: string; tools: ToolInfo[]; prompt: string }> {
  let cfg = config;
  if (files) {
    cfg = { ...config, workspaceRoot: runtime.mount(files) };
    await runtime.prepare([...new Set(Object.keys(files).map((f) => runtime.languageFor(f)))]);
  }
  const out = await runtime.init(cfg, approve);
  return { session: String(out.session), tools: out.tools as ToolInfo[], prompt: String(out.prompt ?? '') };
}

/**
 * Runs a tool call in runtime after compiling its language's grammar. If
 * cancelled(), checked once the grammar is ready, is true, the call is
 * cancelled as soon as it starts.
 */
export async function runTool(
  runtime: Runtime, session: string, name: string, params: Record<string, unknown>, id: string, cancelled?: () => boolean,
): Promise<string> {
  const lang = typeof params.language === 'string' ? params.language : String(params.path ?? '');
  await runtime.prepare([runtime.languageFor(lang)]);
  const reply = runtime.call(session, name, params, id);
  if (cancelled?.()) runtime.cancel(id);
  return reply;
}

/**
 * Returns the bytes of a wasm module whose memory (defined in the module,
 * as Go's is) may grow to maxMiB and no further: a Go instance that needs
 * more fails its allocation and exits ("out of memory") instead of growing
 * towards 4 GiB. With initialMiB, the memory starts with at least that
 * much (at most maxMiB). The module is otherwise unchanged.
 */
export function limitMemory(module: BufferSource, maxMiB: number, initialMiB = 0): Uint8Array<ArrayBuffer> {
  const b = module instanceof Uint8Array ? module
    : ArrayBuffer.isView(module) ? new Uint8Array(module.buffer, module.byteOffset, module.byteLength)
      : new Uint8Array(module);
  const pages = Math.floor(maxMiB * 16); // 64 KiB pages
  if (!(pages >= 1 && pages <= 65536)) throw new Error(`memory limit ${maxMiB} MiB: must be 1/16 to 4096 MiB`);
  let p = 8; // magic and version
  const leb = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const x = b[p++];
      v += (x & 0x7f) * 2 ** shift;
      if ((x & 0x80) === 0) return v;
    }
  };
  const uleb = (v: number) => {
    const out: number[] = [];
    do {
      let x = v % 128;
      v = Math.floor(v / 128);
      if (v > 0) x |= 0x80;
      out.push(x);
    } while (v > 0);
    return out;
  };
  while (p < b.length) {
    const start = p;
    const id = b[p++];
    const size = leb();
    const body = p;
    if (id === 5) { // the memory section: a vector of limits
      const count = leb();
      if (count !== 1) throw new Error(`the module defines ${count} memories`);
      const flags = b[p++];
      if (flags > 1) throw new Error(`unsupported memory flags ${flags}`);
      const min = leb();
      if (flags === 1) leb();
      if (min > pages) throw new Error(`memory limit ${maxMiB} MiB is below the module's initial ${min / 16} MiB`);
      const section = [1, 1, ...uleb(Math.max(min, Math.min(pages, Math.floor(initialMiB * 16)))), ...uleb(pages)];
      const rest = b.subarray(body + size);
      const out = new Uint8Array(start + 1 + uleb(section.length).length + section.length + rest.length);
      out.set(b.subarray(0, start));
      out.set([5, ...uleb(section.length), ...section], start);
      out.set(rest, out.length - rest.length);
      return out;
    }
    p = body + size;
  }
  throw new Error('the module defines no memory');
}

/**
 * What a Go instance wrote to fd 1 and 2, kept instead of printed: its
 * beginning (where a crash says what happened) and its tail.
 */
class Output {
  private head = '';
  private text = '';
  private static readonly keep = 16 << 10;
  private readonly decoder = new TextDecoder();

  write(bytes: Uint8Array): void {
    const s = this.decoder.decode(bytes, { stream: true });
    if (this.head.length < 4096) this.head += s.slice(0, 4096 - this.head.length);
    this.text += s;
    if (this.text.length > 2 * Output.keep) this.text = this.text.slice(-Output.keep);
  }

  /** The last 16 KiB, from the start of a line. */
  tail(): string {
    let t = this.text.slice(-Output.keep);
    if (t.length < this.text.length) t = t.slice(t.indexOf('\n') + 1);
    return t;
  }

  /** Go's own one-line account of a crash: its first "fatal error:" or "panic:" line, or the last line. */
  headline(): string {
    const lines = `${this.head}\n${this.tail()}`.split('\n').map((l) => l.trim()).filter(Boolean);
    return lines.find((l) => /^(fatal error|panic):/.test(l)) ?? lines[lines.length - 1] ?? '';
  }
}

/** wasm_exec.js's Go, with the members this file relies on. */
interface GoInstance {
  importObject: WebAssembly.Imports;
  env: Record<string, string>;
  exit: (code: number) => void;
  exited?: boolean;
  run(i: WebAssembly.Instance): Promise<void>;
  _resume(): void;
  _scheduledTimeouts?: Map<number, unknown>;
}

/** Boots run one at a time: Go reads its globals (fs, __loupeReady) while it starts. */
let bootLock: Promise<unknown> = Promise.resolve();

function boot(env: Env, forget: () => void): Promise<Runtime> {
  const p = bootLock.then(() => bootNow(env, forget));
  bootLock = p.catch(() => undefined);
  return p;
}

async function bootNow(env: Env, forget: () => void): Promise<Runtime> {
  if (typeof WebAssembly !== 'object') {
    throw new Error('this JavaScript runtime has no WebAssembly');
  }
  await env.loadGoSupport();
  const g = globalThis as Record<string, unknown>;
  const Go = g.Go as new () => GoInstance;
  if (typeof Go !== 'function') {
    throw new Error("wasm_exec.js did not define Go");
  }
  const output = new Output();
  const vfs = new VirtualFS(env.nodeFs, (bytes) => output.write(bytes));
  // Go's syscall package reads globalThis.fs and path (whose resolve names
  // an opened file) once, at start-up; the host's globals are put back
  // right after.
  const saved = { fs: g.fs, path: g.path };
  g.fs = vfs.goFS();
  g.path = { resolve: (...parts: string[]) => parts.join('/') };
  const go = new Go();
  if (env.memoryLimitMiB) {
    // A soft limit below the hard one: the collector runs harder before the instance dies.
    go.env = { ...go.env, GOMEMLIMIT: `${Math.floor(env.memoryLimitMiB * 7 / 8)}MiB` };
  }
  // Go opens the tree cache as the CLI does, from its environment.
  go.env = { ...go.env, ...(env.treeCache ? { LOUPE_TREE_CACHE_DIR: env.treeCache } : { LOUPE_NO_CACHE: '1' }) };

  let dead: InstanceDiedError | undefined;
  const listeners: ((err: InstanceDiedError) => void)[] = [];
  const died = (cause: string) => {
    if (dead) return;
    const headline = output.headline();
    const oom = /out of memory/.test(headline) || /out of memory/i.test(cause);
    const limit = env.memoryLimitMiB ? ` (limit ${env.memoryLimitMiB} MiB)` : '';
    dead = new InstanceDiedError(
      oom ? `loupe's Go instance ran out of memory${limit} and stopped${headline ? `: ${headline}` : ''}`
        : `loupe's Go instance stopped (${cause})${headline ? `: ${headline}` : ''}`,
      output.tail(),
    );
    go.exited = true;
    for (const t of go._scheduledTimeouts?.values() ?? []) clearTimeout(t as ReturnType<typeof setTimeout>);
    forget();
    for (const f of listeners.splice(0)) f(dead);
  };

  // Go's runtime writes (a crash's goroutine dump) go through wasm_exec's
  // global fs.writeSync: they are kept, never printed.
  const gojs = go.importObject.gojs as Record<string, (sp: number) => void>;
  const wasmWrite = gojs['runtime.wasmWrite'];
  const sink = { writeSync: (_fd: number, bytes: Uint8Array) => (output.write(bytes), bytes.length) };
  gojs['runtime.wasmWrite'] = (sp) => {
    const host = g.fs;
    g.fs = sink;
    try {
      wasmWrite(sp);
    } finally {
      if (host === undefined) delete g.fs;
      else g.fs = host;
    }
  };
  go.exit = (code) => died(`exit code ${code}`);
  // Every entry into Go after start-up (a call, a callback, a timer) goes
  // through _resume. Once the instance is dead, callbacks still arriving
  // (a file read, a timer) are dropped instead of throwing "Go program has
  // already exited" into the host; a trap kills the instance, not the host.
  const resume = go._resume.bind(go);
  go._resume = () => {
    if (dead) return;
    try {
      resume();
    } catch (err) {
      died(errorText(err));
    }
  };
  // Go's timers (a call's timeout, say) become JS timeouts that would keep
  // Node alive until they fire, long after the call returned. They are
  // unref'd; instead, each call in flight holds the event loop (see call).
  const timeouts = go._scheduledTimeouts;
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
    const module = await env.goModule();
    const instance = module instanceof WebAssembly.Module
      ? await WebAssembly.instantiate(module, go.importObject)
      : (await WebAssembly.instantiate(module, go.importObject)).instance;
    const exited = go.run(instance).then(() => died('exited'), (err) => died(errorText(err)));
    await Promise.race([ready, exited]);
    if (dead) throw dead;
    api = g.loupe as LoupeGlobal;
    if (env.sha256) api.setHash(env.sha256);
  } finally {
    delete g.__loupeReady;
    delete g.loupe;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete g[k];
      else g[k] = v;
    }
  }

  const alive = () => {
    if (dead) throw dead;
  };
  /** Runs p to its end, or rejects when the instance dies first. */
  const unlessDead = <T>(p: Promise<T>) => new Promise<T>((resolve, reject) => {
    listeners.push(reject);
    Promise.resolve(p).then(resolve, reject).finally(() => {
      const i = listeners.indexOf(reject);
      if (i >= 0) listeners.splice(i, 1);
    });
  });
  const compiled = new Map<string, WebAssembly.Module>();
  // Custom languages' modules, by name: their parses are timed (watchParse).
  const custom = new Set<string>();
  const loader: GrammarLoader = {
    async load(name: string) {
      if (!compiled.has(name)) compiled.set(name, await env.grammar(name));
    },
    async loadBytes(name: string, bytes: Uint8Array<ArrayBuffer>) {
      if (compiled.has(name)) return;
      const m = await WebAssembly.compile(bytes);
      const imports = WebAssembly.Module.imports(m);
      if (imports.length > 0) throw new Error(`grammar ${name} imports ${imports[0].module}.${imports[0].name}, and a grammar module may import nothing`);
      compiled.set(name, m);
      custom.add(name);
    },
    instantiate(name: string) {
      const m = compiled.get(name);
      if (!m) throw new Error(`grammar ${name} was not loaded`); // Go calls load first
      const instance = new WebAssembly.Instance(m, {});
      return custom.has(name) && env.watchParse ? watched(instance, env.watchParse) : instance;
    },
  };
  const parseJSON = (s: string) => JSON.parse(s) as Record<string, unknown>;
  return {
    get dead() {
      return dead;
    },
    onDeath(f) {
      if (dead) f(dead);
      else listeners.push(f);
    },
    async init(config, approve) {
      alive();
      const reply = api.init(loader, JSON.stringify(config), approve);
      alive();
      const out = parseJSON(await unlessDead(reply));
      if ('error' in out) throw new Error(String(out.error));
      return out;
    },
    async call(session, name, params, id) {
      alive();
      const hold = setInterval(() => undefined, 1 << 30); // keeps the process alive while Go works
      try {
        const reply = api.call(session, name, JSON.stringify(params), id);
        alive(); // the call itself may have killed it
        return await unlessDead(reply);
      } finally {
        clearInterval(hold);
      }
    },
    cancel(id) {
      if (!dead) api.cancel(id);
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
      alive();
      const l = api.languageFor(path);
      alive();
      return l;
    },
    merge(name, params, replies) {
      alive();
      const out = api.merge(name, JSON.stringify(params), replies);
      alive();
      return out;
    },
    async playground(params) {
      alive();
      const reply = api.playground(loader, JSON.stringify(params));
      alive();
      return unlessDead(reply);
    },
  };
}

/**
 * An instance of a custom language's module whose loupe_parse tells watch
 * when it starts and ends: the JavaScript engine cannot stop a module
 * inside a call, so a pool (pool.ts) watches from another thread and
 * replaces a worker whose parse runs over its time limit.
 */
function watched(instance: WebAssembly.Instance, watch: ParseWatch): WebAssembly.Instance {
  const parse = instance.exports.loupe_parse as (n: number) => number;
  const exports = {
    ...instance.exports,
    loupe_parse(n: number) {
      watch.start();
      try {
        return parse(n);
      } finally {
        watch.end();
      }
    },
  };
  return { exports } as unknown as WebAssembly.Instance;
}

/** An error as "Name: message" (a trap is "RuntimeError: unreachable"). */
function errorText(err: unknown): string {
  return String(err);
}
