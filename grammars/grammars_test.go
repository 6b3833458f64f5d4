//go:build !js

package grammars_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/grammars"
	"github.com/tetratelabs/wazero"
)

// The 28 languages ast-grep 0.51 builds in, by their canonical name here,
// and the hosts of loupe's own injections: svelte, and vue (the HTML
// grammar for .vue files).
var builtins = []string{
	"bash", "c", "cpp", "csharp", "css", "dart", "elixir", "go", "haskell", "hcl",
	"html", "java", "javascript", "json", "kotlin", "lua", "markdown", "nix", "php",
	"python", "ruby", "rust", "scala", "solidity", "svelte", "swift", "tsx", "typescript", "vue", "yaml",
}

func TestManifestCoversBuiltins(t *testing.T) {
	m, err := grammars.All()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range m.Languages {
		names = append(names, l.Name)
		if l.Display == "" || l.Function == "" || len(l.Extensions) == 0 || len(l.Aliases) == 0 {
			t.Errorf("%s: incomplete manifest entry %+v", l.Name, l)
		}
		if strings.Count(l.Expando, "") != 2 {
			t.Errorf("%s: expando %q is not one character", l.Name, l.Expando)
		}
		if l.Source.Kind != "gomod" && l.Source.Kind != "npm" || l.Source.Version == "" {
			t.Errorf("%s: source %+v is not pinned", l.Name, l.Source)
		}
	}
	if !sort.StringsAreSorted(names) {
		t.Errorf("languages are not sorted by name: %v", names)
	}
	if strings.Join(names, " ") != strings.Join(builtins, " ") {
		t.Errorf("languages = %v\nwant       %v", names, builtins)
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"typescript", "typescript"},
		{"TypeScript", "typescript"},
		{"ts", "typescript"},
		{"TS", "typescript"},
		{"tsx", "tsx"},
		{"Tsx", "tsx"},
		{"js", "javascript"},
		{"jsx", "javascript"},
		{"JavaScript", "javascript"},
		{"golang", "go"},
		{"Go", "go"},
		{"py", "python"},
		{"c++", "cpp"},
		{"Cpp", "cpp"},
		{"cs", "csharp"},
		{"CSharp", "csharp"},
		{"rs", "rust"},
		{"kt", "kotlin"},
		{"hs", "haskell"},
		{"ex", "elixir"},
		{"yml", "yaml"},
		{"md", "markdown"},
		{"sol", "solidity"},
		{"Hcl", "hcl"},
		{"klingon", ""},
		{"", ""},
		{"type script", ""},
	}
	for _, tt := range tests {
		l, ok := grammars.Lookup(tt.in)
		if ok != (tt.want != "") || l.Name != tt.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tt.in, l.Name, ok, tt.want)
		}
	}
}

func TestForPath(t *testing.T) {
	tests := []struct {
		path, want string
	}{
		{"src/app.ts", "typescript"},
		{"types.d.ts", "typescript"},
		{"a.mts", "typescript"},
		{"a.cts", "typescript"},
		{"App.tsx", "tsx"},
		{"index.js", "javascript"},
		{"index.jsx", "javascript"},
		{"index.mjs", "javascript"},
		{"main.go", "go"},
		{"lib.rs", "rust"},
		{`C:\src\main.c`, "c"},
		{"x.h", "c"},
		{"x.hpp", "cpp"},
		{"x.cc", "cpp"},
		{"Program.cs", "csharp"},
		{"style.scss", "css"},
		{"main.tf", "hcl"},
		{"script.py", "python"},
		{"stub.pyi", "python"},
		{"BUILD.bazel", "python"},
		{"Rakefile.rb", "ruby"},
		{"x.gemspec", "ruby"},
		{"build.sbt", "scala"},
		{"run.zsh", "bash"},
		{"README.md", "markdown"},
		{"config.yml", "yaml"},
		{"default.nix", "nix"},
		{"index.php", "php"},
		{"page.htm", "html"},
		{"data.json", "json"},
		{"a.kts", "kotlin"},
		{"a.swift", "swift"},
		{"a.sol", "solidity"},
		{"a.lua", "lua"},
		{"a.ex", "elixir"},
		{"a.hs", "haskell"},
		{"a.dart", "dart"},
		{"Main.java", "java"},
		{"Makefile", ""},
		{"notes.txt", ""},
		{"archive.tar.gz", ""},
		{"dir.ts/file", ""},
		{"UPPER.TS", ""},
	}
	for _, tt := range tests {
		l, ok := grammars.ForPath(tt.path)
		if ok != (tt.want != "") || l.Name != tt.want {
			t.Errorf("ForPath(%q) = %q, %v; want %q", tt.path, l.Name, ok, tt.want)
		}
	}
}

// TestTSNeverTSX checks every TypeScript extension maps to TypeScript and
// no extension belongs to two languages.
func TestTSNeverTSX(t *testing.T) {
	m, err := grammars.All()
	if err != nil {
		t.Fatal(err)
	}
	owner := map[string]string{}
	for _, l := range m.Languages {
		for _, e := range l.Extensions {
			if prev, dup := owner[e]; dup {
				t.Errorf("extension %q belongs to %s and %s", e, prev, l.Name)
			}
			owner[e] = l.Name
		}
	}
	for _, e := range []string{"ts", "cts", "mts"} {
		if owner[e] != "typescript" {
			t.Errorf(".%s belongs to %q, want typescript", e, owner[e])
		}
	}
}

// TestModules checks every embedded module: it matches the manifest's
// sha256 and size, compiles, imports nothing and exports loupe's glue.
func TestModules(t *testing.T) {
	m, err := grammars.All()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// The interpreter validates and decodes a module as the compiler does,
	// far faster; nothing runs here.
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	exports := []string{"loupe_init", "loupe_names", "loupe_input", "loupe_parse", "loupe_output", "loupe_cancel_flag", "_initialize"}
	for _, l := range m.Languages {
		t.Run(l.Name, func(t *testing.T) {
			wasm, err := l.Wasm()
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(wasm)
			if got := hex.EncodeToString(sum[:]); got != l.SHA256 {
				t.Errorf("sha256 %s, manifest says %q", got, l.SHA256)
			}
			if len(wasm) != l.Size {
				t.Errorf("size %d, manifest says %d", len(wasm), l.Size)
			}
			mod, err := rt.CompileModule(ctx, wasm)
			if err != nil {
				t.Fatal(err)
			}
			defer mod.Close(ctx)
			for _, f := range mod.ImportedFunctions() {
				mod, name, _ := f.Import()
				t.Errorf("imports function %s.%s", mod, name)
			}
			for _, mem := range mod.ImportedMemories() {
				mod, name, _ := mem.Import()
				t.Errorf("imports memory %s.%s", mod, name)
			}
			fns := mod.ExportedFunctions()
			for _, e := range exports {
				if _, ok := fns[e]; !ok {
					t.Errorf("does not export %s", e)
				}
			}
			if _, ok := mod.ExportedMemories()["memory"]; !ok {
				t.Error("does not export its memory")
			}
		})
	}
}
