package main

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWidenPipe: a pipe gets pipeSize of capacity; a regular file is left
// alone.
func TestWidenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	before, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	if before >= pipeSize {
		t.Fatalf("a new pipe already holds %d bytes: the test would prove nothing", before)
	}
	widenPipe(w)
	if got, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0); err != nil || got != pipeSize {
		t.Errorf("after widenPipe the pipe holds %d bytes (%v), want %d", got, err, pipeSize)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	widenPipe(f)
	if _, err := f.WriteString("still writable\n"); err != nil {
		t.Errorf("a file after widenPipe: %v", err)
	}
}
