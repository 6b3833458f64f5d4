//go:build !unix

package safefs

// nonblock: this system has no fifos to wait on, or no O_NONBLOCK.
const nonblock = 0

// remove removes name through os.Root after refusing a directory (a
// directory swapped in meanwhile is removed only if empty, and only
// inside the root).
func (o osOps) remove(name string) error {
	fi, err := o.r.Lstat(name)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return errorf("remove", name, ErrIsDir)
	}
	return o.r.Remove(name)
}
