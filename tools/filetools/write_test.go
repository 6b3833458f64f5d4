package filetools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tools/toolspec"
)

// TestApproval checks when approval is asked, what the approver is told,
// and that a declined or failed approval writes nothing.
func TestApproval(t *testing.T) {
	ctx := context.Background()
	const text = "alpha\nbeta\n"
	t.Run("requests name the tool, permission, path, change and diff", func(t *testing.T) {
		dir := workspace(t, map[string]string{"a.txt": text})
		tl, asked := newTools(t, dir)
		calls := []func() error{
			func() error {
				_, err := tl.CreateFile(ctx, CreateFileParams{Path: "new/b.txt", Content: "b\n"})
				return err
			},
			func() error {
				_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "a.txt", Find: "beta", Replace: "gamma"})
				return err
			},
			func() error { _, err := tl.DeleteFile(ctx, DeleteFileParams{Path: "new/b.txt"}); return err },
		}
		for _, call := range calls {
			if err := call(); err != nil {
				t.Fatal(err)
			}
		}
		want := []toolspec.Request{
			{Tool: CreateFileName, Permission: toolspec.CreateFiles, Path: "new/b.txt", Summary: "create new/b.txt (1 line, 2 bytes)",
				Diff: "--- /dev/null\n+++ b/new/b.txt\n@@ -0,0 +1 @@\n+b\n"},
			{Tool: ReplaceInFileName, Permission: toolspec.WriteFiles, Path: "a.txt", Summary: `replace 1 occurrence of "beta" in a.txt`,
				Diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+gamma\n"},
			{Tool: DeleteFileName, Permission: toolspec.DeleteFiles, Path: "new/b.txt", Summary: "delete new/b.txt (1 line)",
				Diff: "--- a/new/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-b\n"},
		}
		if len(asked.reqs) != len(want) {
			t.Fatalf("requests %+v", asked.reqs)
		}
		for i := range want {
			if asked.reqs[i] != want[i] {
				t.Errorf("request %d:\n got %+v\nwant %+v", i, asked.reqs[i], want[i])
			}
		}
	})
	t.Run("declined", func(t *testing.T) {
		dir := workspace(t, map[string]string{"a.txt": text})
		tl, asked := newTools(t, dir)
		asked.deny = true
		_, err := tl.EditLines(ctx, EditLinesParams{Path: "a.txt", Operation: OpDelete, StartLine: 1})
		if !errors.Is(err, toolspec.ErrDenied) || !strings.Contains(err.Error(), "did not approve") {
			t.Errorf("declined edit: %v", err)
		}
		_, err = tl.CreateFile(ctx, CreateFileParams{Path: "dir/b.txt", Content: "b"})
		if !errors.Is(err, toolspec.ErrDenied) {
			t.Errorf("declined create: %v", err)
		}
		if readBack(t, dir, "a.txt") != text {
			t.Error("a declined edit wrote the file")
		}
		if _, err := os.Stat(filepath.Join(dir, "dir")); !os.IsNotExist(err) {
			t.Error("a declined create made its directory")
		}
	})
	t.Run("approver error", func(t *testing.T) {
		dir := workspace(t, map[string]string{"a.txt": text})
		boom := errors.New("host went away")
		tl, err := New(Config{Workspace: dir, Approver: func(context.Context, toolspec.Request) (bool, error) { return true, boom }})
		if err != nil {
			t.Fatal(err)
		}
		_, err = tl.AppendFile(ctx, AppendFileParams{Path: "a.txt", Content: "c"})
		if !errors.Is(err, boom) || readBack(t, dir, "a.txt") != text {
			t.Errorf("approver error: %v", err)
		}
	})
	t.Run("nothing to write asks nothing", func(t *testing.T) {
		dir := workspace(t, map[string]string{"a.txt": text})
		tl, asked := newTools(t, dir)
		u, err := tl.UpdateFile(ctx, UpdateFileParams{Path: "a.txt", Content: "alpha\nbeta"})
		if err != nil || u.Changed || !strings.Contains(u.Message, "nothing was written") {
			t.Errorf("unchanged update: %+v %v", u, err)
		}
		r, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "a.txt", Find: "beta", Replace: "beta"})
		if err != nil || r.Applied || r.Replacements != 1 || !strings.Contains(r.Message, "changes nothing") {
			t.Errorf("identity replace: %+v %v", r, err)
		}
		e, err := tl.EditLines(ctx, EditLinesParams{Path: "a.txt", Operation: OpReplace, StartLine: 2, Content: "beta"})
		if err != nil || e.Applied {
			t.Errorf("identity edit: %+v %v", e, err)
		}
		p, err := tl.EditLines(ctx, EditLinesParams{Path: "a.txt", Operation: OpInsert, Line: Int(1), Content: "x", PreviewOnly: true})
		if err != nil || p.Applied || p.TotalLines != 3 || !strings.Contains(p.Text(), "+x") ||
			!strings.HasPrefix(p.Message, "Preview: would insert 1 line after line 1 of a.txt; it would have 3 lines.") {
			t.Errorf("edit preview: %+v %v", p, err)
		}
		if asked.count() != 0 {
			t.Errorf("approval asked %d times", asked.count())
		}
	})
	t.Run("a file changed while approval was pending is left alone", func(t *testing.T) {
		dir := workspace(t, map[string]string{"a.txt": text})
		tl, err := New(Config{Workspace: dir, Approver: func(context.Context, toolspec.Request) (bool, error) {
			return true, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("someone else's\n"), 0o644)
		}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "a.txt", Find: "alpha", Replace: "x"})
		if err == nil || !strings.Contains(err.Error(), "changed while the change waited for approval") {
			t.Errorf("err %v", err)
		}
		if got := readBack(t, dir, "a.txt"); got != "someone else's\n" {
			t.Errorf("file holds %q", got)
		}
	})
	t.Run("MayWrite", func(t *testing.T) {
		if (ReplaceInFileParams{PreviewOnly: true}).MayWrite() || (EditLinesParams{PreviewOnly: true}).MayWrite() {
			t.Error("a preview may not write")
		}
		if !(ReplaceInFileParams{}).MayWrite() || !(EditLinesParams{}).MayWrite() || !(CreateFileParams{}).MayWrite() ||
			!(UpdateFileParams{}).MayWrite() || !(AppendFileParams{}).MayWrite() || !(DeleteFileParams{}).MayWrite() {
			t.Error("a write may write")
		}
	})
}

func TestCreateFile(t *testing.T) {
	ctx := context.Background()
	dir := workspace(t, map[string]string{"exists.txt": "old\r\n", "adir/": ""})
	if err := os.Chmod(filepath.Join(dir, "exists.txt"), 0o750); err != nil {
		t.Fatal(err)
	}
	tl, _ := newTools(t, dir)
	r, err := tl.CreateFile(ctx, CreateFileParams{Path: "a/b/c.txt", Content: "one\ntwo"})
	if err != nil || !r.Created || r.Lines != 2 || r.Message != "Created a/b/c.txt (2 lines)." {
		t.Fatalf("create %+v %v", r, err)
	}
	if got := readBack(t, dir, "a/b/c.txt"); got != "one\ntwo" {
		t.Errorf("created file holds %q: content is written as given", got)
	}
	_, err = tl.CreateFile(ctx, CreateFileParams{Path: "exists.txt", Content: "new"})
	if e := toolError(t, err); !errors.Is(err, fs.ErrExist) || !strings.Contains(e.Hint, "overwrite=true") || !strings.Contains(e.Error(), "exists.txt") {
		t.Errorf("create over an existing file: %v", err)
	}
	r, err = tl.CreateFile(ctx, CreateFileParams{Path: "exists.txt", Content: "new\n", Overwrite: true})
	if err != nil || !r.Overwritten || r.Created {
		t.Fatalf("overwrite %+v %v", r, err)
	}
	if got := readBack(t, dir, "exists.txt"); got != "new\r\n" {
		t.Errorf("overwritten file holds %q", got)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "exists.txt")); fi.Mode().Perm() != 0o750 {
		t.Errorf("overwrite lost the mode: %v", fi.Mode())
	}
	for _, p := range []string{"adir", "exists.txt/below.txt", ""} {
		if _, err := tl.CreateFile(ctx, CreateFileParams{Path: p, Content: "x", Overwrite: true}); err == nil {
			t.Errorf("create %q: no error", p)
		}
	}
}

func TestDeleteFile(t *testing.T) {
	ctx := context.Background()
	dir := workspace(t, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n", "link.txt": "->d/b.txt", "bin.dat": "\x00\x01"})
	tl, asked := newTools(t, dir)
	r, err := tl.DeleteFile(ctx, DeleteFileParams{Path: "a.txt"})
	if err != nil || !r.Deleted || r.Text() != "Deleted a.txt.\n" {
		t.Fatalf("delete %+v %v", r, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); !os.IsNotExist(err) {
		t.Error("a.txt still exists")
	}
	_, err = tl.DeleteFile(ctx, DeleteFileParams{Path: "d"})
	if e := toolError(t, err); !strings.Contains(e.Msg, "is a directory") {
		t.Errorf("delete a directory: %v", err)
	}
	_, err = tl.DeleteFile(ctx, DeleteFileParams{Path: "d/missing.txt"})
	wantNotFound(t, err, "d/missing.txt")
	_, err = tl.DeleteFile(ctx, DeleteFileParams{Path: "nodir/missing.txt"})
	wantNotFound(t, err, "nodir/missing.txt")
	if _, err := tl.DeleteFile(ctx, DeleteFileParams{Path: "link.txt"}); err != nil {
		t.Fatal(err)
	}
	if readBack(t, dir, "d/b.txt") != "b\n" {
		t.Error("deleting a link touched its target")
	}
	if _, err := tl.DeleteFile(ctx, DeleteFileParams{Path: "bin.dat"}); err != nil {
		t.Errorf("delete a binary file: %v", err)
	}
	if got := asked.reqs[len(asked.reqs)-1]; got.Summary != "delete bin.dat (2 bytes)" || got.Diff != "" {
		t.Errorf("binary delete request %+v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "d")); err != nil {
		t.Error("the directory was removed")
	}
}

func TestEditingRefusals(t *testing.T) {
	ctx := context.Background()
	dir := workspace(t, map[string]string{"a.txt": "a\n", "bin.dat": "\x00binary", "d/": "", "empty.txt": ""})
	tl, asked := newTools(t, dir)
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"replace in a binary file", func() error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "bin.dat", Find: "binary", Replace: "x"})
			return err
		}, "binary file, not edited"},
		{"replace in a directory", func() error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "d", Find: "a", Replace: "x"})
			return err
		}, "is a directory"},
		{"replace with an empty find", func() error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "a.txt", Find: "", Replace: "x"})
			return err
		}, "find is empty"},
		{"a regex matching empty text", func() error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "a.txt", Find: "x*", Replace: "y", IsRegex: true})
			return err
		}, "matches empty text"},
		{"an invalid regex", func() error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "a.txt", Find: "(a", Replace: "y", IsRegex: true})
			return err
		}, "invalid regular expression"},
		{"a sed-style group", func() error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "a.txt", Find: "(a)", Replace: `\1!`, IsRegex: true})
			return err
		}, "Write capture groups as $1 or ${1} (here ${1})"},
		{"a group glued to a name", func() error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "a.txt", Find: "(a)", Replace: "$1x", IsRegex: true})
			return err
		}, "Write ${1}x"},
		{"an unknown operation", func() error {
			_, err := tl.EditLines(ctx, EditLinesParams{Path: "a.txt", Operation: "append"})
			return err
		}, "operation is insert, delete or replace"},
		{"insert without line", func() error {
			_, err := tl.EditLines(ctx, EditLinesParams{Path: "a.txt", Operation: OpInsert, StartLine: 1, Content: "x"})
			return err
		}, "insert needs line"},
		{"replace without content", func() error {
			_, err := tl.EditLines(ctx, EditLinesParams{Path: "a.txt", Operation: OpReplace, StartLine: 1})
			return err
		}, "Use operation=delete"},
		{"delete in an empty file", func() error {
			_, err := tl.EditLines(ctx, EditLinesParams{Path: "empty.txt", Operation: OpDelete, StartLine: 1})
			return err
		}, "The file is empty (0 lines): only insert with line 0 works"},
		{"append nothing", func() error {
			_, err := tl.AppendFile(ctx, AppendFileParams{Path: "a.txt"})
			return err
		}, "nothing to append"},
		{"append to a missing file", func() error {
			_, err := tl.AppendFile(ctx, AppendFileParams{Path: "b.txt", Content: "x"})
			return err
		}, "Use create_file"},
		{"update a missing file", func() error {
			_, err := tl.UpdateFile(ctx, UpdateFileParams{Path: "b.txt", Content: "x"})
			return err
		}, "Use create_file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if e := toolError(t, err); !strings.Contains(e.Error(), c.want) {
				t.Errorf("error %q lacks %q", e, c.want)
			}
		})
	}
	if asked.count() != 0 || readBack(t, dir, "a.txt") != "a\n" {
		t.Error("a refused call asked for approval or wrote")
	}
	// $$ is a literal dollar, and $1 followed by a space is group 1.
	r, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "a.txt", Find: "(a)", Replace: "$$1 $1 ${1}x", IsRegex: true})
	if err != nil || readBack(t, dir, "a.txt") != "$1 a ax\n" {
		t.Errorf("template: %+v %v, file %q", r, err, readBack(t, dir, "a.txt"))
	}
}
