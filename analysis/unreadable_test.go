//go:build unix

package analysis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/internal/unpriv"
)

// TestNamesUnreadablePaths: a directory the walk cannot read is named in
// the notes (what it holds is missing from the answer), and a target that
// holds nothing readable is not said to hold no files (issue 18 item 8).
// Root reads every directory, so the test runs itself again
// unprivileged.
func TestNamesUnreadablePaths(t *testing.T) {
	if dir := unpriv.Dir(); dir != "" {
		r, err := analyze(context.Background(), Config{Workspace: dir}, Params{Mode: "exports", Language: "typescript", Path: "lib"})
		if err != nil {
			unpriv.Report("error: " + err.Error())
			return
		}
		unpriv.Report(strings.Join(r.Notes, "\n"))
		return
	}
	base := unpriv.TempDir(t)
	dir := filepath.Join(base, "ws")
	write(t, filepath.Join(dir, "src", "a.ts"), "export function wanted() { return 1; }\n")
	write(t, filepath.Join(dir, "lib", "locked", "b.ts"), "export function other() { return 1; }\n")
	if err := os.Chmod(filepath.Join(dir, "lib", "locked"), 0); err != nil {
		t.Fatal(err)
	}
	notes := unpriv.Run(t, base, dir)
	for _, want := range []string{"lib holds no typescript files that could be read", "could not read 1 path", "lib/locked: unreadable (permission denied)"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

// TestNamesUnreadableFiles (issue 33 item 8): a file the walk lists but
// that cannot be read (no read permission) is named in the notes, not
// only counted: what it holds is missing from the answer.
func TestNamesUnreadableFiles(t *testing.T) {
	if dir := unpriv.Dir(); dir != "" {
		r, err := analyze(context.Background(), Config{Workspace: dir}, Params{Mode: "definitions", Language: "typescript", Symbol: "wanted"})
		if err != nil {
			unpriv.Report("error: " + err.Error())
			return
		}
		unpriv.Report(strings.Join(r.Notes, "\n"))
		return
	}
	base := unpriv.TempDir(t)
	dir := filepath.Join(base, "ws")
	write(t, filepath.Join(dir, "src", "a.ts"), "export function wanted() { return 1; }\n")
	write(t, filepath.Join(dir, "src", "locked.ts"), "export function wanted() { return 2; }\n")
	if err := os.Chmod(filepath.Join(dir, "src", "locked.ts"), 0); err != nil {
		t.Fatal(err)
	}
	notes := unpriv.Run(t, base, dir)
	for _, want := range []string{"could not read 1 path", "src/locked.ts: unreadable (permission denied)"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}
