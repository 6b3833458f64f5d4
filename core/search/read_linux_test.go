package search

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadFD: a file is read whole whether it is the size its fstat gave
// (read ends on the short read, without a read that returns nothing), longer
// (it grew since: read on to its end), or shorter (it shrank).
func TestReadFD(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 40<<10/16+3)
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	size := int64(len(data))
	for _, tc := range []struct {
		name string
		size int64
	}{{"as stat said", size}, {"grew since", 10}, {"grew past a buffer", size / 2}, {"shrank since", 2 * size}} {
		t.Run(tc.name, func(t *testing.T) {
			fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Close(fd)
			got, err := readFD(fd, make([]byte, 0, tc.size+1), tc.size, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("read %d bytes, want the file's %d", len(got), len(data))
			}
		})
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if got, err := readFD(fd, make([]byte, 0, 11), 10, 100); err != nil || len(got) != 100 {
		t.Fatalf("read to a limit of 100: %d bytes, %v", len(got), err)
	}
}
