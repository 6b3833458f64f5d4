package safefs

import (
	"io/fs"
	"os"
)

// osOps are a Root's operations through os.Root, which resolves every
// component relative to an open directory handle (openat) everywhere but
// under js and plan9.
type osOps struct{ r *os.Root }

func (o osOps) openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return o.r.OpenFile(name, flag, perm)
}
func (o osOps) lstat(name string) (fs.FileInfo, error)       { return o.r.Lstat(name) }
func (o osOps) stat(name string) (fs.FileInfo, error)        { return o.r.Stat(name) }
func (o osOps) mkdir(name string, perm fs.FileMode) error    { return o.r.Mkdir(name, perm) }
func (o osOps) mkdirAll(name string, perm fs.FileMode) error { return o.r.MkdirAll(name, perm) }
func (o osOps) rename(from, to string) error                 { return o.r.Rename(from, to) }
func (o osOps) link(from, to string) error                   { return o.r.Link(from, to) }
func (o osOps) close() error                                 { return o.r.Close() }

// readDir lists a directory opened through the root: a file opened in a
// root reads its entries' FileInfo relative to its own handle (fstatat),
// never by a path a swap could redirect.
func (o osOps) readDir(name string) ([]fs.DirEntry, error) {
	d, err := o.r.Open(name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

func (o osOps) readDirNames(name string) ([]string, error) {
	d, err := o.r.Open(name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}
