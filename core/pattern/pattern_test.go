package pattern

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

func mustLang(t testing.TB, name string) *language.Language {
	t.Helper()
	l, err := language.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func parse(t testing.TB, lang *language.Language, src string) *tree.Tree {
	t.Helper()
	tr, err := lang.Parse(context.Background(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// describe renders a match as its text followed by its bindings, sorted.
func describe(n tree.Node, env *match.Env) string {
	var binds []string
	env.Singles(func(name string, v tree.Node) { binds = append(binds, name+"="+v.Text()) })
	env.Multis(func(name string, vs []tree.Node) {
		var texts []string
		for _, v := range vs {
			texts = append(texts, v.Text())
		}
		binds = append(binds, name+"=["+strings.Join(texts, "|")+"]")
	})
	sort.Strings(binds)
	return strings.TrimSpace(n.Text() + " " + strings.Join(binds, " "))
}

// findAll compiles pat and returns every match in src, described.
func findAll(t testing.TB, lang, pat string, opts Options, src string) []string {
	t.Helper()
	l := mustLang(t, lang)
	p, err := Compile(context.Background(), l, pat, opts)
	if err != nil {
		t.Fatalf("compile %q: %v", pat, err)
	}
	var out []string
	eachMatch(parse(t, l, src).Root(), p, func(n tree.Node, env *match.Env) bool {
		out = append(out, describe(n, env))
		return true
	})
	return out
}

type matchCase struct {
	name string
	lang string
	pat  string
	opts Options
	src  string
	want []string // described matches in pre-order
}

// runCases checks each case; every expectation was confirmed with ast-grep
// 0.51.1 (`ast-grep run -p PAT -l LANG --json`).
func runCases(t *testing.T, cases []matchCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := findAll(t, c.lang, c.pat, c.opts, c.src)
			if !slices.Equal(got, c.want) {
				t.Errorf("pattern %q (%s) on %q:\n got  %q\n want %q", c.pat, c.opts.Strictness, c.src, got, c.want)
			}
		})
	}
}

func TestMetaVariables(t *testing.T) {
	runCases(t, []matchCase{
		{name: "named single", lang: "js", pat: "return $A", src: "function f() { return 123; }",
			want: []string{"return 123; A=123"}},
		{name: "named single needs a node", lang: "js", pat: "return $A", src: "function f() { return; }"},
		{name: "unnamed single takes a token", lang: "js", pat: "return $$A", src: "function f() { return; }",
			want: []string{"return; A=;"}},
		{name: "dropped binds nothing", lang: "js", pat: "return $_", src: "function f() { return 1; }",
			want: []string{"return 1;"}},
		{name: "ellipsis takes none", lang: "js", pat: "foo($$$)", src: "foo()", want: []string{"foo()"}},
		{name: "ellipsis takes all", lang: "js", pat: "foo($$$)", src: "foo(a, b, c)", want: []string{"foo(a, b, c)"}},
		{name: "named ellipsis keeps commas", lang: "js", pat: "foo($$$A, c)", src: "foo(a, b, c)",
			want: []string{"foo(a, b, c) A=[a|,|b]"}},
		{name: "named ellipsis may be empty", lang: "js", pat: "foo($$$A, a, b, c)", src: "foo(a, b, c)",
			want: []string{"foo(a, b, c) A=[]"}},
		{name: "ellipsis cannot make up nodes", lang: "js", pat: "foo($$$A, a, b, c)", src: "foo(b, c)"},
		{name: "trailing ellipsis", lang: "js", pat: "foo(a, $$$R)", src: "foo(a, b, c)",
			want: []string{"foo(a, b, c) R=[b|,|c]"}},
		{name: "trailing ellipsis needs its comma", lang: "js", pat: "foo(a, $$$R)", src: "foo(a)"},
		// Lazy and without backtracking: $$$A stops at the first node $B
		// matches, then `)` faces `, b, c` and the match fails.
		{name: "lazy ellipsis does not backtrack", lang: "js", pat: "foo($$$A, $B)", src: "foo(a, b, c); foo(x)",
			want: []string{"foo(x) A=[] B=x"}},
		{name: "two ellipses", lang: "js", pat: "foo($$$A, b, $$$C)", src: "foo(a, b, c, d)",
			want: []string{"foo(a, b, c, d) A=[a] C=[c|,|d]"}},
		{name: "non-capturing multi", lang: "js", pat: "foo($$$_X, c)", src: "foo(a, b, c)",
			want: []string{"foo(a, b, c)"}},
		{name: "ellipsis before ellipsis takes one", lang: "js", pat: "foo($$$A, $$$B)", src: "foo(a, b, c)",
			want: []string{"foo(a, b, c) A=[] B=[,|b|,|c]"}},
		{name: "statement ellipsis", lang: "js", pat: "function $F() { $$$BODY }", src: "function g() { a(); b(); }",
			want: []string{"function g() { a(); b(); } BODY=[a();|b();] F=g"}},
	})
}

func TestBackReferences(t *testing.T) {
	runCases(t, []matchCase{
		{name: "same text", lang: "js", pat: "$A($A)", src: "test(test); foo(bar)",
			want: []string{"test(test) A=test"}},
		{name: "different text", lang: "js", pat: "$A($A, $A)", src: "f(f, g)"},
		{name: "same structure, other spacing", lang: "js", pat: "$A == $A", src: "a.b(c) == a.b(c); x+1 == x + 1",
			want: []string{"a.b(c) == a.b(c) A=a.b(c)", "x+1 == x + 1 A=x + 1"}},
		{name: "underscore names never compare", lang: "js", pat: "$_X($_X)", src: "foo(bar)",
			want: []string{"foo(bar)"}},
		{name: "repeated multi compares named nodes", lang: "js",
			opts: Options{Context: "{ f($$$A); g($$$A) }", Selector: "statement_block"},
			src:  "{ f(1, 2); g(1,2) } { f(1); g(2) }",
			want: []string{"{ f(1, 2); g(1,2) } A=[1|,|2]"}},
		{name: "repeated metavariable in Go", lang: "go", pat: "$X = append($X, $$$V)",
			src:  "package p\nfunc f() { a = append(a, 1); b = append(c, 2) }",
			want: []string{"a = append(a, 1) V=[1] X=a"}},
	})
}

func TestStrictness(t *testing.T) {
	cst, ast, relaxed, sig, tmpl := Options{Strictness: Cst}, Options{Strictness: Ast}, Options{Strictness: Relaxed}, Options{Strictness: Signature}, Options{Strictness: Template}
	runCases(t, []matchCase{
		{name: "smart skips a comment", lang: "js", pat: "$A($B)", src: "foo(/* before */ bar /* after */)",
			want: []string{"foo(/* before */ bar /* after */) A=foo B=bar"}},
		{name: "ast keeps comments", lang: "js", pat: "$A(bar)", opts: ast, src: "foo(/* A*/bar)"},
		{name: "relaxed skips comments", lang: "js", pat: "$A(bar)", opts: relaxed, src: "foo(/* A*/bar)",
			want: []string{"foo(/* A*/bar) A=foo"}},
		{name: "cst keeps comments", lang: "js", pat: "$A(bar)", opts: cst, src: "foo(/* A*/bar)"},
		{name: "smart allows a trailing comma", lang: "js", pat: "foo($A, $B)", src: "foo(a, b,)",
			want: []string{"foo(a, b,) A=a B=b"}},
		{name: "a comma in the pattern is required", lang: "js", pat: "foo($A, $B,)", src: "foo(a, b)"},
		{name: "ast skips pattern tokens", lang: "js", pat: "print($A,)", opts: ast, src: "print(123)",
			want: []string{"print(123) A=123"}},
		{name: "cst compares tokens", lang: "js", pat: "print($A,)", opts: cst, src: "print(123)"},
		{name: "ast ellipses around a node", lang: "js", pat: "print($$$A,b,$$$C)", opts: ast, src: "print(a, b, c,)",
			want: []string{"print(a, b, c,) A=[a] C=[c|,]"}},
		{name: "ast compares quotes by kind", lang: "js", pat: "import $A from 'lib'", opts: ast, src: `import A from "lib"`,
			want: []string{`import A from "lib" A=A`}},
		{name: "cst compares the quotes", lang: "js", pat: "import $A from 'lib'", opts: cst, src: `import A from "lib"`},
		{name: "relaxed ignores an extra comma", lang: "js", pat: "import { foo } from 'bar'", opts: relaxed,
			src:  "import { foo, } from 'bar'; import { foo, baz } from 'bar'",
			want: []string{"import { foo, } from 'bar';"}},
		{name: "signature ignores leaf text", lang: "js", pat: "foo(1)", opts: sig, src: "bar(2); bar(x)",
			want: []string{"bar(2)"}},
		{name: "template ignores inner kinds", lang: "js", pat: "$A = $B", opts: tmpl, src: "let a = 1; b = 2",
			want: []string{"a = 1 A=a B=1", "b = 2 A=b B=2"}},
		{name: "smart matches an if with an else", lang: "js", pat: "if ($A) { $$$B }", src: "if (x) { y() } else { z() }",
			want: []string{"if (x) { y() } else { z() } A=x B=[y()]"}},
		{name: "cst does not", lang: "js", pat: "if ($A) { $$$B }", opts: cst, src: "if (x) { y() } else { z() }"},
		{name: "smart return without semicolon", lang: "ts", pat: "return $A", src: "function f() { return 1; }",
			want: []string{"return 1; A=1"}},
		{name: "cst return needs the semicolon", lang: "ts", pat: "return $A", opts: cst, src: "function f() { return 1; }"},
	})
}

func TestRootMetaVariableAndComments(t *testing.T) {
	src := "class C { /** doc */ m() { return 1; } }"
	comment := func(got []string) bool { return slices.Contains(got, "/** doc */ A=/** doc */") }
	if got := findAll(t, "ts", "$A", Options{}, src); !comment(got) {
		t.Errorf("smart $A does not match the comment: %q", got)
	}
	if got := findAll(t, "ts", "$A", Options{Strictness: Relaxed}, src); comment(got) {
		t.Errorf("relaxed $A matches the comment: %q", got)
	}
	if got := findAll(t, "ts", "$A", Options{Strictness: Cst}, src); !comment(got) {
		t.Errorf("cst $A does not match the comment: %q", got)
	}
}

func TestContextAndSelector(t *testing.T) {
	goSrc := "package p\nfunc f() error {\n\treturn fmt.Errorf(\"x %d\", 1)\n}\n"
	runCases(t, []matchCase{
		// At the top level a Go call parses as a type conversion.
		{name: "go call at the top level", lang: "go", pat: "fmt.Errorf($$$A)", src: goSrc},
		{name: "go call in a context", lang: "go", pat: "", opts: Options{Context: "func _() { fmt.Errorf($$$A) }", Selector: "call_expression"},
			src: goSrc, want: []string{`fmt.Errorf("x %d", 1) A=["x %d"|,|1]`}},
		{name: "selector from the pattern source", lang: "go", pat: "func _() { fmt.Errorf($$$A) }", opts: Options{Selector: "call_expression"},
			src: goSrc, want: []string{`fmt.Errorf("x %d", 1) A=["x %d"|,|1]`}},
		// C reads a bare call as a macro type; the statement form works.
		{name: "c call as macro type", lang: "c", pat: "f($X)", src: "void g() { f(1); }"},
		{name: "c call statement", lang: "c", pat: "f($X);", src: "void g() { f(1); }", want: []string{"f(1); X=1"}},
		// A call pattern matches the call, not its statement.
		{name: "js call is the call", lang: "js", pat: "f($X)", src: "f(1);", want: []string{"f(1) X=1"}},
		{name: "ERROR selector", lang: "js", pat: "f(a b)", opts: Options{Selector: "ERROR"}, src: "g(x y); f(a b)",
			want: []string{"b"}},
		{name: "a prefix of ERROR selects ERROR too", lang: "js", pat: "f(a b)", opts: Options{Selector: "ERR"}, src: "g(x y); f(a b)",
			want: []string{"b"}},
		{name: "selected metavariable keeps its kind", lang: "ts", pat: "", opts: Options{Context: "let x: $T", Selector: "type_annotation"},
			src: "let a: number; let b = 1; function f(c: string) {}", want: []string{": number T=number", ": string T=string"}},
	})
}

func TestFindAllOrderAndNesting(t *testing.T) {
	got := findAll(t, "js", "$A + $B", Options{}, "x = a + b + c")
	want := []string{"a + b + c A=a + b B=c", "a + b A=a B=b"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// Stopping early.
	l := mustLang(t, "js")
	p, err := Compile(context.Background(), l, "$A", Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	eachMatch(parse(t, l, "a; b; c").Root(), p, func(tree.Node, *match.Env) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("FindAll went on after yield returned false: %d calls", n)
	}
}

func TestCompileErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		lang, src string
		opts      Options
		want      error
		mention   string
	}{
		{"js", "", Options{}, ErrNoContent, "nothing to match"},
		{"js", "   ", Options{}, ErrNoContent, "nothing to match"},
		{"js", "a; b", Options{}, ErrMultipleNodes, "selector"},
		{"python", "a = 1\nb = 2", Options{}, ErrMultipleNodes, "several nodes"},
		{"js", "$$$A", Options{}, ErrRootMultiMetaVar, "$VAR"},
		{"go", "$$$", Options{}, ErrRootMultiMetaVar, "larger pattern"},
		{"go", "", Options{Context: "func _() { f() }", Selector: "no_such_kind"}, ErrSelector, "not a named node kind"},
		{"go", "", Options{Context: "func _() { f() }", Selector: "int_literal"}, ErrSelector, "matches no node"},
		{"c", "f($X)", Options{Selector: "call_expression"}, ErrSelector, "matches no node"},
	}
	for _, tt := range tests {
		_, err := Compile(ctx, mustLang(t, tt.lang), tt.src, tt.opts)
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.mention) {
			t.Errorf("Compile(%s, %q, %+v) error = %v, want %v mentioning %q", tt.lang, tt.src, tt.opts, err, tt.want, tt.mention)
		}
	}
	if _, err := Compile(ctx, mustLang(t, "js"), "f()", Options{Context: "g()"}); err == nil {
		t.Error("a pattern and a different context compiled")
	}
	if _, err := Compile(ctx, nil, "f()", Options{}); err == nil {
		t.Error("a nil language compiled")
	}
	if _, err := Compile(ctx, mustLang(t, "js"), "f()", Options{Strictness: Strictness(42)}); err == nil {
		t.Error("an invalid strictness compiled")
	}
}

func TestPatternRootAndProperties(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		lang, src string
		opts      Options
		rootKind  string
		anyKind   bool
		literals  []string
		fixed     string
		hasErrors bool
		metaVars  []string
	}{
		{lang: "js", src: "foo($A, bar)", rootKind: "call_expression", literals: []string{"foo", "bar"}, fixed: "foo", metaVars: []string{"A"}},
		{lang: "js", src: "foo($A);", rootKind: "expression_statement", literals: []string{"foo"}, fixed: "foo", metaVars: []string{"A"}},
		{lang: "go", src: "$A", rootKind: "identifier", anyKind: true, metaVars: []string{"A"}},
		// A lone keyword statement is single all the way down to the token.
		{lang: "python", src: "return", rootKind: "return", fixed: "return"},
		{lang: "js", src: "x", opts: Options{Strictness: Template}, rootKind: "identifier", anyKind: true, literals: []string{"x"}, fixed: "x"},
		{lang: "js", src: "$F(foo)", opts: Options{Strictness: Signature}, rootKind: "call_expression", fixed: "foo", metaVars: []string{"F"}},
		{lang: "go", src: "fmt.Errorf($$$A)", rootKind: "type_conversion_expression", literals: []string{"Errorf", "fmt"}, fixed: "Errorf", metaVars: []string{"A"}},
		{lang: "go", src: "$$$A, $B", rootKind: "expression_list", fixed: ",", metaVars: []string{"A", "B"}},
		{lang: "js", src: "f(a b)", rootKind: "call_expression", literals: []string{"f", "a", "b"}, fixed: "f", hasErrors: true},
		{lang: "ts", src: "$T", opts: Options{Context: "let x: $T", Selector: "type_annotation"}, rootKind: "type_annotation", fixed: ":", metaVars: []string{"T"}},
	}
	for _, tt := range tests {
		p, err := Compile(ctx, mustLang(t, tt.lang), tt.src, tt.opts)
		if tt.opts.Context != "" {
			p, err = Compile(ctx, mustLang(t, tt.lang), "", tt.opts)
		}
		if err != nil {
			t.Fatalf("Compile(%q): %v", tt.src, err)
		}
		if k := p.Root().Kind(); k != tt.rootKind {
			t.Errorf("%q: root kind %q, want %q", tt.src, k, tt.rootKind)
		}
		if (p.Kinds() == nil) != tt.anyKind {
			t.Errorf("%q: Kinds() = %v, want any kind: %v", tt.src, p.Kinds(), tt.anyKind)
		}
		if p.Kinds() != nil && !p.Kinds().Has(p.Root().KindID()) {
			t.Errorf("%q: Kinds() lacks the root's kind", tt.src)
		}
		if !slices.Equal(p.Literals(), tt.literals) {
			t.Errorf("%q: Literals() = %q, want %q", tt.src, p.Literals(), tt.literals)
		}
		if p.FixedString() != tt.fixed {
			t.Errorf("%q: FixedString() = %q, want %q", tt.src, p.FixedString(), tt.fixed)
		}
		if p.HasErrors() != tt.hasErrors {
			t.Errorf("%q: HasErrors() = %v", tt.src, p.HasErrors())
		}
		if !slices.Equal(p.MetaVars(), tt.metaVars) {
			t.Errorf("%q: MetaVars() = %q, want %q", tt.src, p.MetaVars(), tt.metaVars)
		}
		if p.Tree() == nil || p.Strictness() != tt.opts.Strictness || p.Language() == nil {
			t.Errorf("%q: accessors disagree with the options", tt.src)
		}
	}
}

func TestMatchLeavesEnvOnFailure(t *testing.T) {
	l := mustLang(t, "js")
	p, err := Compile(context.Background(), l, "f($A, $A)", Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := parse(t, l, "f(x, y); f(z, z)")
	var calls []tree.Node
	tr.Root().Descendants(func(n tree.Node) bool {
		if n.Kind() == "call_expression" {
			calls = append(calls, n)
		}
		return true
	})
	env := &match.Env{}
	env.BindSingle("KEEP", tr.Root())
	// f(x, y) binds A=x, then fails on y: the binding must be undone.
	if p.Match(calls[0], env) {
		t.Fatal("f(x, y) matched f($A, $A)")
	}
	if _, ok := env.Single("A"); ok {
		t.Error("a failed match left $A bound")
	}
	if _, ok := env.Single("KEEP"); !ok {
		t.Error("a failed match dropped an earlier binding")
	}
	// A binding made before the call is a back-reference.
	env.BindSingle("A", calls[1].Child(1).Child(1)) // z
	if !p.Match(calls[1], env) {
		t.Error("f(z, z) does not match with A=z bound")
	}
	env.Reset()
	env.BindSingle("A", calls[0].Child(1).Child(1)) // x
	if p.Match(calls[1], env) {
		t.Error("f(z, z) matches with A=x bound")
	}
	if p.Match(tree.Node{}, env) {
		t.Error("the zero node matched")
	}
	if !p.Match(calls[1], nil) {
		t.Error("Match with a nil env fails")
	}
}

// A run of ellipses against a long list stays linear: no backtracking.
// The matcher's work is counted in pattern-node comparisons, not timed.
func TestEllipsisNoBlowUp(t *testing.T) {
	args := make([]string, 3000)
	for i := range args {
		args[i] = fmt.Sprintf("a%d", i)
	}
	l := mustLang(t, "js")
	root := parse(t, l, "f("+strings.Join(args, ", ")+")").Root()
	nodes := 0
	root.Descendants(func(tree.Node) bool { nodes++; return true })
	tests := []struct {
		pat  string
		want int
	}{
		{"f($$$A, $$$B, $$$C, a2999, $D)", 0},
		{"f($$$A, a2999)", 1},
		{"f($$$A, a1500, $$$B, a2999)", 1},
		{"f($$$A, $$$B, $$$C, $$$D, $$$E, zzz)", 0},
	}
	for _, tt := range tests {
		p, err := Compile(context.Background(), l, tt.pat, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		eachMatch(root, p, func(tree.Node, *match.Env) bool { n++; return true })
		if n != tt.want {
			t.Errorf("%s: %d matches, want %d", tt.pat, n, tt.want)
		}
		// What FindAll did, counted: every node tried, each with the
		// comparisons its match made. Linear means a few per node of the
		// tree (about 6,000 arguments and commas); backtracking over the
		// list would take millions.
		steps := 0
		root.Descendants(func(c tree.Node) bool {
			if kinds := p.Kinds(); kinds == nil || kinds.Has(c.KindID()) {
				_, s := p.match(c, &match.Env{})
				steps += s
			}
			return true
		})
		t.Logf("%s: %d comparisons for %d nodes", tt.pat, steps, nodes)
		if steps > 4*nodes {
			t.Errorf("%s: %d comparisons for a tree of %d nodes, want at most %d", tt.pat, steps, nodes, 4*nodes)
		}
	}
}

// eachMatch calls yield for every node of root's subtree that m matches,
// in pre-order, until yield returns false; env holds the match's
// bindings only while yield runs. (The product's loop is
// search.FindAll, which core/pattern cannot import.)
func eachMatch(root tree.Node, m match.Matcher, yield func(n tree.Node, env *match.Env) bool) {
	kinds := m.Kinds()
	env := &match.Env{}
	root.Descendants(func(n tree.Node) bool {
		if !kinds.Has(n.KindID()) || !m.Match(n, env) {
			return true
		}
		more := yield(n, env)
		env.Reset()
		return more
	})
}
