package rewrite

import (
	"errors"
	"github.com/loupe-dev/loupe/internal/safefs"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestIsTempName(t *testing.T) {
	for name, want := range map[string]bool{
		".a.ts.loupe-123":     true,
		".x.loupe-1.loupe-42": true,
		"a.ts.loupe-123":      false,
		".a.ts.loupe-":        false,
		".a.ts.loupe-12x":     false,
		".loupe-123":          false,
		".a.ts":               false,
	} {
		if got := IsTempName(name); got != want {
			t.Errorf("IsTempName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestReplaceAndCreateFileIn(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(base, "outside.txt")
	if err := os.WriteFile(outside, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(ws, "sub", "f.txt")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o750|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	root, err := safefs.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()

	if _, err := ReplaceFileIn(root, "sub/f.txt", []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("replaced file holds %q", got)
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode()&(os.ModePerm|os.ModeSetgid) != 0o750|os.ModeSetgid {
		t.Errorf("mode not kept: %v %v", fi.Mode(), err)
	}
	if _, err := ReplaceFileIn(root, "sub/missing.txt", nil, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("replacing a missing file: %v", err)
	}

	if err := CreateFileIn(root, "sub/g.txt", []byte("g"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "sub", "g.txt")); string(got) != "g" {
		t.Errorf("created file holds %q", got)
	}
	if err := CreateFileIn(root, "sub/g.txt", []byte("again"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("creating over an existing file: %v", err)
	}

	// A symlink at the name is refused, and a directory swapped for a
	// link out of the root is never written through.
	if err := os.Symlink(outside, filepath.Join(ws, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReplaceFileIn(root, "link.txt", []byte("outside"), []byte("x")); err == nil {
		t.Error("replacing through a symlink must be refused")
	}
	if err := os.Symlink(base, filepath.Join(ws, "up")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReplaceFileIn(root, "up/outside.txt", []byte("outside"), []byte("x")); err == nil {
		t.Error("a path through a link leaving the root must be refused")
	}
	if err := CreateFileIn(root, "up/new.txt", []byte("x"), 0o644); err == nil {
		t.Error("creating through a link leaving the root must be refused")
	}
	if got, _ := os.ReadFile(outside); string(got) != "outside" {
		t.Errorf("the file outside changed: %q", got)
	}
	if _, err := os.Lstat(filepath.Join(base, "new.txt")); err == nil {
		t.Error("a file was created outside the root")
	}
	for _, dir := range []string{ws, filepath.Join(ws, "sub"), base} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if IsTempName(e.Name()) {
				t.Errorf("temporary file left behind: %s", filepath.Join(dir, e.Name()))
			}
		}
	}
}
