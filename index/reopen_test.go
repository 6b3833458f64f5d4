//go:build !js

package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// An open index sees an index built afresh and renamed into place (as
// loupe index builds a new one), not only one rebuilt in place.
func TestOpenIndexSeesReplacement(t *testing.T) {
	root, _ := buildShop(t)
	db := open(t, root)
	ctx := context.Background()
	if got, err := db.SearchSymbols(ctx, "zebraUnique", "", ""); err != nil || len(got) != 0 {
		t.Fatalf("before: %v, %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(root, "packages", "web", "src", "zebra.ts"), []byte("export function zebraUnique() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A rebuild in place.
	if _, err := Build(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if got, err := db.SearchSymbols(ctx, "zebraUnique", "", ""); err != nil || len(got) != 1 {
		t.Errorf("after a rebuild in place: %v, %v", got, err)
	}
	// A fresh build, renamed over the file the DB has open.
	if err := os.WriteFile(filepath.Join(root, "packages", "web", "src", "zebra2.ts"), []byte("export function zebraFresh() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	fresh := filepath.Join(other, "index.db")
	if _, err := Build(ctx, Options{Root: root, DB: fresh}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fresh, DefaultPath(root)); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if got, err := db.SearchSymbols(ctx, "zebraFresh", "", ""); err != nil || len(got) != 1 {
			t.Errorf("after a fresh index was renamed into place: %v, %v", got, err)
		}
		if st, err := db.Status(ctx); err != nil || st.PackageCount == 0 {
			t.Errorf("status: %+v, %v", st, err)
		}
	}
	// Something that is not an index renamed into place is an error that
	// says so; the next good index is taken again.
	junk := filepath.Join(other, "junk")
	if err := os.WriteFile(junk, []byte("not a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(junk, DefaultPath(root)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SearchSymbols(ctx, "zebraFresh", "", ""); err == nil {
		t.Error("a file that is not an index was read as one")
	}
	if err := os.Remove(DefaultPath(root)); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if got, err := db.SearchSymbols(ctx, "zebraFresh", "", ""); err != nil || len(got) != 1 {
		t.Errorf("after the index was built again: %v, %v", got, err)
	}
}
