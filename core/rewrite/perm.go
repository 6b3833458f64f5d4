package rewrite

import (
	"fmt"
	"io/fs"
	"os"
)

// writable reports, by opening it for writing, whether the file could be
// written in place: the permission bits, the owner, ACLs and a read-only
// mount say no here as they would to an editor. The open changes nothing
// (no truncation, no creation). A rename would replace a file the user
// may not write, in a directory the user may write; ast-grep writes in
// place and is refused there, and so is every loupe write.
func writable(open func(flag int) (*os.File, error), name string) error {
	f, err := open(os.O_WRONLY)
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			err = pe.Err
		}
		return fmt.Errorf("update %s: not writable: %w", name, err)
	}
	return f.Close()
}
