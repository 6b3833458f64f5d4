package rule

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/match"
)

func TestConvertCase(t *testing.T) {
	cases := []struct {
		in, to string
		seps   []string
		want   string
	}{
		{"fooBar", "snakeCase", nil, "foo_bar"},
		{"foo_bar-baz.qux/quux zap", "camelCase", nil, "fooBarBazQuxQuuxZap"},
		{"XMLHttpRequest", "snakeCase", nil, "xml_http_request"},
		{"XMLHttpRequest", "kebabCase", nil, "xml-http-request"},
		{"user_accountName", "pascalCase", nil, "UserAccountName"},
		{"user_accountName", "pascalCase", []string{"underscore"}, "UserAccountName"},
		{"user_accountName", "snakeCase", []string{"underscore"}, "user_accountname"},
		{"user_accountName", "snakeCase", []string{"caseChange"}, "user_account_name"},
		{"A1b", "snakeCase", nil, "a_1b"},
		{"hello", "capitalize", nil, "Hello"},
		{"éclair", "capitalize", nil, "Éclair"},
		{"MiXeD", "lowerCase", nil, "mixed"},
		{"MiXeD", "upperCase", nil, "MIXED"},
		{"__a__b__", "camelCase", nil, "aB"},
		{"", "pascalCase", nil, ""},
		{"camelCaseWord", "camelCase", nil, "camelCaseWord"},
	}
	for _, c := range cases {
		if got := convertCase(c.in, c.to, c.seps); got != c.want {
			t.Errorf("convert(%q, %s, %v) = %q, want %q", c.in, c.to, c.seps, got, c.want)
		}
	}
}

func TestSubstring(t *testing.T) {
	p := func(i int) *int { return &i }
	cases := []struct {
		in         string
		start, end *int
		want       string
	}{
		{"hello", nil, nil, "hello"},
		{"hello", p(1), nil, "ello"},
		{"hello", nil, p(-1), "hell"},
		{"hello", p(-3), p(-1), "ll"},
		{"hello", p(3), p(2), ""},
		{"hello", p(10), nil, ""},
		{"hello", p(-10), p(2), "he"},
		{"héllo", p(1), p(2), "é"},
		{"", nil, nil, ""},
	}
	for _, c := range cases {
		if got := substring(c.in, c.start, c.end); got != c.want {
			t.Errorf("substring(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTransforms(t *testing.T) {
	cases := []struct {
		name, cfg, src string
		want           []string
	}{
		{"object and string forms", `
id: t
language: typescript
rule: {pattern: let $N = $V}
transform:
  A: {substring: {source: $N, startChar: 1, endChar: -1}}
  B: substring($N, startChar=1, endChar=-1)
  C: {replace: {source: $N, replace: '[aeiou]', by: '_'}}
  D: "replace($N, replace='[aeiou]', by='_')"
  E: {convert: {source: $N, toCase: upperCase}}
  F: convert($N, toCase=upperCase)
  G: convert($N, toCase=snakeCase, separatedBy=[caseChange])
`, "let fooBar = 1", []string{"let fooBar = 1 {$N=fooBar $V=1 A->ooBa B->ooBa C->f__B_r D->f__B_r E->FOOBAR F->FOOBAR G->foo_bar}"}},
		{"chained and multi sources", `
id: t
language: typescript
rule: {pattern: f($$$ARGS)}
transform:
  ALL: {replace: {source: $$$ARGS, replace: ' ', by: ''}}
  UP: convert($ALL, toCase=upperCase)
`, "f(a, b)", []string{"f(a, b) {$$$ARGS=[a,,,b] ALL->a,b UP->A,B}"}},
		{"regex groups in replace", `
id: t
language: typescript
rule: {pattern: $S, kind: string}
transform:
  T: {replace: {source: $S, replace: '"(\w+)-(\w+)"', by: '"$2-${1}"'}}
`, `x("ab-cd")`, []string{`"ab-cd" {$S="ab-cd" T->"cd-ab"}`}},
		{"multi-line source is de-indented", `
id: t
language: typescript
rule: {pattern: 'if ($C) $B', kind: if_statement}
transform:
  T: {replace: {source: $B, replace: x, by: y}}
`, "function f() {\n    if (a) {\n      x();\n    }\n}", []string{"if (a) {\n      x();\n    } {$B={\n      x();\n    } $C=a T->{\n  y();\n}}"}},
		{"rewrite with and without joinBy", `
id: t
language: typescript
rule: {pattern: 'f($$$A)'}
rewriters:
  - id: num
    rule: {kind: number, pattern: $N}
    transform:
      D: {replace: {source: $N, replace: '(\d)', by: '$1$1'}}
    fix: $D
transform:
  R: {rewrite: {source: $$$A, rewriters: [num]}}
  J: {rewrite: {source: $$$A, rewriters: [num], joinBy: '+'}}
`, "f(1, x, 2)", []string{"f(1, x, 2) {$$$A=[1,,,x,,,2] J->11+22 R->11, x, 22}"}},
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

func TestTranslateRegex(t *testing.T) {
	ok := []struct{ in, match, nomatch string }{
		{`^\w+$`, "café", "a-b"},
		{`^\d+$`, "١٢٣", "1a"},
		{`^\s$`, "\u00a0", "x"},
		{`^[\w-]+$`, "é-x", "a b"},
		{`^\u{e9}\u00e8$`, "éè", "ee"},
		{`^[[:alpha:]]+$`, "abc", "a1"},
		{`^[]a]+$`, "]a", "b"},
		{`^[^\d]$`, "x", "٣"},
	}
	for _, c := range ok {
		re, err := compileRegex(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if !re.MatchString(c.match) || re.MatchString(c.nomatch) {
			t.Errorf("%s: match(%q)=%v match(%q)=%v", c.in, c.match, re.MatchString(c.match), c.nomatch, re.MatchString(c.nomatch))
		}
	}
	for _, bad := range []string{`[a-z&&[^x]]`, `[a[b]]`, `[a--b]`, `a\`, `\u{zz}`, `(`, `\<a`, `a\>`, `\b{start}a`} {
		if _, err := compileRegex(bad); err == nil {
			t.Errorf("%s: expected an error", bad)
		}
	}
}

// replaceAll gives what regexp's ReplaceAllString gives, holding one
// match at a time where the regex does not look behind, and all of them
// where it does; both ways are checked on every case.
func TestReplaceAllAsRegexp(t *testing.T) {
	cases := []struct{ re, text, by string }{
		{``, "abc", "-"},
		{``, "", "-"},
		{`x*`, "axxbx", "[$0]"},
		{`a|`, "baaab", "<$0>"},
		{`(a)(b)?`, "abacab", "$2$1"},
		{`\d+`, "a12b345c", "#"},
		{`é*`, "éaé\xffé", "_"},
		{`(?s).`, "a\nb", "$0$0"},
		{`^a`, "aaa", "b"},
		{`(?m)^`, "a\nb\n", "> "},
		{`\bx`, "x xx ax", "y"},
		{`\Bx`, "x xx ax", "y"},
		{`x$`, "axx", "y"},
		{`(?P<w>\w+)`, "hello world", "${w}!"},
	}
	for _, c := range cases {
		re := regexp.MustCompile(c.re)
		want := re.ReplaceAllString(c.text, c.by)
		for _, lookBehind := range []bool{looksBehind(re), true} {
			got, ok := replaceAll(re, lookBehind, c.text, c.by, match.NewBudget(context.Background()))
			if !ok || got != want {
				t.Errorf("%q on %q by %q (look behind %v): %q, %v; want %q", c.re, c.text, c.by, lookBehind, got, ok, want)
			}
		}
	}
}

// A regex that looks behind holds all its matches, so it may find at
// most so many; one that does not holds one at a time and has no such
// bound. Counted in matches, not bytes or time.
func TestReplaceAllBoundsHeldMatches(t *testing.T) {
	text := strings.Repeat("\n", maxHeldInts)
	cases := []struct {
		re   string
		over bool
	}{
		{`(?m)^`, true},
		{`\n`, false},
		{``, false},
	}
	for _, c := range cases {
		re := regexp.MustCompile(c.re)
		b := match.NewBudget(context.Background())
		out, ok := replaceAll(re, looksBehind(re), text, "", b)
		if c.over {
			if ok || !errors.Is(b.Err(), match.ErrBudget) || !strings.Contains(b.Err().Error(), "matches") {
				t.Errorf("%q: %d bytes, %v; want the budget's error about matches", c.re, len(out), b.Err())
			}
			continue
		}
		if want := re.ReplaceAllString(text, ""); !ok || out != want {
			t.Errorf("%q: %d bytes, ok %v, err %v; want %d bytes", c.re, len(out), ok, b.Err(), len(want))
		}
	}
}
