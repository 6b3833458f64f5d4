package rewrite

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/core/search"
)

// tempMarker sits between a file's name and the random digits of the
// temporary file that WriteFile, ReplaceFileIn and CreateFileIn write
// before renaming it into place: ".NAME.loupe-DIGITS".
const tempMarker = ".loupe-"

// IsTempName reports whether name (a base name) is one of the temporary
// files an atomic write creates next to its target, ".NAME.loupe-DIGITS".
// Such a file outlives its write only when the writing process is killed
// between creating and renaming it; tools that list files skip it.
func IsTempName(name string) bool {
	if !strings.HasPrefix(name, ".") {
		return false
	}
	i := strings.LastIndex(name, tempMarker)
	if i < 2 {
		return false
	}
	digits := name[i+len(tempMarker):]
	if digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ReplaceFileIn replaces the existing regular file name (relative to
// root) with data atomically, as WriteFile does, with every path opened
// through root so that nothing outside it is touched whatever is swapped
// in under it meanwhile: data goes to a temporary file in the same
// directory with the original's mode (special bits included), is synced,
// then renamed over the original. A reader, or a kill at any moment, sees
// the old content or the new, never a mix. A symbolic link at name is
// refused (resolve it first), so a link swapped in is never followed.
func ReplaceFileIn(root *os.Root, name string, data []byte) error {
	fi, err := root.Lstat(name)
	if err != nil {
		return fmt.Errorf("update %s: %w", name, err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("update %s: is a symbolic link", name)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("update %s: not a regular file", name)
	}
	if err := writable(func(flag int) (*os.File, error) { return root.OpenFile(name, flag, 0) }, name); err != nil {
		return err
	}
	mode := fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	tmp, err := writeTemp(root, name, data, 0o600, &mode)
	if err != nil {
		return fmt.Errorf("update %s: %w", name, err)
	}
	if err := root.Rename(tmp, name); err != nil {
		root.Remove(tmp)
		return fmt.Errorf("update %s: %w", name, err)
	}
	return nil
}

// CreateFileIn creates the file name (relative to root, its directory
// existing) holding data, atomically: the file appears complete or not at
// all. perm is filtered by the umask as for any new file. If name exists
// the error wraps fs.ErrExist and nothing is changed, also when it is
// created concurrently (the temporary file is hard-linked into place,
// which fails on an existing name; where hard links are unsupported it is
// renamed after a check).
func CreateFileIn(root *os.Root, name string, data []byte, perm fs.FileMode) error {
	if _, err := root.Lstat(name); err == nil {
		return fmt.Errorf("create %s: %w", name, fs.ErrExist)
	}
	tmp, err := writeTemp(root, name, data, perm, nil)
	if err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	defer root.Remove(tmp)
	err = root.Link(tmp, name)
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create %s: %w", name, fs.ErrExist)
	}
	// No hard links here: check, then rename.
	if _, err := root.Lstat(name); err == nil {
		return fmt.Errorf("create %s: %w", name, fs.ErrExist)
	}
	if err := root.Rename(tmp, name); err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	return nil
}

// writeTemp writes data to a new temporary file next to name, synced and
// closed, and returns its name. chmod, when set, is the mode it is given
// (exactly, whatever the umask).
func writeTemp(root *os.Root, name string, data []byte, perm fs.FileMode, chmod *fs.FileMode) (string, error) {
	dir, base := filepath.Split(name)
	var (
		f   *os.File
		tmp string
		err error
	)
	for range 10000 {
		tmp = dir + "." + base + tempMarker + strconv.FormatUint(uint64(rand.Uint32()), 10)
		f, err = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", err
	}
	fail := func(err error) (string, error) {
		f.Close()
		root.Remove(tmp)
		return "", err
	}
	// Under js, a link swapped in for a directory of name since the path
	// was checked puts the temporary file outside: it is removed where it
	// is (it is ours, made with O_EXCL), and nothing is written.
	if outside, err := search.Confined(f, root.Name()); err != nil {
		f.Close()
		os.Remove(outside)
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if chmod != nil {
		if err := f.Chmod(*chmod); err != nil {
			return fail(err)
		}
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		root.Remove(tmp)
		return "", err
	}
	return tmp, nil
}
