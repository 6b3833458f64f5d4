//go:build unix

package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFifo: a fifo is opened without waiting for its other end, for
// reading or writing, and OpenRegular refuses it (issue 33 item 5: an
// open(2) without O_NONBLOCK waited for ever).
func TestFifo(t *testing.T) {
	ws := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o644); err != nil {
		t.Skip("no fifos here:", err)
	}
	r, err := Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, _, err := r.OpenRegular("pipe"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("OpenRegular(fifo) = %v, want ErrNotRegular", err)
	}
	// Writing: no reader, so the non-blocking open fails at once.
	if f, err := r.OpenFile("pipe", os.O_WRONLY, 0); err == nil {
		f.Close()
		t.Error("opening a fifo with no reader for writing succeeded")
	}
}
