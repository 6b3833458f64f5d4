package rule

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func scanTexts(t *testing.T, rules, src string) string {
	t.Helper()
	cfgs, err := ParseConfigs(context.Background(), []byte(rules), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := parseSrc(t, cfgs[0].Language, src)
	fs, err := NewScanner(cfgs).Scan(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	SortFindings(fs)
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d:%s", f.Config.ID, f.Node.StartPoint().Row, f.Node.Text()))
	}
	return strings.Join(out, " ")
}

const twoRules = `
id: num
language: typescript
rule: {kind: number}
---
id: str
language: typescript
rule: {kind: string}
---
id: quiet
language: typescript
severity: off
rule: {kind: number}
`

func TestSuppression(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"none", "f(1, 'a')", "num:0:1 str:0:'a'"},
		{"next line, all rules", "// ast-grep-ignore\nf(1, 'a')\ng(2)", "num:2:2"},
		{"next line, listed rules", "// ast-grep-ignore: num\nf(1, 'a')", "str:1:'a'"},
		{"several ids and trailing text", "/* ast-grep-ignore: str, num  because */\nf(1, 'a')\ng(2)", "num:2:2"},
		{"trailing comment", "f(1, 'a') // ast-grep-ignore: str\ng('b')", "num:0:1 str:1:'b'"},
		{"trailing comment of a multi-line statement", "f(1,\n  'a') // ast-grep-ignore\ng(2)", "str:1:'a' num:2:2"},
		{"whole file", "// ast-grep-ignore\n\nf(1, 'a')\ng(2)", ""},
		{"whole file, listed rules", "// ast-grep-ignore: str\n\nf(1, 'a')", "num:2:1"},
		{"no colon means all", "// ast-grep-ignore num\nf(1, 'a')\ng(2)", "num:2:2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := scanTexts(t, twoRules, c.src); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestScanCancelled(t *testing.T) {
	cfgs, err := ParseConfigs(context.Background(), []byte("id: n\nlanguage: ts\nrule: {kind: number}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Repeat("f(1);\n", 5000)
	tr := parseSrc(t, cfgs[0].Language, src)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewScanner(cfgs).Scan(ctx, tr); err == nil {
		t.Fatal("a cancelled scan must fail")
	}
}
