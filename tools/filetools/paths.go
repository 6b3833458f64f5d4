package filetools

import (
	"context"
	"errors"
	"fmt"
	"github.com/loupe-dev/loupe/internal/safefs"
	"io"
	"io/fs"
	"unicode/utf8"

	"path"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/core/search"
)

// target is a path checked inside the workspace.
type target struct {
	given string // as the call gave it
	rel   string // slash-separated, relative to the root, symlinks resolved ("" is the root)
}

// os is the path for os.Root's methods.
func (g target) os() string {
	if g.rel == "" {
		return "."
	}
	return filepath.FromSlash(g.rel)
}

// display is the path results show.
func (g target) display() string {
	if g.rel == "" {
		return "."
	}
	return g.rel
}

// outsideError is the refusal of a path leaving the workspace; it tells
// nothing of what lies outside.
func outsideError(tool, given string) *Error {
	return &Error{Tool: tool, Path: given, Msg: "path is outside the workspace",
		Hint: "Use a path relative to the workspace root that stays inside it (no '..' above the root, no absolute path elsewhere, no link leading out)",
		Err:  search.ErrOutsideWorkspace}
}

// pathError turns a file-system error about given into an *Error.
func pathError(tool, given string, err error) *Error {
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return &Error{Tool: tool, Path: shownPath(given), Msg: "stopped while resolving the path: the call was cancelled or ran out of time", Err: err}
	case errors.Is(err, search.ErrOutsideWorkspace) || escapes(err):
		return outsideError(tool, given)
	case errors.Is(err, search.ErrPathTooLong):
		return &Error{Tool: tool, Path: shownPath(given), Msg: err.Error(), Err: search.ErrPathTooLong,
			Hint: "Give a shorter path"}
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Tool: tool, Path: given, Msg: "file not found",
			Hint: "Check the path (relative to the workspace root) with glob, search or list_directory", Err: fs.ErrNotExist}
	}
	return &Error{Tool: tool, Path: given, Msg: "cannot access", Err: unwrapPath(err)}
}

// shownPath is a path as a message shows it: a long one (a path over
// the length limit) cut to its first 200 bytes.
func shownPath(given string) string {
	const shown = 200
	if len(given) <= shown {
		return given
	}
	cut := shown
	for cut > 0 && !utf8.RuneStart(given[cut]) {
		cut--
	}
	return given[:cut] + "…"
}

// escapes reports whether err is the refusal of a path that leaves the
// root (a link swapped in after the check): safefs's, or os.Root's in the
// same words.
func escapes(err error) bool {
	return errors.Is(err, safefs.ErrOutside) || err != nil && strings.Contains(err.Error(), safefs.ErrOutside.Error())
}

// unwrapPath drops an fs.PathError's absolute path, so that messages do
// not spell the workspace's location.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// resolve checks an existing path: inside the workspace, its symlinks
// resolved. An empty path is the root when allowRoot, else an error.
func (t *Tools) resolve(ctx context.Context, tool, given string, allowRoot bool) (target, error) {
	if given == "" && !allowRoot {
		return target{}, &Error{Tool: tool, Msg: "path is required", Hint: "Give a file path relative to the workspace root"}
	}
	_, rel, err := t.ws.ResolveContext(ctx, given)
	if err != nil {
		return target{}, pathError(tool, given, err)
	}
	if t.afterResolve != nil {
		t.afterResolve(rel)
	}
	return target{given: given, rel: rel}, nil
}

// resolveNew checks a path that may not exist yet: its deepest existing
// ancestor is resolved (and must be a directory inside the workspace),
// the missing components are appended. exists says whether the path
// itself exists; then rel is resolved as by resolve.
func (t *Tools) resolveNew(ctx context.Context, tool, given string) (g target, exists bool, err error) {
	if given == "" {
		return target{}, false, &Error{Tool: tool, Msg: "path is required", Hint: "Give a file path relative to the workspace root"}
	}
	_, rel, missing, err := t.ws.ResolveNewContext(ctx, given)
	if err != nil {
		return target{}, false, pathError(tool, given, err)
	}
	rel = path.Join(append([]string{rel}, missing...)...)
	if t.afterResolve != nil {
		t.afterResolve(rel)
	}
	return target{given: given, rel: strings.TrimPrefix(rel, "/")}, len(missing) == 0, nil
}

// readFile reads an existing regular file through root, at most limit
// bytes.
func readFile(root *safefs.Root, tool string, g target, limit int64) ([]byte, fs.FileInfo, error) {
	f, fi, err := root.OpenRegular(g.os())
	switch {
	case errors.Is(err, safefs.ErrIsDir):
		return nil, nil, &Error{Tool: tool, Path: g.given, Msg: "is a directory, not a file", Hint: "Use list_directory to see its entries"}
	case errors.Is(err, safefs.ErrNotRegular):
		return nil, nil, notRegular(tool, g.given, fi)
	case err != nil:
		return nil, nil, pathError(tool, g.given, err)
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, nil, tooLarge(tool, g.given, fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, nil, pathError(tool, g.given, err)
	}
	if int64(len(data)) > limit {
		return nil, nil, tooLarge(tool, g.given, int64(len(data)), limit)
	}
	return data, fi, nil
}

// notRegular refuses a fifo, socket or device (fi, when known, says
// which): it is never opened for reading or writing, where a fifo would
// wait for a writer.
func notRegular(tool, given string, fi fs.FileInfo) *Error {
	kind := "not a regular file"
	if fi != nil {
		switch m := fi.Mode(); {
		case m&fs.ModeNamedPipe != 0:
			kind = "a fifo (named pipe), not a regular file"
		case m&fs.ModeSocket != 0:
			kind = "a socket, not a regular file"
		case m&fs.ModeDevice != 0:
			kind = "a device, not a regular file"
		}
	}
	return &Error{Tool: tool, Path: given, Msg: kind + "; it was not opened", Err: safefs.ErrNotRegular,
		Hint: "The file tools read and write regular files only"}
}

func tooLarge(tool, given string, size, limit int64) *Error {
	return &Error{Tool: tool, Path: given, Msg: fmt.Sprintf("file is too large (%s, the limit is %s)", byteSize(size), byteSize(limit)),
		Hint: "Use grep to find the lines you need, then read_file with start_line and end_line"}
}

// byteSize renders n bytes for a message.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
