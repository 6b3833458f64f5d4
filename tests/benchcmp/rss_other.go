//go:build !unix

package main

import "os"

// peakRSSKB is -1 (unknown) off unix: Windows' process state has times but
// no peak memory, so the RSS columns print "-".
func peakRSSKB(*os.ProcessState) int64 { return -1 }
