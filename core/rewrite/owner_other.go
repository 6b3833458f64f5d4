//go:build !unix && !js

package rewrite

import (
	"io/fs"
	"os"
)

// links: this system's FileInfo does not count hard links.
func links(fs.FileInfo) uint64 { return 1 }

// keepOwner: files here have no uid and gid to keep.
func keepOwner(*os.File, fs.FileInfo) error { return nil }
