package analysis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A refusal names paths relative to the workspace, never the host's
// absolute path of its root (which the model has no business seeing).
func TestRefusalsNameNoHostPath(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "ws")
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"src/a.ts": "export function f() { g(); }\n", "src/b.ts": "export function g() {}\n"} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(parent, filepath.Join(root, "up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "missing"), filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	tool, err := New(Config{Workspace: root})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		p    Params
		want string
	}{
		{"a path above the root", Params{Mode: "callers", Language: "typescript", Symbol: "g", Path: "../"}, `path "../" is outside the workspace`},
		{"an absolute path outside", Params{Mode: "callers", Language: "typescript", Symbol: "g", Path: parent}, "is outside the workspace"},
		{"a link out", Params{Mode: "callers", Language: "typescript", Symbol: "g", Path: "up/x"}, "outside the workspace"},
		{"a target above the root", Params{Mode: "exports", Language: "typescript", Target: "../x.ts"}, "outside the workspace"},
		{"a missing path", Params{Mode: "callers", Language: "typescript", Symbol: "g", Path: "nope/x.ts"}, "does not exist"},
		{"a dangling link", Params{Mode: "exports", Language: "typescript", Target: "dangling"}, "dangling"},
		{"a path through a file", Params{Mode: "callers", Language: "typescript", Symbol: "g", Path: "src/a.ts/x"}, "src/a.ts/x"},
		{"a link loop", Params{Mode: "callers", Language: "typescript", Symbol: "g", Path: "loop/x"}, "loop/x"},
		{"a name too long", Params{Mode: "callers", Language: "typescript", Symbol: "g", Path: "src/" + strings.Repeat("n", 300)}, "nnn"},
		{"a path with a NUL", Params{Mode: "callers", Language: "typescript", Symbol: "g", Path: "src/\x00"}, "path"},
	}
	for _, c := range cases {
		_, err := tool.Run(context.Background(), c.p)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		// The path the model gave may be echoed; no other host path.
		hidden := parent
		if strings.Contains(c.p.Path+c.p.Target, parent) {
			hidden = root
		}
		msg := err.Error()
		if strings.Contains(msg, hidden) || !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q; want %q and no %s", c.name, msg, c.want, hidden)
		}
	}
}
