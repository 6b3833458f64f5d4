//go:build !linux

package rewrite

import "os"

// readLease: no leases here; what was appended by the rename is carried.
func readLease(*os.File) (leased, supported bool) { return false, false }

// dropLease: no leases here.
func dropLease(*os.File) {}
