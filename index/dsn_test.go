//go:build !js

package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A workspace or index path with a character a URI gives a meaning to (#
// starts a fragment, ? a query, % an escape) or a space is the file it
// names: the build writes there, the index reads back from there, and no
// sibling (someone's own notes.db) is created or touched.
func TestPathsWithURICharacters(t *testing.T) {
	for i, name := range []string{"notes.db#ws", "notes.db?mode=memory", "notes%2edb", "notes%", "my notes.db", "a#b?c%d e"} {
		for _, explicitDB := range []bool{false, true} {
			// The subtest's name, and so its temporary directory's, has
			// none of those characters: a failure writes inside it.
			t.Run(fmt.Sprintf("path%d-db%v", i, explicitDB), func(t *testing.T) {
				parent := t.TempDir()
				sibling := filepath.Join(parent, "notes.db")
				if err := os.WriteFile(sibling, []byte("someone's own database\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				root := filepath.Join(parent, name)
				if err := os.MkdirAll(root, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nfunc Hello() {}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				opts := Options{Root: root}
				dbPath := DefaultPath(root)
				if explicitDB {
					dbPath = filepath.Join(parent, name+".index")
					opts.DB = dbPath
				}
				before := entries(t, parent)
				for range 2 { // a fresh build, then one in place
					if _, err := Build(context.Background(), opts); err != nil {
						t.Fatal(err)
					}
				}
				if got, err := os.ReadFile(sibling); err != nil || string(got) != "someone's own database\n" {
					t.Errorf("the sibling notes.db: %q, %v", got, err)
				}
				want := before
				if explicitDB {
					want = append(want, filepath.Base(dbPath))
					slices.Sort(want)
				}
				if got := entries(t, parent); !slices.Equal(got, want) {
					t.Errorf("files beside the workspace: %q, want %q", got, want)
				}
				db, err := Open(dbPath)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				syms, err := db.SearchSymbols(context.Background(), "Hello", "", "")
				if err != nil || len(syms) != 1 {
					t.Errorf("reading the index back: %v, %v", syms, err)
				}
			})
		}
	}
}

// entries lists a directory's names, sorted.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}
