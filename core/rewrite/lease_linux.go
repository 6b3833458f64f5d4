//go:build linux

package rewrite

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// readLease takes a read lease on f (open read-only), which Linux grants
// only when no one has the file open for writing. supported is false
// where leases cannot be taken at all (not the file's owner without
// CAP_LEASE, leases disabled).
func readLease(f *os.File) (leased, supported bool) {
	_, err := unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_RDLCK)
	switch {
	case err == nil:
		return true, true
	case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EBUSY):
		return false, true
	}
	return false, false
}

// dropLease releases readLease's lease.
func dropLease(f *os.File) { unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_UNLCK) }
