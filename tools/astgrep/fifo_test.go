//go:build unix

package astgrep

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
)

// A fifo given as path is counted as skipped, never opened (a read would
// block until a writer came).
func TestFifoPathSkipped(t *testing.T) {
	root := workspace(t, map[string]string{"a.js": "foo(1);\n"})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := newTool(t, root).Run(context.Background(), Params{Pattern: "foo($A)", Path: "pipe.js"})
	if err != nil {
		t.Fatal(err)
	}
	if res.SkippedFiles != 1 || res.Skipped[0].File != "pipe.js" || res.Skipped[0].Reason != "unreadable" {
		t.Errorf("skipped: %+v", res.Skipped)
	}
}
