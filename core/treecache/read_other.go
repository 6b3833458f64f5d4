//go:build !linux

package treecache

import (
	"io"
	"os"
	"time"
)

// readEntry reads a whole entry file into a pooled buffer, and returns it
// with the file's modification time.
func readEntry(file string) ([]byte, time.Time, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	if fi.Size() < headerSize || fi.Size() > maxEntry {
		return nil, time.Time{}, errCorrupt
	}
	b := entryBufs.Get(int(fi.Size()))
	if _, err := io.ReadFull(f, b); err != nil {
		entryBufs.Put(b)
		return nil, time.Time{}, err
	}
	return b, fi.ModTime(), nil
}
