package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tools/call whose arguments spell a parameter in another case, or name
// it twice, is refused as the registry refuses it: a client showing its
// user path: shown.txt must not approve a write to hidden.txt.
func TestArgumentKeysExact(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"shown.txt": "shown\n", "hidden.txt": "hidden\n"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ts, err := toolsFor(root)
	if err != nil {
		t.Fatal(err)
	}
	l := serve(t, ts, 0)
	l.initialize("2025-06-18")
	cases := []struct{ tool, args, want string }{
		{"update_file", `{"path":"shown.txt","PATH":"hidden.txt","content":"x"}`, `unknown field \"PATH\"`},
		{"update_file", `{"path":"shown.txt","content":"x","path":"hidden.txt"}`, `duplicate field \"path\"`},
		{"delete_file", `{"path":"shown.txt","Path":"hidden.txt"}`, `unknown field \"Path\"`},
		{"delete_file", `{"path":"shown.txt","path":"hidden.txt"}`, `duplicate field \"path\"`},
		{"create_file", `{"path":"new.txt","PATH":"hidden.txt","content":"x","overwrite":true}`, `unknown field \"PATH\"`},
		{"create_file", `{"path":"new.txt","content":"x","path":"hidden.txt","overwrite":true}`, `duplicate field \"path\"`},
	}
	for i, c := range cases {
		l.send(`{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"tools/call","params":{"name":"` + c.tool + `","arguments":` + c.args + `}}`)
		r := l.recv()
		res, _ := r["result"].(map[string]any)
		if res == nil || res["isError"] != true || !strings.Contains(toJSON(t, res), c.want) {
			t.Errorf("%s %s: %v", c.tool, c.args, r)
		}
	}
	for name, body := range files {
		if got, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(got) != body {
			t.Errorf("%s: %q, %v; want it untouched", name, got, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "new.txt")); err == nil {
		t.Error("new.txt was created")
	}
}

// toJSON is v as JSON.
func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
