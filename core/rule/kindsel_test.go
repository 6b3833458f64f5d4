package rule

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/match"
)

func TestParseKind(t *testing.T) {
	const src = "function foo(a: number) { return bar(a, 1) + 2; }\nconst x = [1, 2, 3];\nfoo(bar(3));\nlet y = \"s\" + 4;\n"
	lang := mustLang(t, "typescript")
	tr := parseSrc(t, lang, src)
	cases := []struct {
		selector string
		want     string // the matched texts, joined by "|"
	}{
		{"call_expression", "bar(a, 1)|foo(bar(3))|bar(3)"},
		{"call_expression number", "1|3"},
		{"arguments > number", "1|3"},
		{"array > number + number", ""},
		{"number ~ number", "2|3"},
		{"number, string", "1|2|1|2|3|3|\"s\"|4"},
		{"call_expression:has(call_expression)", "foo(bar(3))"},
		{"call_expression:has(> arguments > call_expression)", ""},
		{"number:not(arguments > number)", "2|1|2|3|4"},
		{":is(string, binary_expression)", "bar(a, 1) + 2|\"s\" + 4|\"s\""},
		{"number:nth-child(2)", "1|2|2|4"},
		{"array > number:nth-last-child(1)", "3"},
		{"ERR", ""},
		{"", ""},
		{"  number  >  number ", ""},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			core, err := ParseKind(context.Background(), lang, c.selector)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range findAll(tr, core) {
				got = append(got, h.node.Text())
			}
			if s := strings.Join(got, "|"); s != c.want {
				t.Errorf("ParseKind(%q) matched %q, want %q", c.selector, s, c.want)
			}
		})
	}
}

func TestParseKindErrors(t *testing.T) {
	lang := mustLang(t, "typescript")
	cases := []struct{ selector, want string }{
		{"nosuch", `unknown kind "nosuch" for TypeScript`},
		{"number >", "expected a kind name or pseudo-class, found end of selector"},
		{",", `expected a kind name or pseudo-class, found ","`},
		{".foo", "class selectors (.name) are not supported"},
		{"number:foo(x)", "unknown pseudo-class :foo"},
		{"number:has", "expected '(' after :has"},
		{"number:has(number", "expected ')' to close :has"},
		{"number )", `unexpected ")"`},
		{"number$", `illegal character '$'`},
		{":nth-child(x)", "invalid An+B"},
		{"\"+\"", `illegal character '"'`},
		{"number ú", `illegal character 'ú'`}, // the character, not its first byte (ast-grep prints 'Ã')
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			_, err := ParseKind(context.Background(), lang, c.selector)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ParseKind(%q) = %v, want an error with %q", c.selector, err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the error is not one line: %q", err)
			}
		})
	}
}

// TestParseKindBudget: descendant combinators are nested inside rules with
// stopBy: end, which grow exponentially with the tree when the outermost
// kind is never found; the match budget stops them (ast-grep runs on).
func TestParseKindBudget(t *testing.T) {
	lang := mustLang(t, "typescript")
	src := "x = " + strings.Repeat("(", 300) + "1" + strings.Repeat(" + 1)", 300) + ";\n"
	tr := parseSrc(t, lang, src)
	sel := "class_body" + strings.Repeat(" parenthesized_expression", 6)
	core, err := ParseKind(context.Background(), lang, sel)
	if err != nil {
		t.Fatal(err)
	}
	ctx := match.WithLimits(context.Background(), match.Limits{Steps: 100_000})
	budget := match.NewBudget(ctx)
	env := match.NewEnv(budget)
	for i := 0; i < tr.Len(); i++ {
		n := tr.Node(i)
		if !core.Kinds().Has(n.KindID()) {
			continue
		}
		budget.Begin()
		if core.Match(n, env) {
			t.Fatalf("%q matched %s", sel, n.Text())
		}
		if err := budget.Err(); err != nil {
			if !errors.Is(err, match.ErrBudget) {
				t.Fatalf("error %v, want one wrapping match.ErrBudget", err)
			}
			return
		}
	}
	t.Fatalf("%q over 300 nested parentheses stayed within 100,000 steps a node", sel)
}
