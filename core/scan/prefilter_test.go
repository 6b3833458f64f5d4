package scan

import (
	"context"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/rule"
)

// TestPrefilter checks which sources the scan prefilter lets through, and
// that it never rules out a source the rules find something in.
func TestPrefilter(t *testing.T) {
	ctx := context.Background()
	js, err := language.Lookup("javascript")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, rules, src string
		unused           bool
		want             bool
	}{
		{"pattern present", "rule: {pattern: console.log($A)}", "console.log(1)", false, true},
		{"pattern word only inside longer words", "rule: {pattern: console.log($A)}", "myconsole.logger(1)", false, false},
		{"pattern absent", "rule: {pattern: console.log($A)}", "alert(1)", false, false},
		{"kind requires nothing", "rule: {kind: number}", "alert()", false, true},
		{"regex requires nothing", "rule: {kind: identifier, regex: ^al}", "x", false, true},
		{"all needs every pattern", "rule: {all: [{pattern: foo($A)}, {has: {pattern: bar, stopBy: end}}]}", "foo(baz)", false, false},
		{"all with both", "rule: {all: [{pattern: foo($A)}, {has: {pattern: bar, stopBy: end}}]}", "foo(bar)", false, true},
		{"any of two, second present", "rule: {any: [{pattern: foo()}, {pattern: bar()}]}", "bar()", false, true},
		{"any of two, none present", "rule: {any: [{pattern: foo()}, {pattern: bar()}]}", "baz()", false, false},
		{"any with a kind requires nothing", "rule: {any: [{pattern: foo()}, {kind: number}]}", "baz()", false, true},
		{"not requires nothing", "rule: {kind: call_expression, not: {pattern: foo()}}", "baz()", false, true},
		{"inside needs its rule", "rule: {kind: identifier, inside: {pattern: 'foo($$$A)', stopBy: end}}", "x", false, false},
		{"inside with its rule", "rule: {kind: identifier, inside: {pattern: 'foo($$$A)', stopBy: end}}", "foo(x)", false, true},
		{"local utility", "utils: {c: {pattern: console.log($A)}}\nrule: {matches: c}", "console.log(2)", false, true},
		{"local utility absent", "utils: {c: {pattern: console.log($A)}}\nrule: {matches: c}", "print(2)", false, false},
		{"self-referring utility", "utils: {n: {kind: call_expression, any: [{pattern: foo()}, {has: {matches: n}}]}}\nrule: {matches: n}", "bar(foo())", false, true},
		{"suppression comment with the report on", "rule: {pattern: foo()}", "bar() // ast-grep-ignore", true, true},
		{"suppression comment with the report off", "rule: {pattern: foo()}", "bar() // ast-grep-ignore", false, false},
		{"signature strictness requires nothing", "rule: {pattern: {context: foo(1), strictness: signature}}", "bar(2)", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfgs, err := rule.ParseConfigs(ctx, []byte("id: r\nlanguage: javascript\n"+tt.rules), rule.Options{})
			if err != nil {
				t.Fatal(err)
			}
			unused := rule.Severity("")
			if tt.unused {
				unused = rule.SeverityHint
			}
			rs := NewRules(cfgs, t.TempDir(), unused)
			src := []byte(tt.src)
			got := rs.Prefilter()(js, src)
			if got != tt.want {
				t.Errorf("Prefilter(%q) = %v, want %v", tt.src, got, tt.want)
			}
			f, err := Source(ctx, rs, js, src)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Findings) > 0 && !got {
				t.Errorf("ruled out %q, where the rules find %d", tt.src, len(f.Findings))
			}
		})
	}
}
