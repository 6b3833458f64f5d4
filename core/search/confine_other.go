//go:build !js

package search

import "os"

// openedPath: os.Root opens with openat here, so there is nothing to ask.
func openedPath(*os.File) (string, bool) { return "", false }
