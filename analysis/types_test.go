package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

// storeTS is the class every type-layer case asks about: Store.get, in
// store.ts, beside a Cache class with a get of its own.
const storeTS = `export class Store {
  get(key: string): Item { return new Item(); }
  child(): Store { return this; }
}
export class Cache {
  get(key: string) { return key; }
}
export class Item {
  save() {}
}
export interface Opts { store: Store; cache: Cache }
`

// TestTypeLayer checks each rule of the type layer on a small TypeScript
// file calling get: the callers of Store.get it must find (resolved or
// name-only) and those it must not (a Cache's, a library Map's).
func TestTypeLayer(t *testing.T) {
	cases := []struct {
		name, code string
		want       []string // "caller confidence" of Store.get's callers in use.ts
	}{
		{"parameter", `import { Store, Cache } from './store';
export function a(s: Store) { s.get('k'); }
export function b(c: Cache) { c.get('k'); }`, []string{"a resolved"}},
		{"union with undefined and null", `import { Store, Cache } from './store';
export function a(s: Store | undefined) { s!.get('k'); }
export function b(c: Cache | null) { c?.get('k'); }`, []string{"a resolved"}},
		{"library types are not the workspace's", `import { Store } from './store';
export function a(m: Map<string, number>, s: Set<string>, w: WeakMap<object, string>) { m.get('k'); w.get({}); }
export function b(x: string[]) { x.at(0); }
export function c(r: Readonly<Store>) { r.get('k'); }
export function d(ctx: DecoratorContext) { const { name } = ctx; name.get('k'); }`, []string{"c resolved"}},
		{"type arguments pick a member's type", `import { Store, Item } from './store';
export function a(m: Map<string, Store>) { m.get('k').get('x'); }
export function b(m: Map<string, Item>) { m.get('k').save(); }
export function c(xs: Store[]) { xs.find(Boolean)!.get('y'); }`, []string{"a resolved", "c resolved"}},
		{"library globals and chains on them", `export function a(o: object) { Object.keys(o).map(String); new Map().get('k'); }
export function b() { const m = new Map<string, string>(); m.get('k'); JSON.parse('1').get('x'); }`,
			[]string{"b name-only"}},
		{"literals and this aliases", `import { Store } from './store';
export class User {
  run() { const self = this; self.get(); const t = 'x'; t.get(); }
  get() {}
}
export function a() { const s = new Store(); const alias = s; alias.get('k'); }
export function b() { const x = {} as Store; x.get('k'); }`, []string{"a resolved", "b resolved"}},
		{"fields, parameter properties and interface properties", `import { Store, Opts } from './store';
export class User {
  constructor(private store: Store, other: Map<string, string>) { other.get('k'); }
  run() { this.store.get('k'); }
}
export function a(o: Opts) { o.store.get('k'); o.cache.get('k'); }`, []string{"a resolved", "run resolved"}},
		{"await gives what the promise gives", `import { Store } from './store';
export async function a(u: string) { const r = await fetch(u); r.headers.get('k'); }
export async function b(p: Promise<Store>) { const s = await p; s.get('k'); }
export async function c(p: Promise<Map<string, string>>) { (await p).get('k'); }
export async function d(p: Promise<Store>) { (await p).get('k'); }
export async function e(s: Store) { (await s).get('k'); }
async function load() { return new Store(); }
async function loadMap() { return await Promise.resolve(new Map<string, string>()); }
export async function g() { (await load()).get('k'); const m = await loadMap(); m.get('k'); }
export function h() { load().then((s) => s.get('k')); }`, []string{"b resolved", "d resolved", "e resolved", "g resolved", "h resolved"}},
		{"fields destructured from the elements a for...of walks", `import { Store, Cache, Opts } from './store';
export function a(xs: Opts[]) { for (const { store } of xs) { store.get('k'); } }
export function b(xs: Opts[]) { for (const { cache: c } of xs) { c.get('k'); } }
export function c(xs: Map<string, Opts>) { for (const { store } of xs.values()) { store.get('k'); } }`, []string{"a resolved", "c resolved"}},
		{"fields of an object type or null", `import { Store, Cache } from './store';
export class P {
  private active: { store: Store; cache: Cache } | null = null;
  run() { this.active!.store.get('k'); }
  other() { this.active?.cache.get('k'); }
}`, []string{"run resolved"}},
		{"parameter properties with a default value or readonly", `import { Store } from './store';
export class User {
  constructor(public cache = new Map<string, string>(), readonly store: Store) {}
  run() { this.cache.get('k'); this.store.get('k'); }
}`, []string{"run resolved"}},
		{"this outside a class", `export const ext = { reverse() { this.get('k'); } };
export function a() { this.get('k'); }`, nil},
		{"unions of several types", `import { Store, Cache } from './store';
export function a(x: Store | Cache) { x.get('k'); }
export function b(x: Cache | Map<string, string>) { x.get('k'); }
export function c(x: undefined | null | Map<string, string>) { x!.get('k'); }`, []string{"a resolved"}},
		{"super", `import { Store, Cache } from './store';
export class Sub extends Store { get(key: string) { return super.get(key); } }
export class Other extends Cache { get(key: string) { return super.get(key); } }
export class Mine extends Map<string, string> { get(key: string) { return super.get(key); } }`, []string{"get resolved"}},
		{"this parameter", `import { Store } from './store';
export function a(this: Store) { this.get('k'); }
export function b(this: Map<string, string>) { this.get('k'); }`, []string{"a resolved"}},
		{"return types through calls and chains", `import { Store } from './store';
export function make(): Store { return new Store(); }
export function a() { make().get('k'); }
export function b(s: Store) { s.child().child().get('k'); }
export function c() { const s = make(); s.get('k'); }`, []string{"a resolved", "b resolved", "c resolved"}},
		{"a parameter hides a global", `export function a(document = make()) { document.get('k'); }
export function b() { document.get('k'); }`, []string{"a name-only"}},
		{"calls on any reach nothing", `import { Store } from './store';
export function a(s) { s.get('k'); s.x.get('k'); s[0].get('k'); s.y().get('k'); }
export function b(s: any) { s.get('k'); const t = s.inner; t.get('k'); }
export function c(s: Store) { (s as any).get('k'); const t = (s as any).inner; t.get('k'); }
export class C { m(s) { s.get('k'); } set v(s) { s.get('k'); } }
export const o = { m(s) { s.get('k'); } };
export const oc = { m(s) { s.get('k'); } } as const;
export const f = (s) => s.get('k');
export function d() { run((s) => s.get('k')); }
export function e<T>(s: T) { s.get('k'); }
export const g: Getter = { get(s) { s.get('k'); } };
interface Getter { get(s: Store): void }`, []string{"d name-only", "e name-only", "get name-only", "v name-only"}},
		{"or and nullish values", `import { Store } from './store';
export function a(x: Store | undefined) { const s = x ?? new Store(); s.get('k'); }
export function b(m?: Map<string, number>) { const n = m || new Map(); n.get('k'); }`, []string{"a resolved"}},
		{"callback parameters typed by the container", `import { Store, Cache } from './store';
export function a(xs: Store[]) { xs.forEach(x => x.get('k')); }
export function b(xs: Cache[]) { xs.map((x) => x.get('k')); }
export function c(m: Map<string, Store>) { m.forEach((v, k) => { v.get('k'); k.get('k'); }); }
export function d(s: Set<Cache>) { s.forEach(function (x) { x.get('k'); }); }
export function e(xs: readonly Store[]) { xs.filter(x => x.get('k')); }`, []string{"a resolved", "c resolved", "e resolved"}},
		{"callback parameters typed by the workspace's callee", `import { Store, Cache } from './store';
function operate<T>(init: (cache: Cache, store: Store, n: T) => void, done?: ((this: Cache, s: Store) => void) | undefined) {}
class Job { constructor(run: (c: Cache) => void) {} }
export function a() { operate((c, s, n) => { c.get('k'); s.get('k'); n.get('k'); }); }
export function b() { operate(() => {}, function (s) { s.get('k'); }); }
export function c() { new Job((c) => c.get('k')); new Job(x => x.get('k')); }
export function d() { operate((cache) => { const xs = [cache]; xs.forEach((x, store) => store.get('k')); }); }
export function g(y: boolean) { operate(y ? (c, s) => s.get('k') : ((c) => c.get('k'))); }
export function h(y: boolean) { operate((y ? (c, s) => s.get('k') : (c) => c.get('k'))); }`,
			[]string{"a resolved", "b resolved", "g resolved", "h resolved"}},
		{"callback parameters typed by the call's type arguments", `import { Store, Cache } from './store';
const NONE = Symbol.for('none');
type NONE = typeof NONE;
function computed<Value>(name: string, compute: (prev: Value | typeof NONE, epoch: number) => Value): Value { return compute(NONE, 0) as Value; }
class Box<T> { constructor(fill: (old: T) => void) {} }
export function a() { computed<Cache>('c', (prev) => { prev.get('k'); return prev as Cache; }); }
export function b() { computed<Store>('s', function (prev) { prev.get('k'); return new Store(); }); }
export function c() { new Box<Map<string, Store>>((old) => old.get('k')); new Box<Store>((old) => old.get('k')); }
export function d() { computed<Map<string, string>>('m', (prev) => { prev.get('k'); return new Map(); }); }`,
			[]string{"b resolved", "c resolved"}},
		{"type parameters given by what a function literal returns", `import { Store, Cache } from './store';
function singleton<T>(key: string, init: () => T): T { return init(); }
function lazily<T>(init: () => T): T { return init(); }
const inst = singleton('k', () => ({ store: null as null | Store, cache: new Cache() }));
export function a() { inst.store!.get('k'); inst.cache.get('k'); }
export function b() { lazily(() => new Store()).get('k'); lazily(function () { return new Cache(); }).get('k'); }
export function c() { lazily(async () => new Store()).get('k'); }
export function d() { lazily(() => { if (inst) { return new Store(); } return new Cache(); }).get('k'); }`,
			[]string{"a resolved", "b resolved", "d resolved"}}, // c: a Promise<Store> has no get
		{"a variable naming a function returns what it returns", `import { Store, Cache } from './store';
class Factory { static create = (): Store => new Store(); static cache(): Cache { return new Cache(); } }
const make = Factory.create;
const make2 = make;
const other = Factory.cache;
export function a() { make().get('k'); }
export function b() { make2().get('k'); }
export function c() { other().get('k'); }
const arrow = function (): Store { return new Store(); };
export function d() { arrow().get('k'); }
class Num { gte(): Store { return new Store(); } min = this.gte; }
export function e(n: Num) { n.min().get('k'); }`, []string{"a resolved", "b resolved", "d resolved", "e resolved"}},
		{"type aliases", `import { Store, Cache } from './store';
type Either = Store | Cache;
type Only = Store;
export function a(x: Only) { x.get('k'); }
export function b(x: Either) { x.get('k'); }
type Other = Cache;
export function c(x: Other) { x.get('k'); }`, []string{"a resolved", "b resolved"}},
		{"a method named by a computed key", `import { Store } from './store';
export class It extends Store { *[Symbol.iterator]() { yield this.get('k'); } }`, []string{"[Symbol.iterator] resolved"}},
		{"literal and assignment receivers", `import { Store } from './store';
export class K { s?: Store; m?: Map<string, Store>;
  run() { (this.s ??= new Store()).get('k'); (this.m ??= new Map()).get('k'); ['a'].forEach(String); 'x'.get(); } }`,
			[]string{"run resolved"}},
		{"destructured fields", `import { Store, Cache, Opts } from './store';
export function a(o: Opts) { const { store, cache: c } = o; store.get('k'); c.get('k'); }
export function b(o: { x: Store; y: { z: Store } }) { const { x } = o; x.get('k'); o.y.z.get('k'); }
export function d(m: Map<string, string>) { const { size } = m; size.get(); }
export function e(o: { x: Cache }) { o.x.get('k'); }
export class K { s: Store = new Store(); run() { const { s } = this; s.get('k'); } }`, []string{"a resolved", "b resolved", "run resolved"}},
		{"inherited fields and parameter properties, through this and a local", `import { Store } from './store';
class Base { constructor(public s: Store) {} t: Store = new Store(); }
class Mid extends Base {}
export class Tool extends Mid { a() { this.s.get('k'); } b() { this.t.get('k'); } c() { const s = this.s; s.get('k'); } }`,
			[]string{"a resolved", "b resolved", "c resolved"}},
		{"callers named as the compiler names them: a function assigned to a property or held by let is none", `import { Store } from './store';
export class K { s: Store = new Store(); m(sock: WebSocket) { sock.onerror = () => { this.s.get('k'); }; } }
export const o: { handler?: () => void } = {};
o.handler = function () { new Store().get('k'); };
export function outer() { let f = () => new Store().get('k'); const g = () => new Store().get('k'); }`,
			[]string{"<module> resolved", "g resolved", "m resolved", "outer resolved"}},
		{"type parameters typed by their constraint", `import { Store } from './store';
export function a<T extends Store>(x: T) { x.get('k'); }
export const b = <T extends Store>(x: T) => x.get('k');
export class K<T extends Store> { s!: T; c() { this.s.get('k'); } }
export function d<Store>(x: Store) { x.get('k'); }
export function e<T>(x: T) { x.get('k'); }`, []string{"a resolved", "b resolved", "c resolved", "d name-only", "e name-only"}},
		{"returns inferred when no return type is written", `import { Store, Cache } from './store';
class Hub { s = new Store();
  store() { return this.s; } self() { return this; } make() { if (1) { return new Store(); } return new Store(); }
  either() { if (1) { return new Store(); } return new Cache(); } async later() { return new Store(); }
  nested() { [1].map(() => { return new Cache(); }); return new Store(); } }
const arrow = () => new Store();
function plain() { const s: Store = open(); return s; }
export function a(h: Hub) { h.store().get('k'); h.self().store().get('k'); }
export function b(h: Hub) { h.make().get('k'); arrow().get('k'); plain().get('k'); h.nested().get('k'); }
export function c(h: Hub) { h.either().get('k'); }
export function d(h: Hub) { h.later().get('k'); }`, []string{"a resolved", "b resolved", "c resolved"}}, // later() gives a Promise
		{"chains of fields, optional and non-null", `import { Store } from './store';
interface User { prefs: Store; next?: User }
export class M { constructor(private readonly user: User) {}
  a() { this.user.prefs.get('k'); } b() { this.user.next?.prefs!.get('k'); } }
export function c(u: User) { u.next!.next?.prefs.get('k'); }`, []string{"a resolved", "b resolved", "c resolved"}},
		{"a method returning this returns its receiver's type", `import { Store } from './store';
class Editor { setTool(): this { return this; } }
class TestEditor extends Editor { down(): this { return this; } store(): Store { return new Store(); } }
export function a(e: TestEditor) { e.setTool().down().store().get('k'); }
export function b(e: TestEditor) { const x = e.setTool(); x.store().get('k'); }
export function c() { new TestEditor().setTool().store().get('k'); }`, []string{"a resolved", "b resolved", "c resolved"}},
		{"private fields", `import { Store } from './store';
export class Hub { #s: Store; #xs: Array<Store>;
  constructor() { this.#s = new Store(); this.#xs = []; }
  a() { this.#s.get('k'); } b() { const s = this.#s; s.get('k'); } c() { this.#xs.forEach((x) => x.get('k')); } }`,
			[]string{"a resolved", "b resolved", "c resolved"}},
		{"a written type holds before its declaration", `import { Store } from './store';
export function a() { hub.get('k'); }
export var hub: Store = make();`, []string{"a resolved"}},
		{"narrowing any: a disjunction, a guard out of reach, a plain function", `import { Store } from './store';
import { isThing } from 'ext';
class Cache { get(k: string) { return k; } }
function isStore(x: any): x is Store { return true; }
function isCache(x: any): x is Cache { return true; }
function plain(x: any): boolean { return true; }
export function a(x: any) { if (isStore(x) || isCache(x)) { x.get('k'); } }
export function b(x: any) { if (isThing(x)) { x.get('k'); } }
export function c(x: any) { if (plain(x)) { x.get('k'); } }
export function d(x: Store) { if (isThing(x)) { x.get('k'); } }
export function e(x) { if (isStore(x)) { run(() => x.get('k')); } }
export function g(xs: Store[], r: Record<string, Store>) { xs[0].get('k'); r['a'].get('k'); }
export function j(r: Record<string, Store> | null, o: { m: Store[] }) { r![o.m.length].get('k'); o!.m![0].get('k'); }
export function h(xs: Store[]) { xs[f()][0].get('k'); }
export function i(x) { (x as Store).get('k'); }`, []string{"a resolved", "b name-only", "d resolved", "e resolved", "g resolved", "h name-only",
			"i resolved", "j resolved"}},
		{"narrowing by type guards, instanceof and typeof", `import { Store, Cache, Item } from './store';
function isStore(x: any): x is Store { return x instanceof Store; }
const isStore2 = Boolean as unknown as (thing: any) => thing is Store;
export function a(x: any) { if (isStore(x)) { x.get('k'); } }
export function b(x: Store | Cache) { if (x instanceof Cache) { x.get('k'); } }
export function d(x: any) { isStore(x) && x.get('k'); }
export function e(x: unknown) { if (typeof x === "string") { x.get('k'); } }
export function g(x: Store | Cache) { return x instanceof Store ? x.get('k') : null; }
export function h(x: Store | Cache) { if (x instanceof Cache) {} x.get('k'); }
export function i(x: Cache | Item) { if (isStore2(x)) { x.get('k'); } }`,
			[]string{"a resolved", "d resolved", "g resolved", "h resolved", "i resolved"}},
		{"an if (!test) whose branch leaves narrows the rest of its block", `import { Store, Cache } from './store';
function isStore(x: any): x is Store { return x instanceof Store; }
export function a(x: any) { if (!isStore(x)) return; x.get('k'); }
export function b(x: Store | Cache) { if (!(x instanceof Cache)) { throw new Error(); } x.get('k'); }
export function c(x: Store | Cache) { if (!(x instanceof Cache)) { log(); } x.get('k'); }
export function d(x: Store | Cache, y: Store) { if (!(x instanceof Cache)) return; x = y; x.get('k'); }
export function e(xs: any[]) { for (const x of xs) { if (!(x instanceof Store)) continue; x.get('k'); } }`,
			[]string{"a resolved", "c resolved", "d resolved", "e resolved"}},
		{"a guard to an object type keeps the declared type", `import { Store, Cache } from './store';
function hasGet(x: any): x is { get: Store['get'] } { return true; }
function hasPut(x: any): x is { put(): void } { return true; }
export function a(x: Store) { if (hasGet(x)) { x.get('k'); } }
export function b(x: any) { if (hasGet(x)) { x.get('k'); } }
export function c(x: Store) { if (hasPut(x)) { x.get('k'); } }`,
			[]string{"a resolved", "c resolved"}},
		{"type arguments of the workspace's generics", `import { Store, Cache } from './store';
class Box<T> { value: T; get(): T { return this.value; } peek() { return this.value; } }
interface Sig<V> { read(): V }
interface At<V, D = unknown> extends Sig<V> { diff(): D }
class Holder extends Box<Cache> {}
type Pair<L, R> = { left: L; right: R };
function box<T>(x: T): Box<T> { return new Box<T>(); }
function atom<V>(name: string): At<V> { return null!; }
function id<T>(x: T): T { return x; }
function pair<A, B>(a: A, b: B): Pair<A, B> { return { left: a, right: b }; }
export function a(b: Box<Store>) { b.get().get('k'); }
export function b(b: Box<Cache>) { b.get().get('k'); }
export function c() { box(new Store()).get().get('k'); }
export function d() { atom<Store>('x').read().get('k'); }
export function e() { id(new Cache()).get('k'); }
export function g(b: Box<Store>) { b.value.get('k'); }
export function h(x: Holder) { x.get().get('k'); }
export function h2(x: Holder) { x.value.get('k'); }
export function i() { const b = new Box<Store>(); b.peek().get('k'); }
export function j() { const b = id(new Cache()); b.get('k'); }
export function k(x: At<Cache, Store>) { x.diff().get('k'); x.read().get('k'); }
export function l(p: Pair<Cache, Store>) { p.right.get('k'); p.left.get('k'); }
export function m() { const p = pair(new Cache(), new Store()); p.right.get('k'); }
const mk: () => Cache = () => new Cache();
interface Factory { make: () => Store; other: () => Cache }
export function n(fa: Factory) { mk().get('k'); fa.other().get('k'); }
function pick(a: string, b: number, c: boolean): Cache
function pick(a?: string): Cache
function pick(a: string, b?: number): Store
function pick(a: any, b?: any, c?: any): any { return null; }
export function v1() { pick('a', 1).get('k'); }
function boxed<T>(name: string, x: T, o?: { fn(): void }): Box<T>
function boxed(): any { return null; }
export function v3() { boxed<Store>('n', null!).get().get('k'); }
export function v2() { pick('a', 1, true).get('k'); }
function keep<T>(x: T, f: () => void): T { return x; }
export function r() { const st = keep(new Store(), () => st.get('k')); }
export function o(fa: Factory) { fa.make().get('k'); }`,
			[]string{"a resolved", "c resolved", "d resolved", "g resolved", "i resolved", "k resolved", "l resolved", "m resolved", "o resolved", "r resolved", "v1 resolved", "v3 resolved"}},
		{"a receiver a ?? b or a || b is either", `import { Store, Cache } from './store';
export function t1(a: Store | undefined, b: Store) { (a ?? b).get('k'); }
export function t2(a: Cache | undefined, b: Cache) { (a || b).get('k'); }
export function t3(a: Store | undefined, b: Cache) { (a ?? b)!.get('k'); }
export function t4(a: any, b: Store) { (a ?? b).get('k'); }
export function t5(a: Store | undefined, b: Missing) { (a ?? b).get('k'); }`,
			[]string{"t1 resolved", "t3 resolved", "t5 name-only"}},
		{"members keyed by a name's value", `import { Store, Cache } from './store';
const $k = Symbol('k');
interface Holds { [$k]: Store; [other]: Cache }
class Admin { [$k]: Cache }
export function u1(x: Holds) { x[$k].get('k'); }
export function u2(x: any) { (x as any as Holds)[$k].get('k'); }
export function u3(x: Holds, y: string) { x[y].get('k'); }
export function u4(x: Admin) { x[$k].get('k'); }
interface ByKey { [key: string]: Store }
export function u5(x: ByKey, k: string, y: { [id: string]: Store[] }) { x[k].get('k'); }
export function u6(y: { readonly [K in Missing]: Store }, k: string) { y[k].get('k'); }
export function u7(y: { readonly [K in Missing]: Store }) { y.document.get('k'); }`,
			[]string{"u1 resolved", "u2 resolved", "u3 name-only", "u5 resolved", "u6 resolved", "u7 resolved"}},
		{"a field of a function type written elsewhere is no method", `import { Store, Cache } from './store';
type Getter = (k: string) => void;
interface Reg { get?: Getter }
class Holder { get: Getter = () => {}; }
export function w1(r: Reg) { r.get!('k'); }
export function w2(h: Holder) { h.get('k'); }
export function w3(s: Store) { s.get('k'); }
class Ed { inputs: { keys: Store; more: { cache: Cache } } }
export function w4(e: Ed) { const { inputs: { keys, more: { cache } } } = e; keys.get('k'); cache.get('k'); }`,
			[]string{"w3 resolved", "w4 resolved"}},
		{"an object literal's properties are typed by their values", `import { Store, Cache, Opts } from './store';
function mk(): Store { return new Store(); }
function mkc(): Cache { return new Cache(); }
const flags = { a: mk(), b: mkc(), n: { deep: mk() }, f: () => mkc() };
function wrap() { return { inner: mkc() }; }
export function x1() { flags.a.get('k'); }
export function x2() { flags.b.get('k'); wrap().get('k'); }
export function x3() { const o = { s: new Store() }; o.s.get('k'); }
export function x4() { flags.n.deep.get('k'); }
export function x5() { flags.f().get('k'); }
export function x6(a: any) { const o = { a: new Store() }; a.get('k'); }
export function x7(store: Store) { const o = { store }; o.store.get('k'); }
declare const G;
export function x8() { G.get('k'); }
interface Many<T> extends Map<string, T> { extra(): void }
export function x9(m: Many<Store>) { m.get('k'); }
function keysOf(o: object) { if (!o) { return Object.keys(o); } return [...Object.keys(o)]; }
export function x10(o: object) { keysOf(o).get('k'); }
function ctx() { return { log: (m: string, ...rest: any[]) => 1, get: () => '...', s: new Store() }; }
export function x11() { ctx().get(); ctx().s.get('k'); }
function spread(o: object) { return { ...o, s: new Store() }; }
export function x12() { spread({}).get('k'); }
function pair() { return { s: new Store(), c: new Cache() }; }
export function x13() { pair().s.get('k'); }
export function x14() { pair()?.c.get('k'); const c = pair().c; c.get('k'); }
export function x15(m: Map<string, Opts>) { m.get('k')!.store.get('k'); m.get('k')!.cache.get('k'); }`,
			[]string{"x1 resolved", "x11 resolved", "x12 name-only", "x13 resolved", "x15 resolved", "x3 resolved", "x4 resolved", "x5 name-only", "x7 resolved"}},
		{"for...of gives the elements", `import { Store, Cache } from './store';
interface Reg { on?: (k: string) => void; store: Store }
export function q1(xs: Store[]) { for (const x of xs) x.get('k'); }
export function q2(ys: Set<Cache>) { for (const y of ys) { y.get('k'); } }
export function q3(m: Map<Store, Cache>) { for (const e of m) e.get('k'); }
export function q4(xs: Store[]) { for (const k in xs) k.get('k'); }
export function q5(rs: Reg[]) { for (const r of rs) { r.store.get('k'); } }
export function q6(m: Map<string, Cache>) { for (const v of m.values()) v.get('k'); }
export function q7() { const ws = [new Store()]; for (const w of ws) { w.get('k'); } ws.shift()!.get('k'); }
export function q9(key: string) { const m = new Map<string, Store>(); let s = m.get(key); s!.get('k'); }
export function q10() { const m = new Map<string, { s: Store; c: Cache }>(); const v = m.get('a')!; v.s.get('k'); }
export function q11(st: Store) { let cur: Store | undefined; const s = (cur = [st][0]!); s.get('k'); }
export function q8() { const cs = [new Cache(), new Cache()]; for (const c of cs) { c.get('k'); } }`,
			[]string{"q1 resolved", "q10 resolved", "q11 resolved", "q3 name-only", "q4 name-only", "q5 resolved", "q7 resolved", "q9 resolved"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := project(t, map[string]string{"store.ts": storeTS, "use.ts": c.code})
			r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get"})
			var got []string
			for _, n := range r.Callers {
				if n.File == "use.ts" {
					got = append(got, n.Name+" "+n.Confidence)
				}
			}
			sort.Strings(got)
			sameList(t, "callers of Store.get in use.ts", got, c.want)
		})
	}
}

// TestDispatch checks the calls that may reach a method through its
// class's relatives: a supertype's member, a subtype's, or another
// implementation of the member an interface declares, as a method or as a
// property of a function type. They are name-only, labelled dispatch; a
// call of an unrelated class's member is no caller.
func TestDispatch(t *testing.T) {
	dir := project(t, map[string]string{"obs.ts": `export interface Observer { next: (v: number) => void; done(): void }
export class Base { next(v: number) {} }
export class Consumer extends Base implements Observer { next(v: number) {} done() {} }
export class Sub extends Consumer {}
export class Sibling implements Observer { next(v: number) {} done() {} }
export class Other { next(v: number) {} done() {} }
export function a(x: Base) { x.next(1); }
export function b(x: Sub) { x.next(1); }
export function c(x: Sibling) { x.next(1); x.done(); }
export function d(x: Other) { x.next(1); x.done(); }
export function e(x: Consumer) { x.next(1); }
export function f(x: Observer) { x.next(1); x.done(); }
`})
	for _, c := range []struct {
		symbol string
		want   []string
	}{
		{"Consumer.next", []string{"a dispatch", "b resolved", "c dispatch", "e resolved", "f dispatch"}},
		{"Consumer.done", []string{"c dispatch", "f dispatch"}},
	} {
		r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: c.symbol})
		var got []string
		for _, n := range r.Callers {
			got = append(got, strings.TrimSpace(n.Name+" "+n.Confidence+" "+n.Reason))
		}
		sort.Strings(got)
		sameList(t, "callers of "+c.symbol, got, c.want)
	}
	// References are the symbol's own: the dispatch calls are left out,
	// counted and pointed to callers.
	r := run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: "Consumer.next"})
	got := refList(r, func(_ string, it Ref) string { return fmt.Sprintf("%d %s", it.Line, it.Confidence) })
	sameList(t, "references of Consumer.next", got, []string{"8 resolved", "11 resolved"})
	if c := r.Completeness; c == nil || !c.Exhaustive || c.Related != 3 ||
		!strings.Contains(r.Text(), "3 calls through a member it overrides or implements not listed (callers lists them as dispatch)") {
		t.Errorf("references of Consumer.next: %+v\n%s", c, r.Text())
	}
}

// TestLibTable checks the generated table of TypeScript's library: a
// type's parameters and members, inherited members, and globals.
func TestLibTable(t *testing.T) {
	lib := tsLibrary()
	cases := []struct{ typ, member, want string }{
		{"Map", "get", "V"},
		{"Map", "set", "this"},
		{"Array", "filter", "Array<T>"}, // filter<S extends T>(): S[] gives T[]
		{"String", "split", "Array<String>"},
		{"ObjectConstructor", "keys", "Array<String>"},
		{"HTMLDivElement", "getAttribute", "String"}, // inherited from Element
	}
	for _, c := range cases {
		got, _, ok := lib.member(c.typ, c.member, 0)
		if !ok || got != c.want {
			t.Errorf("%s.%s: got %q (%v), want %q", c.typ, c.member, got, ok, c.want)
		}
	}
	if got := lib.types["Map"].params; len(got) != 2 || got[0] != "K" || got[1] != "V" {
		t.Errorf("Map's parameters: %v", got)
	}
	for g, want := range map[string]string{"Object": "ObjectConstructor", "document": "Document", "Math": "Math"} {
		if lib.globals[g] != want {
			t.Errorf("global %s: %q, want %q", g, lib.globals[g], want)
		}
	}
	if x := parseTyx("Map<String,Array<Foo>>"); x.name != "Map" || len(x.args) != 2 || x.args[1].name != "Array" || x.args[1].args[0].name != "Foo" {
		t.Errorf("parseTyx: %+v", x)
	}
}

// TestSharedRoot checks that a call of one implementation of an
// interface's member may be a call of another (the compiler's call
// hierarchy counts it): name-only, while an unrelated class's member is
// not a caller.
func TestSharedRoot(t *testing.T) {
	dir := project(t, map[string]string{"obs.ts": `export interface Observer { next(v: number): void }
export class A implements Observer { next(v: number) {} }
export class B implements Observer { next(v: number) {} }
export class C { next(v: number) {} }
export function viaB(b: B) { b.next(1); }
export function viaC(c: C) { c.next(1); }
export function viaA(a: A) { a.next(1); }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "A.next"})
	sameList(t, "callers of A.next", callerSet(r.Callers), []string{"viaA obs.ts resolved", "viaB obs.ts dispatch"})
}

// TestMethodOfValue checks that a method called on a value (a variable, a
// parameter, this, a chain) is never a module-level function of the same
// name, while a namespace's member is.
func TestMethodOfValue(t *testing.T) {
	dir := project(t, map[string]string{
		"api.ts": "export function get(o: object, k: string) { return 1; }\n",
		"use.ts": `import * as api from './api';
import { get } from './api';
export function a(m: any) { m.get('k'); }
export function b() { api.get({}, 'k'); }
export function c() { get({}, 'k'); }
export function d(x: any) { x.first().get('k'); }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "api.get"})
	sameList(t, "callers of api.get", callerSet(r.Callers), []string{"b use.ts resolved", "c use.ts resolved"})
}

// TestCompleteness checks the completeness statement of callers and
// references answers: exhaustive when every site resolved, else the
// count of name-only sites by reason, in the structured answer, on each
// name-only node and in the text.
func TestCompleteness(t *testing.T) {
	dir := project(t, map[string]string{"store.ts": storeTS, "use.ts": `import { Store } from './store';
export interface Getter { get(k: string): Item }
export class Sub extends Store {}
export function a(s: Store) { s.get('k'); }
export function b<T>(s: T) { s.get('k'); }
export function c(s: Sub) { s.get('k'); }
export function e(s: any) { s.get('k'); }
`, "other.ts": `import { Cache } from './store';
export function d(c: Cache) { c.get('k'); }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get"})
	c := r.Completeness
	if c == nil || c.Exhaustive || c.NameOnly != 1 || c.Reasons[ReasonUntypedReceiver] != 1 || len(c.Reasons) != 1 || c.Untyped != 1 {
		t.Errorf("callers of Store.get: %+v", c)
	}
	for _, n := range r.Callers {
		if want := map[string]string{"b": ReasonUntypedReceiver}[n.Name]; n.Reason != want {
			t.Errorf("caller %s: reason %q, want %q", n.Name, n.Reason, want)
		}
	}
	text := r.Text()
	if want := "(not exhaustive: 1 of 3 callers matched by name only, marked [name-only]: 1 untyped receiver; 1 call of the name on untyped values (any) not listed)"; !strings.Contains(text, want) {
		t.Errorf("text lacks %q:\n%s", want, text)
	}
	r = run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Cache.get", Path: "other.ts"})
	if c := r.Completeness; c == nil || !c.Exhaustive || c.NameOnly != 0 || len(r.Callers) != 1 {
		t.Errorf("callers of Cache.get: %+v %+v", c, r.Callers)
	}
	if !strings.Contains(r.Text(), "(exhaustive: no site left unresolved)") {
		t.Errorf("text of an exhaustive answer:\n%s", r.Text())
	}
	// No caller listed, one call on any left out: the answer says so.
	none := run(t, project(t, map[string]string{"store.ts": storeTS, "use.ts": "export function e(s: any) { s.get('k'); }\n"}),
		Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get"})
	if want := "(no callers found in .)\n  (exhaustive: no site left unresolved; 1 call of the name on untyped values (any) not listed)"; !strings.Contains(none.Text(), want) {
		t.Errorf("text lacks %q:\n%s", want, none.Text())
	}
	r = run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: "Store.get"})
	if c := r.Completeness; c == nil || c.Exhaustive || c.NameOnly != 1 || c.Reasons[ReasonUntypedReceiver] != 1 || c.Untyped != 1 {
		t.Errorf("references of Store.get: %+v", c)
	}
	r = run(t, dir, Params{Mode: ModeDefinitions, Language: "typescript", Symbol: "Store.get"})
	if r.Completeness != nil {
		t.Errorf("definitions carry no completeness: %+v", r.Completeness)
	}
}

// TestImportAlias checks that a call through a renamed import (import {
// get as fetch }) is a caller and a reference of the function imported.
func TestImportAlias(t *testing.T) {
	dir := project(t, map[string]string{
		"api.ts": "export function get(k: string) { return 1; }\n",
		"use.ts": "import { get as fetchIt } from './api';\nexport function a() { fetchIt('k'); }\n",
	})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "api.get"})
	sameList(t, "callers of api.get", callerSet(r.Callers), []string{"a use.ts resolved"})
	r = run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: "api.get"})
	if c := r.References.Categories[1]; c.ID != RefDirectCalls || c.Count != 1 || c.Items[0].Confidence != Resolved {
		t.Errorf("direct calls of api.get: %+v", c)
	}
}

// TestTypeReferences: a type parameter named like a type is no reference
// of it, and no call reaches an interface or a type alias.
func TestTypeReferences(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export type output<T> = T;
export interface B { x: number }
export function f<A, B>(a: A, b: B): B { return b; }
export function g(b: B): void {}
export class K<B> { m(b: B) {} }
export function h(t: any, u: Other) { t.output(); u.output(); new B(); }
`})
	for _, c := range []struct {
		symbol string
		want   []string
	}{
		{"a.B", []string{"typeAnnotations 4 resolved"}},
		{"a.output", nil},
	} {
		r := run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: c.symbol})
		got := refList(r, func(cat string, it Ref) string { return fmt.Sprintf("%s %d %s", cat, it.Line, it.Confidence) })
		sameList(t, "references of "+c.symbol, got, c.want)
	}
}

// TestReferencesOfOtherNames: sites that name another thing than a
// TypeScript declaration of the same name are not its references: the
// type keyword bigint (which the grammar reads as a type name), a name
// imported from a package, a parameter or local of that name; and a
// member of a namespace merged with a type alias of its name
// (Schema.Result) is the namespace's.
func TestReferencesOfOtherNames(t *testing.T) {
	dir := project(t, map[string]string{
		"a.ts": "export function bigint(x: number) { return 1; }\nexport function describe(v: unknown) { return ''; }\nexport class Klass {}\n",
		"b.ts": "import { describe } from 'vitest';\nimport { Klass, bigint } from './a';\ntype P = string | bigint;\nlet v: bigint = 1n;\n" +
			"describe('x', () => {});\nexport function mk(Klass: new () => object) { return new Klass(); }\nexport const k = new Klass();\n" +
			"export const n = bigint(1);\n",
		"ns.ts":  "export type Schema<I> = { readonly std: Schema.Result<I> };\nexport declare namespace Schema {\n  export type Result<O> = { value: O };\n}\n",
		"use.ts": "import type { Schema } from './ns';\nexport function v(): Schema.Result<number> | undefined { return undefined; }\n",
	})
	for _, c := range []struct {
		symbol string
		want   []string
	}{
		{"a.ts#bigint", []string{"directCalls b.ts:8 resolved", "imports b.ts:2 resolved"}},
		{"a.ts#describe", nil},
		{"ns.ts#Result", []string{"typeAnnotations ns.ts:1 resolved", "typeAnnotations use.ts:2 resolved"}},
		{"Klass", []string{"instantiations b.ts:7 resolved", "imports b.ts:2 resolved"}},
	} {
		r := run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: c.symbol})
		got := refList(r, func(cat string, it Ref) string {
			return fmt.Sprintf("%s %s:%d %s", cat, it.File, it.Line, it.Confidence)
		})
		sameList(t, "references of "+c.symbol, got, c.want)
	}
}

// TestCallApplyAndObject: Owner.prototype.m.apply(x, a) is a call of
// Owner's m, as the compiler's call hierarchy counts it; a call of Object's member (o.toString() on an object,
// Object.prototype.toString.call(x)) may reach every class's override:
// name-only, dispatch; so may a call of another class's override
// (b.toString() with b: Box, for Set2's), as the compiler relates them.
func TestCallApplyAndObject(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export class Set2 { toString() { return "s"; } has(x: number) { return true; } }
export function helper(x: number) { return x; }
export function a(thing: unknown) { return Object.prototype.toString.call(thing); }
export function b(s: Set2) { return Set2.prototype.has.call(s, 1) && helper(1); }
export function c(o: object) { return o.toString(); }
export function d(s: Set2) { return s.toString(); }
export function e(n: number) { return n.toString(); }
export class Box { toString() { return "b"; } valueOf() { return 1; } peek() { return this.valueOf(); } }
export function g(b: Box) { return b.toString(); }
`})
	for _, c := range []struct {
		symbol string
		want   []string
	}{
		{"Set2.toString", []string{"a a.ts dispatch", "c a.ts dispatch", "d a.ts resolved", "g a.ts dispatch"}},
		{"Box.valueOf", []string{"peek a.ts resolved"}},
		{"Set2.has", []string{"b a.ts resolved"}},
		{"helper", []string{"b a.ts resolved"}},
	} {
		r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: c.symbol})
		got := callerSet(r.Callers)
		sort.Strings(got)
		sameList(t, "callers of "+c.symbol, got, c.want)
		for _, n := range r.Callers {
			if n.Confidence == NameOnly && n.Reason != ReasonDispatch {
				t.Errorf("%s: %s is name-only for %q, not dispatch", c.symbol, n.Name, n.Reason)
			}
		}
	}
}

// TestReferencesExportedUnderAlias: export { _null as null } is a
// reference of _null, as the compiler counts it, and calls of the alias
// are calls of _null.
func TestReferencesExportedUnderAlias(t *testing.T) {
	dir := project(t, map[string]string{
		"ex.ts": "function _null() { return null; }\nexport { _null as null };\nexport function other() { return _null(); }\n",
	})
	r := run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: "ex.ts#_null"})
	got := refList(r, func(cat string, it Ref) string {
		return fmt.Sprintf("%s %s:%d %s", cat, it.File, it.Line, it.Confidence)
	})
	sameList(t, "references of _null", got, []string{"directCalls ex.ts:3 resolved", "reExports ex.ts:2 resolved"})

	// Re-exported under another name from another module: calls of that
	// name (through a namespace, an object spreading it, an assertion)
	// are its callers.
	dir = project(t, map[string]string{"core/api.ts": "export function _regex() {}\n",
		"core/index.ts": "export * from './api';\n",
		"checks.ts":     "export {\n  _regex as regex,\n} from './core/index';\n",
		"use.ts": `import * as _checks from './checks';
const z = { ..._checks };
export function a() { z.regex(); }
export function b() { (_checks.regex as any)(); }
export function c() { _checks.regex(); }
export function d(o: { regex(): void }) { o.regex(); }`})
	r = run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "api._regex"})
	sameList(t, "callers of api._regex", callerSet(r.Callers), []string{"a use.ts resolved", "b use.ts resolved", "c use.ts resolved"})

	// A type exported under another name, named through a namespace.
	dir = project(t, map[string]string{"types.ts": "export type TypeOf<T> = T;\nexport type { TypeOf as infer };\n",
		"index.ts": "export * from './types';\n",
		"other.ts": "export type infer<T> = T;\n",
		"use.ts":   "import * as z from './index';\nimport * as o from './other';\ntype A = z.infer<string>;\ntype B = z.TypeOf<number>;\ntype C = o.infer<number>;\n"})
	r = run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: "types.TypeOf"})
	got = refList(r, func(cat string, it Ref) string {
		return fmt.Sprintf("%s %s:%d %s", cat, it.File, it.Line, it.Confidence)
	})
	sameList(t, "references of TypeOf", got, []string{"typeAnnotations use.ts:3 resolved", "typeAnnotations use.ts:4 resolved",
		"reExports types.ts:2 resolved"})
}

// TestDynamicImport: const z = await import('./api.js') is the module's
// namespace: z.url() calls its url.
func TestDynamicImport(t *testing.T) {
	dir := project(t, map[string]string{
		"api.ts":   "export function url(x: string) { return x; }\n",
		"other.ts": "export function url(x: string) { return x + '/'; }\n",
		"use.ts":   "export async function f() { const z = await import('./api.js'); return z.url('a'); }\n",
	})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "api.ts#url"})
	sameList(t, "callers of api.ts#url", callerSet(r.Callers), []string{"f use.ts resolved"})
	r = run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "other.ts#url"})
	sameList(t, "callers of other.ts#url", callerSet(r.Callers), nil)
}

// TestDispatchLabel: a call bound to the member an override overrides is
// labelled dispatch, listed after the resolved callers, marked so in the
// text, and leaves the answer exhaustive: no site stayed name-only.
func TestDispatchLabel(t *testing.T) {
	dir := project(t, map[string]string{"store.ts": storeTS, "sub.ts": `import { Store, Item } from './store';
export class Special extends Store { get(key: string): Item { return new Item(); } }
export function g(s: Store) { s.get('k'); }
export function h(s: Special) { s.get('k'); }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Special.get", Path: "sub.ts"})
	var got []string
	for _, n := range r.Callers {
		got = append(got, n.Name+" "+n.Confidence+" "+n.Reason)
	}
	if want := []string{"h resolved ", "g dispatch "}; !slices.Equal(got, want) {
		t.Errorf("callers of Special.get: %q, want %q", got, want)
	}
	if c := r.Completeness; c == nil || !c.Exhaustive || c.NameOnly != 0 {
		t.Errorf("completeness: %+v", c)
	}
	text := r.Text()
	for _, want := range []string{"[dispatch]", "(exhaustive: no site left unresolved)"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// TestAbsentPackage: what a package the installed node_modules lack, or
// one a package.json declares that is not installed yet, exports is any
// to the compiler (it cannot find the module), so calls on its values are
// left out and counted; once the package (or its @types) is installed, or
// when nothing is installed or declared, they stay name-only.
func TestAbsentPackage(t *testing.T) {
	use := `import throttle from 'lodash.throttle';
import { useRef } from 'react';
import { readFileSync } from 'node:fs';
import { debounce } from './utils';
import { Editor, extensions } from '@tiptap/core';
import { Store } from './store';
export function a() { const u = throttle(() => 1, 10); u.get(); }
export function b() { const r = useRef<Store>(); r.current.get('k'); }
export function c() { readFileSync('x').get(); }
export function d() { debounce(() => 1).get(); }
export function e(ed: Editor) { ed.get(); extensions.Text.get(); }
export function g() { const [v, setV] = useRef<Store>(); v.get('k'); }
`
	for _, tc := range []struct {
		name      string
		installed []string
		want      []string
		untyped   int
	}{
		{"absent", []string{"node_modules/other/package.json"}, nil, 7},
		{"not installed yet", nil, []string{"a name-only", "b name-only", "c name-only", "d name-only", "e name-only", "g name-only"}, 0},
		{"declared, not installed", []string{"package.json"}, []string{"d name-only"}, 6},
		{"installed", []string{"node_modules/lodash.throttle/package.json", "node_modules/@types/react/package.json",
			"node_modules/@types/node/package.json", "node_modules/lodash.debounce/package.json",
			"node_modules/@tiptap/core/package.json"},
			[]string{"a name-only", "b name-only", "c name-only", "d name-only", "e name-only", "g name-only"}, 0},
	} {
		files := map[string]string{"store.ts": storeTS, "use.ts": use,
			"utils.ts": "export { default as debounce } from 'lodash.debounce'\n"}
		for _, p := range tc.installed {
			files[p] = "{}"
		}
		if files["package.json"] != "" {
			files["package.json"] = `{"dependencies": {"react": "^19", "@tiptap/core": "^2", "lodash.debounce": "workspace:*"},
  "devDependencies": {"@types/lodash.throttle": "^4", "@types/node": "^22"}}`
		}
		dir := project(t, files)
		r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get", Path: "use.ts"})
		var got []string
		for _, n := range r.Callers {
			if n.Confidence != Resolved {
				got = append(got, n.Name+" "+n.Confidence)
			}
		}
		sort.Strings(got)
		if !slices.Equal(got, tc.want) || r.Completeness == nil || r.Completeness.Untyped != tc.untyped {
			t.Errorf("%s: callers %q (untyped %+v), want %q and %d untyped", tc.name, got, r.Completeness, tc.want, tc.untyped)
		}
	}
}

// TestMemberReads: a method named without a call (passed, assigned,
// bound) is a call site, as the compiler's call hierarchy counts it, when
// types tie it to the method; by name alone it is left out, and it is no
// callee and no reference.
func TestMemberReads(t *testing.T) {
	dir := project(t, map[string]string{"store.ts": storeTS, "use.ts": `import { Store } from './store';
export function r1(s: Store) { const f = s.get; return [1].map(s.get); }
export function r2(s: Store) { return s.get.bind(s); }
export function r3(s: Store) { s.get.call(s, 'k'); }
export function r4(x: any, y) { return [x.get, y.get]; }
export class K { get = 1; m() { return this.get; } }
export function r5(s: Store) { const k = s.get; k('x'); }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get", Path: "use.ts"})
	sameList(t, "callers of Store.get", callerSet(r.Callers), []string{"r1 use.ts resolved", "r2 use.ts resolved",
		"r3 use.ts resolved", "r5 use.ts resolved"})
	if c := r.Completeness; c == nil || !c.Exhaustive || c.Untyped != 0 {
		t.Errorf("completeness: %+v", c)
	}
	r = run(t, dir, Params{Mode: ModeCallees, Language: "typescript", Symbol: "r1", Path: "use.ts"})
	if len(r.Callers) != 0 || len(r.Callees) != 1 || len(r.Callees[0].Children) != 1 {
		t.Errorf("callees of r1 (map alone): %+v", r.Callees)
	}
	// The reads types tie to Store.get are references too; those on any
	// (r4) and the field of K are not. (s.get.bind(s) is also a heuristic
	// instance call, its receiver ending with the name.)
	r = run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: "Store.get", Path: "use.ts"})
	got := refList(r, func(cat string, it Ref) string {
		return fmt.Sprintf("%s %s:%d %s", cat, it.File, it.Line, it.Confidence)
	})
	sameList(t, "references of Store.get", got, []string{"instanceMethodCalls use.ts:3 heuristic", "directCalls use.ts:2 resolved", "directCalls use.ts:3 resolved",
		"directCalls use.ts:4 resolved", "directCalls use.ts:7 resolved"})
	// A class read through a namespace is the value's use, not a
	// reference of the class among the calls.
	dir = project(t, map[string]string{"store.ts": storeTS, "use.ts": `import * as s from './store';
export function r() { return [s.Store]; }
export function n() { return new s.Store(); }
`})
	r = run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: "store.Store", Path: "use.ts"})
	got = refList(r, func(cat string, it Ref) string { return fmt.Sprintf("%s %s:%d", cat, it.File, it.Line) })
	sameList(t, "references of Store", got, []string{"instantiations use.ts:3"})
}

// TestMadeGuard: a guard made by a generic function from a class
// (createInstanceofPredicate("Store", Store): (x: any) => x is Store)
// narrows what it tests to the class's instances.
func TestMadeGuard(t *testing.T) {
	dir := project(t, map[string]string{"store.ts": storeTS, "use.ts": `import { Store, Cache } from './store';
export function makeGuard<T>(name: string, theClass: new (...args: any[]) => T): (x: any) => x is T {
  return ((x: any) => x instanceof theClass) as any;
}
export const isStore = makeGuard("Store", Store);
export const isCache = makeGuard("Cache", Cache);
export function a(xs: any[]) { const x = xs[0]; if (isStore(x)) { x.get('k'); } }
export function b(xs: any[]) { const x = xs[0]; if (isCache(x)) { x.get('k'); } }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get", Path: "use.ts"})
	sameList(t, "callers of Store.get", callerSet(r.Callers), []string{"a use.ts resolved"})
}

// TestLibraryGlobalChain: a variable holding a library global's field
// (const op = Object.prototype) has that field's type, so calls of
// Object's members through it (and reads of them) reach every class's
// override as dispatch.
func TestLibraryGlobalChain(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `const op = Object.prototype
const toStr = op.toString
export function f(a: any) { return op.toString() }
export class A { toString() { return "A" } }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "A.toString"})
	sameList(t, "callers of A.toString", callerSet(r.Callers), []string{"<module> a.ts dispatch", "f a.ts dispatch"})
}

// TestStaticMembers: a class with a static and an instance member of one
// name: this.x in an instance method and x.m on an instance reach the
// instance's, Owner.x and this.x in a static method the static one.
func TestStaticMembers(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export class Node {
    static children?: () => Node[]
    children?: Record<string, Node>
    run() { if (this.children) { return 1 } }
    static make() { return this.children?.() }
}
export class Select extends Node {
    static override children = () => [new Node()]
}
export function f() { return Node.children?.() }
export function g(n: Node) { return n.children }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Select.children"})
	sameList(t, "callers of Select.children", callerSet(r.Callers), []string{"make a.ts dispatch", "f a.ts dispatch"})
}

// TestStaticFields: a static field reached through its class
// (Db.connected.add(this)) has its written or initial value's type, and
// typeof Db is the class itself, its static side.
func TestStaticFields(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export class Db {
    static connected = new Set<Db>()
    static inst: Db = new Db()
    add(x: Db) {}
    open() { Db.connected.add(this) }
    close() { Db.inst.add(this) }
    static make() { return new Db() }
}
export class Kv { static make() { return new Kv() } }
export function f(u: unknown) { return (u as typeof Db).make() }
export function g(C: typeof Kv) { return C.make() }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Db.add"})
	sameList(t, "callers of Db.add", callerSet(r.Callers), []string{"close a.ts resolved"})
	r = run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Db.make"})
	sameList(t, "callers of Db.make (typeof Db)", callerSet(r.Callers), []string{"f a.ts resolved"})
}

// TestMapEntries: for (const [k, v] of map) and of map.entries() give k
// the Map's key type and v its value type.
func TestMapEntries(t *testing.T) {
	dir := project(t, map[string]string{"store.ts": storeTS, "use.ts": `import { Store, Cache } from './store';
export function a(m: Map<Cache, Store>) { for (const [c, s] of m) { s.get('k'); } }
export function b(m: ReadonlyMap<Store, Cache>) { for (const [s, c] of m.entries()) { c.get('k'); } }
export function c(m: Map<Cache, Store>) { for (const [c, s] of m.entries()) { c.get('k'); } }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get", Path: "use.ts"})
	sameList(t, "callers of Store.get", callerSet(r.Callers), []string{"a use.ts resolved"})
}

// TestFieldInitializerCaller: a call or read in a class field's
// initializer (min = this.gte) has the class as its caller, as the
// compiler's call hierarchy names it, and this there is the instance.
func TestFieldInitializerCaller(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export class N {
    gte(x: number) { return this }
    min = this.gte
    other = this.gte(1)
}
export class M { gte(x: number) { return this } }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "N.gte"})
	sameList(t, "callers of N.gte", callerSet(r.Callers), []string{"N a.ts resolved"})
}

// TestDestructuredParameters: names destructured from a parameter of a
// written type (({ s, n: { c } }: Props)) have its fields' types.
func TestDestructuredParameters(t *testing.T) {
	dir := project(t, map[string]string{"store.ts": storeTS, "use.ts": `import { Store, Cache } from './store';
interface Props { s: Store; n: { c: Cache; t: Store } }
export function a({ s }: Props) { s.get('k'); }
export function b({ n: { c } }: Props) { c.get('k'); }
export function c({ n: { t: renamed } }: Props) { renamed.get('k'); }
export const d = ({ s }: Props) => [1].map(() => s.get('k'));
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get", Path: "use.ts"})
	sameList(t, "callers of Store.get", callerSet(r.Callers), []string{"a use.ts resolved", "c use.ts resolved", "d use.ts resolved"})
}

// TestIntersections: an intersection of library types and one object
// type (Promise<T> & { resolve(v: T): void }) has the object type's
// members and the library's; with two workspace types nothing is told.
func TestIntersections(t *testing.T) {
	dir := project(t, map[string]string{"store.ts": storeTS, "use.ts": `import { Store, Cache } from './store';
function deferred<T>(): Promise<T> & { get(k: string): T; s: Store } { return null as any; }
export function a() { const p = deferred<string>(); p.get('k'); p.s.get('k'); }
export function b(x: Store & Cache) { x.get('k'); }
export function c(x: Map<string, Store> & { size: number }) { x.get('k').get('k'); }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get", Path: "use.ts"})
	sameList(t, "callers of Store.get", callerSet(r.Callers), []string{"a use.ts resolved", "c use.ts resolved", "b use.ts name-only"})
}

// TestPromiseThen: p.then((value) => ...) gives value what the promise
// holds.
func TestPromiseThen(t *testing.T) {
	dir := project(t, map[string]string{"store.ts": storeTS, "use.ts": `import { Store, Cache } from './store';
export function a(p: Promise<Store>) { p.then((s) => s.get('k')); }
export function b(p: Promise<Cache[]>) { p.then((cs) => cs.map((c) => c.get('k'))); }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get", Path: "use.ts"})
	sameList(t, "callers of Store.get", callerSet(r.Callers), []string{"a use.ts resolved"})
}

// TestParameterProperties: constructor(public s: Store) declares a field
// of the class and a parameter the constructor's body reads by name.
func TestParameterProperties(t *testing.T) {
	dir := project(t, map[string]string{"store.ts": storeTS, "use.ts": `import { Store, Cache } from './store';
export class A { constructor(public s: Store, readonly c: Cache) { s.get('k'); } run() { this.s.get('k'); } }
export class B { constructor(private c: Cache) { c.get('k'); } }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get", Path: "use.ts"})
	sameList(t, "callers of Store.get", callerSet(r.Callers), []string{"constructor use.ts resolved", "run use.ts resolved"})
}

// TestParenthesizedChain: (d ?? getDoc()).fonts.add() types the value in
// parentheses, either side of ?? or ||, then its fields.
func TestParenthesizedChain(t *testing.T) {
	dir := project(t, map[string]string{"store.ts": storeTS, "use.ts": `import { Store, Opts } from './store';
function opts(): Opts { return null as any; }
export function a(o?: Opts) { (o ?? opts()).store.get('k'); }
export function b(o?: Opts) { (o || opts()).cache.get('k'); }
export function c(o?: Opts) { const s = (o ?? opts()).store; s.get('k'); }
`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "Store.get", Path: "use.ts"})
	sameList(t, "callers of Store.get", callerSet(r.Callers), []string{"a use.ts resolved", "c use.ts resolved"})
}

// TestNamespaceChains: a chain of namespaces (export * as core, then
// export * as regexes in it) reaches the function, whether the call names
// the chain (z.core.regexes.datetime()) or a name destructured or
// assigned from it.
func TestNamespaceChains(t *testing.T) {
	dir := project(t, map[string]string{
		"core/regexes.ts": "export function datetime() {}\nexport const other = 1;\n",
		"core/index.ts":   "export * as regexes from './regexes';\n",
		"index.ts":        "export * as core from './core/index';\n",
		"use.ts": `import * as z from './index';
const { regexes } = z.core;
const c = z.core;
export function a() { z.core.regexes.datetime(); }
export function b() { regexes.datetime(); }
export function d() { c.regexes.datetime(); }
export function e() { z.core.other.datetime(); }`})
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "regexes.datetime"})
	sameList(t, "callers of regexes.datetime", callerSet(r.Callers), []string{
		"a use.ts resolved", "b use.ts resolved", "d use.ts resolved"})
}

// TestHeritageReferenceLine: a heritage reference is listed at the line
// naming the type, which may follow the declaration's first line.
func TestHeritageReferenceLine(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export interface Base { x: number }
interface Wide<T = number>
  extends Base {}
export class Impl implements Base { x = 1 }
`})
	r := run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: "Base"})
	got := refList(r, func(cat string, it Ref) string {
		if cat != RefHeritage {
			return ""
		}
		return fmt.Sprintf("%s:%d", it.File, it.Line)
	})
	sameList(t, "heritage references of Base", got, []string{"a.ts:3", "a.ts:4"})
}

// TestNarrowedUnionReduced: isES6Map(x) || isOMap(x), OMap implementing
// Map, narrows x to Map<any, any> as the compiler reduces the union: a.
// entries() is the library's, reaching OMap's by dispatch alone.
func TestNarrowedUnionReduced(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export class OMap<K, V> implements Map<K, V> {
  entries(): any { return [] }
}
function isES6Map(x: any): x is Map<any, any> { return x instanceof Map }
function isOMap(x: any): x is OMap<any, any> { return x instanceof OMap }
export function f(a: any) {
  if (isES6Map(a) || isOMap(a)) {
    return a.entries()
  }
}
export function g(a: any) {
  if (isOMap(a)) {
    return a.entries()
  }
}
`})
	sameList(t, "callers of OMap.entries", callerLabels(t, dir, "typescript", "OMap.entries"), []string{"f dispatch", "g resolved"})
}

// TestDeclaredGuard: a guard declared with no body (declare function, or
// in a .d.ts) is a function in scope whose predicate narrows.
func TestDeclaredGuard(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export class P { run(): void {} }
declare function isP(x: any): x is P;
export function h(a: any) {
  if (isP(a)) {
    a.run()
  }
}
`, "guards.d.ts": "import { P } from './a';\nexport function isQ(x: any): x is P;\n",
		"b.ts": "import { isQ } from './guards';\nexport function k(a: any) {\n  if (isQ(a)) a.run();\n}\n"})
	sameList(t, "callers of P.run", callerLabels(t, dir, "typescript", "P.run"), []string{"h resolved", "k resolved"})
}

// TestHeritageThroughNamespace: extends NS.Types<…> names NS's Types,
// not the declaring namespace's own Types of the same name.
func TestHeritageThroughNamespace(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export declare namespace A {
  export interface Types<I = unknown> { readonly input: I }
}
export declare namespace B {
  export interface Types<I = unknown> extends A.Types<I> {}
}
`})
	for sym, want := range map[string][]string{"A.Types": {"a.ts:5 resolved"}, "B.Types": nil} {
		r := run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: sym})
		got := refList(r, func(cat string, it Ref) string {
			if cat != RefHeritage {
				return ""
			}
			return fmt.Sprintf("%s:%d %s", it.File, it.Line, it.Confidence)
		})
		sameList(t, "heritage references of "+sym, got, want)
	}
}

// TestModuleAugmentation: an interface declared in declare module "lib"
// { … } merges with the one the module exports: references and
// definitions of either are those of both, as the compiler merges them.
func TestModuleAugmentation(t *testing.T) {
	dir := project(t, map[string]string{"package.json": `{"name": "lib", "exports": {".": "./src/index.ts"}}`,
		"src/index.ts":   "export * from './schemas';\n",
		"src/schemas.ts": "export interface MiniType { parse(): void }\nexport interface Other extends MiniType {}\nexport function f(x: MiniType) { x.parse(); }\n",
		"src/test.ts":    "import * as z from 'lib';\ndeclare module 'lib' {\n  interface MiniType { _mini(): void }\n}\nexport function g(x: z.MiniType) { x._mini(); }\n",
		"src/other.ts":   "declare module 'elsewhere' {\n  interface MiniType { y(): void }\n}\nexport interface MiniType2 {}\n"})
	for _, sym := range []string{"schemas.MiniType", "src/test.ts#MiniType"} {
		r := run(t, dir, Params{Mode: ModeReferences, Language: "typescript", Symbol: sym})
		got := refList(r, func(cat string, it Ref) string { return fmt.Sprintf("%s:%d %s", it.File, it.Line, it.Confidence) })
		sort.Strings(got)
		sameList(t, "references of "+sym, got, []string{"src/schemas.ts:2 resolved", "src/schemas.ts:3 resolved", "src/test.ts:5 resolved"})
		r = run(t, dir, Params{Mode: ModeDefinitions, Language: "typescript", Symbol: sym})
		var defs []string
		for _, d := range r.Definitions {
			defs = append(defs, fmt.Sprintf("%s:%d", d.File, d.Line))
		}
		sort.Strings(defs)
		sameList(t, "definitions of "+sym, defs, []string{"src/schemas.ts:1", "src/test.ts:3"})
	}
}
