package rule

import (
	"context"
	"strings"
	"testing"
)

func globals(t *testing.T, files ...string) *Globals {
	t.Helper()
	var fs []File
	for i, f := range files {
		fs = append(fs, File{Path: "util" + string(rune('0'+i)) + ".yml", Data: []byte(f)})
	}
	g, err := ParseGlobals(context.Background(), fs)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGlobalUtils(t *testing.T) {
	g := globals(t,
		"id: is-num\nlanguage: typescript\nrule: {kind: number, pattern: $N}\n",
		"id: call-with\nlanguage: typescript\narguments: [ARG]\nrule:\n  kind: call_expression\n  has: {field: arguments, has: {matches: ARG}}\n",
		"id: wraps\nlanguage: typescript\narguments: [X]\nrule:\n  matches:\n    call-with:\n      ARG: {matches: X}\n",
	)
	if g.Len() != 3 {
		t.Fatalf("Len = %d", g.Len())
	}
	cases := []struct {
		name, rule, src string
		want            []string
	}{
		{"plain global binds nothing", "kind: number\nmatches: is-num", "f(1)", []string{"1 {}"}},
		{"parameterized call exports argument bindings", "matches:\n  call-with:\n    ARG: {pattern: $V, kind: string}", "f('a'); g(2)",
			[]string{"f('a') {$V='a'}"}},
		// As in ast-grep, what an argument binds inside a nested call is
		// exported to the inner call only, so $I does not reach the rule.
		{"nested parameterized call", "matches:\n  wraps:\n    X: {kind: identifier, pattern: $I}", "f(x); g(1)",
			[]string{"f(x) {}"}},
		{"exports must agree with the caller", "pattern: $V($$$)\nmatches:\n  call-with:\n    ARG: {pattern: $V}", "f(f); g(h)",
			[]string{"f(f) {$V=f}"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "id: t\nlanguage: typescript\nrule:\n  " + strings.ReplaceAll(c.rule, "\n", "\n  ") + "\n"
			cfgs, err := ParseConfigs(context.Background(), []byte(src), Options{Globals: g})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range findAll(parseSrc(t, cfgs[0].Language, c.src), cfgs[0]) {
				got = append(got, renderEnv(h.node, h.env))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestGlobalUtilErrors(t *testing.T) {
	cases := []struct {
		name  string
		files []string
		rule  string
		want  string
	}{
		{"duplicate id", []string{"id: a\nlanguage: ts\nrule: {kind: number}", "id: a\nlanguage: ts\nrule: {kind: string}"}, "", `duplicate utility id "a"`},
		{"two documents", []string{"id: a\nlanguage: ts\nrule: {kind: number}\n---\nid: b\nlanguage: ts\nrule: {kind: number}"}, "", "exactly one YAML document"},
		{"cycle", []string{"id: a\nlanguage: ts\nrule: {matches: b}", "id: b\nlanguage: ts\nrule: {not: {matches: a}}"}, "", "cyclic dependency"},
		{"bad argument", []string{"id: a\nlanguage: ts\narguments: ['X(']\nrule: {kind: number}"}, "", `argument "X("`},
		{"duplicate argument", []string{"id: a\nlanguage: ts\narguments: [X, X]\nrule: {kind: number}"}, "", `duplicate argument "X"`},
		{"parameter called", []string{"id: a\nlanguage: ts\narguments: [X]\nrule: {matches: {X: {}}}"}, "", `utility parameter "X" cannot be called`},
		{"missing arguments", []string{"id: a\nlanguage: ts\narguments: [X]\nrule: {kind: number, matches: X}"}, "kind: number\nmatches: a", `utility "a" takes arguments`},
		{"unexpected arguments", []string{"id: a\nlanguage: ts\nrule: {kind: number}"}, "kind: number\nmatches: {a: {X: {kind: number}}}", `utility "a" does not take arguments`},
		{"unknown argument", []string{"id: a\nlanguage: ts\narguments: [X]\nrule: {kind: number, matches: X}"}, "kind: number\nmatches: {a: {Y: {kind: number}}}", `has no argument "Y"`},
		{"missing argument", []string{"id: a\nlanguage: ts\narguments: [X, Y]\nrule: {kind: number, matches: X}"}, "kind: number\nmatches: {a: {X: {kind: number}}}", `missing argument "Y"`},
		{"undefined callee", nil, "kind: number\nmatches: {nope: {X: {kind: number}}}", `utility "nope" is not defined`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var fs []File
			for i, f := range c.files {
				fs = append(fs, File{Path: "u" + string(rune('0'+i)) + ".yml", Data: []byte(f)})
			}
			g, err := ParseGlobals(context.Background(), fs)
			if err == nil && c.rule != "" {
				src := "id: t\nlanguage: typescript\nrule:\n  " + strings.ReplaceAll(c.rule, "\n", "\n  ") + "\n"
				_, err = ParseConfigs(context.Background(), []byte(src), Options{Globals: g})
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

func TestUndefinedReferenceInGlobalNeverMatches(t *testing.T) {
	g := globals(t, "id: a\nlanguage: typescript\nrule: {kind: number, matches: missing}\n")
	cfgs, err := ParseConfigs(context.Background(), []byte("id: t\nlanguage: typescript\nrule: {kind: number, not: {matches: a}}\n"), Options{Globals: g})
	if err != nil {
		t.Fatal(err)
	}
	if hits := findAll(parseSrc(t, cfgs[0].Language, "f(1)"), cfgs[0]); len(hits) != 1 {
		t.Fatalf("%d hits, want 1", len(hits))
	}
}
