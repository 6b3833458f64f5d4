//go:build js

package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// procOps are a Root's operations under js (Node, which has no openat)
// on Linux: the root's directory stays open, and a path's directory is
// opened from that handle through /proc/self/fd/N/PATH (the kernel
// resolves /proc/self/fd/N to the very directory N is open on, whatever
// has been renamed or swapped since) and checked to be inside the root
// by where /proc/self/fd says the new handle really is; only then is the
// last component acted on, relative to that handle, by calls that do not
// follow a link there. mkdirAll goes one component at a time.
type procOps struct {
	dir  *os.File // the root directory, open
	real string   // where it really is
}

// openProc opens dir for the handle-based walk, or returns nil where
// /proc/self/fd cannot say where a handle is (no /proc, as on macOS; an
// in-memory workspace, where no link can be made): there os.Root's
// check-then-act is all there is, and no link can be swapped in.
func openProc(dir string) ops {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	real, err := os.Readlink(fdPath(d))
	if err != nil || !filepath.IsAbs(real) {
		d.Close()
		return nil
	}
	return &procOps{dir: d, real: real}
}

func fdPath(f *os.File) string { return "/proc/self/fd/" + strconv.FormatUint(uint64(f.Fd()), 10) }

func (p *procOps) close() error { return p.dir.Close() }

// inside reports whether the open f is the root or below it.
func (p *procOps) inside(f *os.File) bool {
	where, err := os.Readlink(fdPath(f))
	if err != nil {
		return false
	}
	where = strings.TrimSuffix(where, " (deleted)")
	return where == p.real || strings.HasPrefix(where, strings.TrimSuffix(p.real, "/")+"/")
}

// handle is an open directory of the walk; done releases it (the root's
// own handle stays open).
type handle struct {
	f     *os.File
	owned bool
}

func (h handle) path(base string) string {
	if base == "" || base == "." {
		return fdPath(h.f)
	}
	return fdPath(h.f) + "/" + base
}

func (h handle) done() {
	if h.owned {
		h.f.Close()
	}
}

// step opens the component c of h's directory (a link there is
// followed) and checks that it is a directory inside the root.
func (p *procOps) step(h handle, c string) (handle, error) {
	next, err := os.Open(h.path(c))
	if err != nil {
		return handle{}, err
	}
	if !p.inside(next) {
		next.Close()
		return handle{}, ErrOutside
	}
	fi, err := next.Stat()
	if err == nil && !fi.IsDir() {
		err = syscall.ENOTDIR
	}
	if err != nil {
		next.Close()
		return handle{}, err
	}
	return handle{f: next, owned: true}, nil
}

// walk opens the directory dir (cleaned, relative to the root) in one
// open from the root's handle: whatever links the kernel follows on the
// way, where the handle really is decides, and nothing has been done
// but opening a directory.
func (p *procOps) walk(op, dir string) (handle, error) {
	h := handle{f: p.dir}
	if dir == "." {
		return h, nil
	}
	next, err := p.step(h, dir)
	if err != nil {
		return handle{}, errorf(op, dir, err)
	}
	return next, nil
}

func (p *procOps) openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if name == "." {
		if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC) != 0 {
			return nil, errorf("open", name, syscall.EISDIR)
		}
		return os.Open(fdPath(p.dir))
	}
	if flag&(os.O_CREATE|os.O_TRUNC) == 0 {
		// An open that changes nothing is made at once and judged by
		// where the file really is.
		f, err := os.OpenFile(h0(p).path(name), flag, perm)
		return p.checked(name, f, err)
	}
	dir, base := split(name)
	h, err := p.walk("open", dir)
	if err != nil {
		return nil, err
	}
	defer h.done()
	path := h.path(base)
	if flag&os.O_CREATE != 0 && flag&os.O_EXCL == 0 {
		// O_EXCL follows no link at base: a new file here is inside.
		f, err := os.OpenFile(path, flag|os.O_EXCL, perm)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, errorf("open", name, err)
		}
		flag &^= os.O_CREATE
	}
	// An existing file is opened without O_TRUNC, and truncated once it
	// is known to be inside: a link at base is followed by the open.
	trunc := flag&os.O_TRUNC != 0 && flag&os.O_EXCL == 0
	if trunc {
		flag &^= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flag, perm)
	if err != nil {
		return nil, errorf("open", name, err)
	}
	if !p.inside(f) {
		f.Close()
		return nil, errorf("open", name, ErrOutside)
	}
	if trunc {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, errorf("open", name, err)
		}
	}
	return f, nil
}

// h0 is the root's own handle.
func h0(p *procOps) handle { return handle{f: p.dir} }

// checked refuses an opened file that is not inside the root.
func (p *procOps) checked(name string, f *os.File, err error) (*os.File, error) {
	if err != nil {
		return nil, errorf("open", name, err)
	}
	if !p.inside(f) {
		f.Close()
		return nil, errorf("open", name, ErrOutside)
	}
	return f, nil
}

func (p *procOps) lstat(name string) (fs.FileInfo, error) {
	if name == "." {
		return p.dir.Stat()
	}
	dir, base := split(name)
	h, err := p.walk("lstat", dir)
	if err != nil {
		return nil, err
	}
	defer h.done()
	fi, err := os.Lstat(h.path(base))
	if err != nil {
		return nil, errorf("lstat", name, err)
	}
	return fi, nil
}

func (p *procOps) stat(name string) (fs.FileInfo, error) {
	fi, err := p.lstat(name)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return fi, err
	}
	f, err := p.openFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, errorf("stat", name, err)
	}
	defer f.Close()
	return f.Stat()
}

func (p *procOps) readDir(name string) ([]fs.DirEntry, error) {
	h, err := p.walk("readdir", name)
	if err != nil {
		return nil, err
	}
	defer h.done()
	// Read while the handle is open: every entry is described (lstat)
	// through it, eagerly.
	entries, err := os.ReadDir(h.path(""))
	out := make([]fs.DirEntry, 0, len(entries))
	for _, e := range entries {
		fi, ierr := os.Lstat(h.path(e.Name()))
		if ierr != nil {
			continue
		}
		out = append(out, fs.FileInfoToDirEntry(fi))
	}
	if err != nil {
		return out, errorf("readdir", name, err)
	}
	return out, nil
}

func (p *procOps) readDirNames(name string) ([]string, error) {
	h, err := p.walk("readdir", name)
	if err != nil {
		return nil, err
	}
	defer h.done()
	d, err := os.Open(h.path(""))
	if err != nil {
		return nil, errorf("readdir", name, err)
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

func (p *procOps) mkdir(name string, perm fs.FileMode) error {
	dir, base := split(name)
	h, err := p.walk("mkdir", dir)
	if err != nil {
		return err
	}
	defer h.done()
	if err := os.Mkdir(h.path(base), perm); err != nil {
		return errorf("mkdir", name, err)
	}
	return nil
}

func (p *procOps) mkdirAll(name string, perm fs.FileMode) error {
	if name == "." {
		return nil
	}
	h := handle{f: p.dir}
	defer func() { h.done() }()
	for _, c := range strings.Split(name, string(filepath.Separator)) {
		next, err := p.step(h, c)
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.Mkdir(h.path(c), perm); err != nil && !errors.Is(err, fs.ErrExist) {
				return errorf("mkdir", name, err)
			}
			next, err = p.step(h, c)
		}
		if err != nil {
			return errorf("mkdir", name, err)
		}
		h.done()
		h = next
	}
	return nil
}

func (p *procOps) remove(name string) error {
	dir, base := split(name)
	h, err := p.walk("remove", dir)
	if err != nil {
		return err
	}
	defer h.done()
	path := h.path(base)
	if fi, err := os.Lstat(path); err != nil {
		return errorf("remove", name, err)
	} else if fi.IsDir() {
		return errorf("remove", name, ErrIsDir)
	}
	// unlink never removes a directory, nor follows a link at base.
	err = syscall.Unlink(path)
	if errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.EPERM) {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.IsDir() {
			err = ErrIsDir
		}
	}
	if err != nil {
		return errorf("remove", name, err)
	}
	return nil
}

// pair opens the parent directories of from and to.
func (p *procOps) pair(op, from, to string) (a, b handle, fromBase, toBase string, err error) {
	fromDir, fromBase := split(from)
	toDir, toBase := split(to)
	if a, err = p.walk(op, fromDir); err != nil {
		return
	}
	if b, err = p.walk(op, toDir); err != nil {
		a.done()
	}
	return
}

func (p *procOps) rename(from, to string) error {
	a, b, fb, tb, err := p.pair("rename", from, to)
	if err != nil {
		return err
	}
	defer a.done()
	defer b.done()
	if err := syscall.Rename(a.path(fb), b.path(tb)); err != nil {
		return errorf("rename", from, err)
	}
	return nil
}

func (p *procOps) link(from, to string) error {
	a, b, fb, tb, err := p.pair("link", from, to)
	if err != nil {
		return err
	}
	defer a.done()
	defer b.done()
	if err := syscall.Link(a.path(fb), b.path(tb)); err != nil {
		return errorf("link", from, err)
	}
	return nil
}
