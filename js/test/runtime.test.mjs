// How the runtime treats a Go instance that dies, on a stand-in for
// wasm_exec.js's Go class: a trap and an exit are hard to cause on purpose
// in the real module, and what the runtime does with them must not depend
// on how Go got there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRuntime, InstanceDiedError, limitMemory } from '../dist/runtime.js';

/** An empty wasm module: the stand-in needs an instance, not code. */
const empty = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/**
 * A stand-in for wasm_exec.js's Go: its loupe API enters "Go" through
 * _resume as the real js.Func wrappers do; crash() then traps, writes to
 * fd 2 and exits, or never answers.
 */
class FakeGo {
  constructor() {
    FakeGo.last = this;
    this.env = {};
    this.exit = () => undefined;
    this._scheduledTimeouts = new Map();
    this.trap = false;
    this.importObject = {
      gojs: {
        // wasm_exec's writes go through the global fs, as here.
        'runtime.wasmWrite': (text) => globalThis.fs.writeSync(2, new TextEncoder().encode(text)),
      },
    };
  }

  _resume() {
    if (this.trap) throw new WebAssembly.RuntimeError('unreachable');
  }

  run() {
    const go = this;
    globalThis.loupe = {
      init: () => Promise.resolve('{"session":"1","tools":[]}'),
      call(session, name) {
        go._resume();
        if (name === 'trap') {
          go.trap = true;
          go._resume();
        } else if (name === 'exit') {
          go.importObject.gojs['runtime.wasmWrite']('fatal error: out of memory\n\ngoroutine 1 [running]:\n');
          go.exit(2);
        }
        return new Promise(() => undefined); // Go never answers
      },
      cancel() {},
      languageFor: () => '',
      merge: () => '{}',
    };
    globalThis.__loupeReady();
    return new Promise(() => undefined);
  }
}

let envs = 0;
function fakeEnv() {
  return {
    key: `fake:${++envs}`,
    memoryLimitMiB: 64,
    async loadGoSupport() {
      globalThis.Go = FakeGo;
    },
    goModule: async () => empty,
    grammar: async () => { throw new Error('no grammars'); },
  };
}

for (const [name, message] of [
  ['trap', /^loupe's Go instance stopped \(RuntimeError: unreachable\)$/],
  ['exit', /^loupe's Go instance ran out of memory \(limit 64 MiB\) and stopped: fatal error: out of memory$/],
]) {
  test(`an instance that dies (${name}) fails its calls, throws nothing into the host and is booted anew`, async () => {
    const env = fakeEnv();
    const runtime = await loadRuntime(env);
    const written = [];
    const write = process.stderr.write;
    process.stderr.write = (s) => written.push(String(s));
    try {
      const pending = runtime.call('1', 'slow', {}, '1');
      const err = await runtime.call('1', name, {}, '2').catch((e) => e);
      assert.ok(err instanceof InstanceDiedError, String(err));
      assert.match(err.message, message);
      if (name === 'exit') assert.match(err.output, /goroutine 1 \[running\]/);
      await assert.rejects(pending, { message: err.message }, 'a call in flight fails with it');
      assert.equal(runtime.dead, err);
      // A callback arriving after the death (a file read, a timer) is dropped.
      FakeGo.last.trap = true;
      assert.doesNotThrow(() => FakeGo.last._resume());
      assert.doesNotThrow(() => runtime.cancel('1'));
      await assert.rejects(runtime.call('1', 'slow', {}, '3'), InstanceDiedError);
      assert.notEqual(await loadRuntime(env), runtime, 'the next load boots a new instance');
    } finally {
      process.stderr.write = write;
    }
    assert.deepEqual(written, [], 'nothing printed');
  });
}

test('limitMemory declares a maximum on the module\'s memory and changes nothing else', () => {
  // (module (memory (export "m") 1)), then the same with a maximum of 16 pages (1 MiB).
  const mod = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 3, 1, 0, 1, 7, 5, 1, 1, 0x6d, 2, 0]);
  const limited = limitMemory(mod, 1);
  assert.deepEqual([...limited], [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 4, 1, 1, 1, 16, 7, 5, 1, 1, 0x6d, 2, 0]);
  const { m } = new WebAssembly.Instance(new WebAssembly.Module(limited), {}).exports;
  assert.equal(m.grow(15), 1);
  assert.throws(() => m.grow(1), RangeError, 'no growing past the limit');
  assert.equal(new WebAssembly.Instance(new WebAssembly.Module(mod), {}).exports.m.grow(16), 1, 'unlimited before');
  assert.throws(() => limitMemory(mod, 1 / 32), /must be/);
  assert.throws(() => limitMemory(empty, 1), /defines no memory/);
  // An initial size: 8 pages (0.5 MiB), and never past the limit.
  const started = new WebAssembly.Instance(new WebAssembly.Module(limitMemory(mod, 1, 0.5)), {}).exports.m;
  assert.equal(started.buffer.byteLength, 8 << 16);
  assert.equal(started.grow(8), 8);
  assert.throws(() => started.grow(1), RangeError);
  assert.equal(new WebAssembly.Instance(new WebAssembly.Module(limitMemory(mod, 1, 4)), {}).exports.m.buffer.byteLength, 16 << 16);
});
