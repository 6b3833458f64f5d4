package wire_test

import (
	"context"
	"log"
	"os"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/wire"
)

// Encode the matches of a pattern as `ast-grep run --json=stream` prints
// them, one JSON object a line, with the metavariables' bindings.
func ExampleNewMatch() {
	ctx := context.Background()
	lang, err := language.Lookup("python")
	if err != nil {
		log.Fatal(err)
	}
	p, err := pattern.Compile(ctx, lang, "print($MSG)", pattern.Options{})
	if err != nil {
		log.Fatal(err)
	}
	t, err := lang.Parse(ctx, []byte("def greet(name):\n    print(name)\n"))
	if err != nil {
		log.Fatal(err)
	}
	ms, err := search.FindAll(ctx, t, p)
	if err != nil {
		log.Fatal(err)
	}
	w := wire.NewWriter(os.Stdout, wire.Stream)
	for _, m := range ms {
		jm := wire.NewMatch("greet.py", m.Node, m.Env, lang.Display(), 0, 0, nil)
		w.Write(jm.Encode(w.Style()))
	}
	w.Close()
	// Output:
	// {"text":"print(name)","range":{"byteOffset":{"start":21,"end":32},"start":{"line":1,"column":4},"end":{"line":1,"column":15}},"file":"greet.py","lines":"    print(name)","charCount":{"leading":4,"trailing":0},"language":"Python","metaVariables":{"single":{"MSG":{"text":"name","range":{"byteOffset":{"start":27,"end":31},"start":{"line":1,"column":10},"end":{"line":1,"column":14}}}},"multi":{},"transformed":{}}}
}

// Encode the findings of a rule as `ast-grep scan --json=compact` prints
// them: a one-line array, each finding with its rule, severity, message and
// the replacement its fix would make.
func ExampleNewFinding() {
	ctx := context.Background()
	configs, err := rule.ParseConfigs(ctx, []byte(`
id: strict-equality
language: javascript
severity: warning
message: compare $A strictly
rule: {pattern: $A == $B}
fix: $A === $B
`), rule.Options{})
	if err != nil {
		log.Fatal(err)
	}
	t, err := configs[0].Language.Parse(ctx, []byte("if (n == 0) stop();\n"))
	if err != nil {
		log.Fatal(err)
	}
	findings, err := rule.NewScanner(configs).Scan(ctx, t)
	if err != nil {
		log.Fatal(err)
	}
	w := wire.NewWriter(os.Stdout, wire.Compact)
	for _, f := range findings {
		jf := wire.NewFinding("loop.js", f, true, false)
		w.Write(jf.Encode(w.Style()))
	}
	w.Close()
	// Output:
	// [{"text":"n == 0","range":{"byteOffset":{"start":4,"end":10},"start":{"line":0,"column":4},"end":{"line":0,"column":10}},"file":"loop.js","lines":"if (n == 0) stop();","charCount":{"leading":4,"trailing":9},"replacement":"n === 0","replacementOffsets":{"start":4,"end":10},"language":"JavaScript","metaVariables":{"single":{"A":{"text":"n","range":{"byteOffset":{"start":4,"end":5},"start":{"line":0,"column":4},"end":{"line":0,"column":5}}},"B":{"text":"0","range":{"byteOffset":{"start":9,"end":10},"start":{"line":0,"column":9},"end":{"line":0,"column":10}}}},"multi":{},"transformed":{}},"ruleId":"strict-equality","severity":"warning","note":null,"message":"compare n strictly","labels":[{"text":"n == 0","range":{"byteOffset":{"start":4,"end":10},"start":{"line":0,"column":4},"end":{"line":0,"column":10}},"style":"primary"}]}]
}
