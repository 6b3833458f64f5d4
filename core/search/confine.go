package search

import (
	"os"
	"path/filepath"
	"strings"
)

// Confined checks that f, just opened through an os.Root on root (the
// workspace root), is a file inside root, and returns ErrOutsideWorkspace
// when it is not, with the path where f really is (so that a caller that
// created f can remove it).
//
// Where os.Root opens with openat (every platform but js and plan9), what
// it opens is always inside, and Confined checks nothing. Under GOOS=js
// (the npm package in Node) os.Root can only check a path before it
// opens it, so a link swapped in between is followed; there Confined asks
// the operating system where the opened file really is (Linux's
// /proc/self/fd), which no swap can change. Where that cannot be asked
// (no /proc, as on macOS; an in-memory workspace, where no link can be
// made), it checks nothing.
func Confined(f *os.File, root string) (where string, err error) {
	where, ok := openedPath(f)
	if !ok {
		return "", nil
	}
	where = strings.TrimSuffix(where, " (deleted)")
	if within(root, where) {
		return "", nil
	}
	// The operating system's answer has every link resolved; a root given
	// with links (every face's is resolved already) is resolved before the
	// answer is refused, not for each file.
	if real, err := filepath.EvalSymlinks(root); err == nil && real != root && within(real, where) {
		return "", nil
	}
	return where, ErrOutsideWorkspace
}
