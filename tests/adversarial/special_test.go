//go:build unix

package adversarial

import (
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/tools/astgrep"
	"github.com/loupe-dev/loupe/tools/filetools"
)

// TestSpecialFilesReported (issue 33 item 8): fifos and sockets met in a
// walk are never opened, and every tool says it passed over them (they
// were skipped in silence, against "nothing is skipped in silence").
func TestSpecialFilesReported(t *testing.T) {
	ws := t.TempDir()
	write(t, filepath.Join(ws, "a.ts"), "export function f() { return 1; }\nf();\n")
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe.ts"), 0o644); err != nil {
		t.Skip("no fifos here:", err)
	}
	l, err := net.Listen("unix", filepath.Join(ws, "sock.ts"))
	if err != nil {
		t.Skip("no unix sockets here:", err)
	}
	defer l.Close()
	ag, err := astgrep.New(astgrep.Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	sa, err := analysis.New(analysis.Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	ft, err := filetools.New(filetools.Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for name, call := range map[string]func() (any, error){
		"ast_grep": func() (any, error) { return ag.Run(ctx, astgrep.Params{Pattern: "f()", Language: "typescript"}) },
		"structural_analysis": func() (any, error) {
			return sa.Run(ctx, analysis.Params{Mode: "definitions", Language: "typescript", Symbol: "f"})
		},
		"grep": func() (any, error) { return ft.Grep(ctx, filetools.GrepParams{Pattern: "return"}) },
		"glob": func() (any, error) { return ft.Glob(ctx, filetools.GlobParams{Pattern: "**/*.ts"}) },
		"list_directory recursive": func() (any, error) {
			return ft.ListDirectory(ctx, filetools.ListDirectoryParams{Recursive: true})
		},
	} {
		v, err := call()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		out, _ := json.Marshal(v)
		text := string(out)
		if r, ok := v.(interface{ Text() string }); ok {
			text += r.Text()
		}
		for _, p := range []string{"pipe.ts", "sock.ts"} {
			if !strings.Contains(text, p) {
				t.Errorf("%s does not mention %s: %.400s", name, p, text)
			}
		}
	}
}
