package filetools

// The scenarios of the agent file tools' specification (seed 003), one
// subtest per scenario, named after it, grouped by requirement.

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/tools/toolspec"
)

var grepTree = map[string]string{
	"src/engine.rs": "pub struct Engine;\n\nimpl Engine {\n    pub async fn execute(&self) {}\n    async fn execute_all(&self) {}\n}\n",
	"src/tool.ts":   "export async function execute() {}\n// ASYNC FN EXECUTE shouted\n",
	"docs/notes.md": "Async fn execute is documented here\n",
}

// Requirement: Content Search with Grep.
func TestContentSearchWithGrep(t *testing.T) {
	tl, _ := newTools(t, workspace(t, grepTree))
	cases := []struct {
		scenario  string
		params    GrepParams
		want      []string // file:line of the matches returned
		total     int
		truncated bool
		message   string
		check     func(t *testing.T, r *GrepResult)
	}{
		{
			scenario: "Search for code pattern",
			params:   GrepParams{Pattern: "async fn.*execute"},
			want:     []string{"src/engine.rs:4", "src/engine.rs:5"}, total: 2,
			message: "Found 2 matches in 1 file",
			check: func(t *testing.T, r *GrepResult) {
				m := r.Matches[0]
				if m.Column != 9 || m.Text != "    pub async fn execute(&self) {}" {
					t.Errorf("match %+v", m)
				}
				if got := []ContextLine{{2, ""}, {3, "impl Engine {"}}; !reflect.DeepEqual(m.Before, got) {
					t.Errorf("context before %+v", m.Before)
				}
				if got := []ContextLine{{5, "    async fn execute_all(&self) {}"}, {6, "}"}}; !reflect.DeepEqual(m.After, got) {
					t.Errorf("context after %+v", m.After)
				}
				text := r.Text()
				for _, want := range []string{"src/engine.rs\n", "  3- impl Engine {\n", "  4:     pub async fn execute(&self) {}\n", "  6- }\n"} {
					if !strings.Contains(text, want) {
						t.Errorf("text lacks %q:\n%s", want, text)
					}
				}
			},
		},
		{
			scenario: "Search for code pattern (limited by max_results)",
			params:   GrepParams{Pattern: "async fn.*execute", MaxResults: 1},
			want:     []string{"src/engine.rs:4"}, total: 2, truncated: true,
			message: "Showing 1 of 2 matches",
			check: func(t *testing.T, r *GrepResult) {
				if !strings.Contains(r.Suggestion, "Refine the search") || !strings.Contains(r.Suggestion, "src/engine.rs (2)") {
					t.Errorf("suggestion %q", r.Suggestion)
				}
			},
		},
		{
			scenario: "Case-insensitive search",
			params:   GrepParams{Pattern: "async fn.*execute", CaseSensitive: Bool(false)},
			want:     []string{"docs/notes.md:1", "src/engine.rs:4", "src/engine.rs:5", "src/tool.ts:2"}, total: 4,
		},
		{
			scenario: "Filter by file type",
			params:   GrepParams{Pattern: "execute", FileType: "ts"},
			want:     []string{"src/tool.ts:1"}, total: 1,
		},
		{
			scenario: "Filter by file type (several, with dots)",
			params:   GrepParams{Pattern: "execute", FileType: ".rs, .md"},
			want:     []string{"docs/notes.md:1", "src/engine.rs:4", "src/engine.rs:5"}, total: 3,
		},
		{
			scenario: "No matches found",
			params:   GrepParams{Pattern: "no_such_symbol"},
			want:     []string{}, total: 0,
			message: "No matches for /no_such_symbol/ in 3 files searched",
			check: func(t *testing.T, r *GrepResult) {
				if r.Matches == nil || r.Suggestion == "" || !strings.HasPrefix(r.Text(), "No matches") {
					t.Errorf("empty result %+v", r)
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			r, err := tl.Grep(context.Background(), c.params)
			if err != nil {
				t.Fatal(err)
			}
			if got := grepLines(r); !reflect.DeepEqual(got, c.want) {
				t.Errorf("matches %q, want %q", got, c.want)
			}
			if r.TotalMatches != c.total || r.Truncated != c.truncated {
				t.Errorf("total %d truncated %v, want %d %v", r.TotalMatches, r.Truncated, c.total, c.truncated)
			}
			if !strings.Contains(r.Message, c.message) {
				t.Errorf("message %q lacks %q", r.Message, c.message)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}

	t.Run("Invalid regex pattern", func(t *testing.T) {
		for _, c := range []struct{ pattern, explains, suggests string }{
			{"execute(", "missing closing )", "literal=true"},
			{"fn(?=execute)", "invalid or unsupported Perl syntax", "no lookahead"},
			{"(?<!pub )async", "invalid named capture", "no lookbehind"},
			{`(\w+) \1`, "invalid escape sequence", "no backreferences"},
			{"a**", "invalid nested repetition operator", "RE2 syntax"},
		} {
			_, err := tl.Grep(context.Background(), GrepParams{Pattern: c.pattern})
			e := toolError(t, err)
			if !strings.Contains(e.Msg, "invalid regular expression") || !strings.Contains(e.Msg, c.explains) {
				t.Errorf("%q: message %q does not explain %q", c.pattern, e.Msg, c.explains)
			}
			if !strings.Contains(e.Hint, c.suggests) || !strings.Contains(e.Hint, "e.g.") {
				t.Errorf("%q: hint %q does not suggest %q with examples", c.pattern, e.Hint, c.suggests)
			}
		}
	})
}

var globTree = map[string]string{
	"src/App.tsx":                   "",
	"src/index.ts":                  "",
	"src/components/Button.tsx":     "",
	"src/components/Button.test.ts": "",
	"src/utils/deep/x.test.ts":      "",
	"test/e2e.test.ts":              "",
	"vendor/lib.tsx":                "",
	"node_modules/react/index.tsx":  "",
	"dist/App.tsx":                  "",
	"build/out.tsx":                 "",
	"target/gen.tsx":                "",
}

// Requirement: Pattern-Based File Search with Glob.
func TestPatternBasedFileSearchWithGlob(t *testing.T) {
	tl, _ := newTools(t, workspace(t, globTree))
	cases := []struct {
		scenario string
		params   GlobParams
		want     []string
		message  string
	}{
		{"Find files by extension", GlobParams{Pattern: "**/*.tsx"},
			[]string{"src/App.tsx", "src/components/Button.tsx", "vendor/lib.tsx"}, "Found 3 files"},
		{"Find test files", GlobParams{Pattern: "src/**/*.test.ts"},
			[]string{"src/components/Button.test.ts", "src/utils/deep/x.test.ts"}, "Found 2 files"},
		{"Exclude directories", GlobParams{Pattern: "**/*.tsx", Exclude: []string{"node_modules", "dist", "vendor"}},
			[]string{"src/App.tsx", "src/components/Button.tsx"}, "Found 2 files"},
		{"Exclude directories (a path from the root and a file pattern)", GlobParams{Pattern: "**/*.ts*", Exclude: []string{"src/components", "*.test.ts"}},
			[]string{"src/App.tsx", "src/index.ts", "vendor/lib.tsx"}, "Found 3 files"},
		{"Exclude directories (a pattern starting inside a default exclusion searches it)", GlobParams{Pattern: "node_modules/**/*.tsx"},
			[]string{"node_modules/react/index.tsx"}, "Found 1 file"},
		{"No matching files", GlobParams{Pattern: "**/*.vue"}, []string{}, `No files match "**/*.vue"`},
		{"No matching files (missing directory)", GlobParams{Pattern: "lib/**/*.go"}, []string{}, "does not exist"},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			r, err := tl.Glob(context.Background(), c.params)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Files, c.want) {
				t.Errorf("files %q, want %q", r.Files, c.want)
			}
			if !slices.IsSorted(r.Files) {
				t.Errorf("files not sorted: %q", r.Files)
			}
			if r.TotalFiles != len(c.want) || r.Truncated {
				t.Errorf("total %d truncated %v", r.TotalFiles, r.Truncated)
			}
			if !strings.Contains(r.Message, c.message) {
				t.Errorf("message %q lacks %q", r.Message, c.message)
			}
			if len(c.want) == 0 && r.Suggestion == "" {
				t.Error("an empty result needs a suggestion")
			}
		})
	}

	t.Run("Invalid glob pattern", func(t *testing.T) {
		for _, c := range []struct{ pattern, explains string }{
			{"src/[a-", "'[' character class is not closed"},
			{"src/{a,b", "'{' alternative group is not closed"},
			{"src/a}", "'}' has no matching '{'"},
			{"[]x", "is empty"},
			{`x\`, "lone backslash"},
			{"/etc/*", "not absolute"},
			{"../*", "'..' is not allowed"},
			{"", "pattern is required"},
		} {
			_, err := tl.Glob(context.Background(), GlobParams{Pattern: c.pattern})
			e := toolError(t, err)
			if !strings.Contains(e.Msg, c.explains) {
				t.Errorf("%q: message %q does not explain %q", c.pattern, e.Msg, c.explains)
			}
			if !strings.Contains(e.Hint, "'**/*.tsx'") {
				t.Errorf("%q: hint %q suggests no valid pattern", c.pattern, e.Hint)
			}
		}
	})
}

// Requirement: Find and Replace in Files.
func TestFindAndReplaceInFiles(t *testing.T) {
	const text = "oldText one\noldText two\nkeep\n"
	cases := []struct {
		scenario string
		params   ReplaceInFileParams
		count    int
		want     string // the file afterwards
		applied  bool
		asked    int // approvals asked
		message  string
	}{
		{"Simple text replacement", ReplaceInFileParams{Find: "oldText", Replace: "newText"},
			2, "newText one\nnewText two\nkeep\n", true, 1, "Replaced 2 occurrences"},
		{"Regex-based replacement", ReplaceInFileParams{Find: `oldText (\w+)`, Replace: "$1 was old", IsRegex: true},
			2, "one was old\ntwo was old\nkeep\n", true, 1, "Replaced 2 occurrences of /oldText (\\w+)/"},
		{"Regex-based replacement (named groups, anchors per line)", ReplaceInFileParams{Find: `^(?P<w>\w+)Text`, Replace: "${w}_${w}", IsRegex: true},
			2, "old_old one\nold_old two\nkeep\n", true, 1, "Replaced 2"},
		{"Preview mode", ReplaceInFileParams{Find: "oldText", Replace: "newText", PreviewOnly: true},
			2, text, false, 0, "Preview: 2 occurrences"},
		{"Pattern not found", ReplaceInFileParams{Find: "absent", Replace: "x"},
			0, text, false, 0, "0 replacements"},
		{"Pattern not found (regex)", ReplaceInFileParams{Find: `absent\d`, Replace: "x", IsRegex: true},
			0, text, false, 0, "0 replacements"},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			dir := workspace(t, map[string]string{"a.txt": text})
			tl, asked := newTools(t, dir)
			c.params.Path = "a.txt"
			r, err := tl.ReplaceInFile(context.Background(), c.params)
			if err != nil {
				t.Fatal(err)
			}
			if r.Replacements != c.count || r.Applied != c.applied {
				t.Errorf("replacements %d applied %v, want %d %v", r.Replacements, r.Applied, c.count, c.applied)
			}
			if got := readBack(t, dir, "a.txt"); got != c.want {
				t.Errorf("file holds %q, want %q", got, c.want)
			}
			if asked.count() != c.asked {
				t.Errorf("approval asked %d times, want %d", asked.count(), c.asked)
			}
			if !strings.Contains(r.Message, c.message) {
				t.Errorf("message %q lacks %q", r.Message, c.message)
			}
			if c.asked == 1 && (asked.reqs[0].Tool != ReplaceInFileName || asked.reqs[0].Path != "a.txt" || !strings.Contains(asked.reqs[0].Diff, "+")) {
				t.Errorf("approval request %+v", asked.reqs[0])
			}
		})
	}

	t.Run("Preview mode (the diff, without an approver)", func(t *testing.T) {
		dir := workspace(t, map[string]string{"a.txt": text})
		tl, err := New(Config{Workspace: dir})
		if err != nil {
			t.Fatal(err)
		}
		r, err := tl.ReplaceInFile(context.Background(), ReplaceInFileParams{Path: "a.txt", Find: "oldText", Replace: "newText", PreviewOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		want := "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n-oldText one\n-oldText two\n+newText one\n+newText two\n keep\n"
		if r.Diff != want {
			t.Errorf("diff:\n%s\nwant:\n%s", r.Diff, want)
		}
		if !strings.Contains(r.Text(), want) {
			t.Errorf("the preview's text lacks the diff:\n%s", r.Text())
		}
		if readBack(t, dir, "a.txt") != text {
			t.Error("a preview wrote the file")
		}
	})
	t.Run("Pattern not found (without an approver)", func(t *testing.T) {
		dir := workspace(t, map[string]string{"a.txt": text})
		tl, err := New(Config{Workspace: dir})
		if err != nil {
			t.Fatal(err)
		}
		r, err := tl.ReplaceInFile(context.Background(), ReplaceInFileParams{Path: "a.txt", Find: "absent", Replace: "x"})
		if err != nil || r.Replacements != 0 || !strings.HasPrefix(r.Text(), "0 replacements") {
			t.Errorf("got %+v, %v", r, err)
		}
	})
	t.Run("File not found", func(t *testing.T) {
		tl, asked := newTools(t, workspace(t, nil))
		_, err := tl.ReplaceInFile(context.Background(), ReplaceInFileParams{Path: "src/missing.ts", Find: "a", Replace: "b"})
		wantNotFound(t, err, "src/missing.ts")
		if asked.count() != 0 {
			t.Error("approval asked for a missing file")
		}
	})
}

// twenty is a file of lines "line1" to "line20".
func twenty() string {
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "line%d\n", i)
	}
	return b.String()
}

// linesOf lists "lineN" for the given numbers and literal strings.
func linesOf(items ...any) string {
	var b strings.Builder
	for _, it := range items {
		switch v := it.(type) {
		case [2]int:
			for i := v[0]; i <= v[1]; i++ {
				fmt.Fprintf(&b, "line%d\n", i)
			}
		case string:
			b.WriteString(v + "\n")
		}
	}
	return b.String()
}

// Requirement: Line-Based File Editing.
func TestLineBasedFileEditing(t *testing.T) {
	cases := []struct {
		scenario string
		params   EditLinesParams
		want     string
		total    int
		message  string
	}{
		{"Insert lines", EditLinesParams{Operation: OpInsert, Line: Int(10), Content: "a\nb\n"},
			linesOf([2]int{1, 10}, "a", "b", [2]int{11, 20}), 22, "Inserted 2 lines after line 10"},
		{"Insert lines (at the top)", EditLinesParams{Operation: OpInsert, Line: Int(0), Content: "top"},
			linesOf("top", [2]int{1, 20}), 21, "at the top"},
		{"Insert lines (at the end)", EditLinesParams{Operation: OpInsert, Line: Int(20), Content: "end"},
			linesOf([2]int{1, 20}, "end"), 21, "after line 20"},
		{"Delete line range", EditLinesParams{Operation: OpDelete, StartLine: 5, EndLine: 8},
			linesOf([2]int{1, 4}, [2]int{9, 20}), 16, "Deleted lines 5-8 (4 lines)"},
		{"Delete line range (one line)", EditLinesParams{Operation: OpDelete, StartLine: 20},
			linesOf([2]int{1, 19}), 19, "Deleted line 20"},
		{"Replace line range", EditLinesParams{Operation: OpReplace, StartLine: 10, EndLine: 15, Content: "X\nY"},
			linesOf([2]int{1, 9}, "X", "Y", [2]int{16, 20}), 16, "Replaced lines 10-15 (6 lines) of a.txt with 2 lines"},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			dir := workspace(t, map[string]string{"a.txt": twenty()})
			tl, asked := newTools(t, dir)
			c.params.Path = "a.txt"
			r, err := tl.EditLines(context.Background(), c.params)
			if err != nil {
				t.Fatal(err)
			}
			if got := readBack(t, dir, "a.txt"); got != c.want {
				t.Errorf("file holds %q, want %q", got, c.want)
			}
			if r.TotalLines != c.total || r.OldTotalLines != 20 || !r.Applied {
				t.Errorf("result %+v, want %d lines", r, c.total)
			}
			if !strings.Contains(r.Message, c.message) || !strings.Contains(r.Message, fmt.Sprintf("it now has %d lines", c.total)) {
				t.Errorf("message %q lacks %q and the new line count", r.Message, c.message)
			}
			if asked.count() != 1 {
				t.Errorf("approval asked %d times, want once", asked.count())
			}
		})
	}

	t.Run("Invalid line range", func(t *testing.T) {
		for _, c := range []struct {
			params EditLinesParams
			valid  string
		}{
			{EditLinesParams{Operation: OpDelete, StartLine: 18, EndLine: 25}, "the valid range is 1-20"},
			{EditLinesParams{Operation: OpReplace, StartLine: 21, EndLine: 22, Content: "x"}, "the valid range is 1-20"},
			{EditLinesParams{Operation: OpDelete, StartLine: 8, EndLine: 5}, "the valid range is 1-20"},
			{EditLinesParams{Operation: OpInsert, Line: Int(21), Content: "x"}, "line 0 (the top) to 20 (the end)"},
			{EditLinesParams{Operation: OpInsert, Line: Int(-1), Content: "x"}, "line 0 (the top) to 20 (the end)"},
		} {
			dir := workspace(t, map[string]string{"a.txt": twenty()})
			tl, asked := newTools(t, dir)
			c.params.Path = "a.txt"
			_, err := tl.EditLines(context.Background(), c.params)
			e := toolError(t, err)
			if !strings.Contains(e.Error(), c.valid) || !strings.Contains(e.Error(), "a.txt") {
				t.Errorf("%+v: error %q lacks %q", c.params, e, c.valid)
			}
			if readBack(t, dir, "a.txt") != twenty() || asked.count() != 0 {
				t.Error("an invalid range changed the file or asked for approval")
			}
		}
	})
	t.Run("File not found", func(t *testing.T) {
		tl, _ := newTools(t, workspace(t, nil))
		_, err := tl.EditLines(context.Background(), EditLinesParams{Path: "gone.py", Operation: OpDelete, StartLine: 1})
		wantNotFound(t, err, "gone.py")
	})
}

var searchTree = map[string]string{
	"src/registry.rs":           "",
	"src/registry.ts":           "",
	"src/tool_registry.rs":      "",
	"src/reg_ist_ry.rs":         "",
	"tests/registry.rs":         "",
	"examples/registry_demo.rs": "",
	"lib/my_registry_impl.rs":   "",
	"registry/mod.rs":           "",
	"src/unrelated.rs":          "",
	"node_modules/registry.rs":  "",
}

// Requirement: Enhanced Simple Search.
func TestEnhancedSimpleSearch(t *testing.T) {
	tl, _ := newTools(t, workspace(t, searchTree))
	cases := []struct {
		scenario  string
		params    SearchParams
		want      []string
		matches   []string // how the first few matched
		total     int
		truncated bool
	}{
		{"Search with file type filter", SearchParams{Query: "registry", FileType: "rs"},
			[]string{"src/registry.rs", "tests/registry.rs", "examples/registry_demo.rs", "src/tool_registry.rs", "lib/my_registry_impl.rs", "registry/mod.rs", "src/reg_ist_ry.rs"},
			[]string{RankExact, RankExact, RankPrefix, RankSubstring, RankSubstring, RankPath, RankFuzzy}, 7, false},
		{"Search with file type filter (another type)", SearchParams{Query: "Registry", FileType: "ts"},
			[]string{"src/registry.ts"}, []string{RankExact}, 1, false},
		{"Exclude directories", SearchParams{Query: "registry", FileType: "rs", ExcludeDirs: []string{"tests", "examples/", "./lib"}},
			[]string{"src/registry.rs", "src/tool_registry.rs", "registry/mod.rs", "src/reg_ist_ry.rs"}, nil, 4, false},
		{"Limit results", SearchParams{Query: "registry", MaxResults: 2},
			[]string{"src/registry.rs", "src/registry.ts"}, nil, 8, true},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			r, err := tl.Search(context.Background(), c.params)
			if err != nil {
				t.Fatal(err)
			}
			if got := hitPaths(r); !reflect.DeepEqual(got, c.want) {
				t.Errorf("results %q, want %q", got, c.want)
			}
			for i, m := range c.matches {
				if r.Results[i].Match != m {
					t.Errorf("result %d matched %s, want %s", i, r.Results[i].Match, m)
				}
			}
			if r.TotalMatches != c.total || r.Truncated != c.truncated {
				t.Errorf("total %d truncated %v, want %d %v", r.TotalMatches, r.Truncated, c.total, c.truncated)
			}
			if c.truncated && (!strings.Contains(r.Message, fmt.Sprintf("of %d", c.total)) || !strings.Contains(r.Suggestion, "Refine the query")) {
				t.Errorf("a truncated result needs the total and a suggestion: %q %q", r.Message, r.Suggestion)
			}
		})
	}
}

// Requirement: Tool Permission Declarations (the declarations are tested
// in package tools): without an approver every writing tool refuses a
// write, and the read-only tools need none.
func TestWritesNeedAnApprover(t *testing.T) {
	dir := workspace(t, map[string]string{"a.txt": "one\ntwo\n"})
	tl, err := New(Config{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	writes := map[string]func() error{
		CreateFileName: func() error { _, err := tl.CreateFile(ctx, CreateFileParams{Path: "b.txt", Content: "x"}); return err },
		UpdateFileName: func() error { _, err := tl.UpdateFile(ctx, UpdateFileParams{Path: "a.txt", Content: "x"}); return err },
		AppendFileName: func() error { _, err := tl.AppendFile(ctx, AppendFileParams{Path: "a.txt", Content: "x"}); return err },
		ReplaceInFileName: func() error {
			_, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "a.txt", Find: "one", Replace: "1"})
			return err
		},
		EditLinesName: func() error {
			_, err := tl.EditLines(ctx, EditLinesParams{Path: "a.txt", Operation: OpDelete, StartLine: 1})
			return err
		},
		DeleteFileName: func() error { _, err := tl.DeleteFile(ctx, DeleteFileParams{Path: "a.txt"}); return err },
	}
	for name, call := range writes {
		err := call()
		if !errors.Is(err, toolspec.ErrNoApprover) || !strings.Contains(err.Error(), "approval is unavailable") || !strings.HasPrefix(err.Error(), name+":") {
			t.Errorf("%s without an approver: %v", name, err)
		}
	}
	if readBack(t, dir, "a.txt") != "one\ntwo\n" {
		t.Error("a write happened without approval")
	}
	if _, err := tl.Grep(ctx, GrepParams{Pattern: "one"}); err != nil {
		t.Errorf("grep without an approver: %v", err)
	}
	if _, err := tl.ReadFile(ctx, ReadFileParams{Path: "a.txt"}); err != nil {
		t.Errorf("read_file without an approver: %v", err)
	}
}

// manyLines is a file of n lines, each holding "hit".
func manyLines(n int) string {
	return strings.Repeat("hit\n", n)
}

// Requirement: Search Result Limits.
func TestSearchResultLimits(t *testing.T) {
	files := map[string]string{"hits.txt": manyLines(600)}
	for i := range 130 {
		files[fmt.Sprintf("gen/f%03d.go", i)] = ""
	}
	tl, _ := newTools(t, workspace(t, files))
	ctx := context.Background()

	t.Run("Grep default limit", func(t *testing.T) {
		r, err := tl.Grep(ctx, GrepParams{Pattern: "hit"})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Matches) != 50 || r.MaxResults != 50 || r.TotalMatches != 600 || !r.Truncated {
			t.Errorf("%d matches of %d (limit %d, truncated %v)", len(r.Matches), r.TotalMatches, r.MaxResults, r.Truncated)
		}
		if !strings.Contains(r.Message, "Showing 50 of 600 matches") || !strings.Contains(r.Suggestion, "Refine the search") {
			t.Errorf("message %q suggestion %q", r.Message, r.Suggestion)
		}
		if !strings.Contains(r.Text(), r.Suggestion) {
			t.Error("the text lacks the suggestion")
		}
	})
	t.Run("Glob default limit", func(t *testing.T) {
		r, err := tl.Glob(ctx, GlobParams{Pattern: "**/*.go"})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Files) != 100 || r.TotalFiles != 130 || !r.Truncated || r.Files[99] != "gen/f099.go" {
			t.Errorf("%d files of %d (truncated %v)", len(r.Files), r.TotalFiles, r.Truncated)
		}
		if !strings.Contains(r.Message, "Showing 100 of 130 files") || !strings.Contains(r.Suggestion, "Narrow the pattern") || !strings.Contains(r.Suggestion, "gen/ (130)") {
			t.Errorf("message %q suggestion %q", r.Message, r.Suggestion)
		}
	})
	t.Run("Custom result limit", func(t *testing.T) {
		r, err := tl.Grep(ctx, GrepParams{Pattern: "hit", MaxResults: 10})
		if err != nil || len(r.Matches) != 10 || r.TotalMatches != 600 || len(r.Warnings) != 0 {
			t.Errorf("max_results 10: %d matches, warnings %q, %v", len(r.Matches), r.Warnings, err)
		}
		r, err = tl.Grep(ctx, GrepParams{Pattern: "hit", MaxResults: 1000})
		// 500 is applied; the page also ends at paging.MaxTextBytes of
		// text, and says where the next one starts.
		if err != nil || len(r.Matches) == 0 || len(r.Matches) > MaxResultsCap || r.MaxResults != MaxResultsCap || r.NextOffset != len(r.Matches) {
			t.Fatalf("max_results 1000: %d matches, next offset %d, %v", len(r.Matches), r.NextOffset, err)
		}
		if len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "max_results 1000 is over the limit of 500; 500 used") {
			t.Errorf("the cap is not reported: %q", r.Warnings)
		}
		g, err := tl.Glob(ctx, GlobParams{Pattern: "**/*.go", MaxResults: 120})
		if err != nil || len(g.Files) != 120 || g.Truncated != true {
			t.Errorf("glob max_results 120: %d files, %v", len(g.Files), err)
		}
		g, err = tl.Glob(ctx, GlobParams{Pattern: "**/*", MaxResults: 501})
		if err != nil || len(g.Files) != 131 || !strings.Contains(strings.Join(g.Warnings, "\n"), "over the limit of 500") {
			t.Errorf("glob max_results 501: %d files, warnings %q, %v", len(g.Files), g.Warnings, err)
		}
		if _, err := tl.Grep(ctx, GrepParams{Pattern: "hit", MaxResults: -1}); err == nil {
			t.Error("a negative max_results must be an error")
		}
	})
}

// Requirement: Search Performance and Safety.
func TestSearchPerformanceAndSafety(t *testing.T) {
	t.Run("File size limits for grep", func(t *testing.T) {
		big := strings.Repeat("needle and padding padding padding\n", (1<<20)/35+100)
		dir := workspace(t, map[string]string{"big.log": big, "a.txt": "needle\n", "z.txt": "needle\n"})
		tl, _ := newTools(t, dir)
		r, err := tl.Grep(context.Background(), GrepParams{Pattern: "needle"})
		if err != nil {
			t.Fatal(err)
		}
		if got := grepLines(r); !reflect.DeepEqual(got, []string{"a.txt:1", "z.txt:1"}) {
			t.Errorf("matches %q", got)
		}
		if w := strings.Join(r.Warnings, "\n"); !strings.Contains(w, "1 file was over 1.0 MiB skipped (big.log)") {
			t.Errorf("warnings %q", r.Warnings)
		}
		if !strings.Contains(r.Text(), "Warnings:\n- 1 file was over 1.0 MiB skipped") {
			t.Errorf("the text lacks the warning:\n%s", r.Text())
		}
	})
	t.Run("Search depth limits", func(t *testing.T) {
		files := map[string]string{"f0.txt": "needle\n"}
		dir := ""
		for i := 1; i <= 12; i++ {
			dir += fmt.Sprintf("d%d/", i)
			files[dir+fmt.Sprintf("f%d.txt", i)] = "needle\n"
		}
		tl, _ := newTools(t, workspace(t, files))
		r, err := tl.Grep(context.Background(), GrepParams{Pattern: "needle"})
		if err != nil {
			t.Fatal(err)
		}
		if r.TotalMatches != 11 || r.Matches[0].File != "d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/f10.txt" {
			t.Errorf("%d matches: %q", r.TotalMatches, grepLines(r))
		}
		want := "directory depth limit (10 levels) reached: 1 directory was not searched (d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11)"
		if len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], want) {
			t.Errorf("warnings %q", r.Warnings)
		}
		// Searching from deeper down reaches the rest.
		r, err = tl.Grep(context.Background(), GrepParams{Pattern: "needle", Path: "d1/d2/d3"})
		if err != nil || r.TotalMatches != 10 || len(r.Warnings) != 0 {
			t.Errorf("from d1/d2/d3: %d matches, warnings %q, %v", r.TotalMatches, r.Warnings, err)
		}
		// glob and search warn alike.
		g, err := tl.Glob(context.Background(), GlobParams{Pattern: "**/*.txt"})
		if err != nil || g.TotalFiles != 11 || len(g.Warnings) != 1 {
			t.Errorf("glob: %d files, warnings %q, %v", g.TotalFiles, g.Warnings, err)
		}
	})
	t.Run("Regex timeout protection", func(t *testing.T) {
		dir := workspace(t, map[string]string{"a_slow.txt": manyLines(100), "b_quick.txt": manyLines(60), "c_quick.txt": "hit\n"})
		// A clock that moves one second each time it is read (when grep
		// starts a file and every 16 lines): the time limit of 5 s is
		// passed at line 97 of a file, whatever the machine's speed.
		var now time.Time
		tl, err := New(Config{Workspace: dir, FileTimeout: 5 * time.Second, Threads: 1, Clock: func() time.Time {
			now = now.Add(time.Second)
			return now
		}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := tl.Grep(context.Background(), GrepParams{Pattern: "hit"})
		if err != nil {
			t.Fatal(err)
		}
		if r.TotalMatches != 61 || r.FilesWithMatches != 2 || r.Matches[0].File != "b_quick.txt" {
			t.Errorf("%d matches in %d files: the abandoned file must report none, the others all", r.TotalMatches, r.FilesWithMatches)
		}
		want := "1 file was abandoned after the time limit of 5s per file, matches in it not reported (a_slow.txt)"
		if len(r.Warnings) != 1 || r.Warnings[0] != want {
			t.Errorf("warnings %q, want %q", r.Warnings, want)
		}
	})
}
