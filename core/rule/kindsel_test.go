package rule

import (
	"context"
	"strings"
	"testing"
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
