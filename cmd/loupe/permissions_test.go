//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/internal/unpriv"
)

// run -U refuses, as ast-grep does, to replace files the user could not
// write in place, though the directory is writable and a rename would
// replace them: a read-only file of the user's and another user's file
// (issue 18 item 6). The writable file beside them is rewritten.
func TestUpdateRespectsPermissions(t *testing.T) {
	if dir := unpriv.Dir(); dir != "" {
		code, stdout, stderr := runIn(t, dir, "run", "-p", "foo($A)", "-r", "bar($A)", "-U", ".")
		unpriv.Report(fmt.Sprintf("%d|%s|%s", code, stdout, stderr))
		return
	}
	base := unpriv.TempDir(t)
	tree := filepath.Join(base, "tree")
	if err := os.MkdirAll(tree, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tree, 0o777); err != nil {
		t.Fatal(err)
	}
	files := map[string]os.FileMode{"mine.js": 0o644, "readonly.js": 0o444, "others.js": 0o644}
	for name, mode := range files {
		p := filepath.Join(tree, name)
		if err := os.WriteFile(p, []byte("foo(1);\n"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getuid() == 0 {
		// The re-run is nobody: it owns mine.js and readonly.js, root
		// keeps others.js.
		for _, name := range []string{"mine.js", "readonly.js"} {
			if err := os.Chown(filepath.Join(tree, name), 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
	} else {
		t.Log("not root: others.js is the user's own, writable")
		if err := os.Chmod(filepath.Join(tree, "others.js"), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	got := unpriv.Run(t, base, tree)
	for _, want := range []string{"Applied 1 changes", "readonly.js: not writable: permission denied", "others.js: not writable: permission denied"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for name, want := range map[string]string{"mine.js": "bar(1);\n", "readonly.js": "foo(1);\n", "others.js": "foo(1);\n"} {
		data, err := os.ReadFile(filepath.Join(tree, name))
		if err != nil || string(data) != want {
			t.Errorf("%s = %q, %v; want %q", name, data, err, want)
		}
	}
	if entries, _ := os.ReadDir(tree); len(entries) != len(files) {
		t.Errorf("stray files left: %v", entries)
	}
}
