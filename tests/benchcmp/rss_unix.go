//go:build unix

package main

import (
	"os"
	"syscall"
)

// peakRSSKB is the exited process's peak resident set in KiB, from its
// rusage; -1 when the process state carries none.
func peakRSSKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return -1
	}
	return int64(ru.Maxrss) / maxrssPerKB
}
