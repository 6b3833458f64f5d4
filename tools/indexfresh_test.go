//go:build !js

package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/index"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// shopIndex copies index/testdata/shop and builds its index.
func shopIndex(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	copyDir(t, filepath.Join("..", "index", "testdata", "shop"), root)
	if _, err := index.Build(context.Background(), index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { CloseIndexes() })
	return root
}

// TestWritesReachTheIndex: what each write tool writes is in the
// project index when the call returns, so the next search_symbols or
// get_symbol answers from it.
func TestWritesReachTheIndex(t *testing.T) {
	for _, tc := range []struct {
		tool, params string
		query        string // a get_symbol name
		want         string // in its answer; "[]" for none
	}{
		{"edit_lines", `{"path":"api/server.go","operation":"insert","line":12,"content":"\n// Shutdown stops the server.\nfunc (s *Server) Shutdown() {}"}`, "Shutdown", `"file_path":"api/server.go"`},
		{"edit_lines", `{"path":"api/server.go","operation":"insert","line":12,"content":"\nfunc Previewed() {}","preview_only":true}`, "Previewed", `[]`},
		{"replace_in_file", `{"path":"api/server.go","find":"NewServer","replace":"MakeServer"}`, "MakeServer", `"file_path":"api/server.go"`},
		{"create_file", `{"path":"api/v2/routes.go","content":"package v2\n\nfunc Routes() {}\n"}`, "Routes", `"file_path":"api/v2/routes.go","line":3`},
		{"update_file", `{"path":"packages/core/src/cart.ts","content":"export function emptyCart() {}\n"}`, "emptyCart", `"package":"@shop/core"`},
		{"append_file", `{"path":"packages/web/src/app.ts","content":"export function appended() {}\n"}`, "appended", `"package":"@shop/web"`},
		{"delete_file", `{"path":"tools/shop_tools/report.py"}`, "monthly_report", `[]`},
	} {
		t.Run(tc.tool+" "+tc.query, func(t *testing.T) {
			root := shopIndex(t)
			ts := toolsByName(t, Config{Workspace: root, Approver: toolspec.AllowAll})
			out, err := ts[tc.tool].Call(context.Background(), json.RawMessage(tc.params))
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Warnings) > 0 {
				t.Errorf("warnings: %v", out.Warnings)
			}
			got, err := ts["get_symbol"].Call(context.Background(), json.RawMessage(`{"name":"`+tc.query+`"}`))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got.Text, tc.want) {
				t.Errorf("get_symbol %s after %s: %s", tc.query, tc.tool, got.Text)
			}
		})
	}
	t.Run("search_symbols after edit_lines", func(t *testing.T) {
		root := shopIndex(t)
		ts := toolsByName(t, Config{Workspace: root, Approver: toolspec.AllowAll})
		if _, err := ts["edit_lines"].Call(context.Background(), json.RawMessage(`{"path":"api/server.go","operation":"replace","start_line":9,"content":"func NewZebraServer(addr string) *Server { return &Server{addr: addr} }"}`)); err != nil {
			t.Fatal(err)
		}
		got, err := ts["search_symbols"].Call(context.Background(), json.RawMessage(`{"query":"NewZebraServer"}`))
		if err != nil || !strings.Contains(got.Text, `"name":"NewZebraServer"`) {
			t.Errorf("search_symbols: %v %v", got, err)
		}
		st, err := ts["index_status"].Call(context.Background(), json.RawMessage(`{}`))
		if err != nil || !strings.Contains(st.Text, `"files_changed":1`) {
			t.Errorf("index_status: %v %v", st, err)
		}
	})
}

// TestWatchIndex: a serving configuration (WatchIndex) answers from the
// tree as others change it, before its first call and after (waiting on
// the updater's applied signal).
func TestWatchIndex(t *testing.T) {
	root := shopIndex(t)
	// Changed after the build, before the server's first index call.
	if err := os.WriteFile(filepath.Join(root, "api", "before.go"), []byte("package api\n\nfunc Before() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := toolsByName(t, Config{Workspace: root, WatchIndex: true})
	call := func(name, params string) string {
		t.Helper()
		out, err := ts[name].Call(context.Background(), json.RawMessage(params))
		if err != nil {
			t.Fatal(err)
		}
		return out.Text
	}
	if got := call("get_symbol", `{"name":"Before"}`); !strings.Contains(got, `"file_path":"api/before.go"`) {
		t.Errorf("a change made before the first call: %s", got)
	}
	if got := call("get_symbol", `{"name":"Outsider"}`); got != "[]" {
		t.Fatalf("before: %s", got)
	}
	li, err := openIndex(IndexPath(Config{Workspace: root}))
	if err != nil {
		t.Fatal(err)
	}
	li.mu.Lock()
	up := li.up
	li.mu.Unlock()
	if err := os.WriteFile(filepath.Join(root, "api", "outside.go"), []byte("package api\n\nfunc Outsider() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for {
		applied := up.Applied()
		if strings.Contains(call("get_symbol", `{"name":"Outsider"}`), `"file_path":"api/outside.go"`) {
			break
		}
		select {
		case <-applied:
		case <-t.Context().Done():
			t.Fatal("the outside edit never reached the index")
		}
	}
}
