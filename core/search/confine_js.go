//go:build js

package search

import (
	"os"
	"strconv"
)

// openedPath is where the operating system says f is, through Linux's
// /proc/self/fd (Node's fs reads the link for Go under js).
func openedPath(f *os.File) (string, bool) {
	where, err := os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(f.Fd()), 10))
	return where, err == nil
}
