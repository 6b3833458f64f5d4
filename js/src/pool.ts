/**
 * A small pool of worker threads (Node only), each with its own Go
 * instance: Go under js is single-threaded, so this is the only way to
 * search on several cores. Each ast_grep call goes to every worker, each
 * searches its shard of the files (shard i of n, balanced by file size, on
 * the Go side), and their replies, as Go wrote them, go back to the caller,
 * whose Go instance merges them (runtime.merge): this file only moves them.
 */
import { Worker } from 'node:worker_threads';
import type { Reply, Request } from './worker.js';
import type { Splitter } from './tools.js';

type Call = { id: number; promise: Promise<string> };
/** A request before the member numbers it. */
type Unsent = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** One worker thread and its outstanding requests. */
class Member {
  dead?: string;
  readonly ready: Promise<string>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(out: string): void; reject(err: Error): void }>();
  private next = 1;

  constructor(assetsDir: string | undefined) {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: { assetsDir } });
    // A worker holds the process open only while a request is outstanding.
    this.worker.unref();
    this.ready = this.wait(0);
    this.worker.on('message', (r: Reply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.settled(r.id);
      if (r.error !== undefined) p.reject(new Error(r.error));
      else p.resolve(r.out ?? '');
    });
    this.worker.on('error', (err) => this.fail(err instanceof Error ? err.message : String(err)));
    this.worker.on('exit', (code) => this.fail(`worker exited with code ${code}`));
  }

  /** Sends a request; its promise rejects if the worker fails. */
  request(req: Unsent): Call {
    const id = this.next++;
    const promise = this.wait(id);
    if (this.dead === undefined) this.worker.postMessage({ ...req, id });
    return { id, promise };
  }

  cancel(id: number): void {
    if (this.dead === undefined && this.pending.has(id)) this.worker.postMessage({ type: 'cancel', id });
  }

  terminate(): void {
    this.fail('terminated');
    void this.worker.terminate();
  }

  private wait(id: number): Promise<string> {
    if (this.dead !== undefined) return Promise.reject(new Error(this.dead));
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private fail(reason: string): void {
    this.dead ??= reason;
    for (const [id, p] of this.pending) {
      this.settled(id);
      p.reject(new Error(reason));
    }
  }
}

/** Booted pools, shared by every createTools of the process: key size:assetsDir. */
const pools = new Map<string, Promise<Member[] | undefined>>();

function pool(size: number, assetsDir: string | undefined): Promise<Member[] | undefined> {
  const key = `${size}:${assetsDir ?? ''}`;
  let p = pools.get(key);
  if (!p) {
    p = (async () => {
      let members: Member[] = [];
      try {
        members = Array.from({ length: size }, () => new Member(assetsDir));
        await Promise.all(members.map((m) => m.ready));
        return members;
      } catch {
        for (const m of members) m.terminate();
        pools.delete(key);
        return undefined;
      }
    })();
    pools.set(key, p);
  }
  return p;
}

/** What a pool session needs: the session config (as runtime.init takes it) and the in-memory files, if any. */
export interface PoolOptions {
  size: number;
  assetsDir?: string;
  config: { workspaceRoot: string; timeouts: unknown; limits: unknown };
  files?: Record<string, string | Uint8Array>;
}

/**
 * Opens a session in each of size workers, worker i searching shard i of
 * size. Never throws: undefined means no pool (a worker failed to boot or
 * to open the session), and the caller runs calls in its own instance.
 */
export async function openPool(opts: PoolOptions): Promise<Splitter | undefined> {
  const members = await pool(opts.size, opts.assetsDir);
  if (!members) return undefined;
  let sessions: string[];
  try {
    const opened = members.map((m, index) => m.request({
      type: 'open',
      config: { ...opts.config, shard: { index, count: members.length } },
      files: opts.files,
    }).promise);
    sessions = await Promise.all(opened);
  } catch {
    return undefined;
  }
  return {
    async run(name, params, signal) {
      if (members.some((m) => m.dead !== undefined)) {
        pools.delete(`${opts.size}:${opts.assetsDir ?? ''}`);
        return undefined;
      }
      const calls = members.map((m, i) => m.request({ type: 'call', session: sessions[i], name, params }));
      const onAbort = () => calls.forEach((c, i) => members[i].cancel(c.id));
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return await Promise.all(calls.map((c) => c.promise));
      } catch {
        return undefined;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
