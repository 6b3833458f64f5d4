package analysis

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/core/search"
)

// workspace is the directory tree a call may read: core/search's boundary
// and walk, shared with the ast_grep tool, so both honour the same
// workspace rules and ignore files.
type workspace struct {
	ws      search.Workspace
	root    string
	maxSize int64
}

func newWorkspace(root string, maxSize int64) (*workspace, error) {
	ws, err := search.OpenWorkspace(root)
	if err != nil {
		return nil, err
	}
	if maxSize <= 0 {
		maxSize = search.DefaultMaxFileSize
	}
	return &workspace{ws: ws, root: ws.Root(), maxSize: maxSize}, nil
}

// resolve turns a user path (relative to the root, or absolute) into an
// absolute path inside the workspace, following symlinks, and its
// root-relative form with '/'. Paths that leave the workspace, lexically or
// through a symlink, are refused before anything is read.
func (w *workspace) resolve(p, what string) (abs, rel string, err error) {
	p = strings.TrimSpace(p)
	abs, rel, err = w.ws.Resolve(p)
	switch {
	case errors.Is(err, search.ErrOutsideWorkspace):
		return "", "", fmt.Errorf("%s %q is outside the workspace root", what, p)
	case errors.Is(err, fs.ErrNotExist):
		return "", "", fmt.Errorf("%s %q does not exist in the workspace", what, p)
	case err != nil:
		return "", "", fmt.Errorf("%s %q: %w", what, p, err)
	}
	return abs, rel, nil
}

// relative words err with the workspace's paths relative to its root: an
// error from the file system (listing a directory, say) names absolute
// paths, and the host's path of the root is none of the model's
// business. The root itself becomes ".".
func (w *workspace) relative(err error) error {
	msg := err.Error()
	root := w.root
	if !strings.Contains(msg, root) {
		return err
	}
	msg = strings.ReplaceAll(msg, root+string(filepath.Separator), "")
	msg = strings.ReplaceAll(msg, root, ".")
	return &reworded{msg: msg, err: err}
}

// reworded is an error with new words and the same chain.
type reworded struct {
	msg string
	err error
}

func (r *reworded) Error() string { return r.msg }
func (r *reworded) Unwrap() error { return r.err }

// inside reports whether the symlink-free path abs lies in the workspace.
func (w *workspace) inside(abs string) bool { return w.ws.Contains(abs) }

// listFiles returns the files under abs (a file or a directory) that one of
// exts parses, in path order, through the search pipeline's walk (ignore
// files, hidden entries and node_modules skipped, symlinks not followed out
// of the workspace). It also returns what the walk could not take in: the
// files of those languages it skipped (over the size cap, unreadable) and
// every directory it could not read, which may hold such files.
func (w *workspace) listFiles(ctx context.Context, abs string, exts map[string]*compiled) ([]*file, []search.Skipped, error) {
	found, skipped, err := search.Files(ctx, search.Options{Root: w.root, Paths: []string{abs}, MaxFileSize: w.maxSize})
	if err != nil {
		return nil, nil, err
	}
	var out []*file
	for _, f := range found {
		if c := extLang(f.Path, exts); c != nil {
			out = append(out, &file{rel: f.Path, abs: f.Abs, c: c, f: f})
		}
	}
	var missed []search.Skipped
	for _, s := range skipped {
		if extLang(s.Path, exts) != nil || s.Reason == search.SkipUnreadable {
			missed = append(missed, s)
		}
	}
	return out, missed, nil
}

// extLang finds the table that parses a file, by its extension; the longest
// matching extension wins (.d.ts before .ts).
func extLang(path string, exts map[string]*compiled) *compiled {
	base := path[strings.LastIndexByte(path, '/')+1:]
	for i := 1; i < len(base); i++ {
		if base[i] == '.' {
			if c, ok := exts[strings.ToLower(base[i+1:])]; ok {
				return c
			}
		}
	}
	return nil
}
