package rewrite

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t.ts")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l.ts")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(target)
	if err != nil || string(got) != "new" {
		t.Fatalf("target holds %q (%v)", got, err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink must stay a symlink")
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode not kept: %v %v", fi.Mode(), err)
	}
	// Special mode bits are kept too.
	if err := os.Chmod(target, 0o750|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(target, []byte("newer")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode()&(os.ModePerm|os.ModeSetgid) != 0o750|os.ModeSetgid {
		t.Errorf("setgid not kept: %v %v", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary file left behind: %d entries", len(entries))
	}
	if err := WriteFile(filepath.Join(dir, "missing.ts"), nil); err == nil {
		t.Error("a missing file must be an error")
	}
}

// A file with other hard links is not replaced: renaming over it would
// split it from them.
func TestWriteFileHardLinked(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.ts"), filepath.Join(dir, "b.ts")
	if err := os.WriteFile(a, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if links(mustStat(t, a)) < 2 {
		t.Skip("this system does not count hard links")
	}
	err := WriteFile(a, []byte("new"))
	if !errors.Is(err, ErrHardLinked) {
		t.Fatalf("WriteFile of a hard-linked file: %v", err)
	}
	for _, p := range []string{a, b} {
		if got, _ := os.ReadFile(p); string(got) != "old" {
			t.Errorf("%s: %q", p, got)
		}
	}
	if !os.SameFile(mustStat(t, a), mustStat(t, b)) {
		t.Error("the link was split")
	}
}

func mustStat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
