/**
 * A small pool of worker threads (Node only), each with its own Go
 * instance: Go under js is single-threaded, so this is the only way to
 * search on several cores. Each ast_grep call goes to every worker, each
 * searches its shard of the files (shard i of n, balanced by file size, on
 * the Go side) and the results are merged here as one instance would have
 * returned them.
 */
import { Worker } from 'node:worker_threads';
import type { Reply, Request } from './worker.js';
import type { Splitter } from './tools.js';

type Out = Record<string, unknown>;
type Call = { id: number; promise: Promise<Out> };
/** A request before the member numbers it. */
type Unsent = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** One worker thread and its outstanding requests. */
class Member {
  dead?: string;
  readonly ready: Promise<Out>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(out: Out): void; reject(err: Error): void }>();
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
      else p.resolve(r.out ?? {});
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

  private wait(id: number): Promise<Out> {
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
    sessions = (await Promise.all(opened)).map((out) => String(out.session));
  } catch {
    return undefined;
  }
  return {
    async run(name, params, maxResults, signal) {
      if (members.some((m) => m.dead !== undefined)) {
        pools.delete(`${opts.size}:${opts.assetsDir ?? ''}`);
        return undefined;
      }
      const calls = members.map((m, i) => m.request({ type: 'call', session: sessions[i], name, params }));
      const onAbort = () => calls.forEach((c, i) => members[i].cancel(c.id));
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return mergeAstGrep(await Promise.all(calls.map((c) => c.promise)), maxResults);
      } catch {
        return undefined;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

interface Match { file: string; startLine: number; startCol: number }
interface Skip { file: string }
interface Result {
  matches: Match[];
  truncated: boolean;
  totalMatches: number;
  filesSearched: number;
  skippedFiles: number;
  skipped?: Skip[];
  reason?: string;
  hints?: string[];
}

/** The hint an empty result gets when a shard had no file of the language. */
const noFilesHint = /^no \S+ files \(extensions [^)]*\) were found/;

/**
 * Merges the shards' replies ({text, result} or {error}) to one ast_grep
 * call into the result a single instance returns: the first error if any;
 * otherwise matches in path order cut to maxResults, counts summed.
 */
export function mergeAstGrep(outs: Out[], maxResults: number): Out {
  const failed = outs.find((o) => 'error' in o);
  if (failed) return { error: failed.error };
  let shards = outs.map((o) => o.result as Result);
  // Hints on a shard with matches label a fallback query's results, which
  // a single instance only runs when the query itself matches nothing.
  const fallback = (r: Result) => r.totalMatches > 0 && (r.hints?.length ?? 0) > 0;
  if (shards.some((r) => r.totalMatches > 0 && !fallback(r))) {
    shards = shards.map((r) => (fallback(r) ? { ...r, matches: [], totalMatches: 0, hints: [], truncated: false, reason: undefined } : r));
  }
  const sum = (f: (r: Result) => number) => shards.reduce((s, r) => s + f(r), 0);
  const all = shards.flatMap((r) => r.matches);
  // Each file's matches come from one shard, already in document order; the sort is stable.
  all.sort((a, b) => comparePaths(a.file, b.file) || a.startLine - b.startLine || a.startCol - b.startCol);
  const matches = all.slice(0, maxResults);
  const merged: Result = {
    matches,
    truncated: false,
    totalMatches: sum((r) => r.totalMatches),
    filesSearched: sum((r) => r.filesSearched),
    skippedFiles: sum((r) => r.skippedFiles),
  };
  const skipped = shards.flatMap((r) => r.skipped ?? []).sort((a, b) => comparePaths(a.file, b.file));
  if (skipped.length > 0) merged.skipped = skipped;
  const reasons = shards.map((r) => r.reason);
  const reason = ['timeout', 'cancelled'].find((x) => reasons.includes(x))
    ?? (merged.totalMatches > matches.length ? 'maxResults' : undefined);
  merged.truncated = shards.some((r) => r.truncated) || merged.totalMatches > matches.length;
  if (reason) merged.reason = reason;
  let hints = shards.filter((r) => merged.totalMatches === 0 || r.totalMatches > 0).flatMap((r) => r.hints ?? []);
  if (merged.filesSearched > 0) hints = hints.filter((h) => !noFilesHint.test(h));
  if (hints.length > 0) merged.hints = [...new Set(hints)];
  return merged as unknown as Out;
}

const utf8 = new TextEncoder();

/**
 * Orders slash-separated paths as the Go side does: component by component
 * ("a/b" before "a.ts"), bytes of UTF-8 compared.
 */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] === y[i]) continue;
    if (x[i] === 0x2f) return -1;
    if (y[i] === 0x2f) return 1;
    return x[i] - y[i];
  }
  return x.length - y.length;
}
