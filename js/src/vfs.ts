/**
 * The file system Go sees under GOOS=js. Go's syscall package calls a
 * Node-style callback fs through globalThis.fs; this one serves in-memory
 * workspaces (mounted under MEM_ROOT, used in browsers and wherever files
 * are passed in) and hands every other path to Node's fs when there is one.
 * loupe only reads: writes to memory are refused with EROFS. What Go
 * writes to its stdout and stderr (fd 1 and 2) goes to the output sink,
 * never to the host's.
 */

/** In-memory workspaces live below this directory. */
export const MEM_ROOT = '/loupe-mem';

type Callback = (err: Error | null, ...values: unknown[]) => void;
type NodeFS = Record<string, unknown> & { constants: Record<string, number> };

interface MemFile {
  kind: 'file';
  data: Uint8Array;
  ino: number;
}
interface MemDir {
  kind: 'dir';
  entries: Map<string, MemFile | MemDir>;
  ino: number;
}

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
/** File descriptors of in-memory files start here, far above the OS's. */
const MEM_FD = 1 << 24;

function fsError(code: string, path: string): Error {
  const e = new Error(`${code}: ${path}`) as Error & { code: string };
  e.code = code;
  return e;
}

/** The default open(2) flag values, for runtimes without Node's fs. */
const DEFAULT_CONSTANTS: Record<string, number> = {
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536,
};

export class VirtualFS {
  private root: MemDir = { kind: 'dir', entries: new Map(), ino: 1 };
  private nextIno = 2;
  private mounts = 0;
  private fds = new Map<number, { node: MemFile | MemDir }>();
  private nextFd = MEM_FD;
  readonly constants: Record<string, number>;

  /**
   * node: Node's callback fs, for every path outside MEM_ROOT (none when
   * absent); output: receives what Go writes to fd 1 and 2.
   */
  constructor(private readonly node?: NodeFS, private readonly output: (bytes: Uint8Array) => void = () => undefined) {
    this.constants = node?.constants ?? DEFAULT_CONSTANTS;
  }

  /**
   * Mounts files (slash-separated paths relative to the workspace, with
   * their contents) as a new workspace and returns its root path.
   */
  mount(files: Record<string, string | Uint8Array>): string {
    const dir = `${MEM_ROOT}/${++this.mounts}`;
    const encoder = new TextEncoder();
    this.mkdirs(dir.split('/').filter(Boolean));
    for (const [rel, content] of Object.entries(files)) {
      const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
      if (parts.length === 0 || parts.includes('..')) {
        throw new Error(`invalid workspace file path ${JSON.stringify(rel)}`);
      }
      const parent = this.mkdirs([...dir.split('/').filter(Boolean), ...parts.slice(0, -1)]);
      const data = typeof content === 'string' ? encoder.encode(content) : content;
      parent.entries.set(parts[parts.length - 1], { kind: 'file', data, ino: this.nextIno++ });
    }
    return dir;
  }

  private mkdirs(parts: string[]): MemDir {
    let d = this.root;
    for (const p of parts) {
      let next = d.entries.get(p);
      if (!next) {
        next = { kind: 'dir', entries: new Map(), ino: this.nextIno++ };
        d.entries.set(p, next);
      }
      if (next.kind !== 'dir') throw new Error(`${p} is a file`);
      d = next;
    }
    return d;
  }

  private isMem(path: unknown): path is string {
    return typeof path === 'string' && (path === MEM_ROOT || path.startsWith(MEM_ROOT + '/'));
  }

  private lookup(path: string): MemFile | MemDir | undefined {
    let n: MemFile | MemDir = this.root;
    for (const p of path.split('/').filter(Boolean)) {
      if (n.kind !== 'dir') return undefined;
      const next: MemFile | MemDir | undefined = n.entries.get(p);
      if (!next) return undefined;
      n = next;
    }
    return n;
  }

  private stats(n: MemFile | MemDir) {
    const size = n.kind === 'file' ? n.data.length : 0;
    return {
      dev: 1, ino: n.ino, mode: n.kind === 'dir' ? S_IFDIR | 0o555 : S_IFREG | 0o444, nlink: 1, uid: 0, gid: 0,
      rdev: 0, size, blksize: 4096, blocks: Math.ceil(size / 512), atimeMs: 0, mtimeMs: 0, ctimeMs: 0,
      isDirectory: () => n.kind === 'dir',
    };
  }

  /** The object to install as globalThis.fs before Go starts. */
  goFS(): Record<string, unknown> {
    const node = this.node;
    const delegate = (name: string, args: unknown[]) => {
      const cb = args[args.length - 1] as Callback;
      const f = node?.[name];
      if (typeof f !== 'function') {
        cb(fsError('ENOSYS', String(args[0])));
        return;
      }
      (f as (...a: unknown[]) => void).apply(node, args);
    };
    const mem = (name: string, impl: (...args: unknown[]) => void) => (...args: unknown[]) => {
      const target = args[0];
      if (this.isMem(target) || (typeof target === 'number' && target >= MEM_FD)) {
        impl(...args);
      } else {
        delegate(name, args);
      }
    };
    const withNode = (name: string) => (...args: unknown[]) => {
      const target = args[0];
      const cb = args[args.length - 1] as Callback;
      if (this.isMem(target) || (typeof target === 'number' && target >= MEM_FD)) {
        cb(fsError('EROFS', String(target)));
      } else {
        delegate(name, args);
      }
    };
    const fs: Record<string, unknown> = {
      constants: this.constants,
      writeSync: (fd: number, buf: Uint8Array) => {
        const f = node?.writeSync;
        if (fd <= 2 || typeof f !== 'function') {
          this.output(buf);
          return buf.length;
        }
        return (f as (fd: number, b: Uint8Array) => number).call(node, fd, buf);
      },
      write: (fd: number, buf: Uint8Array, offset: number, length: number, position: number | null, cb: Callback) => {
        if (fd <= 2) {
          this.output(buf.subarray(offset, offset + length));
          cb(null, length);
          return;
        }
        withNode('write')(fd, buf, offset, length, position, cb);
      },
      open: mem('open', (path, flags, _mode, cb) => {
        const n = this.lookup(path as string);
        const c = cb as Callback;
        if (!n) return c(fsError('ENOENT', path as string));
        if (((flags as number) & (this.constants.O_WRONLY | this.constants.O_RDWR | this.constants.O_CREAT)) !== 0) {
          return c(fsError('EROFS', path as string));
        }
        const fd = this.nextFd++;
        this.fds.set(fd, { node: n });
        c(null, fd);
      }),
      close: mem('close', (fd, cb) => {
        this.fds.delete(fd as number);
        (cb as Callback)(null);
      }),
      fstat: mem('fstat', (fd, cb) => {
        const f = this.fds.get(fd as number);
        if (!f) return (cb as Callback)(fsError('EBADF', String(fd)));
        (cb as Callback)(null, this.stats(f.node));
      }),
      stat: mem('stat', (path, cb) => {
        const n = this.lookup(path as string);
        if (!n) return (cb as Callback)(fsError('ENOENT', path as string));
        (cb as Callback)(null, this.stats(n));
      }),
      lstat: mem('lstat', (path, cb) => {
        const n = this.lookup(path as string);
        if (!n) return (cb as Callback)(fsError('ENOENT', path as string));
        (cb as Callback)(null, this.stats(n));
      }),
      readdir: mem('readdir', (path, cb) => {
        const n = this.lookup(path as string);
        if (!n) return (cb as Callback)(fsError('ENOENT', path as string));
        if (n.kind !== 'dir') return (cb as Callback)(fsError('ENOTDIR', path as string));
        (cb as Callback)(null, [...n.entries.keys()]);
      }),
      readlink: mem('readlink', (path, cb) => {
        const n = this.lookup(path as string);
        (cb as Callback)(fsError(n ? 'EINVAL' : 'ENOENT', path as string));
      }),
      read: mem('read', (fd, buffer, offset, length, position, cb) => {
        const f = this.fds.get(fd as number) as ({ node: MemFile | MemDir; pos?: number } | undefined);
        if (!f) return (cb as Callback)(fsError('EBADF', String(fd)));
        if (f.node.kind !== 'file') return (cb as Callback)(fsError('EISDIR', String(fd)));
        const start = position === null || position === undefined ? (f.pos ?? 0) : (position as number);
        const chunk = f.node.data.subarray(start, start + (length as number));
        (buffer as Uint8Array).set(chunk, offset as number);
        if (position === null || position === undefined) f.pos = start + chunk.length;
        (cb as Callback)(null, chunk.length);
      }),
    };
    for (const name of ['chmod', 'chown', 'fchmod', 'fchown', 'fsync', 'ftruncate', 'lchown', 'link', 'mkdir', 'rename', 'rmdir', 'symlink', 'truncate', 'unlink', 'utimes']) {
      fs[name] = withNode(name);
    }
    return fs;
  }
}
