package filetools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/loupe-dev/loupe/internal/safefs"
	"io/fs"

	"path"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/search"

	"github.com/loupe-dev/loupe/tools/toolspec"
)

// newFilePerm is the mode a created file asks for (the umask applies).
const newFilePerm = 0o644

// loadText reads an existing text file for editing.
func (t *Tools) loadText(root *safefs.Root, tool string, g target) ([]byte, textFile, error) {
	data, _, err := readFile(root, tool, g, t.cfg.MaxFileSize)
	if err != nil {
		return nil, textFile{}, err
	}
	if search.Screen(data) == search.SkipBinary {
		return nil, textFile{}, &Error{Tool: tool, Path: g.given, Msg: "binary file, not edited", Hint: "The editing tools change text files only"}
	}
	return data, decodeText(data), nil
}

// commit asks for approval and replaces the file g, read as old, with
// data. A file that changed meanwhile (while the approver decided, or
// while it was written) is left alone; what another process appended to
// it is kept at its end, and note says so (else it is "").
func (t *Tools) commit(ctx context.Context, root *safefs.Root, tool string, g target, old, data []byte, summary, diff string) (note string, err error) {
	if err := t.approve(ctx, toolspec.Request{Tool: tool, Permission: toolspec.WriteFiles, Path: g.display(), Summary: summary, Diff: diff}); err != nil {
		return "", err
	}
	rep, err := rewrite.ReplaceFileIn(root, g.os(), old, data)
	if err != nil {
		return "", writeError(tool, g.given, err)
	}
	return replacedNote(rep).note(), nil
}

// replacedNote says what else happened to a file replaced while another
// process wrote to it.
type replacedNote rewrite.Replaced

func (r replacedNote) note() string {
	var parts []string
	if r.Carried > 0 {
		parts = append(parts, fmt.Sprintf("another process appended %s to the file while it was written; they were kept at its end, unedited", byteSize(r.Carried)))
	}
	if r.StillOpen {
		parts = append(parts, "another process still has the old file open for writing: what it writes from now on does not reach the file")
	}
	if r.Lost {
		parts = append(parts, "another process changed the file while it was written; that change is not in it: read the file and redo it")
	}
	if len(parts) == 0 {
		return ""
	}
	return " Note: " + strings.Join(parts, "; ") + "."
}

// writeError turns a failed write into an *Error.
func writeError(tool, given string, err error) error {
	switch {
	case escapes(err):
		return outsideError(tool, given)
	case errors.Is(err, safefs.ErrNotRegular):
		return notRegular(tool, given, nil)
	case errors.Is(err, rewrite.ErrChanged):
		return &Error{Tool: tool, Path: given, Msg: "the file changed while the change waited for approval or was written; nothing was written", Err: rewrite.ErrChanged,
			Hint: "Read the file again and redo the change on its current content"}
	case errors.Is(err, rewrite.ErrHardLinked):
		return &Error{Tool: tool, Path: given, Msg: "the file has other hard links; nothing was written (replacing it would split it from them, writing in place could be torn by a crash)", Err: unwrapPath(err),
			Hint: "Write a copy under a new name, or break the link yourself (copy the file over itself) if the copies may part"}
	case errors.Is(err, rewrite.ErrOwner):
		return &Error{Tool: tool, Path: given, Msg: "the file belongs to another user and group, which the new file could not be given; nothing was written", Err: unwrapPath(err),
			Hint: "Edit the file as its owner (or as root)"}
	}
	return &Error{Tool: tool, Path: given, Msg: "write failed, the file is unchanged", Err: unwrapPath(err)}
}

// CreateFileParams are create_file's parameters.
type CreateFileParams struct {
	Path      string `json:"path" desc:"File to create, relative to the workspace root; missing parent directories are created."`
	Content   string `json:"content" desc:"The file's content."`
	Overwrite bool   `json:"overwrite,omitempty" desc:"Replace the file if it exists (as update_file does: its line endings, BOM and mode are kept). Without it an existing file is an error."`
}

// CreateFileResult is create_file's answer.
type CreateFileResult struct {
	// Path is the file, relative to the workspace root.
	Path string `json:"path"`
	// Created is set when a new file was written; Overwritten when an
	// existing one was replaced.
	Created     bool `json:"created"`
	Overwritten bool `json:"overwritten"`
	// Lines and Bytes are the file's size now.
	Lines int `json:"lines"`
	Bytes int `json:"bytes"`
	// Message says what was done.
	Message string `json:"message"`
}

// Text returns the message.
func (r *CreateFileResult) Text() string { return r.Message + "\n" }

// CreateFile creates a file, refusing to replace one unless Overwrite.
func (t *Tools) CreateFile(ctx context.Context, p CreateFileParams) (*CreateFileResult, error) {
	const tool = CreateFileName
	g, exists, err := t.resolveNew(ctx, tool, p.Path)
	if err != nil {
		return nil, err
	}
	if exists {
		if !p.Overwrite {
			return nil, &Error{Tool: tool, Path: p.Path, Msg: "file already exists, nothing was written", Err: fs.ErrExist,
				Hint: "Set overwrite=true to replace it, or change it with update_file, replace_in_file or edit_lines"}
		}
		up, err := t.update(ctx, tool, p.Path, p.Content)
		if err != nil {
			return nil, err
		}
		return &CreateFileResult{Path: up.Path, Overwritten: up.Changed, Lines: up.Lines, Bytes: up.Bytes, Message: up.Message}, nil
	}
	root, err := t.openRoot(tool)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	diff := unifiedDiff(g.display(), "", p.Content, true, false)
	lines := countLines(p.Content)
	summary := fmt.Sprintf("create %s (%d %s, %s)", g.display(), lines, plural(lines, "line", "lines"), byteSize(int64(len(p.Content))))
	if err := t.approve(ctx, toolspec.Request{Tool: tool, Permission: toolspec.CreateFiles, Path: g.display(), Summary: summary, Diff: diff}); err != nil {
		return nil, err
	}
	if dir := path.Dir(g.rel); dir != "." {
		if err := root.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
			return nil, writeError(tool, p.Path, err)
		}
	}
	if err := rewrite.CreateFileIn(root, g.os(), []byte(p.Content), newFilePerm); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, &Error{Tool: tool, Path: p.Path, Msg: "file was created by someone else meanwhile, nothing was written", Err: fs.ErrExist,
				Hint: "Read it, then change it with update_file or replace_in_file"}
		}
		return nil, writeError(tool, p.Path, err)
	}
	return &CreateFileResult{Path: g.display(), Created: true, Lines: lines, Bytes: len(p.Content),
		Message: fmt.Sprintf("Created %s (%d %s).", g.display(), lines, plural(lines, "line", "lines"))}, nil
}

// UpdateFileParams are update_file's parameters.
type UpdateFileParams struct {
	Path    string `json:"path" desc:"Existing file to replace the content of, relative to the workspace root."`
	Content string `json:"content" desc:"The file's whole new content. The file keeps its line endings (CRLF stays CRLF), byte-order mark, final-newline state and mode."`
}

// UpdateFileResult is update_file's answer.
type UpdateFileResult struct {
	// Path is the file, relative to the workspace root.
	Path string `json:"path"`
	// Changed is set when the file was written (false when the content
	// was already the same).
	Changed bool `json:"changed"`
	// Lines and Bytes are the file's size now.
	Lines int `json:"lines"`
	Bytes int `json:"bytes"`
	// Message says what was done.
	Message string `json:"message"`
}

// Text returns the message.
func (r *UpdateFileResult) Text() string { return r.Message + "\n" }

// UpdateFile replaces an existing file's whole content.
func (t *Tools) UpdateFile(ctx context.Context, p UpdateFileParams) (*UpdateFileResult, error) {
	return t.update(ctx, UpdateFileName, p.Path, p.Content)
}

// update is update_file, and create_file with overwrite.
func (t *Tools) update(ctx context.Context, tool, given, content string) (*UpdateFileResult, error) {
	g, err := t.resolve(ctx, tool, given, false)
	if err != nil {
		return nil, missingHint(err, "Use create_file to create a new file")
	}
	root, err := t.openRoot(tool)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	old, tf, err := t.loadText(root, tool, g)
	if err != nil {
		return nil, err
	}
	body := tf.keepEnd(tf.input(content))
	data := tf.encode(body)
	res := &UpdateFileResult{Path: g.display(), Lines: countLines(body), Bytes: len(data)}
	if bytes.Equal(data, old) {
		res.Message = fmt.Sprintf("%s already has this content; nothing was written.", g.display())
		return res, nil
	}
	diff := unifiedDiff(g.display(), tf.body, body, false, false)
	summary := fmt.Sprintf("replace the content of %s (%d → %d lines)", g.display(), countLines(tf.body), res.Lines)
	note, err := t.commit(ctx, root, tool, g, old, data, summary, diff)
	if err != nil {
		return nil, err
	}
	res.Changed = true
	res.Message = fmt.Sprintf("Updated %s (now %d %s).", g.display(), res.Lines, plural(res.Lines, "line", "lines")) + note
	return res, nil
}

// missingHint replaces the hint of a file-not-found *Error.
func missingHint(err error, hint string) error {
	var e *Error
	if errors.As(err, &e) && errors.Is(err, fs.ErrNotExist) {
		e.Hint = hint
	}
	return err
}

// AppendFileParams are append_file's parameters.
type AppendFileParams struct {
	Path    string `json:"path" desc:"Existing file to append to, relative to the workspace root."`
	Content string `json:"content" desc:"Lines to add at the end of the file. They start on a new line even if the file does not end with one, and take the file's line endings."`
}

// AppendFileResult is append_file's answer.
type AppendFileResult struct {
	// Path is the file, relative to the workspace root.
	Path string `json:"path"`
	// AddedLines is how many lines were appended.
	AddedLines int `json:"added_lines"`
	// TotalLines is the file's line count now.
	TotalLines int `json:"total_lines"`
	// Message says what was done.
	Message string `json:"message"`
}

// Text returns the message.
func (r *AppendFileResult) Text() string { return r.Message + "\n" }

// AppendFile appends lines to an existing file.
func (t *Tools) AppendFile(ctx context.Context, p AppendFileParams) (*AppendFileResult, error) {
	const tool = AppendFileName
	if p.Content == "" {
		return nil, &Error{Tool: tool, Path: p.Path, Msg: "content is empty, nothing to append"}
	}
	g, err := t.resolve(ctx, tool, p.Path, false)
	if err != nil {
		return nil, missingHint(err, "Use create_file to create a new file")
	}
	root, err := t.openRoot(tool)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	old, tf, err := t.loadText(root, tool, g)
	if err != nil {
		return nil, err
	}
	added := tf.contentLines(p.Content)
	lines := append(splitBody(tf.body), added...)
	body := tf.keepEnd(tf.joinLines(lines))
	data := tf.encode(body)
	diff := unifiedDiff(g.display(), tf.body, body, false, false)
	summary := fmt.Sprintf("append %d %s to %s", len(added), plural(len(added), "line", "lines"), g.display())
	note, err := t.commit(ctx, root, tool, g, old, data, summary, diff)
	if err != nil {
		return nil, err
	}
	n := countLines(body)
	return &AppendFileResult{Path: g.display(), AddedLines: len(added), TotalLines: n,
		Message: fmt.Sprintf("Appended %d %s to %s (now %d lines).", len(added), plural(len(added), "line", "lines"), g.display(), n) + note}, nil
}

// DeleteFileParams are delete_file's parameters.
type DeleteFileParams struct {
	Path string `json:"path" desc:"File to delete, relative to the workspace root. Directories are refused; a symbolic link is removed itself, not what it points to."`
}

// DeleteFileResult is delete_file's answer.
type DeleteFileResult struct {
	// Path is the file, relative to the workspace root.
	Path string `json:"path"`
	// Deleted is set when the file was removed.
	Deleted bool `json:"deleted"`
	// Message says what was done.
	Message string `json:"message"`
}

// Text returns the message.
func (r *DeleteFileResult) Text() string { return r.Message + "\n" }

// DeleteFile deletes one file (or symbolic link); directories are
// refused.
func (t *Tools) DeleteFile(ctx context.Context, p DeleteFileParams) (*DeleteFileResult, error) {
	const tool = DeleteFileName
	if p.Path == "" {
		return nil, &Error{Tool: tool, Msg: "path is required", Hint: "Give the file path relative to the workspace root"}
	}
	name := filepath.Base(filepath.Clean(p.Path))
	if name == "." || name == ".." || name == string(filepath.Separator) {
		return nil, &Error{Tool: tool, Path: p.Path, Msg: "not a file path", Hint: "delete_file deletes a single file"}
	}
	// The directory is resolved, the last component is not: a link is
	// removed itself.
	dir, err := t.resolve(ctx, tool, filepath.Dir(filepath.Clean(p.Path)), true)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, pathError(tool, p.Path, fs.ErrNotExist)
		}
		var e *Error
		if errors.As(err, &e) {
			e.Path = shownPath(p.Path)
		}
		return nil, err
	}
	g := target{given: p.Path, rel: path.Join(dir.rel, filepath.ToSlash(name))}
	root, err := t.openRoot(tool)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fi, err := root.Lstat(g.os())
	if err != nil {
		return nil, pathError(tool, p.Path, err)
	}
	var summary, diff string
	switch {
	case fi.IsDir():
		return nil, &Error{Tool: tool, Path: p.Path, Msg: "is a directory, not deleted", Hint: "delete_file deletes single files; delete the files in it one by one if they must go"}
	case fi.Mode()&fs.ModeSymlink != 0:
		summary = fmt.Sprintf("delete the symbolic link %s (not what it points to)", g.display())
	case fi.Mode().IsRegular():
		summary = fmt.Sprintf("delete %s (%s)", g.display(), byteSize(fi.Size()))
		if data, _, err := readFile(root, tool, g, t.cfg.MaxFileSize); err == nil && search.Screen(data) != search.SkipBinary {
			text := decodeText(data)
			diff = unifiedDiff(g.display(), text.body, "", false, true)
			n := countLines(text.body)
			summary = fmt.Sprintf("delete %s (%d %s)", g.display(), n, plural(n, "line", "lines"))
		}
	default:
		return nil, &Error{Tool: tool, Path: p.Path, Msg: notRegular(tool, p.Path, fi).Msg + ", not deleted"}
	}
	if err := t.approve(ctx, toolspec.Request{Tool: tool, Permission: toolspec.DeleteFiles, Path: g.display(), Summary: summary, Diff: diff}); err != nil {
		return nil, err
	}
	if err := root.Remove(g.os()); err != nil {
		if escapes(err) {
			return nil, outsideError(tool, p.Path)
		}
		if errors.Is(err, safefs.ErrIsDir) {
			return nil, &Error{Tool: tool, Path: p.Path, Msg: "is a directory, not deleted", Hint: "delete_file deletes single files; delete the files in it one by one if they must go"}
		}
		return nil, &Error{Tool: tool, Path: p.Path, Msg: "delete failed", Err: unwrapPath(err)}
	}
	return &DeleteFileResult{Path: g.display(), Deleted: true, Message: fmt.Sprintf("Deleted %s.", g.display())}, nil
}

// previewText is a preview's or an edit's text: its message and diff.
func previewText(message, diff string) string {
	if diff == "" {
		return message + "\n"
	}
	return message + "\n\n" + strings.TrimSuffix(diff, "\n") + "\n"
}

// MayWrite reports whether a call may change a file, and so ask for
// approval: always for create_file.
func (CreateFileParams) MayWrite() bool { return true }

// MayWrite reports whether a call may change a file, and so ask for
// approval: always for update_file (it does not when the content is
// already the same).
func (UpdateFileParams) MayWrite() bool { return true }

// MayWrite reports whether a call may change a file, and so ask for
// approval: always for append_file.
func (AppendFileParams) MayWrite() bool { return true }

// MayWrite reports whether a call may delete a file, and so ask for
// approval: always for delete_file.
func (DeleteFileParams) MayWrite() bool { return true }
