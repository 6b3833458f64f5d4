package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/grammars/recipe"
)

// TestGrammarBuildErrors: a folder without parser.c, a grammar without
// grammar.json and a machine without the toolchain each get an error
// saying what to do.
func TestGrammarBuildErrors(t *testing.T) {
	empty := t.TempDir()
	noName := t.TempDir()
	if err := os.MkdirAll(filepath.Join(noName, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(noName, "src", "parser.c"), []byte("int x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		path string // PATH, "" to keep it
		want string
	}{
		{[]string{"grammar", "build", empty}, "", "holds no src/parser.c (run `tree-sitter generate` in the grammar first)"},
		{[]string{"grammar", "build", noName}, "", "pass --language-symbol tree_sitter_NAME"},
		{[]string{"grammar", "build", "--language-symbol", "tree_sitter_x", noName}, t.TempDir(), "install the Debian packages with: apt-get install -y clang-19 lld-19"},
		{[]string{"grammar", "compile", empty}, "", "usage: loupe grammar build [OPTIONS] DIR"},
	} {
		if c.path != "" {
			t.Setenv("PATH", c.path)
		}
		out, code := dispatchOut(t, os.Getenv, c.args...)
		if code != exitError || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d\n%s\nwant %q", c.args, code, out, c.want)
		}
	}
}

// TestGrammarBuildBuiltin: `loupe grammar build` on a built-in grammar's
// pinned sources gives the very module embedded in loupe, byte for byte:
// it is the same recipe.
func TestGrammarBuildBuiltin(t *testing.T) {
	if err := recipe.CheckToolchain(false); err != nil {
		t.Skip(err)
	}
	info, _ := grammars.Lookup("json")
	cache := filepath.Join(t.TempDir(), "cache")
	src, err := recipe.Fetch(cache, recipe.Source(info.Source))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "json.wasm")
	getenv := func(k string) string {
		if k == "LOUPE_CACHE" {
			return cache
		}
		return os.Getenv(k)
	}
	res, code := dispatchOut(t, getenv, "grammar", "build", "-o", out, filepath.Dir(src))
	if code != exitMatch {
		t.Fatalf("exit %d: %s", code, res)
	}
	if !strings.Contains(res, "tree_sitter_json") || !strings.Contains(res, "sha256 "+info.SHA256) {
		t.Fatalf("built %s, want sha256 %s", res, info.SHA256)
	}
}
