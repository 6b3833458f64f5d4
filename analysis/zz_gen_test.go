package analysis

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

type fx struct {
	dir, lang, create, ping, main, register, ty, root, service, regfile string
}

var fxs = []fx{
	{"typescript", "typescript", "createRegistry", "ping", "main", "register", "ToolRegistry", "BaseRegistry", "src/service.ts", "src/registry.ts"},
	{"javascript", "javascript", "createRegistry", "ping", "main", "register", "ToolRegistry", "BaseRegistry", "src/main.cjs", "src/registry.js"},
	{"python", "python", "create_registry", "ping", "main", "register", "ToolRegistry", "Registry", "app/service.py", "app/registry.py"},
	{"go", "go", "CreateRegistry", "ping", "main", "Register", "ToolRegistry", "Registry", "service/service.go", "registry"},
	{"rust", "rust", "create_registry", "ping", "main", "register", "ToolRegistry", "Registry", "src/service.rs", "src/registry.rs"},
	{"java", "java", "createRegistry", "ping", "main", "register", "ToolRegistry", "Named", "src/com/example/service/Service.java", "src/com/example/util/Log.java"},
	{"csharp", "csharp", "CreateRegistry", "Ping", "Main", "Register", "ToolRegistry", "INamed", "Service/Service.cs", "Registry/Registry.cs"},
	{"kotlin", "kotlin", "createRegistry", "ping", "main", "register", "ToolRegistry", "Named", "src/main/kotlin/com/example/service/Service.kt", "src/main/kotlin/com/example/util"},
	{"ruby", "ruby", "create_registry", "ping", "main", "register", "ToolRegistry", "BaseRegistry", "lib/app/service.rb", "lib/app/registry.rb"},
	{"php", "php", "createRegistry", "ping", "main", "register", "ToolRegistry", "Named", "src/Service/Service.php", "src/Util"},
	{"c", "c", "create_registry", "ping", "main", "create_registry", "ToolRegistry", "", "src/service.c", "include/registry.h"},
	{"cpp", "cpp", "create_registry", "ping", "main", "add", "ToolRegistry", "Named", "src/service.cpp", "src/registry.h"},
}

func TestZZGen(t *testing.T) {
	if os.Getenv("GEN") == "" {
		t.Skip()
	}
	var b strings.Builder
	for _, f := range fxs {
		cases := []struct {
			name string
			p    Params
		}{
			{"callers depth 2", Params{Mode: "callers", Symbol: f.create, Depth: 2}},
			{"callers cycle", Params{Mode: "callers", Symbol: f.ping, Depth: 3}},
			{"callers maxNodes", Params{Mode: "callers", Symbol: f.ping, Depth: 3, MaxNodes: 1}},
			{"callees depth 1", Params{Mode: "callees", Symbol: f.main}},
			{"callees depth 2", Params{Mode: "callees", Symbol: f.main, Depth: 2}},
			{"definitions", Params{Mode: "definitions", Symbol: f.register}},
			{"hierarchy", Params{Mode: "hierarchy", Symbol: f.ty}},
			{"hierarchy depth 3", Params{Mode: "hierarchy", Symbol: f.root, Depth: 3}},
			{"references", Params{Mode: "references", Symbol: f.ty}},
			{"dependencies", Params{Mode: "dependencies", Target: f.service}},
			{"dependencies reverse", Params{Mode: "dependencies", Target: f.regfile, Reverse: true}},
			{"exports", Params{Mode: "exports", Target: f.regfile}},
			{"empty callers", Params{Mode: "callers", Symbol: "nothingCallsThis"}},
		}
		for _, e := range extras[f.dir] {
			cases = append(cases, struct {
				name string
				p    Params
			}{e.name, e.p})
		}
		for _, c := range cases {
			if f.root == "" && strings.HasPrefix(c.name, "hierarchy") {
				continue
			}
			c.p.Language = f.lang
			r, err := analyze(context.Background(), Config{Workspace: "../testdata/analysis/" + f.dir}, c.p)
			if err != nil {
				t.Fatal(f.dir, c.name, err)
			}
			fmt.Fprintf(&b, "\t{%q, %q, Params{Mode: %q, Symbol: %q, Target: %q, Path: %q, Depth: %d, MaxNodes: %d, Reverse: %v}, `%s`},\n",
				f.dir, c.name, c.p.Mode, c.p.Symbol, c.p.Target, c.p.Path, c.p.Depth, c.p.MaxNodes, c.p.Reverse, r.Text())
		}
	}
	os.WriteFile("/tmp/gen.txt", []byte(b.String()), 0o644)
}

var extras = map[string][]struct {
	name string
	p    Params
}{
	"typescript": {
		{"import forms", Params{Mode: "dependencies", Target: "src/forms.ts"}},
		{"export forms", Params{Mode: "exports", Target: "src/forms.ts"}},
		{"exports of a directory", Params{Mode: "exports", Target: "src/util"}},
		{"reverse of a re-exported module", Params{Mode: "dependencies", Target: "src/service.ts", Reverse: true}},
		{"references with re-exports", Params{Mode: "references", Symbol: "createRegistry"}},
		{"definitions by kind", Params{Mode: "definitions", Symbol: "Registry"}},
		{"scoped to a path", Params{Mode: "callers", Symbol: "createRegistry", Path: "src/service.ts"}},
	},
	"javascript": {
		{"commonjs exports", Params{Mode: "exports", Target: "src/main.cjs"}},
		{"export forms", Params{Mode: "exports", Target: "src/util/index.mjs"}},
	},
	"python": {
		{"__all__", Params{Mode: "exports", Target: "app/util"}},
		{"reverse of a package", Params{Mode: "dependencies", Target: "app/util/log.py", Reverse: true}},
		{"absolute imports", Params{Mode: "dependencies", Target: "app/main.py"}},
	},
	"go": {
		{"imports of main", Params{Mode: "dependencies", Target: "main.go"}},
	},
	"rust": {
		{"mod declarations", Params{Mode: "dependencies", Target: "src/main.rs"}},
		{"pub use", Params{Mode: "exports", Target: "src/util"}},
		{"impl blocks", Params{Mode: "definitions", Symbol: "ToolRegistry"}},
		{"reverse of a module", Params{Mode: "dependencies", Target: "src/util/log.rs", Reverse: true}},
	},
	"java": {
		{"reverse of a class", Params{Mode: "dependencies", Target: "src/com/example/registry/ToolRegistry.java", Reverse: true}},
		{"public members", Params{Mode: "exports", Target: "src/com/example/registry/ToolRegistry.java"}},
	},
	"csharp": {
		{"reverse by namespace", Params{Mode: "dependencies", Target: "Util/Log.cs", Reverse: true}},
	},
	"kotlin": {
		{"reverse of a package", Params{Mode: "dependencies", Target: "src/main/kotlin/com/example/registry", Reverse: true}},
		{"exports", Params{Mode: "exports", Target: "src/main/kotlin/com/example/registry/Registry.kt"}},
	},
	"ruby": {
		{"reverse by require", Params{Mode: "dependencies", Target: "lib/app/service.rb", Reverse: true}},
	},
	"php": {
		{"reverse by use and require", Params{Mode: "dependencies", Target: "src/Service/Service.php", Reverse: true}},
		{"exports", Params{Mode: "exports", Target: "src/Registry/Registry.php"}},
	},
	"c": {
		{"static is not exported", Params{Mode: "exports", Target: "src/registry.c"}},
		{"header exports", Params{Mode: "exports", Target: "include/registry.h"}},
	},
	"cpp": {
		{"out-of-line methods", Params{Mode: "exports", Target: "src/registry.cpp"}},
		{"definitions", Params{Mode: "definitions", Symbol: "add"}},
	},
}
