package filetools

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/core/rewrite"
)

// TestWritesKeepTheFile checks that every editing tool keeps a file's line
// endings, byte-order mark, final-newline state and mode.
func TestWritesKeepTheFile(t *testing.T) {
	ctx := context.Background()
	replace := func(find, repl string, regex bool) func(*Tools) error {
		return func(tl *Tools) error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "f.txt", Find: find, Replace: repl, IsRegex: regex})
			return err
		}
	}
	insert := func(after int, content string) func(*Tools) error {
		return func(tl *Tools) error {
			_, err := tl.EditLines(ctx, EditLinesParams{Path: "f.txt", Operation: OpInsert, Line: Int(after), Content: content})
			return err
		}
	}
	replaceLines := func(start, end int, content string) func(*Tools) error {
		return func(tl *Tools) error {
			_, err := tl.EditLines(ctx, EditLinesParams{Path: "f.txt", Operation: OpReplace, StartLine: start, EndLine: end, Content: content})
			return err
		}
	}
	deleteLines := func(start, end int) func(*Tools) error {
		return func(tl *Tools) error {
			_, err := tl.EditLines(ctx, EditLinesParams{Path: "f.txt", Operation: OpDelete, StartLine: start, EndLine: end})
			return err
		}
	}
	update := func(content string) func(*Tools) error {
		return func(tl *Tools) error {
			_, err := tl.UpdateFile(ctx, UpdateFileParams{Path: "f.txt", Content: content})
			return err
		}
	}
	appendTo := func(content string) func(*Tools) error {
		return func(tl *Tools) error {
			_, err := tl.AppendFile(ctx, AppendFileParams{Path: "f.txt", Content: content})
			return err
		}
	}
	overwrite := func(content string) func(*Tools) error {
		return func(tl *Tools) error {
			_, err := tl.CreateFile(ctx, CreateFileParams{Path: "f.txt", Content: content, Overwrite: true})
			return err
		}
	}
	cases := []struct {
		name      string
		old       string
		mode      fs.FileMode
		edit      func(*Tools) error
		want      string
		wantLines int
	}{
		{"CRLF: replace with a new line in the replacement", "a\r\nb\r\n", 0o644, replace("b", "c\nd", false), "a\r\nc\r\nd\r\n", 3},
		{"CRLF: find spanning lines with \\n", "a\r\nb\r\nc\r\n", 0o644, replace("a\nb", "x", false), "x\r\nc\r\n", 2},
		{"CRLF: regex anchored at line ends", "k = 1\r\nk = 2\r\n", 0o644, replace(`^k = (\d)$`, "k = ${1}0", true), "k = 10\r\nk = 20\r\n", 2},
		{"CRLF: insert", "a\r\nb\r\n", 0o644, insert(1, "new"), "a\r\nnew\r\nb\r\n", 3},
		{"CRLF: replace lines with CRLF content", "a\r\nb\r\n", 0o644, replaceLines(1, 2, "x\r\ny\r\n"), "x\r\ny\r\n", 2},
		{"CRLF: update", "a\r\nb\r\n", 0o644, update("p\nq\n"), "p\r\nq\r\n", 2},
		{"CRLF: append", "a\r\n", 0o644, appendTo("b\nc"), "a\r\nb\r\nc\r\n", 3},
		{"CRLF: overwrite with create_file", "a\r\n", 0o644, overwrite("b\n"), "b\r\n", 1},
		{"CRLF without a final newline: insert at the end", "a\r\nb", 0o644, insert(2, "c"), "a\r\nb\r\nc", 3},
		{"CRLF: a lone CR in a line stays", "a\r\r\nb\r\n", 0o644, replace("b", "c", false), "a\r\r\nc\r\n", 2},
		{"mixed endings: each line keeps its own, new lines take the commonest", "a\r\nb\nc\r\n", 0o644, insert(1, "x"), "a\r\nx\r\nb\nc\r\n", 4},
		{"BOM: insert at the top goes after the mark", "\uFEFFa\nb\n", 0o644, insert(0, "top"), "\uFEFFtop\na\nb\n", 3},
		{"BOM: a regex anchored at the start of line 1", "\uFEFFa\nb\n", 0o644, replace("^a$", "A", true), "\uFEFFA\nb\n", 2},
		{"BOM: update keeps the mark", "\uFEFFa\n", 0o644, update("b\n"), "\uFEFFb\n", 1},
		{"BOM and CRLF together", "\uFEFFa\r\nb\r\n", 0o644, deleteLines(1, 1), "\uFEFFb\r\n", 1},
		{"no final newline: insert at the end", "a\nb", 0o644, insert(2, "c"), "a\nb\nc", 3},
		{"no final newline: replace the last line", "a\nb", 0o644, replaceLines(2, 2, "c\n"), "a\nc", 2},
		{"no final newline: delete the last line", "a\nb", 0o644, deleteLines(2, 2), "a", 1},
		{"no final newline: update", "a\nb", 0o644, update("x\ny\n"), "x\ny", 2},
		{"no final newline: append", "a\nb", 0o644, appendTo("c\n"), "a\nb\nc", 3},
		{"no final newline: replace text", "a\nb", 0o644, replace("b", "b\n", false), "a\nb", 2},
		{"final newline: update without one", "a\n", 0o644, update("x"), "x\n", 1},
		{"final newline: delete every line", "a\nb\n", 0o644, deleteLines(1, 2), "", 0},
		{"empty file: update", "", 0o644, update("x\n"), "x\n", 1},
		{"empty file: append", "", 0o644, appendTo("a"), "a\n", 1},
		{"empty file: insert", "", 0o644, insert(0, "a"), "a\n", 1},
		{"mode: executable", "#!/bin/sh\necho a\n", 0o755, replace("echo a", "echo b", false), "#!/bin/sh\necho b\n", 2},
		{"mode: private", "secret=1\n", 0o600, update("secret=2\n"), "secret=2\n", 1},
		{"mode: group-writable", "a\n", 0o664, appendTo("b"), "a\nb\n", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.txt")
			if err := os.WriteFile(p, []byte(c.old), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, c.mode); err != nil {
				t.Fatal(err)
			}
			tl, _ := newTools(t, dir)
			if err := c.edit(tl); err != nil {
				t.Fatal(err)
			}
			if got := readBack(t, dir, "f.txt"); got != c.want {
				t.Errorf("file holds %q, want %q", got, c.want)
			}
			if got := countLines(decodeText([]byte(c.want)).body); got != c.wantLines {
				t.Errorf("the expected file has %d lines, not %d", got, c.wantLines)
			}
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != c.mode {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), c.mode)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if rewrite.IsTempName(e.Name()) {
					t.Errorf("temporary file left behind: %s", e.Name())
				}
			}
		})
	}
}

// TestReportedLineCounts checks the line counts the editing tools report
// against the file written.
func TestReportedLineCounts(t *testing.T) {
	ctx := context.Background()
	dir := workspace(t, map[string]string{"f.txt": "a\r\nb"})
	tl, _ := newTools(t, dir)
	e, err := tl.EditLines(ctx, EditLinesParams{Path: "f.txt", Operation: OpInsert, Line: Int(2), Content: "c\nd\n"})
	if err != nil || e.TotalLines != 4 || e.OldTotalLines != 2 {
		t.Fatalf("edit_lines %+v %v", e, err)
	}
	a, err := tl.AppendFile(ctx, AppendFileParams{Path: "f.txt", Content: "e"})
	if err != nil || a.TotalLines != 5 || a.AddedLines != 1 {
		t.Fatalf("append_file %+v %v", a, err)
	}
	r, err := tl.ReadFile(ctx, ReadFileParams{Path: "f.txt"})
	if err != nil || r.TotalLines != 5 || r.Content != "a\r\nb\r\nc\r\nd\r\ne" {
		t.Fatalf("read_file %+v %v", r, err)
	}
}
