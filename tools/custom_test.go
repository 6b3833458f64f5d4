//go:build !js

package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/astgrep"
	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/grammars"
)

// TestAstGrepCustomLanguage: ast_grep searches the custom languages of
// the workspace's sgconfig.yml, by name and by a file's extension, and
// loads no module from outside the workspace.
func TestAstGrepCustomLanguage(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
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
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ts, err := New(Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	var tool *Tool
	for _, x := range ts {
		if x.Name == astgrep.Name {
			tool = x
		}
	}
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
