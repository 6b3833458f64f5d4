package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTools(t *testing.T) {
	root := t.TempDir()
	src := "function a() { b(); }\nfunction b() { c(); }\nfunction c() {}\n"
	if err := os.WriteFile(filepath.Join(root, "m.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ts, err := New(Config{Workspace: root})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Tool{}
	for _, tool := range ts {
		byName[tool.Name] = tool
		if tool.Description == "" || tool.Schema["type"] != "object" {
			t.Errorf("%s: description or schema missing", tool.Name)
		}
		if _, err := json.Marshal(tool.Schema); err != nil {
			t.Errorf("%s: schema does not marshal: %v", tool.Name, err)
		}
	}
	cases := []struct {
		tool, params, want string
		wantErr            bool
	}{
		{"ast_grep", `{"pattern":"c()","language":"typescript"}`, "m.ts:2:16 [call_expression] c()", false},
		{"structural_analysis", `{"mode":"callers","language":"typescript","symbol":"c","depth":2}`, "via:", false},
		{"ast_grep", `{"patern":"c()"}`, `unknown field "patern"`, true},
		{"structural_analysis", `{"mode":"nope","language":"typescript"}`, "callers", true},
		{"ast_grep", ``, "exactly one of pattern or rule", true},
	}
	for _, c := range cases {
		tool, ok := byName[c.tool]
		if !ok {
			t.Fatalf("no tool %s", c.tool)
		}
		text, structured, err := tool.Call(context.Background(), json.RawMessage(c.params))
		if c.wantErr {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %s: error %v, want %q", c.tool, c.params, err, c.want)
			}
			continue
		}
		if err != nil || structured == nil || !strings.Contains(text, c.want) {
			t.Errorf("%s %s: %v\n%s\nwant %q", c.tool, c.params, err, text, c.want)
		}
	}
}

func TestNewRejectsBadWorkspace(t *testing.T) {
	if _, err := New(Config{Workspace: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("a missing workspace was accepted")
	}
	if _, err := New(Config{}); err == nil {
		t.Error("an empty workspace was accepted")
	}
}
