package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/treecache"
	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/grammars/recipe"
	"github.com/loupe-dev/loupe/host/hostile"
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
		{[]string{"grammar", "compile", empty}, "", "usage: loupe grammar build [OPTIONS] [DIR]"},
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

// TestCustomLanguageCLI: in a project with a working custom language
// (the json module's bytes under another name) and one whose module the
// sandbox refuses, run and scan search the working one, the refused one
// is reported once with its file while the rest goes on, and
// --custom-languages ignore leaves them out as ast-grep's default does.
func TestCustomLanguageCLI(t *testing.T) {
	dir := t.TempDir()
	info, _ := grammars.Lookup("json")
	good, err := info.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"grammars/cjson.wasm":  string(good),
		"grammars/evil.wasm":   string(hostile.Module(hostile.Spec{Import: true})),
		"src/a.cjson":          "{\"a\": null}\n",
		"src/b.evil":           "x\n",
		"rules/cjson-null.yml": "id: cjson-null\nlanguage: cjson\nseverity: warning\nmessage: a null\nrule: {pattern: 'null'}\n",
		"rules/evil.yml":       "id: evil\nlanguage: evil\nrule: {pattern: x}\n",
		"sgconfig.yml": "ruleDirs: [rules]\ncustomLanguages:\n" +
			"  cjson: {libraryPath: grammars/cjson.wasm, extensions: [cjson]}\n" +
			"  evil: {libraryPath: grammars/evil.wasm, extensions: [evil]}\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	getenv := func(k string) string {
		if k == treecache.EnvOff {
			return "1"
		}
		return os.Getenv(k)
	}
	refused := "Warning: custom language evil: module " + filepath.Join(dir, "grammars", "evil.wasm") + " refused"
	out, code := dispatchOut(t, getenv, "scan", "--report-style", "short")
	if code != exitMatch || !strings.Contains(out, "src/a.cjson:1:7: warning[cjson-null]: a null") ||
		strings.Count(out, refused) != 1 || !strings.Contains(out, "cannot parse rule rules/evil.yml") {
		t.Errorf("scan: exit %d\n%s", code, out)
	}
	out, code = dispatchOut(t, getenv, "run", "-p", "null", "-l", "cjson", "--json=compact")
	if code != exitMatch || !strings.Contains(out, `"file":"src/a.cjson"`) || !strings.Contains(out, `"language":"cjson"`) {
		t.Errorf("run -l cjson: exit %d\n%s", code, out)
	}
	out, code = dispatchOut(t, getenv, "scan", "--custom-languages", "ignore")
	if code != exitError || !strings.Contains(out, `unsupported language "cjson"`) || strings.Contains(out, refused) {
		t.Errorf("scan --custom-languages ignore: exit %d\n%s", code, out)
	}
}
