/**
 * A pool worker (Node worker_threads): one Go instance of its own, driven
 * by the main thread's pool (pool.ts) with messages. It opens sessions
 * (each with its shard of the files) and runs tool calls in them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nodeEnv } from './node.js';
import { loadRuntime, type Runtime } from './runtime.js';

/** A message from the pool. Replies carry the request's id; id 0 is the boot. */
export type Request =
  | { type: 'open'; id: number; config: Record<string, unknown>; files?: Record<string, string | Uint8Array> }
  | { type: 'call'; id: number; session: string; name: string; params: Record<string, unknown> }
  | { type: 'cancel'; id: number };

/**
 * A worker's answer to request id: its output (an open's session, a call's
 * reply from Go as Go wrote it, JSON {text, result} or {error}), or the
 * error that stopped it.
 */
export interface Reply {
  id: number;
  out?: string;
  error?: string;
}

const port = parentPort;
if (port) {
  const post = (r: Reply) => port.postMessage(r);
  const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
  const booting: Promise<Runtime> = loadRuntime(nodeEnv((workerData as { assetsDir?: string } | undefined)?.assetsDir));
  booting.then(() => post({ id: 0, out: '' }), (err) => post({ id: 0, error: errorText(err) }));

  const running = new Set<number>();
  const cancelled = new Set<number>();
  const handle = async (runtime: Runtime, req: Request): Promise<string> => {
    switch (req.type) {
      case 'open': {
        let config = req.config;
        if (req.files) {
          const files = req.files;
          config = { ...config, workspaceRoot: runtime.mount(files) };
          await runtime.prepare([...new Set(Object.keys(files).map((f) => runtime.languageFor(f)))]);
        }
        return String((await runtime.init(config)).session);
      }
      case 'call': {
        const p = req.params;
        const lang = typeof p?.language === 'string' ? p.language : String(p?.path ?? '');
        await runtime.prepare([runtime.languageFor(lang)]);
        const out = runtime.call(req.session, req.name, p ?? {}, String(req.id));
        // A cancel that came while the grammar was being prepared.
        if (cancelled.delete(req.id)) runtime.cancel(String(req.id));
        return out;
      }
      default:
        return '';
    }
  };

  port.on('message', (req: Request) => {
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
