//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/loupe-dev/loupe/internal/unpriv"
)

// runIn runs the CLI with args in dir and returns its exit code, stdout
// and stderr.
func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	code := dispatch(context.Background(), e, args)
	return code, stdout.String(), stderr.String()
}

// Files that cannot be searched are reported on stderr, never passed over
// in silence (issue 18 item 8): a fifo given by name (not opened: it
// would block), and a file too large for a grammar module (refused before
// parsing, in bounded time and memory), while the other files are
// searched.
func TestReportsSkippedFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ok.js"), []byte("console.log(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	// 16 M tokens: over what a module can hold, however it is parsed.
	dense := "x=[" + strings.Repeat("1,", 8<<20) + "];\nconsole.log(2);\n"
	if err := os.WriteFile(filepath.Join(dir, "dense.js"), []byte(dense), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runIn(t, dir, "run", "-p", "console.log($A)", "fifo.js", "dense.js", "ok.js")
	if code != 0 || stdout != "ok.js:1:console.log(1)\n" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
	for _, want := range []string{"ERROR: fifo.js: not a regular file\n", "ERROR: dense.js: too large: "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// An unreadable directory is reported as ast-grep reports it. Root reads
// every directory, so the test runs itself again unprivileged.
func TestReportsUnreadableDirectory(t *testing.T) {
	if dir := unpriv.Dir(); dir != "" {
		code, stdout, stderr := runIn(t, dir, "run", "-p", "console.log($A)", ".")
		unpriv.Report(fmt.Sprintf("%d|%s|%s", code, stdout, stderr))
		return
	}
	base := unpriv.TempDir(t)
	tree := filepath.Join(base, "tree")
	for _, d := range []string{"ok", "locked"} {
		if err := os.MkdirAll(filepath.Join(tree, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tree, d, "a.js"), []byte("console.log(1)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(tree, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	got := unpriv.Run(t, base, tree)
	want := "0|ok/a.js:1:console.log(1)\n|ERROR: locked: Permission denied (os error 13)\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
