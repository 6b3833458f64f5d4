package wire_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/wire"
)

func TestFinding(t *testing.T) {
	ctx := context.Background()
	cfgs, err := rule.ParseConfigs(ctx, []byte(`
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
`), rule.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := cfgs[0]
	tr, err := cfg.Language.Parse(ctx, []byte("function f() {\n  console.log('é', 2);\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := rule.NewScanner([]*rule.Config{cfg}).Scan(ctx, tr)
	if err != nil || len(fs) != 1 {
		t.Fatalf("%d findings, %v", len(fs), err)
	}
	f := wire.NewFinding("a.ts", fs[0], true, true)
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
	if got := f.Encode(wire.Compact); got != want {
		t.Errorf("Encode:\n%s\nwant\n%s", got, want)
	}
	// The types decode ast-grep's output and encode back the same.
	var back wire.Finding
	if err := json.Unmarshal([]byte(want), &back); err != nil {
		t.Fatal(err)
	}
	if got := back.Encode(wire.Compact); got != want {
		t.Errorf("decoded and encoded again:\n%s\nwant\n%s", got, want)
	}
	// The bindings alone, through encoding/json, are the same object.
	mv, err := json.Marshal(f.MetaVariables)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(want, `"metaVariables":`+string(mv)+`,"ruleId"`) {
		t.Errorf("json.Marshal of the bindings: %s", mv)
	}
}
