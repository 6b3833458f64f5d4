package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRefusals: with a directory of the root replaced by a link leading
// out (what a concurrent swap leaves at the moment of the act), every
// operation through it is refused and nothing outside is read, listed,
// created or removed; a directory is never removed; a fifo is refused
// without waiting for a writer.
func TestRefusals(t *testing.T) {
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(ws, "sub", "empty"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "victim.txt"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "sub", "in.txt"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "d")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(ws, "insub")); err != nil {
		t.Fatal(err)
	}
	r, err := Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	outsideOps := []struct {
		name string
		op   func() error
	}{
		{"readdir", func() error { _, err := r.ReadDir("d"); return err }},
		{"readdirnames", func() error { _, err := r.ReadDirNames("d"); return err }},
		{"open", func() error { _, err := r.OpenFile("d/victim.txt", os.O_RDONLY, 0); return err }},
		{"create", func() error { _, err := r.OpenFile("d/new.txt", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644); return err }},
		{"truncate", func() error { _, err := r.OpenFile("d/victim.txt", os.O_WRONLY|os.O_TRUNC, 0); return err }},
		{"stat", func() error { _, err := r.Stat("d/victim.txt"); return err }},
		{"lstat", func() error { _, err := r.Lstat("d/victim.txt"); return err }},
		{"remove", func() error { return r.Remove("d/victim.txt") }},
		{"mkdir", func() error { return r.Mkdir("d/newdir", 0o755) }},
		{"mkdirall", func() error { return r.MkdirAll("d/a/b", 0o755) }},
		{"rename", func() error { return r.Rename("sub/in.txt", "d/moved.txt") }},
		{"link", func() error { return r.Link("sub/in.txt", "d/linked.txt") }},
		{"climb", func() error { _, err := r.ReadDir(".."); return err }},
	}
	for _, c := range outsideOps {
		if err := c.op(); !isEscape(err) {
			t.Errorf("%s through a link out: err = %v, want a refusal", c.name, err)
		}
	}
	entries, _ := os.ReadDir(outside)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"victim.txt"}) {
		t.Errorf("the outside directory changed: %q", names)
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "victim.txt")); string(data) != "outside" {
		t.Errorf("the outside file changed: %q", data)
	}
	// A link that stays inside is followed; listings describe entries.
	got, err := r.ReadDir("insub")
	if err != nil || len(got) != 2 {
		t.Fatalf("listing through an inside link: %v %v", got, err)
	}
	for _, e := range got {
		if fi, err := e.Info(); err != nil || e.Name() == "in.txt" && fi.Size() != 6 {
			t.Errorf("entry %s: %v %v", e.Name(), fi, err)
		}
	}
	// A directory is never removed, empty or not.
	if err := r.Remove("sub/empty"); !errors.Is(err, ErrIsDir) {
		t.Errorf("removing a directory: %v, want ErrIsDir", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "sub", "empty")); err != nil {
		t.Errorf("the directory went: %v", err)
	}
	// A link is removed itself.
	if err := r.Remove("d"); err != nil {
		t.Errorf("removing a link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "victim.txt")); err != nil {
		t.Errorf("removing the link removed what it points to: %v", err)
	}
}

// isEscape reports a refusal: ErrOutside, or os.Root's own in the same
// words.
func isEscape(err error) bool {
	return errors.Is(err, ErrOutside) || err != nil && strings.Contains(err.Error(), ErrOutside.Error())
}
