//go:build linux || darwin || dragonfly || netbsd || openbsd || solaris

package wazhost

import "golang.org/x/sys/unix"

// mapNoReserve asks the kernel not to reserve swap for a memory's whole
// reservation, only for what is committed, on the systems that define the
// flag.
const mapNoReserve = unix.MAP_NORESERVE
