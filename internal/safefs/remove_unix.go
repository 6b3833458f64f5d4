//go:build unix

package safefs

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// nonblock makes an open return at once on a fifo with no other end.
const nonblock = syscall.O_NONBLOCK

// remove unlinks name relative to its parent directory's handle:
// unlinkat without AT_REMOVEDIR never removes a directory, whatever is
// swapped in at name.
func (o osOps) remove(name string) error {
	dir, base := split(name)
	d, err := o.r.Open(dir)
	if err != nil {
		return errorf("remove", name, err)
	}
	defer d.Close()
	for {
		err = unix.Unlinkat(int(d.Fd()), base, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.EPERM) && o.isDir(name) {
		err = ErrIsDir
	}
	if err != nil {
		return errorf("remove", name, err)
	}
	return nil
}

// isDir reports whether name is a directory (Linux's unlink says EISDIR,
// POSIX's EPERM).
func (o osOps) isDir(name string) bool {
	fi, err := o.r.Lstat(name)
	return err == nil && fi.IsDir()
}
