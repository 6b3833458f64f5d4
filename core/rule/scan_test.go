package rule

import (
	"context"
	"encoding/json"
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

func TestFindingJSON(t *testing.T) {
	cfg := config(t, `
id: no-log
language: typescript
severity: warning
message: "avoid $F"
note: use a logger
metadata: {team: core}
rule:
  pattern: console.$F($$$A)
  inside: {kind: function_declaration, stopBy: end}
fix: logger.$F($$$A)
`)
	tr := parseSrc(t, cfg.Language, "function f() {\n  console.log('é', 2);\n}\n")
	fs, err := NewScanner([]*Config{cfg}).Scan(context.Background(), tr)
	if err != nil || len(fs) != 1 {
		t.Fatalf("%d findings, %v", len(fs), err)
	}
	got, err := json.Marshal(fs[0].JSON("a.ts", true, true))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"text":"console.log('é', 2)","range":{"byteOffset":{"start":17,"end":37},"start":{"line":1,"column":2},"end":{"line":1,"column":21}},` +
		`"file":"a.ts","lines":"  console.log('é', 2);","charCount":{"leading":2,"trailing":1},` +
		`"replacement":"logger.log('é', 2)","replacementOffsets":{"start":17,"end":37},"language":"TypeScript",` +
		`"metaVariables":{"single":{"F":{"text":"log","range":{"byteOffset":{"start":25,"end":28},"start":{"line":1,"column":10},"end":{"line":1,"column":13}}}},` +
		`"multi":{"A":[{"text":"'é'","range":{"byteOffset":{"start":29,"end":33},"start":{"line":1,"column":14},"end":{"line":1,"column":17}}},` +
		`{"text":",","range":{"byteOffset":{"start":33,"end":34},"start":{"line":1,"column":17},"end":{"line":1,"column":18}}},` +
		`{"text":"2","range":{"byteOffset":{"start":35,"end":36},"start":{"line":1,"column":19},"end":{"line":1,"column":20}}}],` +
		`"secondary":[{"text":"function f() {\n  console.log('é', 2);\n}","range":{"byteOffset":{"start":0,"end":40},"start":{"line":0,"column":0},"end":{"line":2,"column":1}}}]},` +
		`"transformed":{}},"ruleId":"no-log","severity":"warning","note":"use a logger","message":"avoid log",` +
		`"labels":[{"text":"console.log('é', 2)","range":{"byteOffset":{"start":17,"end":37},"start":{"line":1,"column":2},"end":{"line":1,"column":21}},"style":"primary"},` +
		`{"text":"function f() {\n  console.log('é', 2);\n}","range":{"byteOffset":{"start":0,"end":40},"start":{"line":0,"column":0},"end":{"line":2,"column":1}},"style":"secondary"}],` +
		`"metadata":{"team":"core"}}`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
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
