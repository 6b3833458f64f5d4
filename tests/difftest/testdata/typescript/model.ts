export enum Color {
  Red = 'red',
  Green = 'green',
}

enum Direction { Up = 1, Down, Left, Right }

export interface Entity<T> {
  id: string;
  value?: T;
  readonly created: Date;
}

export function identity<T>(x: T): T {
  return x;
}

function first<T>(xs: T[]): T | undefined;
function first<T>(xs: readonly T[]): T | undefined {
  return xs.length > 0 ? xs[0] : undefined;
}

export class Repo<T extends Entity<unknown>> {
  private items = new Map<string, T>();

  constructor(private readonly name: string) {}

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  add(item: T): void {
    if (this.items.has(item.id)) {
      throw new Error(`duplicate ${item.id}`);
    }
    this.items.set(item.id, item);
  }

  async load(fetcher: (id: string) => Promise<T>, ids: string[]): Promise<T[]> {
    const out: T[] = [];
    for (const id of ids) {
      out.push(await fetcher(id));
    }
    return out;
  }
}

export type Maybe<T> = T | null | undefined;
export type Handler = (e: Event) => void;

const repo = new Repo<Entity<number>>('numbers');
repo.add({ id: 'a', value: 1, created: new Date() });
const v = repo.get('a') as Entity<number>;
const n = v!.value ?? 0;
console.log(identity<number>(n), first([1, 2]));
