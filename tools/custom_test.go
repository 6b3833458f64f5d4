//go:build !js

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/tools/astgrep"
)

// TestAstGrepCustomLanguage: ast_grep searches the custom languages of
// the workspace's sgconfig.yml, by name and by a file's extension, and
// loads no module from outside the workspace.
func TestAstGrepCustomLanguage(t *testing.T) {
	info, _ := grammars.Lookup("json")
	wasm, err := info.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"ws/grammars/wjson.wasm": string(wasm),
		"outside.wasm":           string(wasm),
		"ws/data/a.wjson":        `{"a": null, "b": [1, null]}`,
		"ws/sgconfig.yml": "customLanguages:\n" +
			"  wjson: {libraryPath: grammars/wjson.wasm, extensions: [wjson]}\n" +
			"  ojson: {libraryPath: ../outside.wasm, extensions: [ojson]}\n",
	}
	ws := filepath.Join(writeFiles(t, files), "ws")
	tool := toolsByName(t, Config{Workspace: ws})[astgrep.Name]
	for _, params := range []string{
		`{"pattern": "null", "language": "wjson"}`,
		`{"pattern": "null", "path": "data/a.wjson"}`,
	} {
		out, err := tool.Call(context.Background(), json.RawMessage(params))
		if err != nil {
			t.Fatalf("%s: %v", params, err)
		}
		r := out.Result.(*astgrep.Result)
		if len(r.Matches) != 2 || r.Matches[0].File != "data/a.wjson" || r.Matches[0].NodeKind != "null" {
			t.Fatalf("%s: %+v", params, r.Matches)
		}
	}
	if _, err := language.Lookup("ojson"); err == nil {
		t.Fatal("a module outside the workspace was registered")
	}
}

// TestAstGrepLanguageGlobs: ast_grep reads the languageGlobs of the
// workspace's sgconfig.yml, as the CLI does in a project: a custom
// language's files named by a glob are searched by the language's name
// and by their path; the globs of a language that is not known are
// passed over.
func TestAstGrepLanguageGlobs(t *testing.T) {
	info, _ := grammars.Lookup("json")
	wasm, err := info.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"grammars/gjson.wasm": string(wasm),
		"data/a.gjson":        `[null]`,
		"data/GJSONFILE":      `{"a": null}`,
		"sgconfig.yml": "customLanguages:\n" +
			"  gjson: {libraryPath: grammars/gjson.wasm, extensions: [gjson]}\n" +
			"languageGlobs:\n  gjson: ['**/GJSONFILE']\n  nolang: ['*.x']\n",
	}
	tool := toolsByName(t, Config{Workspace: writeFiles(t, files)})[astgrep.Name]
	for params, want := range map[string]string{
		`{"pattern": "null", "language": "gjson"}`:      "data/GJSONFILE:1:7 data/a.gjson:1:2",
		`{"pattern": "null", "path": "data/GJSONFILE"}`: "data/GJSONFILE:1:7",
	} {
		out, err := tool.Call(context.Background(), json.RawMessage(params))
		if err != nil {
			t.Fatalf("%s: %v", params, err)
		}
		var got []string
		for _, m := range out.Result.(*astgrep.Result).Matches {
			got = append(got, fmt.Sprintf("%s:%d:%d", m.File, m.StartLine, m.StartCol))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %q, want %q", params, got, want)
		}
	}
}
