package search

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutsideWorkspace is returned (wrapped) when a search path resolves
// outside the workspace root.
var ErrOutsideWorkspace = errors.New("path is outside the workspace")

// Workspace is a resolved workspace root.
type Workspace struct {
	root  string // absolute, every symlink evaluated
	given string // absolute as given, symlinks kept
}

// OpenWorkspace resolves root (made absolute, symlinks evaluated) and
// checks that it is a directory.
func OpenWorkspace(root string) (Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return Workspace{}, fmt.Errorf("workspace root %q: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Workspace{}, fmt.Errorf("workspace root: %w", err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return Workspace{}, fmt.Errorf("workspace root: %w", err)
	}
	if !fi.IsDir() {
		return Workspace{}, fmt.Errorf("workspace root %q is not a directory", root)
	}
	return Workspace{root: real, given: abs}, nil
}

// Root returns the resolved root directory.
func (w Workspace) Root() string { return w.root }

// Resolve resolves p inside the workspace. p may be empty (the root),
// relative to the root, or absolute. A path whose cleaned form (`..`
// resolved) leaves the root is refused without touching the file system;
// otherwise its symlinks are evaluated and the real path must lie inside
// the root too. Refusals wrap ErrOutsideWorkspace and say nothing of what
// lies outside: neither where a link points nor whether a path under it
// exists. It returns the real absolute path and its slash-separated path
// relative to the root ("" for the root itself). A path inside the
// workspace that does not exist is an error wrapping fs.ErrNotExist.
func (w Workspace) Resolve(p string) (abs, rel string, err error) {
	var joined string
	switch {
	case p == "":
		joined = w.given
	case filepath.IsAbs(p):
		joined = filepath.Clean(p)
	default:
		joined = filepath.Join(w.given, p)
	}
	if !within(w.given, joined) && !within(w.root, joined) {
		return "", "", fmt.Errorf("%q: %w", p, ErrOutsideWorkspace)
	}
	outside := fmt.Errorf("%q: %w", p, ErrOutsideWorkspace)
	real, err := filepath.EvalSymlinks(joined)
	if err != nil {
		// Whether the missing part lies under a link that leaves the
		// workspace is answered from the deepest part that exists, so
		// that a refusal tells nothing about the outside.
		if w.escapes(joined) {
			return "", "", outside
		}
		// The error alone: its path is the link's target, which may be
		// outside even when the link is not.
		return "", "", fmt.Errorf("path %q: %w", p, unwrapPathErr(err))
	}
	r, ok := relTo(w.root, real)
	if !ok {
		return "", "", outside
	}
	return real, r, nil
}

// escapes reports whether the deepest existing ancestor of path (itself
// included) resolves outside the workspace, or is a link pointing
// outside it (a dangling one included, whose target cannot be resolved).
func (w Workspace) escapes(path string) bool {
	for dir, hops := path, 0; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return !within(w.root, real)
		}
		if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 && hops < 40 {
			target, err := os.Readlink(dir)
			if err != nil {
				return true
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(dir), target)
			}
			if !within(w.given, target) && !within(w.root, target) {
				return true
			}
			dir, hops = target, hops+1
			continue
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// Contains reports whether the absolute, symlink-free path abs lies in the
// workspace.
func (w Workspace) Contains(abs string) bool { return within(w.root, abs) }

func within(root, abs string) bool {
	_, ok := relTo(root, abs)
	return ok
}

// relTo returns abs relative to root, slash-separated, when it is inside.
func relTo(root, abs string) (string, bool) {
	if abs == root {
		return "", true
	}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if !strings.HasPrefix(abs, prefix) {
		return "", false
	}
	return filepath.ToSlash(abs[len(prefix):]), true
}
