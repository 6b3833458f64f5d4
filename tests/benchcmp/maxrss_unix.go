//go:build unix && !darwin

package main

// maxrssPerKB is the units of ru_maxrss in a KiB: Linux and the BSDs report
// KiB.
const maxrssPerKB = 1
