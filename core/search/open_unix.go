//go:build unix

package search

import "syscall"

// openFlags open a file for reading without blocking on a fifo.
const openFlags = syscall.O_RDONLY | syscall.O_NONBLOCK
