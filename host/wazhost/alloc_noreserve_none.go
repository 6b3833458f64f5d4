//go:build unix && !(linux || darwin || dragonfly || netbsd || openbsd || solaris)

package wazhost

// mapNoReserve is no flag on the unix systems that do not define
// MAP_NORESERVE: FreeBSD never implemented it (and dropped the name in 11),
// and charges swap for a mapping only once it is writable, which the
// reservation becomes page range by page range as it is committed.
const mapNoReserve = 0
