package rule

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// ruleCase runs one rule (the body of `rule:`, plus optional extra
// top-level keys) over src and expects the matched texts, "|"-joined.
type ruleCase struct {
	name  string
	lang  string
	rule  string // YAML of the rule object
	extra string // further top-level YAML (utils, constraints, ...)
	src   string
	want  string
}

func (c ruleCase) config() string {
	var b strings.Builder
	fmt.Fprintf(&b, "id: test\nlanguage: %s\nrule:\n", c.lang)
	for _, line := range strings.Split(strings.TrimSpace(c.rule), "\n") {
		b.WriteString("  " + line + "\n")
	}
	b.WriteString(c.extra)
	return b.String()
}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := texts(t, c.config(), c.src); got != c.want {
				t.Errorf("rule:\n%s\nsource: %q\ngot  %q\nwant %q", c.config(), c.src, got, c.want)
			}
		})
	}
}

func TestAtomicRules(t *testing.T) {
	runCases(t, []ruleCase{
		{"pattern", "typescript", "pattern: foo($A)", "", "foo(1); foo(2, 3); bar(4)", "foo(1)"},
		{"pattern object", "typescript", "pattern:\n  context: 'class A { $F = 1 }'\n  selector: public_field_definition", "",
			"class B { x = 1; y = 2 }", "x = 1"},
		{"pattern strictness", "typescript", "pattern:\n  context: 'foo(1)'\n  strictness: cst", "", "foo(1); foo( 1 )", "foo(1)|foo( 1 )"},
		{"kind", "python", "kind: integer", "", "x = 1 + 2.0", "1"},
		{"kind ERROR", "typescript", "kind: ERROR", "", "let = ;", "="},
		{"kind supertype matches nothing", "python", "kind: expression", "", "x = 1", ""},
		{"regex", "go", "kind: identifier\nregex: ^[A-Z]", "", "package p\nvar Big, small = 1, 2", "Big"},
		{"regex unicode word", "typescript", "kind: identifier\nregex: ^\\w+$", "", "let café = 1; let a$b = 2", "café"},
		{"regex unicode digit", "typescript", "kind: string\nregex: \\d", "", "let a = '٣'; let b = 'x'", "'٣'"},
		{"nthChild number", "typescript", "kind: number\nnthChild: 2", "", "f(1, 2, 3)", "2"},
		{"nthChild An+B", "typescript", "kind: number\nnthChild: 2n+1", "", "[1, 2, 3, 4, 5]", "1|3|5"},
		{"nthChild -n+B", "typescript", "kind: number\nnthChild: -n+2", "", "[1, 2, 3]", "1|2"},
		{"nthChild reverse", "typescript", "kind: number\nnthChild:\n  position: 1\n  reverse: true", "", "[1, 2, 3]", "3"},
		{"nthChild ofRule", "typescript", "kind: number\nnthChild:\n  position: 2\n  ofRule: {kind: number}", "", "[a, 1, b, 2, 3]", "2"},
		{"nthChild counts named only", "rust", "kind: integer_literal\nnthChild: 2", "", "fn f() { g(1, 2); }", "2"},
		{"range", "typescript", "kind: number\nrange:\n  start: {line: 1, column: 4}\n  end: {line: 1, column: 5}", "", "x = 1\ny = 2", "2"},
		{"range without columns", "typescript", "kind: number\nrange:\n  start: {line: 0}\n  end: {line: 0}", "", "x = 1\ny = 2", "1"},
		{"range character columns", "typescript", "kind: number\nrange:\n  start: {line: 0, column: 5}\n  end: {line: 0, column: 6}", "", "'é'; 1; 2", "1"},
	})
}

func TestKindSelectors(t *testing.T) {
	src := "foo(1, 'a'); [1, 2, 3, 4]; function f() { return 1 }"
	runCases(t, []ruleCase{
		{"child", "typescript", "kind: arguments > number", "", src, "1"},
		{"descendant", "typescript", "kind: expression_statement number", "", src, "1|1|2|3|4"},
		{"adjacent sibling", "typescript", "kind: number + string", "", src, ""},
		{"general sibling", "typescript", "kind: number ~ number", "", src, "2|3|4"},
		{"list", "typescript", "kind: string, return_statement", "", src, "'a'|return 1"},
		{"has", "typescript", "kind: function_declaration:has(return_statement)", "", src, "function f() { return 1 }"},
		{"has child", "typescript", "kind: 'call_expression:has(> arguments)'", "", src, "foo(1, 'a')"},
		{"not", "typescript", "kind: 'array > number:not(:nth-child(1))'", "", src, "2|3|4"},
		{"is", "typescript", "kind: ':is(string, return_statement)'", "", src, "'a'|return 1"},
		{"nth-child", "typescript", "kind: 'array > number:nth-child(2n)'", "", src, "2|4"},
		{"nth-last-child", "typescript", "kind: 'array > number:nth-last-child(1)'", "", src, "4"},
		{"nth-child of", "typescript", "kind: 'arguments > :nth-child(1 of string)'", "", src, "'a'"},
		{"whitespace", "typescript", "kind: '  array   >   number:nth-child( 2n + 1 )  '", "", src, "1|3"},
	})
}

func TestRelationalRules(t *testing.T) {
	runCases(t, []ruleCase{
		{"inside neighbor", "typescript", "kind: number\ninside: {kind: arguments}", "", "f(1, [2])", "1"},
		{"inside end", "typescript", "kind: number\ninside: {kind: call_expression, stopBy: end}", "", "f(1, [2]); 3", "1|2"},
		{"inside stop rule", "typescript", "kind: number\ninside:\n  kind: call_expression\n  stopBy: {kind: array}", "", "f(1, [2]); g([h(3)])", "1|3"},
		{"inside field", "typescript", "kind: identifier\ninside: {kind: call_expression, field: function}", "", "f(a)", "f"},
		{"inside field end", "typescript", "kind: identifier\ninside: {kind: call_expression, field: arguments, stopBy: end}", "", "f(a, g(b))", "a|g|b"},
		{"has neighbor", "python", "kind: call\nhas: {kind: argument_list}", "", "f(1)", "f(1)"},
		{"has end", "python", "kind: function_definition\nhas: {kind: return_statement, stopBy: end}", "", "def f():\n  if x:\n    return 1\ndef g():\n  pass", "def f():\n  if x:\n    return 1"},
		{"has stop rule", "typescript", "kind: function_declaration\nhas:\n  kind: return_statement\n  stopBy: {kind: arrow_function}", "",
			"function a() { return 1 }\nfunction b() { x(() => { return 2 }) }", "function a() { return 1 }"},
		{"has field", "go", "kind: call_expression\nhas: {field: function, regex: ^fmt}", "", "package p\nfunc f() { fmt.Println(x); g(fmt.X) }", "fmt.Println(x)"},
		{"has field end", "typescript", "kind: call_expression\nhas: {field: arguments, kind: number, stopBy: end}", "", "f(g(1)); h(x)", "f(g(1))|g(1)"},
		{"precedes neighbor", "typescript", "kind: expression_statement\nprecedes: {kind: return_statement}", "",
			"function f() { a(); b(); return 1 }", "b();"},
		{"precedes end", "typescript", "kind: expression_statement\nprecedes: {kind: return_statement, stopBy: end}", "",
			"function f() { a(); b(); return 1 }", "a();|b();"},
		{"follows neighbor", "rust", "kind: expression_statement\nfollows: {kind: let_declaration}", "",
			"fn f() { let a = 1; g(); h(); }", "g();"},
		{"follows stop rule", "typescript", "kind: number\nfollows:\n  kind: string\n  stopBy: {kind: identifier}", "",
			"f('a', 1, x, 2)", "1"},
	})
}

func TestCompositeRules(t *testing.T) {
	runCases(t, []ruleCase{
		{"all", "typescript", "all:\n  - kind: number\n  - regex: '2'", "", "[1, 2, 12]", "2|12"},
		{"any", "typescript", "any:\n  - kind: number\n  - kind: string", "", "[1, 'a', b]", "1|'a'"},
		{"not", "typescript", "kind: number\nnot: {regex: '^1$'}", "", "[1, 2]", "2"},
		{"empty all matches", "typescript", "kind: number\nall: []", "", "[1]", "1"},
		{"empty any matches nothing", "typescript", "kind: number\nany: []", "", "[1]", ""},
		{"matches local", "typescript", "kind: number\nmatches: small", "utils:\n  small: {regex: '^[0-4]$'}\n", "[1, 7, 3]", "1|3"},
		{"matches recursive through has", "typescript", "kind: parenthesized_expression\nmatches: wrapped\nnot: {inside: {kind: parenthesized_expression}}",
			"utils:\n  wrapped:\n    any:\n      - kind: number\n      - kind: parenthesized_expression\n        has: {matches: wrapped}\n", "x = ((1)); y = ((a))", "((1))"},
	})
}

// bindings runs a config and renders each match's bindings.
func bindings(t *testing.T, cfgSrc, src string) []string {
	t.Helper()
	cfg := config(t, cfgSrc)
	var out []string
	for _, h := range findAll(parseSrc(t, cfg.Language, src), cfg) {
		out = append(out, renderEnv(h.node, h.env))
	}
	return out
}

func renderEnv(n tree.Node, env *match.Env) string {
	var parts []string
	env.Singles(func(name string, v tree.Node) { parts = append(parts, "$"+name+"="+v.Text()) })
	env.Multis(func(name string, vs []tree.Node) {
		var ts []string
		for _, v := range vs {
			ts = append(ts, v.Text())
		}
		parts = append(parts, "$$$"+name+"=["+strings.Join(ts, ",")+"]")
	})
	for k, v := range env.TransformedAll() {
		parts = append(parts, k+"->"+v)
	}
	sort.Strings(parts)
	return n.Text() + " {" + strings.Join(parts, " ") + "}"
}

func TestBindingSemantics(t *testing.T) {
	cases := []struct {
		name, cfg, src string
		want           []string
	}{
		{"all binds across", `
id: t
language: typescript
rule:
  all:
    - pattern: $F($A)
    - has: {field: arguments, has: {pattern: $A}}
`, "f(1); g(2)", []string{"f(1) {$$$secondary=[1,1] $A=1 $F=f}", "g(2) {$$$secondary=[2,2] $A=2 $F=g}"}},
		{"all requires consistent bindings", `
id: t
language: typescript
rule:
  all:
    - pattern: $A + $B
    - pattern: $A + $A
`, "1 + 1; 1 + 2", []string{"1 + 1 {$A=1 $B=1}"}},
		{"any binds from the first matching branch", `
id: t
language: typescript
rule:
  kind: call_expression
  any:
    - pattern: $F($X, $Y)
    - pattern: $F($X)
`, "f(1); g(1, 2)", []string{"f(1) {$F=f $X=1}", "g(1, 2) {$F=g $X=1 $Y=2}"}},
		{"not binds nothing", `
id: t
language: typescript
rule:
  pattern: $F($$$)
  not:
    pattern: $G(1)
`, "f(1); h(2)", []string{"h(2) {$F=h}"}},
		{"relational rules bind and label", `
id: t
language: typescript
rule:
  kind: call_expression
  inside:
    kind: function_declaration
    stopBy: end
    has: {field: name, pattern: $NAME}
`, "function main() { run() }", []string{"run() {$$$secondary=[main,function main() { run() }] $NAME=main}"}},
		{"global consistency through has", `
id: t
language: typescript
rule:
  pattern: $A = $B
  has:
    field: right
    pattern: $A
`, "x = x; y = z", []string{"x = x {$$$secondary=[x] $A=x $B=x}"}},
		{"constraints", `
id: t
language: typescript
rule:
  pattern: $F($A)
constraints:
  A: {kind: number}
  F: {regex: '^[fg]$'}
`, "f(1); g('x'); h(2); g(3)", []string{"f(1) {$A=1 $F=f}", "g(3) {$A=3 $F=g}"}},
		{"constraints ignore multi variables", `
id: t
language: typescript
rule:
  pattern: f($$$A)
constraints:
  A: {kind: string}
`, "f(1)", []string{"f(1) {$$$A=[1]}"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := bindings(t, c.cfg, c.src)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestEnvUnchangedOnFailure(t *testing.T) {
	cfg := config(t, `
id: t
language: typescript
rule:
  pattern: $F($A)
  has:
    field: arguments
    has: {pattern: $A, regex: ^9$}
`)
	tr := parseSrc(t, cfg.Language, "f(1)")
	env := &match.Env{}
	env.BindSingle("X", tr.Root())
	before := renderEnv(tr.Root(), env)
	for i := 0; i < tr.Len(); i++ {
		if cfg.Match(tr.Node(i), env) {
			t.Fatalf("unexpected match of %q", tr.Node(i).Text())
		}
		if got := renderEnv(tr.Root(), env); got != before {
			t.Fatalf("env changed by a failed match: %s -> %s", before, got)
		}
	}
}

func TestKinds(t *testing.T) {
	ctx := context.Background()
	lang := mustLang(t, "typescript")
	sample := parseSrc(t, lang, "foo(1, 'a', [x]); let y = 2 + 3;")
	cases := []struct {
		rule string
		want []string // kinds a match may have; nil means any
	}{
		{"{kind: number}", []string{"number"}},
		{"{pattern: 'foo(1)'}", []string{"call_expression"}},
		{"{all: [{kind: number}, {regex: x}]}", []string{"number"}},
		{"{all: [{kind: number}, {kind: string}]}", []string{}},
		{"{any: [{kind: number}, {kind: string}]}", []string{"number", "string"}},
		{"{any: [{kind: number}, {regex: x}]}", nil},
		{"{has: {kind: number}}", nil},
		{"{not: {kind: number}}", nil},
		{"{kind: 'arguments > number, string'}", []string{"number", "string"}},
		{"{nthChild: {position: 1, ofRule: {kind: number}}}", []string{"number"}},
	}
	for _, c := range cases {
		core, err := ParseCoreYAML(ctx, lang, []byte("rule: "+c.rule), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.rule, err)
		}
		ks := core.Kinds()
		if (ks == nil) != (c.want == nil) {
			t.Errorf("%s: kinds %v, want %v", c.rule, ks, c.want)
			continue
		}
		for i := 0; i < sample.Len() && ks != nil; i++ {
			n := sample.Node(i)
			want := false
			for _, k := range c.want {
				want = want || n.Kind() == k && n.IsNamed()
			}
			if ks.Has(n.KindID()) != want {
				t.Errorf("%s: kinds has %s = %v, want %v", c.rule, n.Kind(), !want, want)
			}
		}
	}
}

func TestMissingKindsIsAnError(t *testing.T) {
	_, err := ParseConfigs(context.Background(), []byte("id: t\nlanguage: ts\nrule: {regex: x}\n"), Options{})
	if err == nil || !strings.Contains(err.Error(), "kinds") {
		t.Fatalf("err = %v", err)
	}
	// A bare rule for the search API may match any kind.
	if _, err := ParseRule(context.Background(), mustLang(t, "ts"), map[string]any{"regex": "x"}, nil); err != nil {
		t.Fatal(err)
	}
}
