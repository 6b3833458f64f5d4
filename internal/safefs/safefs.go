// Package safefs is the one file-operation layer every read, write,
// delete, mkdir and listing inside a workspace goes through. A Root
// confines each operation to a directory whatever a concurrent process
// swaps in under it (a directory replaced by a link leading out between a
// check and the act): natively through os.Root's openat-style calls,
// which resolve each component relative to an open directory handle;
// under GOOS=js (Node, which has no openat) by walking an open handle
// down component by component through Linux's /proc/self/fd, checking
// where each handle really is before the next step, and acting on the
// last component relative to its parent's handle with calls that do not
// follow a link there (unlink, mkdir, rename, link, O_EXCL).
//
// Opens never wait on a fifo (O_NONBLOCK); a caller that reads checks
// that what it opened is a regular file (OpenRegular does).
package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside is the refusal of a path that leads out of the root. Its
// text is os.Root's own, so one test recognises both.
var ErrOutside = errors.New("path escapes from parent")

// ErrNotRegular is why a fifo, socket or device is not opened for
// reading or writing.
var ErrNotRegular = errors.New("not a regular file")

// Root is a directory every operation of which stays inside it. Names
// are relative to it, cleaned, without "..".
type Root struct {
	name string
	ops  ops
}

// ops are a Root's operations on checked, cleaned names: osOps through
// os.Root, or under js with /proc the handle-based walk.
type ops interface {
	openFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	lstat(name string) (fs.FileInfo, error)
	stat(name string) (fs.FileInfo, error)
	readDir(name string) ([]fs.DirEntry, error)
	readDirNames(name string) ([]string, error)
	mkdir(name string, perm fs.FileMode) error
	mkdirAll(name string, perm fs.FileMode) error
	remove(name string) error
	rename(from, to string) error
	link(from, to string) error
	close() error
}

// Open opens the directory dir as a Root.
func Open(dir string) (*Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	if p := openProc(r.Name()); p != nil {
		r.Close()
		return &Root{name: r.Name(), ops: p}, nil
	}
	return &Root{name: r.Name(), ops: osOps{r}}, nil
}

// Close releases the root's handles.
func (r *Root) Close() error { return r.ops.close() }

// Name is the directory the root was opened on.
func (r *Root) Name() string { return r.name }

// check cleans name, refusing an absolute path or one that climbs out.
func check(op, name string) (string, error) {
	if name == "" {
		name = "."
	}
	clean := filepath.Clean(name)
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", &fs.PathError{Op: op, Path: name, Err: ErrOutside}
	}
	return clean, nil
}

// split is name's parent directory (relative to the root, "." for the
// root) and its last component.
func split(name string) (dir, base string) {
	dir, base = filepath.Split(name)
	dir = filepath.Clean(dir)
	if dir == "" {
		dir = "."
	}
	return dir, base
}

// OpenFile opens name with flag (os.O_* flags) and perm, never waiting
// on a fifo. Under js a file created without O_EXCL is first created
// with it, so that a link swapped in at the last component is never
// followed out.
func (r *Root) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	clean, err := check("open", name)
	if err != nil {
		return nil, err
	}
	return r.ops.openFile(clean, flag|nonblock, perm)
}

// OpenRegular opens name for reading and returns it with its FileInfo
// when it is a regular file; a directory is an error wrapping
// ErrIsDir, anything else one wrapping ErrNotRegular (a fifo is never
// waited on).
func (r *Root) OpenRegular(name string) (*os.File, fs.FileInfo, error) {
	f, err := r.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, nil, err
	case fi.IsDir():
		f.Close()
		return nil, fi, &fs.PathError{Op: "open", Path: name, Err: ErrIsDir}
	case !fi.Mode().IsRegular():
		f.Close()
		return nil, fi, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return f, fi, nil
}

// ErrIsDir is why a directory is not opened as a file.
var ErrIsDir = errors.New("is a directory")

// Lstat describes name without following a link at its last component.
func (r *Root) Lstat(name string) (fs.FileInfo, error) {
	clean, err := check("lstat", name)
	if err != nil {
		return nil, err
	}
	return r.ops.lstat(clean)
}

// Stat describes name, a link at its last component followed (inside
// the root only).
func (r *Root) Stat(name string) (fs.FileInfo, error) {
	clean, err := check("stat", name)
	if err != nil {
		return nil, err
	}
	return r.ops.stat(clean)
}

// ReadDir lists the directory name, each entry's FileInfo (not
// following links) read relative to the directory's handle, so that
// nothing is described from elsewhere.
func (r *Root) ReadDir(name string) ([]fs.DirEntry, error) {
	clean, err := check("readdir", name)
	if err != nil {
		return nil, err
	}
	return r.ops.readDir(clean)
}

// ReadDirNames lists the names in the directory name, nothing more.
func (r *Root) ReadDirNames(name string) ([]string, error) {
	clean, err := check("readdir", name)
	if err != nil {
		return nil, err
	}
	return r.ops.readDirNames(clean)
}

// Mkdir makes the directory name; a link at name is not followed.
func (r *Root) Mkdir(name string, perm fs.FileMode) error {
	clean, err := check("mkdir", name)
	if err != nil {
		return err
	}
	return r.ops.mkdir(clean, perm)
}

// MkdirAll makes the directory name and its missing parents.
func (r *Root) MkdirAll(name string, perm fs.FileMode) error {
	clean, err := check("mkdir", name)
	if err != nil {
		return err
	}
	return r.ops.mkdirAll(clean, perm)
}

// Remove removes the file (or link) name; a directory is refused
// (ErrIsDir), also one swapped in since the caller looked.
func (r *Root) Remove(name string) error {
	clean, err := check("remove", name)
	if err != nil {
		return err
	}
	if clean == "." {
		return &fs.PathError{Op: "remove", Path: name, Err: ErrIsDir}
	}
	return r.ops.remove(clean)
}

// Rename renames oldname to newname, neither's last component followed.
func (r *Root) Rename(oldname, newname string) error {
	from, err := check("rename", oldname)
	if err != nil {
		return err
	}
	to, err := check("rename", newname)
	if err != nil {
		return err
	}
	return r.ops.rename(from, to)
}

// Link makes newname a hard link to oldname; it fails on an existing
// newname.
func (r *Root) Link(oldname, newname string) error {
	from, err := check("link", oldname)
	if err != nil {
		return err
	}
	to, err := check("link", newname)
	if err != nil {
		return err
	}
	return r.ops.link(from, to)
}

// errorf wraps err in a PathError for op on name.
func errorf(op, name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}
