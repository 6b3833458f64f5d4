// A small event store, written to exercise the TypeScript grammar.
import { EventEmitter } from "node:events";
import type { Readable } from "node:stream";
import * as path from "node:path";
export { path };

/** The shape of every stored event. */
export interface Event<T = unknown> {
  readonly id: string;
  kind: "created" | "updated" | "deleted";
  payload: T;
  at?: Date;
}

export type Handler<T> = (event: Event<T>) => void | Promise<void>;

type Keys<T> = { [K in keyof T]-?: T[K] extends Function ? never : K }[keyof T];

enum Level {
  Debug = 0,
  Info,
  Warn = "warn",
}

declare global {
  interface Window {
    __store?: EventStore<unknown>;
  }
}

const größe = 42;
const greeting = `Grüße, ${"wörld"} — ${größe * 2} 🎉`;

abstract class Base {
  protected constructor(protected readonly name: string) {}
  abstract describe(): string;
}

export class EventStore<T> extends Base implements Iterable<Event<T>> {
  #events: Event<T>[] = [];
  private static instances = 0;
  private readonly emitter = new EventEmitter();

  constructor(name = "default") {
    super(name);
    EventStore.instances++;
  }

  get size(): number {
    return this.#events.length;
  }

  append(kind: Event<T>["kind"], payload: T): Event<T> {
    const event: Event<T> = { id: crypto.randomUUID(), kind, payload, at: new Date() };
    this.#events.push(event);
    this.emitter.emit(kind, event);
    return event;
  }

  on(kind: Event<T>["kind"], handler: Handler<T>): () => void {
    this.emitter.on(kind, handler);
    return () => this.emitter.off(kind, handler);
  }

  async *replay(filter?: (e: Event<T>) => boolean): AsyncGenerator<Event<T>> {
    for (const e of this.#events) {
      if (filter?.(e) ?? true) {
        yield e;
      }
    }
  }

  *[Symbol.iterator](): Iterator<Event<T>> {
    yield* this.#events;
  }

  describe(): string {
    return `${this.name}: ${this.size} events`;
  }
}

function isEvent(x: unknown): x is Event {
  return typeof x === "object" && x !== null && "id" in x && "kind" in x;
}

export async function load<T>(source: Readable, store: EventStore<T>): Promise<number> {
  let count = 0;
  for await (const chunk of source) {
    const text = chunk.toString("utf8") as string;
    for (const line of text.split(/\r?\n/)) {
      if (!line.trim()) continue;
      try {
        const parsed: unknown = JSON.parse(line);
        if (isEvent(parsed)) {
          store.append(parsed.kind, parsed.payload as T);
          count += 1;
        }
      } catch (err) {
        console.warn(`skipping bad line: ${(err as Error).message}`);
      } finally {
        void 0;
      }
    }
  }
  return count;
}

export const levels = Object.entries(Level).filter(([, v]) => typeof v === "number");
export default function createStore<T extends object>(name?: string): EventStore<T> {
  const store = new EventStore<T>(name);
  const { size, ...rest } = { size: store.size, name: name ?? "anon", extra: [1, 2, 3] };
  label: for (let i = 0; i < rest.extra.length; i++) {
    if (i > size) break label;
  }
  return store satisfies Base ? store : store;
}
