//go:build !unix

package search

import "os"

// openFlags open a file for reading (this system has no fifos to wait on,
// or no O_NONBLOCK to avoid it).
const openFlags = os.O_RDONLY
