package filetools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/search"

	"github.com/loupe-dev/loupe/tools/toolspec"
)

// escapeFixture is a workspace next to a directory outside it, with links
// leading out.
type escapeFixture struct {
	base, ws, outside string
}

const secret = "top secret"

func newEscapeFixture(t *testing.T) escapeFixture {
	t.Helper()
	base := t.TempDir()
	f := escapeFixture{base: base, ws: filepath.Join(base, "ws"), outside: filepath.Join(base, "outside")}
	writeTree(t, base, map[string]string{
		"outside/secret.txt":  secret + "\n",
		"outside/file.txt":    secret + " file\n",
		"ws/inside.txt":       "inside\n",
		"ws/sub/file.txt":     "sub file\n",
		"ws/link_out_file":    "->../outside/secret.txt",
		"ws/link_out_dir":     "->../outside",
		"ws/sub/link_up":      "->../..",
		"ws/link_in_file.txt": "->inside.txt",
	})
	return f
}

// untouched checks that nothing outside the workspace changed.
func (f escapeFixture) untouched(t *testing.T) {
	t.Helper()
	entries, err := os.ReadDir(f.outside)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the outside directory changed: %q", names)
	}
	if got := readBack(t, f.outside, "secret.txt"); got != secret+"\n" {
		t.Errorf("the outside file changed: %q", got)
	}
	if got := readBack(t, f.outside, "file.txt"); got != secret+" file\n" {
		t.Errorf("the outside file changed: %q", got)
	}
}

// calls runs each tool on a path.
func escapeCalls(tl *Tools) map[string]func(path string) error {
	ctx := context.Background()
	return map[string]func(string) error{
		ReadFileName:      func(p string) error { _, err := tl.ReadFile(ctx, ReadFileParams{Path: p}); return err },
		GrepName:          func(p string) error { _, err := tl.Grep(ctx, GrepParams{Pattern: "secret", Path: p}); return err },
		GlobName:          func(p string) error { _, err := tl.Glob(ctx, GlobParams{Pattern: "**/*", Path: p}); return err },
		SearchName:        func(p string) error { _, err := tl.Search(ctx, SearchParams{Query: "secret", Path: p}); return err },
		ListDirectoryName: func(p string) error { _, err := tl.ListDirectory(ctx, ListDirectoryParams{Path: p}); return err },
		CreateFileName: func(p string) error {
			_, err := tl.CreateFile(ctx, CreateFileParams{Path: p, Content: "x", Overwrite: true})
			return err
		},
		UpdateFileName: func(p string) error {
			_, err := tl.UpdateFile(ctx, UpdateFileParams{Path: p, Content: "x"})
			return err
		},
		AppendFileName: func(p string) error {
			_, err := tl.AppendFile(ctx, AppendFileParams{Path: p, Content: "x"})
			return err
		},
		ReplaceInFileName: func(p string) error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: p, Find: "secret", Replace: "x"})
			return err
		},
		EditLinesName: func(p string) error {
			_, err := tl.EditLines(ctx, EditLinesParams{Path: p, Operation: OpInsert, Line: Int(0), Content: "x"})
			return err
		},
		DeleteFileName: func(p string) error { _, err := tl.DeleteFile(ctx, DeleteFileParams{Path: p}); return err },
	}
}

func TestPathEscapesAreRefused(t *testing.T) {
	f := newEscapeFixture(t)
	tl, asked := newTools(t, f.ws)
	paths := []struct {
		name, path string
		skip       string // a tool for which the path is no escape
	}{
		{"dot-dot", "../outside/secret.txt", ""},
		{"dot-dot inside a path", "sub/../../outside/secret.txt", ""},
		{"absolute path outside", filepath.Join(f.outside, "secret.txt"), ""},
		{"absolute path outside, missing", filepath.Join(f.outside, "missing.txt"), ""},
		{"system file", "/etc/passwd", ""},
		// delete_file removes a link itself, which is inside.
		{"symlink to a file outside", "link_out_file", DeleteFileName},
		{"symlink to a directory outside", "link_out_dir/secret.txt", ""},
		{"missing file under a link outside", "link_out_dir/missing.txt", ""},
		{"link up and back out", "sub/link_up/outside/secret.txt", ""},
		{"the directory link itself", "link_out_dir", DeleteFileName},
	}
	for _, p := range paths {
		for tool, call := range escapeCalls(tl) {
			if tool == p.skip {
				continue
			}
			t.Run(p.name+"/"+tool, func(t *testing.T) {
				err := call(p.path)
				if !errors.Is(err, search.ErrOutsideWorkspace) {
					t.Fatalf("not refused as outside: %v", err)
				}
				e := toolError(t, err)
				msg := e.Error()
				if e.Msg != "path is outside the workspace" || e.Tool != tool || e.Path != p.path {
					t.Errorf("refusal %+v", e)
				}
				// Nothing of the outside: the refusal is the same words
				// whatever the path, with nothing but the path given.
				if want := tool + ": path is outside the workspace: " + p.path + ". " + outsideError("", "").Hint; msg != want {
					t.Errorf("refusal %q, want %q", msg, want)
				}
				if e.Err != search.ErrOutsideWorkspace {
					t.Errorf("refusal wraps %v", e.Err)
				}
			})
		}
	}
	f.untouched(t)
	if asked.count() != 0 {
		t.Errorf("approval asked %d times for refused paths", asked.count())
	}
	// An existing and a missing path under a link out are refused alike.
	read := escapeCalls(tl)[ReadFileName]
	e1, e2 := read("link_out_dir/secret.txt"), read("link_out_dir/missing.txt")
	if strings.Replace(e1.Error(), "secret.txt", "X", 1) != strings.Replace(e2.Error(), "missing.txt", "X", 1) {
		t.Errorf("refusals differ: %q, %q", e1, e2)
	}
}

func TestPathsInsideThroughLinks(t *testing.T) {
	f := newEscapeFixture(t)
	tl, _ := newTools(t, f.ws)
	ctx := context.Background()
	// A link inside the workspace to a file inside is followed: reading
	// and editing reach its target, and the link stays a link.
	r, err := tl.ReadFile(ctx, ReadFileParams{Path: "link_in_file.txt"})
	if err != nil || r.Content != "inside\n" || r.Path != "inside.txt" {
		t.Fatalf("read through a link: %+v %v", r, err)
	}
	if _, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "link_in_file.txt", Find: "inside", Replace: "changed"}); err != nil {
		t.Fatal(err)
	}
	if got := readBack(t, f.ws, "inside.txt"); got != "changed\n" {
		t.Errorf("target holds %q", got)
	}
	if fi, err := os.Lstat(filepath.Join(f.ws, "link_in_file.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link must stay a link")
	}
	// An absolute path inside the workspace is accepted.
	if _, err := tl.ReadFile(ctx, ReadFileParams{Path: filepath.Join(f.ws, "sub", "file.txt")}); err != nil {
		t.Errorf("absolute path inside: %v", err)
	}
	// Walks never follow links: nothing outside is listed or searched.
	g, err := tl.Grep(ctx, GrepParams{Pattern: "secret"})
	if err != nil || g.TotalMatches != 0 {
		t.Errorf("grep followed a link out: %q %v", grepLines(g), err)
	}
	// delete_file removes a link, never its target.
	if _, err := tl.DeleteFile(ctx, DeleteFileParams{Path: "link_out_file"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(f.ws, "link_out_file")); !os.IsNotExist(err) {
		t.Error("the link was not removed")
	}
	f.untouched(t)
}

// TestSwappedLinks swaps a directory or file for a link out of the
// workspace between a path's check and its use: what is opened is
// checked again by the os.Root, so nothing outside is read or written.
func TestSwappedLinks(t *testing.T) {
	swapDir := func(f escapeFixture) func() {
		return func() {
			sub := filepath.Join(f.ws, "sub")
			if err := os.RemoveAll(sub); err != nil {
				panic(err)
			}
			if err := os.Symlink(f.outside, sub); err != nil {
				panic(err)
			}
		}
	}
	swapFile := func(f escapeFixture) func() {
		return func() {
			p := filepath.Join(f.ws, "sub", "file.txt")
			if err := os.Remove(p); err != nil {
				panic(err)
			}
			if err := os.Symlink(filepath.Join(f.outside, "file.txt"), p); err != nil {
				panic(err)
			}
		}
	}
	ctx := context.Background()
	cases := []struct {
		name string
		swap func(escapeFixture) func()
		// during approval instead of right after the check
		atApproval bool
		call       func(tl *Tools) error
	}{
		{"read_file, directory swapped after the check", swapDir, false, func(tl *Tools) error {
			_, err := tl.ReadFile(ctx, ReadFileParams{Path: "sub/file.txt"})
			return err
		}},
		{"read_file, file swapped after the check", swapFile, false, func(tl *Tools) error {
			_, err := tl.ReadFile(ctx, ReadFileParams{Path: "sub/file.txt"})
			return err
		}},
		{"list_directory, directory swapped after the check", swapDir, false, func(tl *Tools) error {
			_, err := tl.ListDirectory(ctx, ListDirectoryParams{Path: "sub"})
			return err
		}},
		{"replace_in_file, directory swapped during approval", swapDir, true, func(tl *Tools) error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "sub/file.txt", Find: "file", Replace: "x"})
			return err
		}},
		{"edit_lines, file swapped during approval", swapFile, true, func(tl *Tools) error {
			_, err := tl.EditLines(ctx, EditLinesParams{Path: "sub/file.txt", Operation: OpDelete, StartLine: 1})
			return err
		}},
		{"create_file, directory swapped during approval", swapDir, true, func(tl *Tools) error {
			_, err := tl.CreateFile(ctx, CreateFileParams{Path: "sub/new.txt", Content: "x"})
			return err
		}},
		{"create_file in a new directory, parent swapped during approval", swapDir, true, func(tl *Tools) error {
			_, err := tl.CreateFile(ctx, CreateFileParams{Path: "sub/deeper/new.txt", Content: "x"})
			return err
		}},
		{"delete_file, directory swapped during approval", swapDir, true, func(tl *Tools) error {
			_, err := tl.DeleteFile(ctx, DeleteFileParams{Path: "sub/file.txt"})
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newEscapeFixture(t)
			swap := c.swap(f)
			cfg := Config{Workspace: f.ws, Approver: func(context.Context, toolspec.Request) (bool, error) {
				if c.atApproval {
					swap()
				}
				return true, nil
			}}
			tl, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !c.atApproval {
				tl.afterResolve = func(string) { swap() }
			}
			err = c.call(tl)
			if err == nil {
				t.Fatal("the call went through a link swapped in")
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), f.base) {
				t.Errorf("error %q tells of the outside", err)
			}
			toolError(t, err)
			f.untouched(t)
		})
	}
}
