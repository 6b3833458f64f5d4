package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// project writes files (path -> text) under a new directory and returns it.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		write(t, filepath.Join(dir, filepath.FromSlash(p)), text)
	}
	return dir
}

func run(t *testing.T, dir string, p Params) *Result {
	t.Helper()
	r, err := analyze(context.Background(), Config{Workspace: dir}, p)
	if err != nil {
		t.Fatalf("%+v: %v", p, err)
	}
	return r
}

// callerSet lists a callers tree's top nodes as "name file confidence".
func callerSet(ns []CallNode) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Name+" "+n.File+" "+n.Confidence)
	}
	return out
}

// refList lists the items of r's reference categories, each as show
// writes it ("" leaves it out).
func refList(r *Result, show func(cat string, it Ref) string) []string {
	var out []string
	for _, c := range r.References.Categories {
		for _, it := range c.Items {
			if v := show(c.ID, it); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// callerLabels asks dir for the callers of symbol in lang: "caller
// confidence" of each, sorted.
func callerLabels(t *testing.T, dir, lang, symbol string) []string {
	t.Helper()
	var got []string
	for _, n := range run(t, dir, Params{Mode: ModeCallers, Language: lang, Symbol: symbol}).Callers {
		got = append(got, n.Name+" "+n.Confidence)
	}
	sort.Strings(got)
	return got
}

func sameList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s\n got %q\nwant %q", what, got, want)
	}
}

// twoVersions is a TypeScript project keeping two versions of the same
// names side by side, the case where name matching collapses.
var twoVersions = map[string]string{
	"v1/store.ts": `export interface Base { id(): string }
export class Store implements Base {
  id() { return 'v1'; }
  get(key: string) { return this.id() + key; }
  static create() { return new Store(); }
}
export function load() { return 1; }
`,
	"v2/store.ts": `export interface Base { id(): number }
export class Store implements Base {
  id() { return 2; }
  get(key: string) { return key; }
}
export function load() { return 2; }
`,
	"v1/index.ts": "export { load } from './store';\nexport * from './store';\n",
	"app/one.ts": `import { load, Store } from '../v1/store';
export function useOne(s: Store) {
  load();
  s.get('a');
}
export function makeOne() {
  const st = new Store();
  return st.get('b');
}
export function staticOne() { return Store.create(); }
export function fresh() { return new Store().get('n'); }
function open(): Store { return new Store(); }
export function viaReturn() { const st = open(); return st.get('r'); }
export class Holder { store: Store = new Store(); }
export function viaField(h: Holder) { return h.store.get('h'); }
export function chained() { return open().get('c'); }
`,
	"app/two.ts": `import { load as loadTwo, Store } from '../v2/store';
import * as v2 from '../v2/store';
export function useTwo() {
  loadTwo();
  const s = new Store();
  s.get('c');
  v2.load();
}
`,
	"app/barrel.ts": `import { load, Store } from '../v1';
export function viaBarrel(x: Store) { load(); return x.get('d'); }
`,
	"app/unknown.ts": `export function guess<T>(thing: T) { return thing.get('e'); }
export function typedAny(x: any) { return x.get('f'); }
export function onMap(m: Map<string, number>) { return m.get('g'); }
function load() { return 0; }
export function local() { return load(); }
`,
	"app/sub.ts": `import { Base } from '../v2/store';
export class Sub implements Base { id() { return 3; } }
`,
}

// TestResolveTypeScript: a call, a new, a type annotation and a
// supertype are followed through imports, re-exports (a barrel),
// namespace imports, this, Owner.method and declared types to the one
// definition they mean; a call on a value of unknown type stays
// name-only; calls of another same-named definition are left out.
func TestResolveTypeScript(t *testing.T) {
	dir := project(t, twoVersions)
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "v1.store.load"})
	sameList(t, "callers of v1.store.load", callerSet(r.Callers), []string{
		"viaBarrel app/barrel.ts resolved", "useOne app/one.ts resolved"})

	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "v1.Store.get"})
	sameList(t, "callers of v1.Store.get", callerSet(r.Callers), []string{
		"viaBarrel app/barrel.ts resolved", "useOne app/one.ts resolved", "makeOne app/one.ts resolved",
		"fresh app/one.ts resolved", "viaReturn app/one.ts resolved", "viaField app/one.ts resolved",
		"chained app/one.ts resolved", "guess app/unknown.ts name-only"})
	// typedAny's x.get() is a call on any: left out, and counted.
	if !strings.Contains(r.Text(), "1 of 8 callers matched by name only") || r.Completeness.Untyped != 1 {
		t.Errorf("the text does not count the name-only callers:\n%s", r.Text())
	}

	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "Store.id"})
	sameList(t, "callers of Store.id (this.id())", callerSet(r.Callers), []string{"get v1/store.ts resolved"})

	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "Store.create"})
	sameList(t, "callers of Store.create", callerSet(r.Callers), []string{"staticOne app/one.ts resolved"})

	// Unqualified, every definition is the target: all calls are listed,
	// the local load() of unknown.ts resolved to its own definition.
	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "load"})
	sameList(t, "callers of load", callerSet(r.Callers), []string{
		"viaBarrel app/barrel.ts resolved", "useOne app/one.ts resolved", "useTwo app/two.ts resolved",
		"local app/unknown.ts resolved"})

	r = run(t, dir, Params{Mode: "references", Language: "typescript", Symbol: "v2.store.Store"})
	refs := refList(r, func(cat string, it Ref) string { return cat + " " + it.File + " " + it.Confidence })
	// Store.create() and h.store.get() in one.ts are v1's: their
	// receivers' names make them heuristic matches only.
	sameList(t, "references of v2's Store", refs, []string{"instanceMethodCalls app/one.ts heuristic",
		"instanceMethodCalls app/one.ts heuristic",
		"instantiations app/two.ts resolved", "imports app/two.ts resolved"})
	if r.References.Resolved != 2 || r.References.NameOnly != 0 {
		t.Errorf("resolved %d, name-only %d", r.References.Resolved, r.References.NameOnly)
	}

	h := run(t, dir, Params{Mode: "hierarchy", Language: "typescript", Symbol: "v2.store.Base"})
	var subs []string
	for _, n := range h.Hierarchy.Subtypes {
		subs = append(subs, n.Name+" "+n.File+" "+n.Confidence)
	}
	sameList(t, "subtypes of v2's Base", subs, []string{"Sub app/sub.ts resolved", "Store v2/store.ts resolved"})
	h = run(t, dir, Params{Mode: "hierarchy", Language: "typescript", Symbol: "Sub"})
	if len(h.Hierarchy.Supertypes) != 1 || h.Hierarchy.Supertypes[0].File != "v2/store.ts" ||
		h.Hierarchy.Supertypes[0].Confidence != Resolved {
		t.Errorf("Sub's supertype is v2's Base: %+v", h.Hierarchy.Supertypes)
	}

	d := run(t, dir, Params{Mode: "definitions", Language: "typescript", Symbol: "v2.Store"})
	if len(d.Definitions) != 1 || d.Definitions[0].File != "v2/store.ts" {
		t.Errorf("definitions of v2.Store: %+v", d.Definitions)
	}

	c := run(t, dir, Params{Mode: "callees", Language: "typescript", Symbol: "useTwo"})
	var callees []string
	for _, n := range c.Callees[0].Children {
		callees = append(callees, n.Text+" "+n.Confidence)
	}
	sameList(t, "callees of useTwo", callees, []string{"loadTwo() resolved", "new Store() resolved",
		"s.get('c') resolved", "v2.load() resolved"})
}

// TestInstanceHeuristicWholeWords: REQ-SA-REFS-002's heuristic is labelled,
// kept out of the resolved total, and matches whole words of the receiver
// (subscriber.next() is not a use of _subscribe; registry.x() is not a use
// of ToolRegistry).
func TestInstanceHeuristicWholeWords(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export function _subscribe() {}
export class ToolRegistry {}
export function f(subscriber: any, registry: any, toolRegistry: any, tool_registry_x: any) {
  subscriber.next();
  registry.add();
  toolRegistry.add();
  tool_registry_x.add();
}
`})
	r := run(t, dir, Params{Mode: "references", Language: "typescript", Symbol: "_subscribe"})
	if c := r.References.Categories[0]; c.ID != RefInstanceCalls || c.Count != 0 {
		t.Errorf("_subscribe matched %d instance calls: %+v", c.Count, c.Items)
	}
	r = run(t, dir, Params{Mode: "references", Language: "typescript", Symbol: "ToolRegistry"})
	c := r.References.Categories[0]
	var got []string
	for _, it := range c.Items {
		got = append(got, it.Text+" "+it.Confidence)
	}
	sameList(t, "instance calls of ToolRegistry", got, []string{"toolRegistry.add() heuristic", "tool_registry_x.add() heuristic"})
	if r.References.Total != 2 || r.References.Resolved != 0 || r.References.NameOnly != 0 {
		t.Errorf("total %d resolved %d name-only %d: the heuristic counts in neither",
			r.References.Total, r.References.Resolved, r.References.NameOnly)
	}
	if !strings.Contains(r.Text(), "not counted as resolved") {
		t.Errorf("the heuristic is not labelled:\n%s", r.Text())
	}
}

// TestResolvePython: imports (from m import f, import m as x), self and
// a class instantiated by a call.
func TestResolvePython(t *testing.T) {
	dir := project(t, map[string]string{
		"pkg/__init__.py": "",
		"pkg/a.py":        "def load():\n    return 1\n\nclass Store:\n    def get(self):\n        return self.key()\n    def key(self):\n        return 'a'\n",
		"pkg/b.py":        "def load():\n    return 2\n\nclass Store:\n    def get(self):\n        return 2\n",
		"main.py": "from pkg.a import load, Store\nimport pkg.b as b\n\ndef one():\n    load()\n    s = Store()\n    s.get()\n\n" +
			"def two():\n    b.load()\n\ndef three():\n    x = fetch()\n    x.get()\n",
	})
	r := run(t, dir, Params{Mode: "callers", Language: "python", Symbol: "a.load"})
	sameList(t, "callers of a.load", callerSet(r.Callers), []string{"one main.py resolved"})
	r = run(t, dir, Params{Mode: "callers", Language: "python", Symbol: "b.load"})
	sameList(t, "callers of b.load", callerSet(r.Callers), []string{"two main.py resolved"})
	r = run(t, dir, Params{Mode: "callers", Language: "python", Symbol: "a.Store.get"})
	sameList(t, "callers of a.Store.get", callerSet(r.Callers), []string{"one main.py resolved", "three main.py name-only"})
	r = run(t, dir, Params{Mode: "callers", Language: "python", Symbol: "Store.key"})
	sameList(t, "callers of Store.key (self)", callerSet(r.Callers), []string{"get pkg/a.py resolved"})
}

// TestResolveGo: package-qualified calls through the import's package
// name, same-package calls from another file, and methods on receivers
// and typed parameters.
func TestResolveGo(t *testing.T) {
	dir := project(t, map[string]string{
		"go.mod":    "module example.com/m\n",
		"a/a.go":    "package a\n\ntype Store struct{}\n\nfunc New() *Store { return &Store{} }\n\nfunc (s *Store) Get() int { return s.key() }\nfunc (s *Store) key() int { return 1 }\n\nfunc Load() int { return 1 }\n",
		"a/more.go": "package a\n\nfunc Use() int { return Load() }\n",
		"b/b.go":    "package b\n\nfunc Load() int { return 2 }\n",
		"main.go":   "package main\n\nimport (\n\t\"example.com/m/a\"\n\tbee \"example.com/m/b\"\n)\n\nfunc main() {\n\ta.Load()\n\tbee.Load()\n}\n\nfunc get(s *a.Store) int { return s.Get() }\n\nfunc fresh() int { s := a.New(); return s.Get() }\n",
		"other.go":  "package main\n\nfunc other(x interface{ Get() int }) int { return x.Get() }\n",
	})
	r := run(t, dir, Params{Mode: "callers", Language: "go", Symbol: "a.Load"})
	sameList(t, "callers of a.Load", callerSet(r.Callers), []string{"Use a/more.go resolved", "main main.go resolved"})
	r = run(t, dir, Params{Mode: "callers", Language: "go", Symbol: "b.Load"})
	sameList(t, "callers of b.Load", callerSet(r.Callers), []string{"main main.go resolved"})
	r = run(t, dir, Params{Mode: "callers", Language: "go", Symbol: "Store.key"})
	sameList(t, "callers of Store.key (receiver)", callerSet(r.Callers), []string{"Get a/a.go resolved"})
	r = run(t, dir, Params{Mode: "callers", Language: "go", Symbol: "Store.Get"})
	sameList(t, "callers of Store.Get", callerSet(r.Callers), []string{"get main.go resolved", "fresh main.go resolved",
		"other other.go name-only"})
}

// TestResolveJava: imports of classes, this, implicit this, typed locals
// and parameters.
func TestResolveJava(t *testing.T) {
	dir := project(t, map[string]string{
		"src/com/x/v1/Store.java":  "package com.x.v1;\n\npublic class Store {\n  public int get() { return key(); }\n  int key() { return 1; }\n}\n",
		"src/com/x/v2/Store.java":  "package com.x.v2;\n\npublic class Store {\n  public int get() { return 2; }\n}\n",
		"src/com/x/app/Main.java":  "package com.x.app;\n\nimport com.x.v1.Store;\n\npublic class Main {\n  int one(Store s) { return s.get(); }\n  int two() { Store t = new Store(); return t.get(); }\n}\n",
		"src/com/x/app/Other.java": "package com.x.app;\n\nimport com.x.v2.Store;\n\npublic class Other {\n  int three(Store s) { return s.get(); }\n}\n",
	})
	r := run(t, dir, Params{Mode: "callers", Language: "java", Symbol: "v1.Store.get"})
	sameList(t, "callers of v1.Store.get", callerSet(r.Callers), []string{
		"one src/com/x/app/Main.java resolved", "two src/com/x/app/Main.java resolved"})
	r = run(t, dir, Params{Mode: "callers", Language: "java", Symbol: "Store.key"})
	sameList(t, "callers of Store.key (implicit this)", callerSet(r.Callers), []string{"get src/com/x/v1/Store.java resolved"})
}

// TestResolveRust: use paths, self and Self::.
func TestResolveRust(t *testing.T) {
	dir := project(t, map[string]string{
		"src/lib.rs":  "mod a;\nmod b;\n",
		"src/a.rs":    "pub struct Store;\nimpl Store {\n    pub fn get(&self) -> i32 { self.key() }\n    fn key(&self) -> i32 { 1 }\n    pub fn new() -> Self { Self::make() }\n    fn make() -> Self { Store }\n}\npub fn load() -> i32 { 1 }\n",
		"src/b.rs":    "pub fn load() -> i32 { 2 }\n",
		"src/main.rs": "use crate::a::load;\nuse crate::b;\n\nfn one() { load(); }\nfn two() { b::load(); }\n",
	})
	r := run(t, dir, Params{Mode: "callers", Language: "rust", Symbol: "a.load"})
	sameList(t, "callers of a.load", callerSet(r.Callers), []string{"one src/main.rs resolved"})
	r = run(t, dir, Params{Mode: "callers", Language: "rust", Symbol: "Store.key"})
	sameList(t, "callers of Store.key (self)", callerSet(r.Callers), []string{"get src/a.rs resolved"})
	r = run(t, dir, Params{Mode: "callers", Language: "rust", Symbol: "Store.make"})
	sameList(t, "callers of Store.make (Self::)", callerSet(r.Callers), []string{"new src/a.rs resolved"})
}

// TestUnresolvedLocalImport: an import of the workspace's own module that
// the resolver cannot follow (a relative path to a file elsewhere, a
// tsconfig path alias) leaves the name to name-only matching, where an
// unresolved package import ("react") makes it another package's.
func TestUnresolvedLocalImport(t *testing.T) {
	dir := project(t, map[string]string{
		"main.ts":      "import { Base } from './base';\nexport class App extends Base {\n  run() { this.process('x'); }\n}\n",
		"src/other.ts": "import { Base } from '@/base';\nexport class Other extends Base {}\n",
		"src/pkg.ts":   "import { Base } from 'some-package';\nexport class FromPackage extends Base {}\n",
		"src/base.ts":  "export class Base {\n  process(item: string) { return item.trim(); }\n}\n",
	})
	for _, tc := range []struct{ class, want string }{
		{"App", "Base src/base.ts name-only"},
		{"Other", "Base src/base.ts name-only"},
		{"FromPackage", "Base  name-only"},
	} {
		r := run(t, dir, Params{Mode: "hierarchy", Language: "typescript", Symbol: tc.class})
		var got []string
		for _, s := range r.Hierarchy.Supertypes {
			got = append(got, s.Name+" "+s.File+" "+s.Confidence)
		}
		sameList(t, "supertypes of "+tc.class, got, []string{tc.want})
	}
	rs := project(t, map[string]string{
		"src/main.rs":        "use crate::shapes::Shape;\nstruct Square;\nimpl Shape for Square {}\n",
		"src/geom/shapes.rs": "pub trait Shape {}\n",
	})
	r := run(t, rs, Params{Mode: "hierarchy", Language: "rust", Symbol: "Square"})
	var got []string
	for _, s := range r.Hierarchy.Supertypes {
		got = append(got, s.Name+" "+s.File+" "+s.Confidence)
	}
	sameList(t, "supertypes of Square", got, []string{"Shape src/geom/shapes.rs name-only"})
}

// TestGoDeclaredTypes: Go receivers typed by the first of several results
// (x, err := f()), an interface method's result, another name or a field
// of one (x := y, x := y.f), a promoted field of an embedded type, an
// element of a slice or map (q[0].M(), x := q[0], for _, x := range q),
// a type assertion (x.(*T).M()); a
// predeclared function (len, close) is never a method's caller.
func TestGoDeclaredTypes(t *testing.T) {
	dir := project(t, map[string]string{
		"go.mod": "module example.com/m\n",
		"h.go": `package h

type Header map[string][]string

func (h Header) Get(k string) string { return "" }

type Pool struct{}

func (p *Pool) Get() any { return nil }

type Response struct{ Header Header }

type Writer interface{ Header() Header }

type wrapped struct{ *Response }

type queue struct{ items []int }

func (q *queue) len() int { return 0 }
func (q *queue) close()   {}

func Fetch(url string) (*Response, error) { return nil, nil }
`,
		"use.go": `package h

func multi() { res, err := Fetch("x"); _ = err; res.Header.Get("a") }
func iface(w Writer) { w.Header().Get("b") }
func alias(w Writer) { h := w.Header(); h.Get("c") }
func name(in *Response) { r := in; r.Header.Get("d") }
func field(in *Response) { h := in.Header; h.Get("e") }
func promoted(x *wrapped) { x.Header.Get("f") }
func pool(p *Pool) { p.Get() }
func builtins(s []int, c chan int) { _ = len(s); close(c) }
func elements(q []*Response, m map[string]Header) { q[0].Header.Get("g"); m["k"].Get("h") }
func asserted(x any) { x.(*Pool).Get() }
type pools []*Pool

func (l pools) Get() any { return nil }

type term struct{ p *Pool }
type Term term
type stack []*Pool

func under(t *Term, s *stack) { t.p.Get(); (*s)[0].Get() }

func rangedNamed(l pools) { for _, p := range l { p.Get() } }

func ranged(rs []*Response, hs map[string]*Response, ps [][]*Pool) {
	for _, r := range rs { r.Header.Get("i") }
	for _, h := range hs { h.Header.Get("j") }
	for _, p := range ps[0] { p.Get() }
	q := ps[1][0]; q.Get()
}
`,
	})
	for _, tc := range []struct {
		symbol string
		want   []string
	}{
		{"Header.Get", []string{"multi use.go resolved", "iface use.go resolved", "alias use.go resolved",
			"name use.go resolved", "field use.go resolved", "promoted use.go resolved", "elements use.go resolved", "ranged use.go resolved"}},
		// A defined slice type's elements are its underlying type's
		// (type pools []*Pool), not the container's own Get.
		{"Pool.Get", []string{"pool use.go resolved", "asserted use.go resolved", "under use.go resolved",
			"rangedNamed use.go resolved", "ranged use.go resolved"}},
		{"pools.Get", nil},
		{"queue.len", nil},
		{"queue.close", nil},
	} {
		r := run(t, dir, Params{Mode: "callers", Language: "go", Symbol: tc.symbol})
		sameList(t, "callers of "+tc.symbol, callerSet(r.Callers), tc.want)
	}
}

// TestGoDeclaredTypesInStatements covers the Go declarations that type a
// name inside a function: every name of a list, a function literal's
// parameters, a comma-ok assertion, a type switch's cases, a variadic
// parameter and chains of fields and elements.
func TestGoDeclaredTypesInStatements(t *testing.T) {
	dir := project(t, map[string]string{
		"go.mod": "module example.com/m\n",
		"p.go": `package p

type Pool struct{}

func (p *Pool) Get() any { return nil }

type Cache struct{}

func (c *Cache) Get() any { return nil }

type Getter interface{ Get() any }

type Fault struct{}

func (f *Fault) Error() string { return "" }
func (f *Fault) Get() any      { return nil }

type Conn interface{ Close() error }

type wrap struct {
	Conn
	*Pool
}

func open() (*Cache, error)               { return nil, nil }
func named() (a, b *Cache, err *Fault)    { return nil, nil, nil }

type conn struct{ p *Pool }
type res struct{ conn *conn }
type writer struct{ res *res }
type desc struct{ p *Pool }
type errs struct{ ds []desc }
`,
		"io/io.go": `package io

type Closer interface{ Close() error }

func Open(name string) (Closer, error) { return nil, nil }
`,
		"files.go": `package p

import "example.com/m/io"

type Handle struct{}

func (h *Handle) Close() error { return nil }

type File interface {
	io.Closer
	Stat() int
}

type FS interface{ Open(name string) (File, error) }

func inherited(io FS) { f, _ := io.Open("x"); f.Close() }
func asserted(x any) { x.(io.Closer).Close() }
func own(h *Handle) { h.Close() }
func Close()         {}
func top()           { Close() }
`,
		"use.go": `package p

func pair(a, b *Pool) { b.Get() }
func lit(xs []*Pool) { each(xs, func(a, b *Pool) { b.Get() }) }
func each(xs []*Pool, f func(a, b *Pool)) {}
func commaOK(g Getter) { if p, ok := g.(*Pool); ok { p.Get() } }
func other(g Getter) { if c, ok := g.(*Cache); ok { c.Get() } }
func switched(g Getter) {
	switch x := g.(type) {
	case *Pool:
		x.Get()
	case *Cache:
		x.Get()
	}
}
func variadic(ps ...*Pool) { for _, p := range ps { p.Get() } }
func deep(w *writer) { w.res.conn.p.Get() }
func indexed(e *errs) { e.ds[0].p.Get() }
func values() { c, p := &Cache{}, &Pool{}; c.Get(); _ = p }
func vars() { var c, d *Cache; c.Get(); d.Get() }
func bare() { Get() }
func made(n int) { ps := make([]*Pool, n); ps[0].Get(); c := new(Cache); c.Get() }
func keyed(m map[*Pool]*Cache) { for p := range m { p.Get() }; for _, c := range m { c.Get() } }
func deref(e *errs) { d := &e.ds[0]; d.p.Get(); w := *e; w.ds[1].p.Get() }
func set(m map[*Cache]struct{}, p *Pool) { for c := range m { c.Get() }; (*p).Get(); Pool{}.Get() }
func shadow(g Getter) { switch g := g.(type) { case *Pool, *Cache: g.Get() } }
func literal(g Getter) { g.(interface{ Get() any }).Get() }
func results() { c, err := open(); c.Get(); err.Error() }
func grouped() { _, _, err := named(); err.Get() }
func indexOK(m map[*Cache]*Fault) { _, ok := m[first()]; ok.Get() }
func first() (*Cache, *Fault) { return nil, nil }
func written(err error) { err.Error() }
func embedded(w *wrap) { w.Pool.Get(); w.Conn.Close() }
`,
	})
	// A call through an interface the type implements (g.Get() with g a
	// Getter in a case of two types, f.Close() with f a File embedding
	// io.Closer) is a dispatch caller (types_go.go).
	for _, tc := range []struct {
		symbol string
		want   []string
	}{
		{"Pool.Get", []string{"pair use.go resolved", "lit use.go resolved", "commaOK use.go resolved",
			"switched use.go resolved", "variadic use.go resolved", "deep use.go resolved", "indexed use.go resolved",
			"made use.go resolved", "keyed use.go resolved", "deref use.go resolved", "set use.go resolved",
			"embedded use.go resolved", "shadow use.go dispatch", "indexOK use.go name-only"}},
		{"Cache.Get", []string{"other use.go resolved", "switched use.go resolved", "values use.go resolved",
			"vars use.go resolved", "made use.go resolved", "keyed use.go resolved", "set use.go resolved",
			"results use.go resolved", "shadow use.go dispatch", "indexOK use.go name-only"}},
		// ok in v, ok := m[first()] is not first's second result.
		{"Fault.Get", []string{"grouped use.go resolved", "shadow use.go dispatch", "indexOK use.go name-only"}},
		// File's Close is io.Closer's, which Handle implements (so are
		// x.(io.Closer)'s and Conn's); the parameter io shadows the
		// package.
		{"Handle.Close", []string{"own files.go resolved", "inherited files.go dispatch", "asserted files.go dispatch",
			"embedded use.go dispatch"}},
		// The package's function, not Handle's method of the same name.
		{"p.Close", []string{"top files.go resolved"}},
		// err.Error() with err an error: Fault implements error.
		{"Fault.Error", []string{"results use.go dispatch", "written use.go dispatch"}},
	} {
		r := run(t, dir, Params{Mode: "callers", Language: "go", Symbol: tc.symbol})
		sameList(t, "callers of "+tc.symbol, callerSet(r.Callers), tc.want)
	}
}

// TestExportAlias: a definition exported under another name (export {
// stringType as string }) is reached through that name, by a namespace
// (z.string()) or an import, at its callers; a same-named definition
// elsewhere does not take those calls.
func TestExportAlias(t *testing.T) {
	dir := project(t, map[string]string{
		"v3/types.ts":    "const stringType = () => 1;\nexport function other() {}\nexport {\n  stringType as string,\n  other as o,\n};\n",
		"v3/external.ts": "export * from './types';\n",
		"v3/index.ts":    "import * as z from './external';\nexport { z };\n",
		"v4/schemas.ts":  "export function string() {}\n",
		"use.ts":         "import { z } from './v3/index';\nimport { o } from './v3/types';\nexport function a() { z.string(); z.o(); }\nexport function b() { o(); }\n",
	})
	for _, c := range []struct {
		symbol string
		want   []string
	}{
		{"stringType", []string{"a use.ts resolved"}},
		{"other", []string{"a use.ts resolved", "b use.ts resolved"}},
		{"v4/schemas.ts#string", nil},
	} {
		r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: c.symbol})
		sameList(t, "callers of "+c.symbol, callerSet(r.Callers), c.want)
	}
	// References follow the alias too, into files that never write the
	// symbol's own name.
	r := run(t, dir, Params{Mode: "references", Language: "typescript", Symbol: "stringType"})
	calls := refList(r, func(cat string, it Ref) string {
		if cat != RefDirectCalls {
			return ""
		}
		return fmt.Sprintf("%s:%d %s", it.File, it.Line, it.Confidence)
	})
	sameList(t, "calls among the references of stringType", calls, []string{"use.ts:3 resolved"})
}

// TestObjectLiteralReceiver: a variable holding an object literal made of
// names (const z = { ...schemas, iso: isoNs, email }) has their members:
// z.email() calls schemas.email, z.iso.date() the iso module's date; one
// holding anything else (a spread of a value) may hold a module's
// functions, so such calls stay name-only and the answer is not
// exhaustive.
func TestObjectLiteralReceiver(t *testing.T) {
	dir := project(t, map[string]string{
		"schemas.ts": "export function email() {}\nexport function date() {}\n",
		"iso.ts":     "export function date() {}\n",
		"use.ts": "import * as schemas from './schemas';\nimport * as isoNs from './iso';\n" +
			"const z = { ...schemas, iso: isoNs };\nexport function a() { z.email(); z.iso.date(); }\n" +
			"const other = make();\nconst y = { ...other };\nexport function b() { y.email(); }\n",
	})
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "schemas.email"})
	sameList(t, "callers of schemas.email", callerSet(r.Callers), []string{"a use.ts resolved", "b use.ts name-only"})
	if r.Completeness == nil || r.Completeness.Exhaustive {
		t.Errorf("completeness: %+v", r.Completeness)
	}
	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "iso.date"})
	sameList(t, "callers of iso.date", callerSet(r.Callers), []string{"a use.ts resolved"})
	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "schemas.date"})
	sameList(t, "callers of schemas.date", callerSet(r.Callers), nil)
}

// TestNamespaceReexport: export * as coerce from './coerce' makes a
// namespace of the module, through export * too, so z.coerce.date() calls
// coerce's date, not another module's date.
func TestNamespaceReexport(t *testing.T) {
	dir := project(t, map[string]string{
		"coerce.ts":   "export function date() {}\n",
		"iso.ts":      "export function date() {}\n",
		"external.ts": "export * as coerce from './coerce';\nexport * as iso from './iso';\n",
		"index.ts":    "export * from './external';\n",
		"use.ts":      "import * as z from './index';\nexport function a() { z.coerce.date(); }\nexport function b() { z.iso.date(); }\n",
	})
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "coerce.ts#date"})
	sameList(t, "callers of coerce.ts#date", callerSet(r.Callers), []string{"a use.ts resolved"})
}
