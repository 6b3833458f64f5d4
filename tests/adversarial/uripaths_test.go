package adversarial

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/index"
	"github.com/loupe-dev/loupe/tools"
)

// TestURICharacterPaths: a workspace, or an index path, named with the
// characters a URI gives a meaning to (# ? %) and spaces is indexed in
// place and read back by the project-index tools; no file beside it is
// created or touched (issue 33 item 4: a workspace notes.db#ws had its
// tables written into a sibling notes.db). The full run tries every
// pair of the characters around the name.
func TestURICharacterPaths(t *testing.T) {
	names := []string{"notes.db#ws", "notes.db?mode=memory", "notes%2edb", "notes.db%", "notes .db", "#?% "}
	if full() {
		chars := []string{"#", "?", "%", " ", "%23", "%3F", "%25", "?mode=ro", "#frag"}
		for _, a := range chars {
			for _, b := range chars {
				names = append(names, "notes.db"+a+"ws"+b)
			}
		}
	}
	for i, name := range names {
		for _, explicit := range []bool{false, true} {
			parent := t.TempDir()
			write(t, filepath.Join(parent, "notes.db"), "someone's own notes\n")
			write(t, filepath.Join(parent, "notes"), "someone's own notes\n")
			ws := filepath.Join(parent, name)
			write(t, filepath.Join(ws, "pkg", "a.go"), fmt.Sprintf("package pkg\n\n// Uniq%d is found.\nfunc Uniq%d() {}\n", i, i))
			before := list(t, parent)
			db := ""
			if explicit {
				db = filepath.Join(parent, name+".index")
			}
			for range 2 { // a fresh build, then one in place
				if _, err := index.Build(context.Background(), index.Options{Root: ws, DB: db}); err != nil {
					t.Fatalf("%q: %v", name, err)
				}
			}
			for _, f := range []string{"notes.db", "notes"} {
				if got, err := os.ReadFile(filepath.Join(parent, f)); err != nil || string(got) != "someone's own notes\n" {
					t.Errorf("%q: the sibling %s is %q, %v", name, f, got, err)
				}
			}
			want := before
			if explicit {
				want = append(want, filepath.Base(db))
				slices.Sort(want)
			}
			if got := list(t, parent); !slices.Equal(got, want) {
				t.Errorf("%q: beside the workspace %q, want %q", name, got, want)
			}
			ts, err := tools.New(tools.Config{Workspace: ws, Index: db})
			if err != nil {
				t.Fatal(err)
			}
			for _, tool := range ts {
				if tool.Name != "search_symbols" {
					continue
				}
				out, err := tool.Call(context.Background(), json.RawMessage(fmt.Sprintf(`{"query":"Uniq%d"}`, i)))
				if err != nil || !strings.Contains(out.Text, fmt.Sprintf("Uniq%d", i)) {
					t.Errorf("%q: search_symbols: %v %v", name, out, err)
				}
			}
		}
	}
	t.Logf("%d workspace names, each with the default and an explicit index path: siblings untouched, index read back", len(names))
}

// list is a directory's names, sorted.
func list(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}
