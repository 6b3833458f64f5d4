package rule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/match"
)

// fuzzSeeds are rule documents covering every key; `go test` runs them as
// regular test cases.
var fuzzSeeds = []string{
	"id: a\nlanguage: typescript\nrule: {kind: number}\n",
	"id: a\nlanguage: typescript\nrule:\n  pattern: foo($A)\n  inside: {kind: function_declaration, stopBy: end}\nfix: bar($A)\n",
	"id: a\nlanguage: python\nrule:\n  any:\n    - kind: integer\n    - all: [{kind: string}, {not: {regex: x}}]\n",
	"id: a\nlanguage: go\nrule:\n  kind: call_expression\n  has: {field: arguments, stopBy: {kind: block}, has: {kind: identifier}}\n",
	"id: a\nlanguage: rust\nrule:\n  kind: integer_literal\n  nthChild: {position: 2n+1, ofRule: {kind: integer_literal}, reverse: true}\n",
	"id: a\nlanguage: typescript\nrule:\n  kind: number\n  range: {start: {line: 0, column: 1}, end: {line: 0}}\n",
	"id: a\nlanguage: typescript\nrule: {kind: 'array > number:nth-child(2n+1), :is(string):not(:has(x))'}\n",
	"id: a\nlanguage: typescript\nutils:\n  u: {kind: number}\nrule: {matches: u, precedes: {kind: number}, follows: {kind: string}}\n",
	"id: a\nlanguage: typescript\nrule: {pattern: $F($$$A)}\nconstraints: {F: {regex: ^f}}\n" +
		"transform:\n  B: substring($F, startChar=1)\n  C: {convert: {source: $F, toCase: snakeCase, separatedBy: [dash]}}\n" +
		"  D: \"replace($F, replace='a', by='b')\"\nmessage: $B $C $D\nlabels: {F: {style: primary, message: m}}\n",
	"id: a\nlanguage: typescript\nrule: {pattern: f($$$A)}\nrewriters:\n  - id: r\n    rule: {kind: number, pattern: $N}\n    fix: n($N)\n" +
		"transform:\n  X: {rewrite: {source: $$$A, rewriters: [r], joinBy: ','}}\nfix:\n  - template: g($X)\n    title: t\n    expandEnd: {regex: ';'}\n",
	"id: a\nlanguage: typescript\nseverity: error\nnote: n\nurl: u\nfiles: [a, {glob: b, caseInsensitive: true}]\nignores: [c]\nmetadata: {k: [1, {x: y}]}\nrule: {kind: number}\n---\nid: b\nlanguage: ts\nrule: {kind: string}\n",
	"a: &x [*x]",
	"rule: {not: {not: {not: {kind: number}}}}",
	"id: a\nlanguage: typescript\nrule: {kind: 'number:nth-child(-n+3 of number)'}\n",
	"{}",
	"",
}

// fuzzSource is scanned by every rule that compiles; it is tiny so that
// deeply nested relational rules stay fast.
const fuzzSource = "f(1, 'a')"

func FuzzParseRule(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, src []byte) {
		cfgs, err := ParseConfigs(ctx, src, Options{})
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if len(src) > 400 {
			return
		}
		for _, cfg := range cfgs {
			tr, err := cfg.Language.Parse(ctx, []byte(fuzzSource))
			if err != nil {
				t.Fatal(err)
			}
			fs, err := NewScanner([]*Config{cfg}).Scan(ctx, tr)
			if err != nil {
				t.Fatal(err)
			}
			// What a report of each finding computes: its message,
			// labels and fix.
			for _, fd := range fs {
				fd.Config.RenderMessage(fd.Node, fd.Env)
				src := fd.Node.Tree().Source()
				for _, sp := range fd.Config.Spans(fd.Node, fd.Env) {
					if sp.Start < 0 || sp.End < sp.Start || sp.End > len(src) {
						t.Fatalf("label [%d, %d) outside the source", sp.Start, sp.End)
					}
				}
				for _, fx := range fd.Config.Fixes {
					fx.Edit(fd.Node, fd.Env)
				}
			}
		}
	})
}

func FuzzSelector(f *testing.F) {
	for _, s := range []string{"number", "a > b", "call_expression:has(> arguments) ~ number, string",
		":is(number, string):not(:nth-child(2n+1 of number))", "x:nth-last-child(-n+2)", " ( ) , : . + ~ >", "number:has(", "ERR"} {
		f.Add(s)
	}
	lang := mustLang(f, "typescript")
	c, err := newCompiler(context.Background(), lang, newRegistry(nil))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := c.parseSelector(s)
		if err != nil {
			return
		}
		m.kinds()
	})
}

func FuzzAnB(f *testing.F) {
	for _, s := range []string{"1", "2n+1", "-n+3", "n", "+5", "- n", "3n-", "99999999999n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseAnB(s)
		if err != nil {
			return
		}
		for i := 0; i < 10; i++ {
			p.matches(i)
		}
	})
}

func FuzzParseRuleJSON(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","language":"typescript","rule":{"kind":"number"}}`,
		`{"id":"a","language":"go","rule":{"pattern":"$A","has":{"kind":"identifier","stopBy":"end"}},"fix":"x"}`,
		`{"language":"python","rule":{"any":[{"kind":"integer"},{"regex":"^x","kind":"identifier"}]},"transform":{"B":"substring($A, startChar=1)"}}`,
		`{"language":"rust","rule":{"nthChild":{"position":1.5}}}`,
		`{"rule":null}`,
	} {
		f.Add([]byte(s))
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, src []byte) {
		var obj map[string]any
		if json.Unmarshal(src, &obj) != nil {
			return
		}
		cfg, err := ParseConfig(ctx, obj, Options{})
		if err != nil || len(src) > 400 {
			return
		}
		tr, err := cfg.Language.Parse(ctx, []byte(fuzzSource))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewScanner([]*Config{cfg}).Scan(ctx, tr); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzTransform: any replace/substring/convert chain over any source
// text ends, without a panic, with a transformed text within the
// budget's bound or with the budget's error (issue 18 item 1).
func FuzzTransform(f *testing.F) {
	f.Add("abc", "b", "xx", 3, true)
	f.Add("", "", "$1$1", 30, false)
	f.Add("héllo wörld", "(?i)(l+)", "${1}${1}${1}", 12, true)
	f.Add("x", "(", ")", 1, false)
	ctx := match.WithLimits(context.Background(), match.Limits{Text: 64 << 10, Total: 1 << 20})
	f.Fuzz(func(t *testing.T, text, re, by string, chain int, camel bool) {
		if len(text) > 200 || chain < 0 || chain > 40 || strings.ContainsAny(text, "'\\\n\r") {
			return
		}
		var b strings.Builder
		b.WriteString("id: t\nlanguage: javascript\nrule: {kind: string_fragment, pattern: $A}\ntransform:\n")
		fmt.Fprintf(&b, "  T0: {replace: {source: $A, replace: %s, by: %s}}\n", strconv.Quote(re), strconv.Quote(by))
		for i := 1; i <= chain; i++ {
			if camel && i%2 == 0 {
				fmt.Fprintf(&b, "  T%d: {convert: {source: $T%d, toCase: camelCase}}\n", i, i-1)
				continue
			}
			fmt.Fprintf(&b, "  T%d: {replace: {source: $T%d, replace: %s, by: %s}}\n", i, i-1, strconv.Quote(re), strconv.Quote(by))
		}
		fmt.Fprintf(&b, "fix: $T%d\n", chain)
		cfgs, err := ParseConfigs(context.Background(), []byte(b.String()), Options{})
		if err != nil {
			return
		}
		tr, err := cfgs[0].Language.Parse(context.Background(), []byte("x = '"+text+"';\n"))
		if err != nil {
			t.Fatal(err)
		}
		fs, _, err := NewScanner(cfgs).ScanAll(ctx, tr)
		if err != nil {
			if !errors.Is(err, match.ErrBudget) {
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}
		for _, fd := range fs {
			for name, v := range fd.Env.TransformedAll() {
				if len(v) > 64<<10 {
					t.Fatalf("%s holds %d bytes, over the bound", name, len(v))
				}
			}
		}
	})
}
