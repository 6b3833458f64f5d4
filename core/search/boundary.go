package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// MaxPathBytes is the longest path Resolve and ResolveNew accept, in
// bytes: Linux's PATH_MAX. A longer one is refused (ErrPathTooLong)
// before anything is looked up.
const MaxPathBytes = 4096

// maxLinkHops is how many symbolic links one resolution follows, as
// Linux's own path walk (ELOOP past it).
const maxLinkHops = 40

// ErrPathTooLong is returned (wrapped) for a path over MaxPathBytes.
var ErrPathTooLong = errors.New("path is too long")

// Resolve resolves p inside the workspace. p may be empty (the root),
// relative to the root, or absolute. A path whose cleaned form (`..`
// resolved) leaves the root is refused without touching the file system;
// otherwise its symlinks are evaluated and the real path must lie inside
// the root too. Refusals wrap ErrOutsideWorkspace and say nothing of what
// lies outside: neither where a link points nor whether a path under it
// exists. It returns the real absolute path and its slash-separated path
// relative to the root ("" for the root itself). A path inside the
// workspace that does not exist is an error wrapping fs.ErrNotExist. A
// path over MaxPathBytes is refused (ErrPathTooLong); resolution looks
// at each component once (and at most maxLinkHops links).
func (w Workspace) Resolve(p string) (abs, rel string, err error) {
	return w.ResolveContext(context.Background(), p)
}

// ResolveContext is Resolve, stopping with ctx's error when ctx ends
// (checked every few components).
func (w Workspace) ResolveContext(ctx context.Context, p string) (abs, rel string, err error) {
	abs, rel, missing, err := w.ResolveNewContext(ctx, p)
	if err != nil {
		return "", "", err
	}
	if len(missing) > 0 {
		return "", "", fmt.Errorf("path %q: %w", p, syscall.ENOENT)
	}
	return abs, rel, nil
}

// ResolveNew resolves a path that may not exist yet, as Resolve does:
// abs and rel are its deepest existing ancestor (itself when it exists),
// which must resolve inside the workspace, and missing the components
// below it that do not exist (none when the path exists). A dangling
// link's own name counts as existing.
func (w Workspace) ResolveNew(p string) (abs, rel string, missing []string, err error) {
	return w.ResolveNewContext(context.Background(), p)
}

// ResolveNewContext is ResolveNew, stopping with ctx's error when ctx
// ends (checked every few components).
func (w Workspace) ResolveNewContext(ctx context.Context, p string) (abs, rel string, missing []string, err error) {
	if len(p) > MaxPathBytes {
		return "", "", nil, fmt.Errorf("path of %d bytes: %w (the limit is %d bytes)", len(p), ErrPathTooLong, MaxPathBytes)
	}
	var joined string
	switch {
	case p == "":
		joined = w.given
	case filepath.IsAbs(p):
		joined = filepath.Clean(p)
	default:
		joined = filepath.Join(w.given, p)
	}
	outside := fmt.Errorf("%q: %w", p, ErrOutsideWorkspace)
	if !within(w.given, joined) && !within(w.root, joined) {
		return "", "", nil, outside
	}
	real, missing, deepest, err := walkExisting(ctx, joined)
	if ctx.Err() != nil {
		return "", "", nil, fmt.Errorf("resolving a path: %w", ctx.Err())
	}
	if err != nil {
		// The error alone: its path may be a link's target, outside.
		return "", "", nil, fmt.Errorf("path %q: %w", p, unwrapPathErr(err))
	}
	// Whether a missing part lies under a link that leaves the workspace
	// is answered from the deepest part that exists, so that a refusal
	// tells nothing about the outside.
	if !within(w.root, deepest) {
		return "", "", nil, outside
	}
	r, ok := relTo(w.root, real)
	if !ok {
		return "", "", nil, outside
	}
	return real, r, missing, nil
}

// walkExisting resolves the absolute, clean path component by component,
// each looked at once, links followed (at most maxLinkHops). When a
// component does not exist it stops: real is the resolution of the
// longest prefix of path's own components that exists (a link counted as
// existing when what it points to does not), missing the rest of path's
// components, and deepest the deepest directory reached (inside a link's
// target when that is where the walk stopped).
func walkExisting(ctx context.Context, path string) (real string, missing []string, deepest string, err error) {
	type comp struct {
		name string
		orig int // index among path's own components, -1 in a link's target
	}
	split := func(s string, orig bool) []comp {
		var out []comp
		for _, c := range strings.Split(s, string(filepath.Separator)) {
			if c == "" || c == "." {
				continue
			}
			i := -1
			if orig {
				i = len(out)
			}
			out = append(out, comp{name: c, orig: i})
		}
		return out
	}
	vol := filepath.VolumeName(path)
	own := split(path[len(vol):], true)
	comps := own
	dest := vol + string(filepath.Separator)
	before := make([]string, len(own)) // dest as each own component began
	lastOwn := -1
	hops := 0
	for i, steps := 0, 0; i < len(comps); i, steps = i+1, steps+1 {
		if steps%64 == 63 && ctx.Err() != nil {
			return "", nil, "", ctx.Err()
		}
		c := comps[i]
		if c.orig >= 0 {
			before[c.orig] = dest
			lastOwn = c.orig
		}
		if c.name == ".." {
			dest = filepath.Dir(dest)
			continue
		}
		next := filepath.Join(dest, c.name)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			names := make([]string, 0, len(own)-lastOwn)
			for _, o := range own[lastOwn:] {
				names = append(names, o.name)
			}
			return before[lastOwn], names, dest, nil
		}
		if err != nil {
			return "", nil, "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if !fi.IsDir() && i < len(comps)-1 {
				return "", nil, "", &fs.PathError{Op: "lstat", Path: next, Err: syscall.ENOTDIR}
			}
			dest = next
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", nil, "", &fs.PathError{Op: "lstat", Path: next, Err: syscall.ELOOP}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", nil, "", err
		}
		if filepath.IsAbs(target) {
			v := filepath.VolumeName(target)
			dest = v + string(filepath.Separator)
			target = target[len(v):]
		}
		comps = append(split(target, false), comps[i+1:]...)
		i = -1
	}
	return dest, nil, dest, nil
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
