/**
 * The Node engine: a small pool of worker threads, each with its own Go
 * instance. Go under js is single-threaded, so this is the only way to
 * search on several cores, and it keeps Go off the host's thread: a call
 * never blocks the host's event loop, and a call that kills its instance
 * never kills the host.
 *
 * An ast_grep call goes to every worker, each searching its shard of the
 * files (shard i of n, balanced by file size, on the Go side); their
 * replies, as Go wrote them, are merged by Go in one worker (Runtime.merge):
 * this file only moves them. Any other tool's call runs in one worker, the
 * same one for every call of a session (its caches stay warm).
 *
 * A worker whose Go instance dies (out of memory, a fatal error, a trap) is
 * replaced, and the calls it was running reject with the reason; nothing is
 * retried (the same call would kill the next instance too). An aborted call
 * is cancelled in Go; a worker that has not answered ABORT_GRACE_MS later is
 * terminated and replaced (unless it is also running other calls, which
 * are left to finish), and the call rejects with an AbortError.
 * Booted spare workers, as many as the pool has, take the places of
 * replaced ones at once, so the pool is ready for the next call within
 * milliseconds.
 */
import { Worker } from 'node:worker_threads';
import { abortError, type Engine, type EngineSession } from './engine.js';
import { compileGoModule, compileGrammar } from './node.js';
import { InstanceDiedError, type Approve, type Files, type SessionConfig, type ToolInfo } from './runtime.js';
import type { ApprovalReply, ApprovalRequest, GrammarReply, GrammarRequest, Reply, Request, WorkerConfig } from './worker.js';

/**
 * How long an aborted call's workers get to stop by themselves (Go notices
 * a cancel between files, and only when its event loop delivers it) before
 * they are terminated: an abort settles its call within about this time.
 */
export const ABORT_GRACE_MS = 50;

/**
 * The default time a custom language's grammar module may take to parse
 * one file (PoolOptions.customParseMs), as natively (wazhost's sandbox).
 */
export const CUSTOM_PARSE_MS = 30_000;

/** How often the pool looks at its workers' parse clocks. */
const WATCH_MS = 50;

/** A request before the member numbers it. */
type Unsent = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** A session as every worker opens it: the pool replays it on a worker that replaces another. */
interface SessionSpec {
  config: SessionConfig;
  files?: Files;
  /** The host's approver of the session's writes, asked from whichever worker writes. */
  approve?: Approve;
  /** The slot whose worker runs the session's calls that are not split. */
  home: number;
}

/** What a worker's open returns. */
interface Opened {
  session: string;
  tools: ToolInfo[];
  prompt: string;
}

/** One worker thread and its outstanding requests. */
class Member {
  /** Why it can no longer serve: its worker or Go instance died, it failed to boot, or it was replaced. */
  dead?: Error;
  /** Whether it booted. */
  booted = false;
  /** Resolves once its Go instance is up; rejects if it could not boot. */
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(out: string): void; reject(err: Error): void }>();
  private readonly sessions = new Map<SessionSpec, Promise<Opened>>();
  /** The sessions by the id of the request that opened them, for their workers' approval requests. */
  private readonly opened = new Map<number, SessionSpec>();
  private readonly holdBoot: boolean;
  private next = 1;
  /** The worker's parse clock (WorkerConfig.parseClock) and its epoch. */
  private readonly clock = new Int32Array(new SharedArrayBuffer(4));
  private readonly epoch = Date.now();

  /**
   * Starts a worker; holdBoot keeps the process alive while it boots.
   * onDead is told once, when the member dies for any reason.
   */
  constructor(
    data: Omit<WorkerConfig, 'parseClock' | 'epoch'>,
    holdBoot: boolean,
    grammar: (name: string) => Promise<WebAssembly.Module>,
    private readonly onDead: (m: Member) => void,
  ) {
    this.holdBoot = holdBoot;
    // No host flags: the worker needs none, and some (--input-type, a
    // loader) would stop it from starting.
    const workerData: WorkerConfig = { ...data, parseClock: this.clock.buffer as SharedArrayBuffer, epoch: this.epoch };
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { workerData, execArgv: [] });
    // A worker holds the process open only while a request is outstanding.
    this.worker.unref();
    this.ready = this.wait(0).then(() => {
      this.booted = true;
    });
    this.ready.catch(() => undefined);
    this.worker.on('message', (r: Reply | GrammarRequest | ApprovalRequest) => {
      if ('approval' in r) {
        this.approve(r);
        return;
      }
      if ('grammar' in r) {
        const name = r.grammar;
        grammar(name).then(
          (module): GrammarReply => ({ type: 'grammar', name, module }),
          (err: unknown): GrammarReply => ({ type: 'grammar', name, error: String(err) }),
        ).then((reply) => {
          if (this.dead === undefined) this.worker.postMessage(reply);
        });
        return;
      }
      if ('died' in r) {
        this.fail(new InstanceDiedError(r.died, r.output));
        return;
      }
      const p = this.pending.get(r.id);
      if (!p) return;
      this.settled(r.id);
      if (r.error !== undefined) p.reject(new Error(r.error));
      else p.resolve(r.out ?? '');
    });
    this.worker.on('error', (err) => this.fail(err instanceof Error ? err : new Error(String(err))));
    this.worker.on('exit', (code) => this.fail(new Error(`loupe's worker thread exited (code ${code})`)));
  }

  /** How long the worker has been in a custom language's parse, in ms (0: none). */
  parsingFor(now: number): number {
    const t = Atomics.load(this.clock, 0);
    return t === 0 ? 0 : now - (this.epoch + t);
  }

  /** Requests outstanding. */
  get load(): number {
    return this.pending.size;
  }

  /** The member's session for spec, opened once (with shard when the pool splits calls). */
  session(spec: SessionSpec, shard?: { index: number; count: number }): Promise<Opened> {
    let s = this.sessions.get(spec);
    if (!s) {
      const config = shard ? { ...spec.config, shard } : spec.config;
      const open = this.request({ type: 'open', config, files: spec.files, approval: spec.approve !== undefined });
      this.opened.set(open.id, spec);
      s = open.promise.then((out) => JSON.parse(out) as Opened);
      s.catch(() => undefined);
      this.sessions.set(spec, s);
    }
    return s;
  }

  /** Sends a request; its promise rejects if the member dies first. */
  request(req: Unsent): { id: number; promise: Promise<string> } {
    const id = this.next++;
    const promise = this.wait(id);
    if (this.dead === undefined) this.worker.postMessage({ ...req, id });
    return { id, promise };
  }

  /** Asks the host's approver about a write of one of the member's sessions and answers the worker. */
  private approve(r: ApprovalRequest): void {
    const approve = this.opened.get(r.open)?.approve;
    const answer = (a: Omit<ApprovalReply, 'type' | 'approval'>) => {
      if (this.dead === undefined) this.worker.postMessage({ type: 'approval', approval: r.approval, ...a } satisfies ApprovalReply);
    };
    new Promise<boolean>((resolve) => resolve(approve ? approve(r.request) : false)).then(
      (ok) => answer({ ok: ok === true }),
      (err: unknown) => answer({ error: err instanceof Error ? err.message : String(err) }),
    );
  }

  /** Asks Go to stop request id (it returns what it found so far). */
  cancel(id: number): void {
    if (this.dead === undefined && this.pending.has(id)) this.worker.postMessage({ type: 'cancel', id });
  }

  /** Stops the worker at once: its outstanding requests reject with reason. */
  retire(reason: Error): void {
    this.fail(reason);
    void this.worker.terminate();
  }

  private wait(id: number): Promise<string> {
    if (this.dead !== undefined) return Promise.reject(this.dead);
    const before = this.held();
    const p = new Promise<string>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    if (before === 0 && this.held() > 0) this.worker.ref();
    return p;
  }

  /** Outstanding requests that hold the process: all but a boot that does not. */
  private held(): number {
    return this.pending.size - (this.pending.has(0) && !this.holdBoot ? 1 : 0);
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.held() === 0) this.worker.unref();
  }

  private fail(reason: Error): void {
    if (this.dead !== undefined) return;
    this.dead = reason;
    for (const [id, p] of this.pending) {
      this.settled(id);
      p.reject(reason);
    }
    this.onDead(this);
  }
}

/** The workers of one pool: size members in fixed slots, and as many booted spares. */
class Pool {
  private readonly members: Member[];
  private readonly spares: Member[] = [];
  private readonly grammars = new Map<string, Promise<WebAssembly.Module>>();
  private sessions = 0;
  private running = 0;
  private sparesTimer?: ReturnType<typeof setTimeout>;

  constructor(readonly size: number, private readonly data: Omit<WorkerConfig, 'parseClock' | 'epoch'>, private readonly customParseMs: number) {
    this.members = Array.from({ length: size }, () => this.start(true));
    // The JavaScript engine cannot stop a module inside a call: a worker
    // stuck in a custom language's parse is stopped from here.
    setInterval(() => this.watch(), WATCH_MS).unref();
  }

  /** Replaces the workers whose custom-language parse ran over customParseMs. */
  private watch(): void {
    const now = Date.now();
    for (const m of this.members) {
      if (m.dead === undefined && m.parsingFor(now) > this.customParseMs) {
        this.replace(m, new Error(`a custom language's grammar module parsed one file for over ${this.customParseMs} ms and was stopped (its worker was replaced)`));
      }
    }
  }

  /** Resolves when every member booted; rejects with the first boot error (and stops them all). */
  async boot(): Promise<void> {
    try {
      await Promise.all(this.members.map((m) => m.ready));
    } catch (err) {
      for (const m of this.members) m.retire(new Error('the pool failed to boot'));
      throw err;
    }
    this.sparesWhenIdle();
  }

  /** The grammar module of language name, compiled once for every worker. */
  grammar(name: string): Promise<WebAssembly.Module> {
    let g = this.grammars.get(name);
    if (!g) {
      g = compileGrammar(this.data.assetsDir, name);
      this.grammars.set(name, g);
      g.catch(() => this.grammars.delete(name));
    }
    return g;
  }

  /** A new session's spec, its unsplit calls going to the slots in turn. */
  spec(config: SessionConfig, files?: Files, approve?: Approve): SessionSpec {
    return { config, files, approve, home: this.sessions++ % this.size };
  }

  /** The slots a call of a tool runs on: every slot for a tool Go says may be split. */
  slots(tool: ToolInfo | undefined, spec: SessionSpec): number[] {
    return tool?.split && this.size > 1 ? this.members.map((_, i) => i) : [spec.home];
  }

  /** The member in slot, replaced first if it died. */
  at(slot: number): Member {
    const m = this.members[slot];
    if (m.dead !== undefined) this.replace(m, m.dead);
    return this.members[slot];
  }

  /** Member m's session for spec, with its slot's shard when calls are split. */
  session(m: Member, slot: number, spec: SessionSpec): Promise<Opened> {
    return m.session(spec, this.size > 1 ? { index: slot, count: this.size } : undefined);
  }

  /**
   * Replaces m (stopped with reason, if still running) by a spare, or by
   * a new worker; new spares boot once the pool is idle.
   */
  replace(m: Member, reason: Error): void {
    const slot = this.members.indexOf(m);
    if (slot >= 0) this.members[slot] = this.spares.shift() ?? this.start(false);
    m.retire(reason);
    if (slot >= 0 && this.running === 0) this.sparesWhenIdle();
  }

  /** A call begins: spares wait until the pool is idle again, so as not to slow it. */
  begin(): void {
    this.running++;
    clearTimeout(this.sparesTimer);
  }

  /** A call ended. */
  end(): void {
    if (--this.running === 0) this.sparesWhenIdle();
  }

  /** The least loaded live member, for a merge. */
  idlest(): Member {
    const live = this.members.filter((m) => m.dead === undefined);
    return live.length ? live.reduce((a, b) => (b.load < a.load ? b : a)) : this.at(0);
  }

  /**
   * Boots spares up to size once the pool has been idle a moment, out of
   * the way of the calls (on a small machine, booting while a call runs
   * would slow both): a split call stopped by force replaces every worker
   * at once, and each spare takes a place without a boot's delay.
   */
  private sparesWhenIdle(): void {
    clearTimeout(this.sparesTimer);
    this.sparesTimer = setTimeout(() => {
      while (this.spares.length < this.size) this.spares.push(this.start(false));
    }, 200);
    this.sparesTimer.unref();
  }

  private start(holdBoot: boolean): Member {
    return new Member(this.data, holdBoot, (name) => this.grammar(name), (m) => {
      // A member that booted and then died is replaced at once; one that
      // could not boot is left in its slot until the next call needs it,
      // and a spare that could not boot is dropped, so that a broken
      // installation does not boot workers in a loop.
      const spare = this.spares.indexOf(m);
      if (spare >= 0) this.spares.splice(spare, 1);
      else if (m.booted && this.members.includes(m)) this.replace(m, m.dead ?? new Error('died'));
    });
  }
}

/** A call's share on one slot. */
interface Part {
  member?: Member;
  /** The request id once the call was sent. */
  id?: number;
  done: boolean;
  promise: Promise<string>;
}

/** A session over every worker of a pool. */
class PoolSession implements EngineSession {
  constructor(private readonly pool: Pool, private readonly spec: SessionSpec, readonly tools: ToolInfo[], readonly prompt: string) {}

  private tool(name: string): ToolInfo | undefined {
    return this.tools.find((t) => t.name === name);
  }

  call(name: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<string> {
    const slots = this.pool.slots(this.tool(name), this.spec);
    return this.run(slots, name, params, signal, (r) => (slots.length > 1 ? this.merge(name, params, r) : Promise.resolve(r[0])));
  }

  /**
   * The replies of the workers that split a call, as Go wrote them, in
   * shard order, unmerged (what call merges).
   */
  shards(name: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<string[]> {
    return this.run(this.pool.slots(this.tool(name), this.spec), name, params, signal, (r) => Promise.resolve(r));
  }

  private async merge(name: string, params: Record<string, unknown>, replies: string[]): Promise<string> {
    const m = this.pool.idlest();
    await m.ready;
    return m.request({ type: 'merge', name, params, replies }).promise;
  }

  /**
   * Runs the call on slots and then finish on their replies. When signal
   * aborts, Go is asked to stop; the workers that have not answered
   * ABORT_GRACE_MS later are replaced and the call rejects with an
   * AbortError. When a worker fails, the call rejects with its error and
   * the others are stopped the same way.
   */
  private run<T>(slots: number[], name: string, params: Record<string, unknown>, signal: AbortSignal | undefined, finish: (replies: string[]) => Promise<T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    this.pool.begin();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (f: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        clearTimeout(timer);
        this.pool.end();
        f();
      };
      const parts = slots.map((slot) => this.part(slot, name, params, signal));
      /**
       * Cancels the parts still running, and replaces their workers if they
       * do not stop in time, unless a worker has other requests too: those
       * are left to finish (the worker stops this call when Go next looks).
       */
      const abandon = (why: string, then?: () => void) => {
        for (const p of parts) {
          if (!p.done && p.id !== undefined) p.member?.cancel(p.id);
        }
        const t = setTimeout(() => {
          for (const p of parts) {
            if (!p.done && p.id !== undefined && p.member && p.member.load === 1) this.pool.replace(p.member, new Error(why));
          }
          then?.();
        }, ABORT_GRACE_MS);
        if (!then) t.unref();
        return t;
      };
      const onAbort = () => {
        timer = abandon('its call was aborted and did not stop in time', () => settle(() => reject(abortError(signal))));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      Promise.all(parts.map((p) => p.promise)).then(finish).then(
        (out) => settle(() => resolve(out)),
        (err: unknown) => {
          if (!signal?.aborted) abandon('another part of its call failed');
          settle(() => reject(signal?.aborted ? abortError(signal) : err));
        },
      );
    });
  }

  /** Starts the call's share on slot: once the slot's worker has the session, unless aborted by then. */
  private part(slot: number, name: string, params: Record<string, unknown>, signal?: AbortSignal): Part {
    const part: Part = { done: false, promise: Promise.resolve('') };
    part.promise = (async () => {
      const m = this.pool.at(slot);
      part.member = m;
      const { session } = await this.pool.session(m, slot, this.spec);
      if (signal?.aborted) throw abortError(signal);
      const c = m.request({ type: 'call', session, name, params });
      part.id = c.id;
      return c.promise;
    })().finally(() => {
      part.done = true;
    });
    part.promise.catch(() => undefined);
    return part;
  }
}

/** Booted pools, shared by every createTools of the process: key size:memoryLimit:assetsDir. */
const pools = new Map<string, Promise<Pool>>();

/** What a pool is: its size (worker threads), assets and memory ceiling per Go instance. */
export interface PoolOptions {
  size: number;
  assetsDir?: string;
  /** The memory ceiling of each worker's Go instance in MiB (0: none but wasm32's 4 GiB). */
  memoryLimitMiB: number;
  /** How long a custom language's module may parse one file, in ms (default CUSTOM_PARSE_MS). */
  customParseMs?: number;
  /** The persistent tree cache's folder (Env.treeCache; absent: none). */
  treeCache?: string;
}

/**
 * The engine of a pool of opts.size workers (booted once per process and
 * options, shared by every createTools). Rejects if the workers cannot
 * boot (a missing module, say).
 */
export async function poolEngine(opts: PoolOptions): Promise<Engine> {
  const size = Math.max(1, Math.floor(opts.size));
  const customParseMs = opts.customParseMs ?? CUSTOM_PARSE_MS;
  const key = `${size}:${opts.memoryLimitMiB}:${customParseMs}:${opts.assetsDir ?? ''}:${opts.treeCache ?? ''}`;
  let p = pools.get(key);
  if (!p) {
    p = (async () => {
      const module = await compileGoModule(opts.assetsDir, opts.memoryLimitMiB);
      const pool = new Pool(size, { assetsDir: opts.assetsDir, module, memoryLimitMiB: opts.memoryLimitMiB, treeCache: opts.treeCache }, customParseMs);
      await pool.boot();
      return pool;
    })();
    pools.set(key, p);
    p.catch(() => pools.delete(key));
  }
  const pool = await p;
  return {
    async open(config, files, approve) {
      const spec = pool.spec(config, files, approve);
      const opened = await Promise.all(Array.from({ length: pool.size }, (_, slot) => pool.session(pool.at(slot), slot, spec)));
      return new PoolSession(pool, spec, opened[0].tools, opened[0].prompt);
    },
  };
}
