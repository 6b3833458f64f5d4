package filetools

import (
	"context"
	"fmt"
	"slices"
)

// Operations of edit_lines.
const (
	OpInsert  = "insert"
	OpDelete  = "delete"
	OpReplace = "replace"
)

// EditLinesParams are edit_lines' parameters.
type EditLinesParams struct {
	Path        string `json:"path" desc:"File to edit, relative to the workspace root."`
	Operation   string `json:"operation" desc:"insert content after line; delete, or replace with content, the lines start_line to end_line." enum:"insert,delete,replace"`
	Line        *int   `json:"line,omitempty" desc:"insert: the line after which content goes (0 = the top)." min:"0"`
	StartLine   int    `json:"start_line,omitempty" desc:"delete and replace: first line of the range, 1-based." min:"1"`
	EndLine     int    `json:"end_line,omitempty" desc:"delete and replace: last line of the range, inclusive (default: start_line)." min:"1"`
	Content     string `json:"content,omitempty" desc:"insert and replace: the new lines (a final newline is optional; they take the file's line endings)."`
	PreviewOnly bool   `json:"preview_only,omitempty" desc:"Return the diff of the change without writing anything (needs no approval)."`
}

// EditLinesResult is edit_lines' answer.
type EditLinesResult struct {
	// Path is the file, relative to the workspace root.
	Path string `json:"path"`
	// Operation is the operation done.
	Operation string `json:"operation"`
	// Applied is set when the file was written.
	Applied bool `json:"applied"`
	// Preview is set for a preview_only call.
	Preview bool `json:"preview"`
	// Diff is the change as a unified diff.
	Diff string `json:"diff,omitempty"`
	// OldTotalLines and TotalLines are the file's line counts before and
	// after the edit.
	OldTotalLines int `json:"old_total_lines"`
	TotalLines    int `json:"total_lines"`
	// Message says what was done.
	Message string `json:"message"`
}

// Text renders the message, and for a preview the diff.
func (r *EditLinesResult) Text() string {
	if r.Preview {
		return previewText(r.Message, r.Diff)
	}
	return r.Message + "\n"
}

// EditLines inserts, deletes or replaces lines by number.
func (t *Tools) EditLines(ctx context.Context, p EditLinesParams) (*EditLinesResult, error) {
	const tool = EditLinesName
	switch p.Operation {
	case OpInsert:
		if p.Line == nil {
			return nil, &Error{Tool: tool, Path: p.Path, Msg: "insert needs line, the line after which content goes",
				Hint: "Give line (0 inserts at the top); start_line and end_line are for delete and replace"}
		}
		if p.Content == "" {
			return nil, &Error{Tool: tool, Path: p.Path, Msg: "insert needs content"}
		}
	case OpDelete, OpReplace:
		if p.StartLine == 0 {
			return nil, &Error{Tool: tool, Path: p.Path, Msg: p.Operation + " needs start_line (and end_line for more than one line)"}
		}
		if p.Operation == OpReplace && p.Content == "" {
			return nil, &Error{Tool: tool, Path: p.Path, Msg: "replace needs content", Hint: "Use operation=delete to remove lines"}
		}
	default:
		return nil, &Error{Tool: tool, Path: p.Path, Msg: fmt.Sprintf("unknown operation %q", p.Operation), Hint: "operation is insert, delete or replace"}
	}
	g, err := t.resolve(ctx, tool, p.Path, false)
	if err != nil {
		return nil, err
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
	lines := splitBody(tf.body)
	n := len(lines)
	// The edit is told as verb + rest: "inserted" / "insert" + "2 lines
	// after line 10 of a.go".
	var did, do, rest string
	switch p.Operation {
	case OpInsert:
		at := *p.Line
		if at < 0 || at > n {
			return nil, &Error{Tool: tool, Path: p.Path, Msg: fmt.Sprintf("line %d is out of range", at),
				Hint: fmt.Sprintf("The file has %d lines: insert takes line 0 (the top) to %d (the end)", n, n)}
		}
		added := tf.contentLines(p.Content)
		lines = slices.Insert(lines, at, added...)
		did, do = "Inserted", "insert"
		rest = fmt.Sprintf("%d %s after line %d of %s", len(added), plural(len(added), "line", "lines"), at, g.display())
		if at == 0 {
			rest = fmt.Sprintf("%d %s at the top of %s", len(added), plural(len(added), "line", "lines"), g.display())
		}
	default:
		start, end := p.StartLine, p.EndLine
		if end == 0 {
			end = start
		}
		if err := checkRange(tool, p.Path, start, end, n); err != nil {
			return nil, err
		}
		count := end - start + 1
		if p.Operation == OpDelete {
			lines = slices.Delete(lines, start-1, end)
			did, do = "Deleted", "delete"
			rest = fmt.Sprintf("%s (%d %s) of %s", lineRange(start, end), count, plural(count, "line", "lines"), g.display())
		} else {
			added := tf.contentLines(p.Content)
			lines = slices.Replace(lines, start-1, end, added...)
			did, do = "Replaced", "replace"
			rest = fmt.Sprintf("%s (%d %s) of %s with %d %s", lineRange(start, end), count, plural(count, "line", "lines"),
				g.display(), len(added), plural(len(added), "line", "lines"))
		}
	}
	body := tf.keepEnd(tf.joinLines(lines))
	res := &EditLinesResult{Path: g.display(), Operation: p.Operation, Preview: p.PreviewOnly, OldTotalLines: n, TotalLines: countLines(body),
		Diff: unifiedDiff(g.display(), tf.body, body, false, false)}
	diff := res.Diff
	res.Diff = boundDiff(diff)
	data := tf.encode(body)
	switch {
	case string(data) == string(old):
		res.Message = fmt.Sprintf("The edit changes nothing in %s; the file was not changed (%d lines).", g.display(), n)
		return res, nil
	case p.PreviewOnly:
		res.Message = fmt.Sprintf("Preview: would %s %s; it would have %d lines. Nothing was written; call again without preview_only to apply.", do, rest, res.TotalLines)
		return res, nil
	}
	note, err := t.commit(ctx, root, tool, g, old, data, do+" "+rest, diff)
	if err != nil {
		return nil, err
	}
	res.Applied = true
	res.Message = fmt.Sprintf("%s %s; it now has %d lines.", did, rest, res.TotalLines) + note
	return res, nil
}

// checkRange checks a 1-based inclusive range against a file of n lines.
func checkRange(tool, given string, start, end, n int) error {
	valid := fmt.Sprintf("The file has %d lines: the valid range is 1-%d", n, n)
	if n == 0 {
		valid = "The file is empty (0 lines): only insert with line 0 works"
	}
	switch {
	case start < 1 || end < 1:
		return &Error{Tool: tool, Path: given, Msg: fmt.Sprintf("line numbers start at 1, got start_line %d, end_line %d", start, end), Hint: valid}
	case end < start:
		return &Error{Tool: tool, Path: given, Msg: fmt.Sprintf("end_line %d is before start_line %d", end, start), Hint: valid}
	case start > n || end > n:
		return &Error{Tool: tool, Path: given, Msg: fmt.Sprintf("%s is out of range", lineRange(start, end)), Hint: valid}
	}
	return nil
}

func lineRange(start, end int) string {
	if start == end {
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}

// MayWrite reports whether a call may change the file, and so ask for
// approval: not a preview.
func (p EditLinesParams) MayWrite() bool { return !p.PreviewOnly }
