/**
 * A pool worker (Node worker_threads): one Go instance of its own, driven
 * by the main thread's pool (pool.ts) with messages. It opens sessions
 * (each with its shard of the files), runs tool calls in them and merges
 * the replies of split calls. When its Go instance dies it says so once
 * ({died}) and serves nothing more: the pool replaces the whole worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nodeEnv } from './node.js';
import { loadRuntime, openSession, runTool, type Approve, type Files, type Runtime, type SessionConfig } from './runtime.js';

/** What the pool gives a worker at start. */
export interface WorkerConfig {
  assetsDir?: string;
  /** loupe.wasm compiled once by the pool, its memory limited to memoryLimitMiB. */
  module: WebAssembly.Module;
  memoryLimitMiB: number;
  /** The persistent tree cache's folder (Env.treeCache; absent: none). */
  treeCache?: string;
  /**
   * Where the worker says a custom language's module is parsing: an
   * Int32Array's one slot, the milliseconds since epoch when the parse
   * began, 0 when none runs. The pool reads it from its own thread and
   * replaces a worker whose parse runs over its time limit.
   */
  parseClock: SharedArrayBuffer;
  epoch: number;
}

/** A message from the pool. Replies carry the request's id; id 0 is the boot. */
export type Request =
  | { type: 'open'; id: number; config: SessionConfig; files?: Files; approval: boolean }
  | { type: 'call'; id: number; session: string; name: string; params: Record<string, unknown> }
  | { type: 'merge'; id: number; name: string; params: Record<string, unknown>; replies: string[] }
  | { type: 'cancel'; id: number };

/** The pool's answer to a GrammarRequest: the compiled module, or why there is none. */
export interface GrammarReply {
  type: 'grammar';
  name: string;
  module?: WebAssembly.Module;
  error?: string;
}

/**
 * The pool's answer to an ApprovalRequest: whether the host's approver
 * allowed the write, or why it failed.
 */
export interface ApprovalReply {
  type: 'approval';
  approval: number;
  ok?: boolean;
  error?: string;
}

/**
 * A worker asks the pool to ask the host's approver (the main thread's)
 * about a write of the session that open request opened: request is Go's
 * toolspec.Request as JSON.
 */
export interface ApprovalRequest {
  approval: number;
  open: number;
  request: string;
}

/**
 * A worker's answer to request id: its output (an open's JSON {session,
 * tools}, a call's or a merge's reply from Go as Go wrote it, JSON {text,
 * result} or {error}), or the error that stopped it. A message with died
 * says the Go instance died, and why.
 */
export type Reply = { id: number; out?: string; error?: string } | { died: string; output: string };

/**
 * A worker asks the pool for a grammar module: the pool compiles each once
 * and every worker runs the same compiled code (compiled lazily, function
 * by function, and optimised once for all).
 */
export interface GrammarRequest {
  grammar: string;
}

const port = parentPort;
if (port) {
  const post = (r: Reply) => port.postMessage(r);
  const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
  const cfg = workerData as WorkerConfig;
  const grammars = new Map<string, Promise<WebAssembly.Module>>();
  const asked = new Map<string, { resolve(m: WebAssembly.Module): void; reject(err: Error): void }>();
  const grammar = (name: string) => {
    let p = grammars.get(name);
    if (!p) {
      p = new Promise<WebAssembly.Module>((resolve, reject) => asked.set(name, { resolve, reject }));
      grammars.set(name, p);
      p.catch(() => grammars.delete(name)); // asked again next time
      port.postMessage({ grammar: name } satisfies GrammarRequest);
    }
    return p;
  };
  // Writes waiting for the host's answer, by approval number.
  const approvals = new Map<number, { resolve(ok: boolean): void; reject(err: Error): void }>();
  let nextApproval = 0;
  const approver = (open: number): Approve => (request) => new Promise<boolean>((resolve, reject) => {
    const approval = ++nextApproval;
    approvals.set(approval, { resolve, reject });
    port.postMessage({ approval, open, request } satisfies ApprovalRequest);
  });
  const clock = new Int32Array(cfg.parseClock);
  const watchParse = {
    start: () => Atomics.store(clock, 0, Math.max(1, Date.now() - cfg.epoch)),
    end: () => Atomics.store(clock, 0, 0),
  };
  const booting: Promise<Runtime> = loadRuntime(nodeEnv(cfg.assetsDir, { memoryLimitMiB: cfg.memoryLimitMiB, module: cfg.module, grammar, watchParse, treeCache: cfg.treeCache }));
  booting.then((runtime) => {
    runtime.onDeath((err) => post({ died: err.message, output: err.output }));
    post({ id: 0, out: '' });
  }, (err) => post({ id: 0, error: errorText(err) }));

  const running = new Set<number>();
  const cancelled = new Set<number>();
  const handle = async (runtime: Runtime, req: Request): Promise<string> => {
    switch (req.type) {
      case 'open':
        return JSON.stringify(await openSession(runtime, req.config, req.files, req.approval ? approver(req.id) : undefined));
      case 'call':
        // A cancel may come while the grammar is prepared.
        return runTool(runtime, req.session, req.name, req.params ?? {}, String(req.id), () => cancelled.has(req.id));
      case 'merge':
        return runtime.merge(req.name, req.params, req.replies);
      default:
        return '';
    }
  };

  port.on('message', (req: Request | GrammarReply | ApprovalReply) => {
    if (req.type === 'approval') {
      const a = approvals.get(req.approval);
      approvals.delete(req.approval);
      if (req.error !== undefined) a?.reject(new Error(req.error));
      else a?.resolve(req.ok === true);
      return;
    }
    if (req.type === 'grammar') {
      const g = asked.get(req.name);
      asked.delete(req.name);
      if (req.module) g?.resolve(req.module);
      else g?.reject(new Error(req.error ?? `no grammar ${req.name}`));
      return;
    }
    if (req.type === 'cancel') {
      if (running.has(req.id)) cancelled.add(req.id);
      booting.then((runtime) => runtime.cancel(String(req.id)), () => undefined);
      return;
    }
    running.add(req.id);
    booting.then((runtime) => handle(runtime, req)).then(
      (out) => post({ id: req.id, out }),
      (err) => post({ id: req.id, error: errorText(err) }),
    ).finally(() => {
      running.delete(req.id);
      cancelled.delete(req.id);
    });
  });
}
