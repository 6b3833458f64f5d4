package filetools

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

var walkTree = map[string]string{
	".gitignore":                "*.log\ngenerated/\n",
	"sub/.ignore":               "local.txt\n",
	"app.py":                    "needle = 1\n",
	"types.pyi":                 "needle: int\n",
	"debug.log":                 "needle\n",
	"generated/out.py":          "needle\n",
	"sub/local.txt":             "needle\n",
	"sub/kept.txt":              "needle\n",
	".github/workflows/ci.yml":  "needle: true\n",
	".git/config":               "needle\n",
	"node_modules/pkg/index.js": "needle\n",
	"dist/bundle.js":            "needle\n",
	"target/debug/x.rs":         "needle\n",
	".venv/lib/site.py":         "needle\n",
	"pkg/dist/inner.js":         "needle\n",
	"image.png":                 "\x89PNG\x00\x00needle",
	"latin1.txt":                "caf\xe9 needle\n",
	".app.py.loupe-42":          "needle half written\n",
}

// TestWalkRules checks which files the walking tools see: ignore files
// (no repository needed), hidden files, the default exclusions, the
// screen, and the temporary files of atomic writes.
func TestWalkRules(t *testing.T) {
	tl, _ := newTools(t, workspace(t, walkTree))
	ctx := context.Background()
	seen := []string{".github/workflows/ci.yml", "app.py", "sub/kept.txt", "types.pyi"}

	g, err := tl.Grep(ctx, GrepParams{Pattern: "needle"})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, m := range g.Matches {
		files = append(files, m.File)
	}
	if !reflect.DeepEqual(files, seen) {
		t.Errorf("grep searched %q, want %q", files, seen)
	}
	w := strings.Join(g.Warnings, "\n")
	for _, want := range []string{"1 binary file skipped (image.png)", "1 file is not UTF-8 text, skipped (latin1.txt)"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings %q lack %q", g.Warnings, want)
		}
	}

	gl, err := tl.Glob(ctx, GlobParams{Pattern: "**/*"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".github/workflows/ci.yml", ".gitignore", "app.py", "image.png", "latin1.txt", "sub/.ignore", "sub/kept.txt", "types.pyi"}
	if !reflect.DeepEqual(gl.Files, want) {
		t.Errorf("glob found %q, want %q", gl.Files, want)
	}

	ls, err := tl.ListDirectory(ctx, ListDirectoryParams{Recursive: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ls.Entries {
		names = append(names, e.Name)
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("list_directory recursive: %q", names)
	}

	// A search that starts inside an exclusion searches it; an ignored
	// file named as the path is searched too.
	for _, c := range []struct {
		path string
		want []string
	}{
		{"node_modules/pkg", []string{"node_modules/pkg/index.js"}},
		{"dist", []string{"dist/bundle.js"}},
		{"pkg", nil},
		{"debug.log", []string{"debug.log"}},
	} {
		g, err := tl.Grep(ctx, GrepParams{Pattern: "needle", Path: c.path})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range g.Matches {
			got = append(got, m.File)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("grep in %s: %q, want %q", c.path, got, c.want)
		}
	}

	// file_type takes a language name and its extensions.
	g, err = tl.Grep(ctx, GrepParams{Pattern: "needle", FileType: "python"})
	if err != nil {
		t.Fatal(err)
	}
	if got := grepLines(g); !reflect.DeepEqual(got, []string{"app.py:1", "types.pyi:1"}) {
		t.Errorf("file_type python: %q", got)
	}
	g, err = tl.Grep(ctx, GrepParams{Pattern: "needle", FileType: "go"})
	if err != nil || !strings.Contains(g.Suggestion, "No files of type go") {
		t.Errorf("file_type go: %+v %v", g, err)
	}

	// A search path that does not exist is an error naming it.
	_, err = tl.Grep(ctx, GrepParams{Pattern: "needle", Path: "nowhere"})
	wantNotFound(t, err, "nowhere")
	for _, err := range []error{
		func() error { _, err := tl.Glob(ctx, GlobParams{Pattern: "*", Path: "app.py"}); return err }(),
		func() error { _, err := tl.Search(ctx, SearchParams{Query: "app", Path: "app.py"}); return err }(),
	} {
		if e := toolError(t, err); !strings.Contains(e.Error(), "path is a file, not a directory: app.py") {
			t.Errorf("a file as the directory: %v", err)
		}
	}
	if g, err := tl.Glob(ctx, GlobParams{Pattern: "app.py/**"}); err != nil || g.TotalFiles != 0 {
		t.Errorf("a pattern below a file: %+v %v", g, err)
	}
	_, err = tl.Glob(ctx, GlobParams{Pattern: "*", Exclude: []string{"{a"}})
	if e := toolError(t, err); !strings.Contains(e.Msg, "invalid exclude pattern") {
		t.Errorf("bad exclude: %v", err)
	}
}

func TestGrepOptions(t *testing.T) {
	long := strings.Repeat("é", 600) + " needle"
	tl, _ := newTools(t, workspace(t, map[string]string{
		"a.go":   "\uFEFFpackage a\r\n\r\nfunc (r *Reg) Add(x int) {}\r\n// añadir: Add(\r\n",
		"b.txt":  long + "\n",
		"c.txt":  "1\n2\n3\nneedle\n5\n6\n7\n8\nneedle\n10\n",
		"d.txt":  "x.y\nxzy\n",
		"e.json": `{"k": "v"}` + "\n",
	}))
	ctx := context.Background()
	cases := []struct {
		name   string
		params GrepParams
		check  func(t *testing.T, r *GrepResult)
	}{
		{"CRLF lines lose their CR, a BOM does not hide line 1", GrepParams{Pattern: "^package a$", Path: "a.go"}, func(t *testing.T, r *GrepResult) {
			if got := grepLines(r); !reflect.DeepEqual(got, []string{"a.go:1"}) || r.Matches[0].Text != "package a" {
				t.Errorf("matches %+v", r.Matches)
			}
		}},
		{"columns count characters", GrepParams{Pattern: `Add\(`, FileType: "go", ContextLines: Int(0)}, func(t *testing.T, r *GrepResult) {
			if len(r.Matches) != 2 || r.Matches[0].Column != 15 || r.Matches[1].Column != 12 || r.Matches[0].Before != nil {
				t.Errorf("matches %+v", r.Matches)
			}
		}},
		{"literal", GrepParams{Pattern: "x.y", Literal: true, Path: "d.txt"}, func(t *testing.T, r *GrepResult) {
			if got := grepLines(r); !reflect.DeepEqual(got, []string{"d.txt:1"}) {
				t.Errorf("matches %q", got)
			}
		}},
		{"regex, for comparison", GrepParams{Pattern: "x.y", Path: "d.txt"}, func(t *testing.T, r *GrepResult) {
			if r.TotalMatches != 2 {
				t.Errorf("matches %q", grepLines(r))
			}
		}},
		{"long lines are cut", GrepParams{Pattern: "needle", Path: "b.txt"}, func(t *testing.T, r *GrepResult) {
			m := r.Matches[0]
			if m.Column != 602 || !strings.HasSuffix(m.Text, " …[line cut]") || len([]rune(m.Text)) != maxLineLen+len([]rune(" …[line cut]")) {
				t.Errorf("match column %d, text of %d characters", m.Column, len([]rune(m.Text)))
			}
		}},
		{"context merges in the text", GrepParams{Pattern: "needle", Path: "c.txt", ContextLines: Int(3)}, func(t *testing.T, r *GrepResult) {
			want := "c.txt\n   1- 1\n   2- 2\n   3- 3\n   4: needle\n   5- 5\n   6- 6\n   7- 7\n   8- 8\n   9: needle\n  10- 10\n"
			if !strings.Contains(r.Text(), want) {
				t.Errorf("text:\n%s\nwant:\n%s", r.Text(), want)
			}
		}},
		{"separate parts are marked", GrepParams{Pattern: "needle", Path: "c.txt", ContextLines: Int(1)}, func(t *testing.T, r *GrepResult) {
			want := "c.txt\n   3- 3\n   4: needle\n   5- 5\n  --\n   8- 8\n   9: needle\n  10- 10\n"
			if !strings.Contains(r.Text(), want) {
				t.Errorf("text:\n%s\nwant:\n%s", r.Text(), want)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := tl.Grep(ctx, c.params)
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, r)
		})
	}
	for _, bad := range []GrepParams{{}, {Pattern: "x", ContextLines: Int(11)}, {Pattern: "x", ContextLines: Int(-1)}} {
		if _, err := tl.Grep(ctx, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		} else {
			toolError(t, err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := tl.Grep(cancelled, GrepParams{Pattern: "x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled grep: %v", err)
	}
}

func TestReadFile(t *testing.T) {
	var big strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	huge := strings.Repeat("x", ReadMaxBytes+10)
	dir := workspace(t, map[string]string{
		"a.txt":     "one\ntwo\nthree",
		"big.txt":   big.String(),
		"huge.txt":  huge + "\nnext\n",
		"bin.dat":   "\x00\x01\x02",
		"empty.txt": "",
		"latin.txt": "caf\xe9\n",
		"crlf.txt":  "\uFEFFa\r\nb\r\n",
		"d/":        "",
	})
	tl, _ := newTools(t, dir)
	ctx := context.Background()
	cases := []struct {
		name                   string
		params                 ReadFileParams
		content                string
		start, end, total, nxt int
		text                   string
	}{
		{"whole file", ReadFileParams{Path: "a.txt"}, "one\ntwo\nthree", 1, 3, 3, 0, "a.txt (lines 1-3 of 3)\n1\tone\n2\ttwo\n3\tthree\n"},
		{"a range", ReadFileParams{Path: "a.txt", StartLine: 2, EndLine: 2}, "two\n", 2, 2, 3, 0, "a.txt (lines 2-2 of 3)\n2\ttwo\n"},
		{"from a line to the end", ReadFileParams{Path: "a.txt", StartLine: 3}, "three", 3, 3, 3, 0, ""},
		{"an end past the file", ReadFileParams{Path: "a.txt", EndLine: 99}, "one\ntwo\nthree", 1, 3, 3, 0, ""},
		{"at most 2000 lines a call", ReadFileParams{Path: "big.txt"}, "", 1, 2000, 2500, 2001, "[500 more lines: call read_file again with start_line=2001]"},
		{"the rest", ReadFileParams{Path: "big.txt", StartLine: 2001}, "", 2001, 2500, 2500, 0, "2500\tline 2500\n"},
		{"a line over the byte limit is cut", ReadFileParams{Path: "huge.txt"}, huge[:ReadMaxBytes] + "\n", 1, 1, 2, 2, "line 1 is longer than 256.0 KiB and was cut"},
		{"empty file", ReadFileParams{Path: "empty.txt"}, "", 1, 0, 0, 0, "empty.txt is empty (0 lines).\n"},
		{"not UTF-8", ReadFileParams{Path: "latin.txt"}, "caf\uFFFD\n", 1, 1, 1, 0, "not valid UTF-8"},
		{"BOM left out, CRLF kept", ReadFileParams{Path: "crlf.txt"}, "a\r\nb\r\n", 1, 2, 2, 0, "1\ta\n2\tb\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := tl.ReadFile(ctx, c.params)
			if err != nil {
				t.Fatal(err)
			}
			if c.content != "" && r.Content != c.content {
				t.Errorf("content %q, want %q", r.Content, c.content)
			}
			if r.StartLine != c.start || r.EndLine != c.end || r.TotalLines != c.total || r.NextStartLine != c.nxt || r.Truncated != (c.nxt != 0) {
				t.Errorf("range %d-%d of %d, next %d", r.StartLine, r.EndLine, r.TotalLines, r.NextStartLine)
			}
			if !strings.Contains(r.Text(), c.text) {
				t.Errorf("text lacks %q:\n%.300s", c.text, r.Text())
			}
		})
	}
	for _, c := range []struct {
		params ReadFileParams
		want   string
	}{
		{ReadFileParams{Path: "a.txt", StartLine: 4}, "The file has 3 lines: the valid range is 1-3"},
		{ReadFileParams{Path: "a.txt", StartLine: 3, EndLine: 2}, "end_line 2 is before start_line 3"},
		{ReadFileParams{Path: "a.txt", StartLine: -1}, "cannot be negative"},
		{ReadFileParams{Path: "bin.dat"}, "binary file"},
		{ReadFileParams{Path: "d"}, "is a directory"},
		{ReadFileParams{Path: ""}, "path is required"},
		{ReadFileParams{Path: "missing.txt"}, "file not found: missing.txt"},
	} {
		_, err := tl.ReadFile(ctx, c.params)
		if e := toolError(t, err); !strings.Contains(e.Error(), c.want) {
			t.Errorf("%+v: error %q lacks %q", c.params, e, c.want)
		}
	}
	small, err := New(Config{Workspace: dir, MaxFileSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	_, err = small.ReadFile(ctx, ReadFileParams{Path: "big.txt"})
	if e := toolError(t, err); !strings.Contains(e.Msg, "too large") || !strings.Contains(e.Hint, "grep") {
		t.Errorf("size limit: %v", err)
	}
}

func TestListDirectory(t *testing.T) {
	files := map[string]string{
		"b.txt":             "bb",
		"a/":                "",
		"link":              "->b.txt",
		".hidden":           "h",
		".b.txt.loupe-7":    "half",
		"many/":             "",
		"node_modules/x.js": "",
	}
	for i := range 250 {
		files[fmt.Sprintf("many/f%03d", i)] = ""
	}
	tl, _ := newTools(t, workspace(t, files))
	ctx := context.Background()
	r, err := tl.ListDirectory(ctx, ListDirectoryParams{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{".hidden", "file", 1}, {"a", "directory", 0}, {"b.txt", "file", 2}, {"link", "symlink", 0}, {"many", "directory", 0}, {"node_modules", "directory", 0}}
	if !reflect.DeepEqual(r.Entries, want) {
		t.Errorf("entries %+v", r.Entries)
	}
	if want := "6 entries in the workspace root.\n\n.hidden  (1 bytes)\na/\nb.txt  (2 bytes)\nlink  (symlink)\nmany/\nnode_modules/\n"; r.Text() != want {
		t.Errorf("text %q, want %q", r.Text(), want)
	}
	r, err = tl.ListDirectory(ctx, ListDirectoryParams{Path: "many"})
	if err != nil || len(r.Entries) != DefaultListMaxResults || r.TotalEntries != 250 || !r.Truncated || !strings.Contains(r.Message, "Showing 200 of 250 entries in many") {
		t.Errorf("truncated listing: %d of %d, %q, %v", len(r.Entries), r.TotalEntries, r.Message, err)
	}
	r, err = tl.ListDirectory(ctx, ListDirectoryParams{Path: "many", Recursive: true, MaxResults: 3})
	if err != nil || r.Entries[0].Name != "f000" || len(r.Entries) != 3 {
		t.Errorf("recursive listing: %+v %v", r.Entries, err)
	}
	r, err = tl.ListDirectory(ctx, ListDirectoryParams{Path: "a"})
	if err != nil || r.Message != "a is empty." {
		t.Errorf("empty directory: %+v %v", r, err)
	}
	_, err = tl.ListDirectory(ctx, ListDirectoryParams{Path: "b.txt"})
	if e := toolError(t, err); !strings.Contains(e.Error(), "not a directory: b.txt") {
		t.Errorf("a file: %v", err)
	}
	_, err = tl.ListDirectory(ctx, ListDirectoryParams{Path: "nope"})
	wantNotFound(t, err, "nope")
}
