package project

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/host/hostile"
)

// TestCustomLanguages loads a project with three custom languages: a
// working module (the built-in json module's bytes under another name), a
// module the sandbox refuses (it imports a function) and a missing one.
// The working one is registered with its keys and its rule loads; the
// refused and missing ones are reported once each, naming their files,
// and the refused one's rule is passed over while the rest loads.
func TestCustomLanguages(t *testing.T) {
	dir := t.TempDir()
	info, _ := grammars.Lookup("json")
	good, err := info.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"grammars/cjson.wasm":  string(good),
		"grammars/evil.wasm":   string(hostile.Module(hostile.Spec{Import: true})),
		"rules/cjson-null.yml": "id: cjson-null\nlanguage: cjson\nrule: {pattern: 'null'}\n",
		"rules/evil.yml":       "id: evil\nlanguage: evil\nrule: {pattern: x}\n",
		"rules/ts.yml":         "id: ts\nlanguage: ts\nrule: {kind: number}\n",
		"sgconfig.yml": `ruleDirs: [rules]
customLanguages:
  cjson:
    libraryPath: grammars/cjson.wasm
    extensions: [cjson]
    expandoChar: _
    languageSymbol: tree_sitter_json
  evil:
    libraryPath: grammars/evil.wasm
    extensions: [evil]
  gone:
    libraryPath: grammars/gone.wasm
    extensions: [gone]
`,
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
	p, err := Find("", dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := language.Lookup("cjson")
	if err != nil {
		t.Fatal(err)
	}
	if path, ok := l.Custom(); !ok || path != filepath.Join(dir, "grammars", "cjson.wasm") || l.Expando() != '_' {
		t.Fatalf("cjson: %q %v, expando %q", path, ok, l.Expando())
	}
	if got, ok := language.ForPath("a/b.cjson"); !ok || got != l {
		t.Fatalf("ForPath(b.cjson) = %v", got)
	}
	p.CheckLanguages(context.Background())
	cfgs, err := p.LoadRules(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cfgs {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != "cjson-null,ts" {
		t.Errorf("rules %v, want cjson-null,ts", ids)
	}
	var warnings []string
	for _, w := range p.Warnings {
		warnings = append(warnings, w.Error())
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{
		"customLanguages gone: custom language gone: read its module: open " + filepath.Join(dir, "grammars", "gone.wasm"),
		"custom language evil: module " + filepath.Join(dir, "grammars", "evil.wasm") + " refused",
		"imports function wasi_snapshot_preview1.fd_write",
		"cannot parse rule rules/evil.yml",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if len(warnings) != 3 {
		t.Errorf("%d warnings, want 3:\n%s", len(warnings), all)
	}
}

// TestMetaVarChar: a metaVarChar other than $ is reported, and the
// language left out.
func TestMetaVarChar(t *testing.T) {
	dir := t.TempDir()
	cfg := "customLanguages:\n  odd:\n    libraryPath: odd.wasm\n    metaVarChar: '#'\n"
	if err := os.WriteFile(filepath.Join(dir, "sgconfig.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Find("", dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0].Error(), `metaVarChar "#" is not supported`) {
		t.Fatalf("warnings %v", p.Warnings)
	}
	if _, err := language.Lookup("odd"); err == nil {
		t.Fatal("odd registered")
	}
}

// TestLibraryPathMap: ast-grep's per-platform map of native libraries is
// reported, and that language left out, while the project loads.
func TestLibraryPathMap(t *testing.T) {
	cfg := "customLanguages:\n  native:\n    libraryPath:\n      x86_64-unknown-linux-gnu: native.so\n      aarch64-apple-darwin: native.dylib\n    extensions: [nat]\n"
	p, err := Parse([]byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.CustomLanguages) != 0 || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0].Error(), "customLanguages native: libraryPath is a per-platform map of native libraries") {
		t.Fatalf("languages %v, warnings %v", p.CustomLanguages, p.Warnings)
	}
	for bad, want := range map[string]string{
		"customLanguages:\n  x:\n    extensions: [x]\n":                   "customLanguages x: libraryPath is required",
		"customLanguages:\n  x:\n    libraryPath: [a, b]\n":               "invalid sgconfig: customLanguages x",
		"customLanguages:\n  x:\n    libraryPath: a\n    extensions: 3\n": "invalid sgconfig: customLanguages x",
	} {
		if _, err := Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
	}
}
