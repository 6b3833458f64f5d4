package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// naming is a TypeScript project with the symbols a qualified name cannot
// single out: a nested function, a file with a dotted stem, two files of
// the same stem in two folders, two classes Store.
var naming = map[string]string{
	"a/util.ts": `export function outer() {
  function inner() { return 1; }
  return inner();
}
export class Store {
  get(k: string) { return k; }
}
`,
	"b/util.ts": `export class Store {
  get(k: string) { return k + 1; }
}
export function inner() { return 2; }
export function twice() { return inner() + inner(); }
export class Schema { check() { return check(); } }
export function check() { return 3; }
export function run(s: Schema) { return s.check(); }
`,
	"test/resizing.test.ts": `import { outer } from '../a/util';
function fn() { return outer(); }
fn();
`,
	"app.ts": `import { Store } from './a/util';
import { Store as Other } from './b/util';
export function useA(s: Store) { return s.get('a'); }
export function useB(s: Other) { return s.get('b'); }
`,
}

// TestNaming: every form of a symbol names the definitions it means, in
// callers and definitions: a nested function (outer.inner, and in the file
// form), a file with a dotted stem, a file whose stem another folder has
// too, a method in the file form.
func TestNaming(t *testing.T) {
	dir := project(t, naming)
	for _, tc := range []struct {
		symbol  string
		callers []string
		defs    []string
	}{
		{"outer.inner", []string{"outer a/util.ts resolved"}, []string{"a/util.ts:2"}},
		{"a/util.ts#outer.inner", []string{"outer a/util.ts resolved"}, []string{"a/util.ts:2"}},
		{"b/util.ts#inner", []string{"twice b/util.ts resolved"}, []string{"b/util.ts:4"}},
		{"resizing.test.ts#fn", []string{"<module> test/resizing.test.ts resolved"}, []string{"test/resizing.test.ts:2"}},
		{"a/util.ts#Store.get", []string{"useA app.ts resolved"}, []string{"a/util.ts:6"}},
		{"./b/util.ts#Store.get", []string{"useB app.ts resolved"}, []string{"b/util.ts:2"}},
		{"b/util.ts#check", []string{"check b/util.ts resolved"}, []string{"b/util.ts:7"}},
		{"b/util.ts#Schema.check", []string{"run b/util.ts resolved"}, []string{"b/util.ts:6"}},
	} {
		r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: tc.symbol})
		sameList(t, "callers of "+tc.symbol, callerSet(r.Callers), tc.callers)
		if r.Symbol != tc.symbol {
			t.Errorf("%s: the answer names the symbol %q", tc.symbol, r.Symbol)
		}
		d := run(t, dir, Params{Mode: "definitions", Language: "typescript", Symbol: tc.symbol})
		var got []string
		for _, x := range d.Definitions {
			got = append(got, loc(x.File, x.Line))
		}
		sameList(t, "definitions of "+tc.symbol, got, tc.defs)
	}
}

// TestNamingErrors: a qualifier that matches nothing is an error listing
// the near candidates (the same name elsewhere, the owner's names a small
// edit away); a file form naming no file, or several, says so.
func TestNamingErrors(t *testing.T) {
	dir := project(t, naming)
	for _, tc := range []struct {
		mode, symbol string
		want         []string
	}{
		{"callers", "Stroe.get", []string{"symbol Stroe.get matches no definition in the workspace; near candidates: Store.get a/util.ts:6, Store.get b/util.ts:2"}},
		{"references", "Store.gte", []string{"symbol Store.gte matches no definition", "near candidates: Store.get a/util.ts:6, Store.get b/util.ts:2"}},
		{"callers", "other.inner", []string{"near candidates: outer.inner a/util.ts:2, inner b/util.ts:4"}},
		{"definitions", "Store.missing", []string{"symbol Store.missing matches no definition in the workspace; nothing named missing is defined in the typescript files of ."}},
		{"callers", "util.ts#Store.get", []string{"symbol util.ts#Store.get: util.ts matches 2 files (a/util.ts, b/util.ts): give more of its path"}},
		{"callers", "c/util.ts#Store.get", []string{"no typescript file of the workspace is c/util.ts or ends with /c/util.ts"}},
		{"callees", "a/util.ts#Stor.get", []string{"symbol a/util.ts#Stor.get matches no definition", "near candidates: Store.get a/util.ts:6, Store.get b/util.ts:2"}},
		{"callers", "a/util.ts#", []string{"symbol a/util.ts# names no definition after #"}},
	} {
		_, err := analyze(context.Background(), Config{Workspace: dir}, Params{Mode: tc.mode, Language: "typescript", Symbol: tc.symbol})
		if err == nil {
			t.Errorf("%s %s: no error", tc.mode, tc.symbol)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s %s: the error\n  %s\nlacks\n  %s", tc.mode, tc.symbol, err, w)
			}
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %s: the error is not one line: %q", tc.mode, tc.symbol, err)
		}
	}
}

// TestNamingSeveralOwners: a qualifier matching definitions of two classes
// of one name says so in a note listing them, and the answer covers both;
// one owner (a/util.ts's Store alone) has no note.
func TestNamingSeveralOwners(t *testing.T) {
	dir := project(t, naming)
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "Store.get"})
	sameList(t, "callers of Store.get", callerSet(r.Callers), []string{"useA app.ts resolved", "useB app.ts resolved"})
	want := "Store.get matches 2 definitions in different classes or files, all covered by this answer: Store.get a/util.ts:6, Store.get b/util.ts:2; name one as file#Owner.name to ask about it alone"
	if !strings.Contains(strings.Join(r.Notes, "\n"), want) {
		t.Errorf("notes %q lack %q", r.Notes, want)
	}
	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "a/util.ts#Store.get"})
	for _, n := range r.Notes {
		if strings.Contains(n, "different classes") {
			t.Errorf("one owner has a note: %q", n)
		}
	}
}

// TestNamingGo: a Go method, defined outside its type, is named by the
// file form file#Type.Method; a qualifier naming the package's directory
// still works when the scope holds no definition (it is looked for in the
// workspace).
func TestNamingGo(t *testing.T) {
	dir := project(t, map[string]string{
		"go.mod":              "module example.com/m\n",
		"http/header.go":      "package http\n\ntype Header map[string][]string\n\nfunc (h Header) Get(k string) string { return h[k][0] }\n",
		"textproto/header.go": "package textproto\n\ntype MIMEHeader map[string][]string\n\nfunc (h MIMEHeader) Get(k string) string { return h[k][0] }\n",
		"app/use.go":          "package app\n\nimport \"example.com/m/http\"\n\nfunc Use(h http.Header) string { return h.Get(\"a\") }\n",
	})
	r := run(t, dir, Params{Mode: "callers", Language: "go", Symbol: "http/header.go#Header.Get"})
	sameList(t, "callers of http/header.go#Header.Get", callerSet(r.Callers), []string{"Use app/use.go resolved"})
	r = run(t, dir, Params{Mode: "callers", Language: "go", Symbol: "Header.Get", Path: "app"})
	sameList(t, "callers of Header.Get in app", callerSet(r.Callers), []string{"Use app/use.go resolved"})
	_, err := analyze(context.Background(), Config{Workspace: dir}, Params{Mode: "callers", Language: "go", Symbol: "Hedaer.Get"})
	if err == nil || !strings.Contains(err.Error(), "near candidates: Header.Get http/header.go:5, MIMEHeader.Get textproto/header.go:5") {
		t.Errorf("Hedaer.Get: %v", err)
	}
}

// zod is a TypeScript project where a bare name has several owners:
// _parse in two classes, one calling another's through an untyped field.
var zod = map[string]string{
	"types.ts": `export class ZodString {
  _parse(x: string) { return x; }
  parse(x: string) { return this._parse(x); }
}
export class ZodObject<T> {
  inner: T;
  _parse(x: any) { return this.inner._parse(x); }
  parse(x: any) { return this._parse(x); }
}
export function walk(n: number): number { return n > 0 ? walk(n - 1) : 0; }
`,
	"use.ts": `import { ZodString } from './types';
export function check(s: ZodString) { return s._parse('a'); }
`,
}

// TestBareNameGroups: the callers of a bare name several classes define
// are grouped by the definition each binds to, resolved groups first and
// the callers attributed to none last, in the text and in the structured
// answer (def on each top node); ZodObject._parse calling another _parse
// is a caller, not a cycle, and the two parse methods of one file are
// two callers.
func TestBareNameGroups(t *testing.T) {
	dir := project(t, zod)
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "_parse"})
	var got []string
	for _, n := range r.Callers {
		got = append(got, fmt.Sprintf("%s.%s %s:%d %s def=%q%s", n.Container, n.Name, n.File, n.Line, n.Confidence, n.Def, mark(n.Cycle, n.Repeated)))
	}
	sameList(t, "callers of _parse", got, []string{
		`ZodString.parse types.ts:3 resolved def="ZodString._parse types.ts:2"`,
		`.check use.ts:2 resolved def="ZodString._parse types.ts:2"`,
		`ZodObject.parse types.ts:8 resolved def="ZodObject._parse types.ts:7"`,
		`ZodObject._parse types.ts:7 name-only def=""`,
	})
	text := r.Text()
	for _, want := range []string{
		"_parse()\n  ZodString._parse types.ts:2 — 2 callers:\n    ← parse()  types.ts:3\n      via: parse(x: string) { return this._parse(x); }\n    ← check()  use.ts:2\n",
		"  ZodObject._parse types.ts:7 — 1 caller:\n    ← parse()  types.ts:8\n",
		"  not attributed to one definition (name-only) — 1 caller:\n    ← _parse()  types.ts:7  [name-only]\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks\n%s\nin\n%s", want, text)
		}
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"def":"ZodString._parse types.ts:2"`) {
		t.Errorf("the structured answer has no def: %s", js)
	}
	// Asked qualified, the answer keeps its shape: no def, no groups.
	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "ZodString._parse"})
	for _, n := range r.Callers {
		if n.Def != "" {
			t.Errorf("qualified caller %s has def %q", n.Name, n.Def)
		}
	}
	if strings.Contains(r.Text(), "caller:") || strings.Contains(r.Text(), "callers:") {
		t.Errorf("a qualified answer is grouped:\n%s", r.Text())
	}
}

// TestCycleSameDefinition: (cycle) marks a definition recurring on the
// path, not another of its name: walk calling walk is a cycle, in callers
// and callees; ZodObject._parse calling an untyped _parse is expanded
// (its callees reach ZodString._parse; its own callers, one of them itself
// through that untyped call, are a cycle); Go's Header.Get calling
// MIMEHeader.Get is a caller of Get, not a cycle.
func TestCycleSameDefinition(t *testing.T) {
	dir := project(t, zod)
	cycles := func(ns []CallNode) []string {
		var out []string
		var walk func(ns []CallNode, depth int)
		walk = func(ns []CallNode, depth int) {
			for _, n := range ns {
				out = append(out, fmt.Sprintf("%d %s.%s %s:%d%s", depth, n.Container, n.Name, n.File, n.Line, mark(n.Cycle, n.Repeated)))
				walk(n.Children, depth+1)
			}
		}
		walk(ns, 0)
		return out
	}
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "walk", Depth: 2})
	sameList(t, "callers of walk", cycles(r.Callers), []string{"0 .walk types.ts:10  (cycle)"})
	r = run(t, dir, Params{Mode: "callees", Language: "typescript", Symbol: "walk", Depth: 2})
	sameList(t, "callees of walk", cycles(r.Callees), []string{"0 .walk types.ts:10", "1 .walk types.ts:10  (cycle)"})
	r = run(t, dir, Params{Mode: "callees", Language: "typescript", Symbol: "ZodObject._parse", Depth: 2})
	if got := cycles(r.Callees); len(got) != 2 || strings.Contains(got[1], "cycle") {
		t.Errorf("callees of ZodObject._parse: %q", got)
	}
	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "_parse", Depth: 2})
	sameList(t, "callers of _parse, depth 2", cycles(r.Callers), []string{
		"0 ZodString.parse types.ts:3", "0 .check use.ts:2", "0 ZodObject.parse types.ts:8",
		"0 ZodObject._parse types.ts:7", "1 ZodObject.parse types.ts:8  (already shown)",
		"1 ZodObject._parse types.ts:7  (cycle)"})

	gd := project(t, map[string]string{
		"go.mod":              "module example.com/m\n",
		"http/header.go":      "package http\n\nimport \"example.com/m/textproto\"\n\ntype Header map[string][]string\n\nfunc (h Header) Get(k string) string { return textproto.MIMEHeader(h).Get(k) }\n",
		"textproto/header.go": "package textproto\n\ntype MIMEHeader map[string][]string\n\nfunc (h MIMEHeader) Get(k string) string { return h[k][0] }\n",
	})
	r = run(t, gd, Params{Mode: "callers", Language: "go", Symbol: "Get"})
	for _, n := range r.Callers {
		if n.Cycle {
			t.Errorf("caller %s.%s is marked (cycle)", n.Container, n.Name)
		}
	}
	if len(r.Callers) != 1 || r.Callers[0].Container != "Header" {
		t.Errorf("callers of Get: %+v", r.Callers)
	}
}

// TestBareNameLibraryType: asked by a bare name, a call on a value whose
// written type is a library's (m: Map) calls the library's member, no
// definition of the workspace: it is left out, as for a qualified name;
// so is a call on any, which a checker ties to nothing.
func TestBareNameLibraryType(t *testing.T) {
	dir := project(t, map[string]string{
		"store.ts": `export class Store { get() { return 1; } }
export function onStore(s: Store) { return s.get(); }
export function onMap(m: Map<string, number>) { return m.get('g'); }
export function onAny(x: any) { return x.get(); }
`})
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "get"})
	sameList(t, "callers of get", callerSet(r.Callers), []string{"onStore store.ts resolved"})
}

// TestNamingOutsideScope: a qualifier whose definition lies outside the
// scope (path) is looked for in the workspace's files naming its owner, by
// path (a module) or by text (a class): no error.
func TestNamingOutsideScope(t *testing.T) {
	dir := project(t, map[string]string{
		"lib/helpers.ts": "export function format(x: string) { return x; }\nexport class Fmt { run() { return 1; } }\n",
		"app/use.ts":     "import { format, Fmt } from '../lib/helpers';\nexport function use() { return format('a') + new Fmt().run(); }\n",
	})
	for _, sym := range []string{"helpers.format", "Fmt.run", "lib/helpers.ts#format"} {
		r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: sym, Path: "app"})
		sameList(t, "callers of "+sym+" in app", callerSet(r.Callers), []string{"use app/use.ts resolved"})
	}
}

// TestBareNameReferences: the calls among the references of a bare name
// several classes define say which definition each binds to; a qualified
// name's do not.
func TestBareNameReferences(t *testing.T) {
	dir := project(t, zod)
	refs := func(symbol string) []string {
		r := run(t, dir, Params{Mode: "references", Language: "typescript", Symbol: symbol})
		out := refList(r, func(cat string, it Ref) string {
			if cat != RefDirectCalls {
				return ""
			}
			return fmt.Sprintf("%s:%d %s %q", it.File, it.Line, it.Confidence, it.Def)
		})
		if symbol == "_parse" && !strings.Contains(r.Text(), "this._parse(x)  → ZodString._parse types.ts:2\n") {
			t.Errorf("the text does not name the definitions:\n%s", r.Text())
		}
		return out
	}
	sameList(t, "direct calls of _parse", refs("_parse"), []string{
		`types.ts:3 resolved "ZodString._parse types.ts:2"`, `types.ts:8 resolved "ZodObject._parse types.ts:7"`,
		`use.ts:2 resolved "ZodString._parse types.ts:2"`, `types.ts:7 name-only ""`})
	sameList(t, "direct calls of ZodString._parse", refs("ZodString._parse"), []string{
		`types.ts:3 resolved ""`, `use.ts:2 resolved ""`, `types.ts:7 name-only ""`})
}

// TestBareNameDepth: below a bare name's callers, a caller already shown
// that calls the name by name only is not listed again under each
// definition (two untyped _parse calls would list each other under every
// _parse); resolved callers and the definition's own recursion are.
func TestBareNameDepth(t *testing.T) {
	dir := project(t, map[string]string{"types.ts": `export class A<T> {
  inner: T;
  _parse(x: any) { return this.inner._parse(x); }
  parse(x: any) { return this._parse(x); }
}
export class B<T> {
  el: T;
  _parse(x: any) { return this.el._parse(x); }
}
`})
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "_parse", Depth: 2})
	var got []string
	var walk func(ns []CallNode, depth int)
	walk = func(ns []CallNode, depth int) {
		for _, n := range ns {
			got = append(got, fmt.Sprintf("%d %s.%s%s", depth, n.Container, n.Name, mark(n.Cycle, n.Repeated)))
			walk(n.Children, depth+1)
		}
	}
	walk(r.Callers, 0)
	sameList(t, "callers of _parse, depth 2", got, []string{
		"0 A.parse", "0 A._parse", "1 A.parse  (already shown)", "1 A._parse  (cycle)", "0 B._parse", "1 B._parse  (cycle)"})
}

// TestBareNameDispatchGroup: asked by a bare name, a call bound to a
// member the definitions override or implement (a Map's get, a base
// class's) is listed, name-only, under the one definition it may reach;
// one that may reach several stays attributed to none.
func TestBareNameDispatchGroup(t *testing.T) {
	dir := project(t, map[string]string{
		"store.ts": `export class ObsMap implements Map<string, number> { get(k: string) { return 1; } }
export class Base { run() {} }
export class A extends Base { run() {} }
export class B extends Base { run() {} }
export class Other { get() { return 2; } }
export function viaMap(m: Map<string, number>) { return m.get('g'); }
export function viaBase(b: Base) { b.run(); }
export class S1 implements Set<string> { has(x: string) { return true; } }
export class S2 implements Set<string> { has(x: string) { return false; } }
export function viaSet(s: Set<string>) { return s.has('x'); }
`})
	show := func(ns []CallNode) []string {
		var out []string
		for _, n := range ns {
			out = append(out, fmt.Sprintf("%s %s %s def=%q", n.Name, n.Confidence, n.Reason, n.Def))
		}
		return out
	}
	r := run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "get"})
	sameList(t, "callers of get", show(r.Callers), []string{`viaMap dispatch  def="ObsMap.get store.ts:1"`})
	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "run"})
	sameList(t, "callers of run", show(r.Callers), []string{`viaBase resolved  def="Base.run store.ts:2"`})
	r = run(t, dir, Params{Mode: "callers", Language: "typescript", Symbol: "has"})
	sameList(t, "callers of has", show(r.Callers), []string{`viaSet dispatch  def=""`})
}
