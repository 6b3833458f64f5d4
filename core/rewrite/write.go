package rewrite

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces the file at path with data atomically: data is
// written to a temporary file in the same directory with the original's
// mode (special bits included), synced, then renamed over the original,
// so a reader, or a crash at any moment, sees the old content or the new,
// never a mix. A symlink stays a symlink: its target is replaced. A
// file the user could not write in place (read-only, another user's) is
// refused, though the rename could replace it.
func WriteFile(path string, data []byte) error {
	path, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("update: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("update %s: not a regular file", path)
	}
	// Renaming a new file over one with other hard links would split it
	// from them; refused, as the tools refuse it.
	if links(fi) > 1 {
		return fmt.Errorf("update %s: %w; nothing was written", path, ErrHardLinked)
	}
	if err := writable(func(flag int) (*os.File, error) { return os.OpenFile(path, flag, 0) }, path); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".loupe-*")
	if err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("update %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	// The owner first: giving a file away clears its set-id bits.
	if err := keepOwner(tmp, fi); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("update %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("update %s: %w", path, err)
	}
	return nil
}
