/**
 * The file system Go sees under GOOS=js. Go's syscall package calls a
 * Node-style callback fs through globalThis.fs; this one serves in-memory
 * workspaces (mounted under MEM_ROOT, used in browsers and wherever files
 * are passed in) and hands every other path to Node's fs when there is one,
 * through its synchronous calls (see goFS). An in-memory workspace can be
 * written as a disk can (the file tools create, replace, rename and remove
 * files in it; links cannot be made).
 * What Go writes to its stdout and stderr (fd 1 and 2) goes to the output
 * sink, never to the host's.
 */

/** In-memory workspaces live below this directory. */
export const MEM_ROOT = '/loupe-mem';

type Callback = (err: Error | null, ...values: unknown[]) => void;
type NodeFS = Record<string, unknown> & { constants: Record<string, number> };

interface MemFile {
  kind: 'file';
  data: Uint8Array;
  ino: number;
  /** Permission bits. */
  mode: number;
  /** data is the host's own array (as mounted), copied before the first write. */
  borrowed?: boolean;
}
interface MemDir {
  kind: 'dir';
  entries: Map<string, MemFile | MemDir>;
  ino: number;
  mode: number;
}

/** An open in-memory file: its node, the position of reads and writes without one, and how it was opened. */
interface MemFd {
  node: MemFile | MemDir;
  pos: number;
  write: boolean;
  append: boolean;
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

/**
 * How long Go may go on calling Node's fs (answered synchronously) before
 * the event loop gets a turn: the most a cancel waits, a parse aside.
 */
const YIELD_MS = 10;

/** The default open(2) flag values, for runtimes without Node's fs. */
const DEFAULT_CONSTANTS: Record<string, number> = {
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536,
};

export class VirtualFS {
  private root: MemDir = { kind: 'dir', entries: new Map(), ino: 1, mode: 0o755 };
  private nextIno = 2;
  private mounts = 0;
  private fds = new Map<number, MemFd>();
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
      const borrowed = typeof content !== 'string';
      const data = typeof content === 'string' ? encoder.encode(content) : content;
      parent.entries.set(parts[parts.length - 1], { kind: 'file', data, ino: this.nextIno++, mode: 0o644, borrowed });
    }
    return dir;
  }

  private mkdirs(parts: string[]): MemDir {
    let d = this.root;
    for (const p of parts) {
      let next = d.entries.get(p);
      if (!next) {
        next = { kind: 'dir', entries: new Map(), ino: this.nextIno++, mode: 0o755 };
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
    // "." names the directory it is in (os.Root joins it to its root).
    for (const p of path.split('/').filter((c) => c !== '' && c !== '.')) {
      if (n.kind !== 'dir') return undefined;
      const next: MemFile | MemDir | undefined = n.entries.get(p);
      if (!next) return undefined;
      n = next;
    }
    return n;
  }

  /** The directory holding path and the name of path in it (the directory is undefined when missing). */
  private parentOf(path: string): { dir?: MemDir; name: string } {
    const parts = path.split('/').filter((c) => c !== '' && c !== '.');
    const name = parts.pop() ?? '';
    const dir = this.lookup(parts.join('/'));
    return { dir: dir?.kind === 'dir' ? dir : undefined, name };
  }

  /** Writes buf at position into file f (growing it), and returns how many bytes. */
  private static writeAt(f: MemFile, buf: Uint8Array, position: number): number {
    const end = position + buf.length;
    if (f.borrowed) {
      f.data = f.data.slice();
      f.borrowed = false;
    }
    if (end > f.data.length) {
      const grown = new Uint8Array(end);
      grown.set(f.data);
      f.data = grown;
    }
    f.data.set(buf, position);
    return buf.length;
  }

  /** Resizes file f to size bytes (zero-filled when it grows). */
  private static resize(f: MemFile, size: number): void {
    const data = new Uint8Array(size);
    data.set(f.data.subarray(0, size));
    f.data = data;
    f.borrowed = false;
  }

  private stats(n: MemFile | MemDir) {
    const size = n.kind === 'file' ? n.data.length : 0;
    return {
      dev: 1, ino: n.ino, mode: (n.kind === 'dir' ? S_IFDIR : S_IFREG) | n.mode, nlink: 1, uid: 0, gid: 0,
      rdev: 0, size, blksize: 4096, blocks: Math.ceil(size / 512), atimeMs: 0, mtimeMs: 0, ctimeMs: 0,
      isDirectory: () => n.kind === 'dir',
    };
  }

  /** The object to install as globalThis.fs before Go starts. */
  goFS(): Record<string, unknown> {
    const node = this.node;
    // Node's fs is called through its synchronous functions. A search under
    // js walks and reads one file at a time (GOMAXPROCS is 1), waiting for
    // each answer, and an asynchronous call costs a trip through libuv's
    // thread pool and a turn of the event loop: more than the lstat or the
    // read of a cached file itself, and much more on a busy machine, where
    // the pool's thread waits for a core. The answer comes at once, or, when
    // YIELD_MS have passed since this fs last let the event loop turn, on
    // its next turn, so that a cancel still reaches Go while it reads.
    let turned = performance.now();
    const answer = (cb: Callback, err: Error | null, value?: unknown) => {
      if (performance.now() - turned < YIELD_MS) {
        cb(err, value);
        return;
      }
      setImmediate(() => {
        turned = performance.now();
        cb(err, value);
      });
    };
    // A synchronous open of a fifo would wait in this thread for the other
    // end, where nothing, not even a cancel, could reach Go: files are
    // opened without waiting (O_NONBLOCK, which regular files and
    // directories ignore), and Go, finding no regular file, refuses it.
    const nonblock = node?.constants.O_NONBLOCK ?? 0;
    const delegate = (name: string, args: unknown[]) => {
      const cb = args[args.length - 1] as Callback;
      const f = node?.[`${name}Sync`];
      if (typeof f !== 'function') {
        cb(fsError('ENOSYS', String(args[0])));
        return;
      }
      const callArgs = args.slice(0, -1);
      if (name === 'open') callArgs[1] = (callArgs[1] as number) | nonblock;
      let value: unknown;
      try {
        value = (f as (...a: unknown[]) => unknown).apply(node, callArgs);
      } catch (err) {
        answer(cb, err as Error);
        return;
      }
      answer(cb, null, value);
    };
    const mem = (name: string, impl: (...args: unknown[]) => void) => (...args: unknown[]) => {
      const target = args[0];
      if (this.isMem(target) || (typeof target === 'number' && target >= MEM_FD)) {
        impl(...args);
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
        if (fd >= MEM_FD) {
          const f = this.fds.get(fd);
          if (!f) return cb(fsError('EBADF', String(fd)));
          if (!f.write || f.node.kind !== 'file') return cb(fsError('EBADF', String(fd)));
          const at = position !== null && position !== undefined ? position : f.append ? f.node.data.length : f.pos;
          const n = VirtualFS.writeAt(f.node, buf.subarray(offset, offset + length), at);
          if (position === null || position === undefined) f.pos = at + n;
          cb(null, n);
          return;
        }
        delegate('write', [fd, buf, offset, length, position, cb]);
      },
      open: mem('open', (path, flags, mode, cb) => {
        const p = path as string;
        const fl = flags as number;
        const c = cb as Callback;
        const k = this.constants;
        const write = (fl & (k.O_WRONLY | k.O_RDWR)) !== 0;
        let n = this.lookup(p);
        if (n && (fl & k.O_CREAT) !== 0 && (fl & k.O_EXCL) !== 0) return c(fsError('EEXIST', p));
        if (!n) {
          if ((fl & k.O_CREAT) === 0) return c(fsError('ENOENT', p));
          const { dir, name } = this.parentOf(p);
          if (!dir || name === '') return c(fsError('ENOENT', p));
          n = { kind: 'file', data: new Uint8Array(0), ino: this.nextIno++, mode: (mode as number) & 0o7777 };
          dir.entries.set(name, n);
        }
        if (n.kind === 'dir' && write) return c(fsError('EISDIR', p));
        if (n.kind === 'file' && write && (fl & k.O_TRUNC) !== 0) {
          n.data = new Uint8Array(0);
          n.borrowed = false;
        }
        const fd = this.nextFd++;
        this.fds.set(fd, { node: n, pos: 0, write, append: (fl & k.O_APPEND) !== 0 });
        c(null, fd);
      }),
      fsync: mem('fsync', (fd, cb) => {
        (cb as Callback)(this.fds.has(fd as number) ? null : fsError('EBADF', String(fd)));
      }),
      ftruncate: mem('ftruncate', (fd, size, cb) => {
        const f = this.fds.get(fd as number);
        if (!f || !f.write || f.node.kind !== 'file') return (cb as Callback)(fsError('EBADF', String(fd)));
        VirtualFS.resize(f.node, size as number);
        (cb as Callback)(null);
      }),
      truncate: mem('truncate', (path, size, cb) => {
        const n = this.lookup(path as string);
        if (!n) return (cb as Callback)(fsError('ENOENT', path as string));
        if (n.kind !== 'file') return (cb as Callback)(fsError('EISDIR', path as string));
        VirtualFS.resize(n, size as number);
        (cb as Callback)(null);
      }),
      chmod: mem('chmod', (path, mode, cb) => {
        const n = this.lookup(path as string);
        if (!n) return (cb as Callback)(fsError('ENOENT', path as string));
        n.mode = (mode as number) & 0o7777;
        (cb as Callback)(null);
      }),
      fchmod: mem('fchmod', (fd, mode, cb) => {
        const f = this.fds.get(fd as number);
        if (!f) return (cb as Callback)(fsError('EBADF', String(fd)));
        f.node.mode = (mode as number) & 0o7777;
        (cb as Callback)(null);
      }),
      mkdir: mem('mkdir', (path, mode, cb) => {
        const p = path as string;
        const { dir, name } = this.parentOf(p);
        if (!dir || name === '') return (cb as Callback)(fsError('ENOENT', p));
        if (dir.entries.has(name)) return (cb as Callback)(fsError('EEXIST', p));
        dir.entries.set(name, { kind: 'dir', entries: new Map(), ino: this.nextIno++, mode: (mode as number) & 0o7777 });
        (cb as Callback)(null);
      }),
      rename: mem('rename', (from, to, cb) => {
        const c = cb as Callback;
        if (!this.isMem(to)) return c(fsError('EXDEV', String(to)));
        const src = this.parentOf(from as string);
        const n = src.dir?.entries.get(src.name);
        if (!src.dir || !n) return c(fsError('ENOENT', from as string));
        const dst = this.parentOf(to);
        if (!dst.dir || dst.name === '') return c(fsError('ENOENT', to));
        const old = dst.dir.entries.get(dst.name);
        if (old && old !== n) {
          if (old.kind === 'dir' && n.kind !== 'dir') return c(fsError('EISDIR', to));
          if (old.kind !== 'dir' && n.kind === 'dir') return c(fsError('ENOTDIR', to));
          if (old.kind === 'dir' && old.entries.size > 0) return c(fsError('ENOTEMPTY', to));
        }
        src.dir.entries.delete(src.name);
        dst.dir.entries.set(dst.name, n);
        c(null);
      }),
      unlink: mem('unlink', (path, cb) => {
        const { dir, name } = this.parentOf(path as string);
        const n = dir?.entries.get(name);
        if (!dir || !n) return (cb as Callback)(fsError('ENOENT', path as string));
        if (n.kind === 'dir') return (cb as Callback)(fsError('EISDIR', path as string));
        dir.entries.delete(name);
        (cb as Callback)(null);
      }),
      rmdir: mem('rmdir', (path, cb) => {
        const { dir, name } = this.parentOf(path as string);
        const n = dir?.entries.get(name);
        if (!dir || !n) return (cb as Callback)(fsError('ENOENT', path as string));
        if (n.kind !== 'dir') return (cb as Callback)(fsError('ENOTDIR', path as string));
        if (n.entries.size > 0) return (cb as Callback)(fsError('ENOTEMPTY', path as string));
        dir.entries.delete(name);
        (cb as Callback)(null);
      }),
      utimes: mem('utimes', (path, _atime, _mtime, cb) => {
        (cb as Callback)(this.lookup(path as string) ? null : fsError('ENOENT', path as string));
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
        const f = this.fds.get(fd as number);
        if (!f) return (cb as Callback)(fsError('EBADF', String(fd)));
        if (f.node.kind !== 'file') return (cb as Callback)(fsError('EISDIR', String(fd)));
        const start = position === null || position === undefined ? f.pos : (position as number);
        const chunk = f.node.data.subarray(start, start + (length as number));
        (buffer as Uint8Array).set(chunk, offset as number);
        if (position === null || position === undefined) f.pos = start + chunk.length;
        (cb as Callback)(null, chunk.length);
      }),
    };
    // Ownership means nothing in memory, and links are not made there.
    for (const name of ['chown', 'fchown', 'lchown']) {
      fs[name] = mem(name, (...args: unknown[]) => (args[args.length - 1] as Callback)(null));
    }
    for (const name of ['link', 'symlink']) {
      fs[name] = (...args: unknown[]) => {
        if (this.isMem(args[0]) || this.isMem(args[1])) (args[args.length - 1] as Callback)(fsError('EPERM', String(args[1])));
        else delegate(name, args);
      };
    }
    return fs;
  }
}
