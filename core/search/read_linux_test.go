package search

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadDirect: reading a file through system calls (no workspace root)
// gives what reading it through package os gives, content or reason for
// every kind of file a search can meet, a fifo swapped in for a file
// included (refused at once, never waited on), and the same read through
// the workspace root agrees.
func TestReadDirect(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ok.js":     "console.log(1)\n",
		"empty.js":  "",
		"binary.js": "a\x00b",
		"latin1.js": "caf\xe9",
		"big.js":    strings.Repeat("x", 5000),
		"sized.js":  strings.Repeat("y", 4096),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir.js"), 0o755); err != nil {
		t.Fatal(err)
	}
	direct, err := NewReader(Options{MaxFileSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	rooted, err := NewReader(Options{Root: dir, MaxFileSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	defer rooted.Close()
	for _, name := range []string{"ok.js", "empty.js", "binary.js", "latin1.js", "big.js", "sized.js", "fifo.js", "dir.js", "missing.js"} {
		f := File{Path: name, Abs: filepath.Join(dir, name)}
		got, gotSkip := direct.Read(f)
		want, wantSkip := direct.readOS(f)
		viaRoot, rootSkip := rooted.Read(f)
		if !bytes.Equal(got, want) || !bytes.Equal(got, viaRoot) || !sameSkip(gotSkip, wantSkip) || !sameSkip(gotSkip, rootSkip) {
			t.Errorf("%s: read %q %v, through os %q %v, through the root %q %v", name, got, gotSkip, want, wantSkip, viaRoot, rootSkip)
		}
	}
}

func sameSkip(a, b *Skipped) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Path == b.Path && a.Reason == b.Reason && (a.Err == nil) == (b.Err == nil) &&
		(a.Err == nil || errors.Is(a.Err, b.Err) || a.Err.Error() == b.Err.Error())
}
