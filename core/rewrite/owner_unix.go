//go:build unix || js

package rewrite

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// links is how many hard links fi's file has (1 where unknown).
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// keepOwner gives the new file f the owner and group of the file fi
// describes, when they differ from f's: as root that always works; as a
// user only for a group the user is in, and refused otherwise.
func keepOwner(f *os.File, fi fs.FileInfo) error {
	want, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	nfi, err := f.Stat()
	if err != nil {
		return err
	}
	have, ok := nfi.Sys().(*syscall.Stat_t)
	if !ok || have.Uid == want.Uid && have.Gid == want.Gid {
		return nil
	}
	if err := f.Chown(int(want.Uid), int(want.Gid)); err != nil {
		return fmt.Errorf("%w (it belongs to uid %d, gid %d): %w", ErrOwner, want.Uid, want.Gid, unwrapPathErr(err))
	}
	return nil
}

func unwrapPathErr(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
