package analysis

import (
	"strings"
	"testing"
)

// TestTypeBodyRepair: interfaces whose call signatures start lines with
// no separator between them (which tree-sitter-typescript reads as one
// member, losing the rest of the file) keep their members, one interface
// after another, and the answer shows the source as written.
func TestTypeBodyRepair(t *testing.T) {
	dir := project(t, map[string]string{"a.ts": `export interface G {
    <T>(value: T): Box<T>
    <T>(value?: T, name?: string): Box<T>
    box: Box<number>
}
export interface F extends A {
    <T = any>(value: T[], options?: O): X<T>
    <T = any>(value: Set<T>, options?: O): Y<T>
    set: <T = any>(v?: T) => S<T>
    g: G
}
export var observable: F = make()
export class S<T> { set(v: T) {} }
export class Box<T> { set(v: T) {} }
export function use() { observable.set(1); observable.g.box.set(2) }
`})
	for _, c := range []struct{ symbol, want string }{{"F.set", "use a.ts resolved"}, {"Box.set", "use a.ts resolved"}} {
		r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: c.symbol})
		sameList(t, "callers of "+c.symbol, callerSet(r.Callers), []string{c.want})
	}
	r := run(t, dir, Params{Mode: ModeCallers, Language: "typescript", Symbol: "S.set"})
	if len(r.Callers) != 0 {
		t.Errorf("callers of S.set: %+v", r.Callers)
	}
	r = run(t, dir, Params{Mode: ModeDefinitions, Language: "typescript", Symbol: "G"})
	if len(r.Definitions) != 1 || strings.Contains(r.Text(), ";") {
		t.Errorf("definitions of G: %s", r.Text())
	}
}
