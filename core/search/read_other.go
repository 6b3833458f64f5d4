//go:build !linux

package search

// readDirect is Read without a workspace root.
func (r *Reader) readDirect(f File) ([]byte, *Skipped) { return r.readOS(f) }
