package filetools

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools/paging"
)

// ReadFileParams are read_file's parameters.
type ReadFileParams struct {
	Path      string `json:"path" desc:"File to read, relative to the workspace root."`
	StartLine int    `json:"start_line,omitempty" desc:"First line to return, 1-based (default 1)." min:"1"`
	EndLine   int    `json:"end_line,omitempty" desc:"Last line to return, inclusive (default: the end of the file, or as much as fits in one call: 2000 lines, 256 KiB)." min:"1"`
}

// ReadFileResult is read_file's answer.
type ReadFileResult struct {
	// Path is the file, relative to the workspace root.
	Path string `json:"path"`
	// Content is the text of the lines returned, with their line breaks
	// (a byte-order mark left out).
	Content string `json:"content"`
	// StartLine and EndLine are the 1-based, inclusive range returned
	// (EndLine is StartLine-1 when nothing is).
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
	// TotalLines is the file's line count.
	TotalLines int `json:"total_lines"`
	// Truncated is set when the range asked for did not fit in one call;
	// NextStartLine is where to continue.
	Truncated     bool `json:"truncated"`
	NextStartLine int  `json:"next_start_line,omitempty"`
	// Warnings say what is unusual about the file (not UTF-8, a cut
	// line).
	Warnings []string `json:"warnings,omitempty"`
}

// ReadFile returns a file's lines, whole or a range.
func (t *Tools) ReadFile(ctx context.Context, p ReadFileParams) (*ReadFileResult, error) {
	const tool = ReadFileName
	g, err := t.resolve(ctx, tool, p.Path, false)
	if err != nil {
		return nil, err
	}
	root, err := t.openRoot(tool)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	data, _, err := readFile(root, tool, g, t.cfg.MaxFileSize)
	if err != nil {
		return nil, err
	}
	res := &ReadFileResult{Path: g.display()}
	if search.Screen(data) == search.SkipBinary {
		return nil, &Error{Tool: tool, Path: p.Path, Msg: fmt.Sprintf("binary file (%s), not shown", byteSize(int64(len(data)))),
			Hint: "read_file shows text files only"}
	}
	text := strings.TrimPrefix(string(data), bom)
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
		res.Warnings = append(res.Warnings, "the file is not valid UTF-8: invalid bytes are shown as U+FFFD")
	}
	lines := rewrite.SplitLines(text)
	res.TotalLines = len(lines)
	start, end := max(p.StartLine, 1), p.EndLine
	if end == 0 || end > len(lines) {
		end = len(lines)
	}
	switch {
	case p.StartLine < 0 || p.EndLine < 0:
		return nil, &Error{Tool: tool, Path: p.Path, Msg: "start_line and end_line are 1-based line numbers and cannot be negative"}
	case len(lines) == 0:
		res.StartLine, res.EndLine = 1, 0
		return res, nil
	case start > len(lines):
		return nil, &Error{Tool: tool, Path: p.Path, Msg: fmt.Sprintf("start_line %d is past the end of the file", start),
			Hint: fmt.Sprintf("The file has %d lines: the valid range is 1-%d", len(lines), len(lines))}
	case p.EndLine != 0 && p.EndLine < start:
		return nil, &Error{Tool: tool, Path: p.Path, Msg: fmt.Sprintf("end_line %d is before start_line %d", p.EndLine, start)}
	}
	var b strings.Builder
	last := start - 1
	for i := start - 1; i < end; i++ {
		l := lines[i]
		if i-start+1 >= ReadMaxLines || b.Len()+len(l) > ReadMaxBytes {
			if i == start-1 {
				// One line over the byte limit: its beginning.
				cut := ReadMaxBytes
				for !utf8.RuneStart(l[cut]) {
					cut--
				}
				b.WriteString(l[:cut] + "\n")
				last = i + 1
				res.Warnings = append(res.Warnings, fmt.Sprintf("line %d is longer than %s and was cut", i+1, byteSize(ReadMaxBytes)))
			}
			break
		}
		b.WriteString(l)
		last = i + 1
	}
	res.Content, res.StartLine, res.EndLine = b.String(), start, last
	if last < end {
		res.Truncated, res.NextStartLine = true, last+1
	}
	return res, nil
}

// Text renders the file for the model: a header, then each line with its
// number.
func (r *ReadFileResult) Text() string {
	var b strings.Builder
	switch {
	case r.TotalLines == 0:
		fmt.Fprintf(&b, "%s is empty (0 lines).\n", r.Path)
	default:
		fmt.Fprintf(&b, "%s (lines %d-%d of %d)\n", r.Path, r.StartLine, r.EndLine, r.TotalLines)
	}
	width := len(fmt.Sprint(r.EndLine))
	n := r.StartLine
	for _, l := range rewrite.SplitLines(r.Content) {
		l = strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
		fmt.Fprintf(&b, "%*d\t%s\n", width, n, l)
		n++
	}
	if r.Truncated {
		fmt.Fprintf(&b, "\n[%d more lines: call read_file again with start_line=%d]\n", r.TotalLines-r.EndLine, r.NextStartLine)
	}
	writeWarnings(&b, r.Warnings)
	return b.String()
}

// ListDirectoryParams are list_directory's parameters.
type ListDirectoryParams struct {
	Path       string `json:"path,omitempty" desc:"Directory to list (default: the workspace root)."`
	Recursive  bool   `json:"recursive,omitempty" desc:"Every file below the directory instead of its entries."`
	MaxResults int    `json:"max_results,omitempty" desc:"Most entries a page holds (over 500: 500)." min:"1" default:"200"`
	paging.Params
}

// Entry is one directory entry.
type Entry struct {
	// Name is the entry's name, or with recursive its path relative to the
	// listed directory.
	Name string `json:"name"`
	// Type is file, directory, symlink or other.
	Type string `json:"type"`
	// Size is a file's size in bytes.
	Size int64 `json:"size,omitempty"`
}

// ListDirectoryResult is list_directory's answer.
type ListDirectoryResult struct {
	// Path is the directory, relative to the workspace root ("." for the
	// root).
	Path string `json:"path"`
	// Entries are this page of the entries, sorted by name (with
	// recursive, by path): at most MaxResults, and at most
	// paging.MaxTextBytes of text.
	Entries []Entry `json:"entries"`
	// Offset is the index of the first of Entries among all the entries.
	Offset int `json:"offset,omitempty"`
	// NextOffset is the offset of the next page, 0 on the last.
	NextOffset int `json:"next_offset,omitempty"`
	// TotalEntries counts every entry, also those left out.
	TotalEntries int `json:"total_entries"`
	// Truncated is set when entries were left out of this page.
	Truncated bool `json:"truncated"`
	// MaxResults is the limit applied.
	MaxResults int `json:"max_results"`
	// Message says what was listed, and how to see more.
	Message string `json:"message"`
	// Warnings list what was passed over.
	Warnings []string `json:"warnings,omitempty"`
}

// ListDirectory lists a directory's entries, or with Recursive the files
// below it.
func (t *Tools) ListDirectory(ctx context.Context, p ListDirectoryParams) (*ListDirectoryResult, error) {
	const tool = ListDirectoryName
	limit, note, err := resultLimit(tool, p.MaxResults, DefaultListMaxResults)
	if err != nil {
		return nil, err
	}
	if err := paging.Check(p.Offset); err != nil {
		return nil, &Error{Tool: tool, Msg: err.Error()}
	}
	g, err := t.resolve(ctx, tool, p.Path, true)
	if err != nil {
		return nil, err
	}
	root, err := t.openRoot(tool)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fi, err := root.Stat(g.os())
	if err != nil {
		return nil, pathError(tool, p.Path, err)
	}
	if !fi.IsDir() {
		return nil, &Error{Tool: tool, Path: p.Path, Msg: "not a directory", Hint: "Use read_file to read a file"}
	}
	res := &ListDirectoryResult{Path: g.display(), Entries: []Entry{}, MaxResults: limit}
	var all []Entry
	if p.Recursive {
		w, err := t.walk(ctx, walkSpec{tool: tool, base: g})
		if err != nil {
			return nil, err
		}
		for _, f := range w.files {
			name := f.Path
			if g.rel != "" {
				name = strings.TrimPrefix(name, g.rel+"/")
			}
			all = append(all, Entry{Name: name, Type: "file", Size: f.Size})
		}
		res.Warnings = w.warnings(t.cfg.MaxDepth, 0)
	} else {
		entries, err := root.ReadDir(g.os())
		if err != nil {
			return nil, pathError(tool, p.Path, err)
		}
		for _, e := range entries {
			if rewrite.IsTempName(e.Name()) {
				continue
			}
			en := Entry{Name: e.Name(), Type: entryType(e.Type())}
			if en.Type == "file" {
				if info, err := e.Info(); err == nil {
					en.Size = info.Size()
				}
			}
			all = append(all, en)
		}
		slices.SortFunc(all, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	}
	if note != "" {
		res.Warnings = append([]string{note}, res.Warnings...)
	}
	res.TotalEntries = len(all)
	rest := all[min(p.Offset, len(all)):]
	res.Entries = append(res.Entries, rest[:paging.Fit(rest, limit, paging.ItemBytes, func(e Entry) int { return len(e.Name) + 16 })]...)
	pg := paging.Page{Offset: p.Offset, Count: len(res.Entries), Total: res.TotalEntries}
	res.Offset, res.NextOffset = p.Offset, pg.Next()
	res.Truncated = res.TotalEntries > len(res.Entries)
	where := res.Path
	if where == "." {
		where = "the workspace root"
	}
	what := plural(res.TotalEntries, "entry", "entries")
	if p.Recursive {
		what = plural(res.TotalEntries, "file", "files")
	}
	switch {
	case pg.PastEnd() != "":
		res.Message = fmt.Sprintf("No entries shown: %s %s in %s.", pg.PastEnd(), what, where)
	case res.TotalEntries == 0:
		res.Message = fmt.Sprintf("%s is empty.", where)
		if p.Recursive {
			res.Message = fmt.Sprintf("No files under %s (ignored files and the default exclusions are left out).", where)
		}
	case res.Truncated:
		res.Message = fmt.Sprintf("Showing %s of %d %s in %s; list a subdirectory, use glob with a pattern, or raise max_results (up to %d).",
			shown(pg), res.TotalEntries, what, where, MaxResultsCap)
	default:
		res.Message = fmt.Sprintf("%d %s in %s.", res.TotalEntries, what, where)
	}
	return res, nil
}

func entryType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m.IsRegular():
		return "file"
	}
	return "other"
}

// Text renders the listing for the model: directories with a trailing
// "/", files with their size.
func (r *ListDirectoryResult) Text() string {
	var b strings.Builder
	b.WriteString(r.Message + "\n")
	if len(r.Entries) > 0 {
		b.WriteByte('\n')
	}
	for _, e := range r.Entries {
		switch e.Type {
		case "directory":
			b.WriteString(path.Clean(e.Name) + "/\n")
		case "file":
			fmt.Fprintf(&b, "%s  (%s)\n", e.Name, byteSize(e.Size))
		default:
			fmt.Fprintf(&b, "%s  (%s)\n", e.Name, e.Type)
		}
	}
	writeMore(&b, r.Offset, len(r.Entries), r.TotalEntries)
	writeWarnings(&b, r.Warnings)
	return b.String()
}
