package astgrep

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools/paging"
)

// TestMerge checks Merge's rules on results built by hand: the cases the
// npm package's own merge was tested with, and the ones where a single
// tool's rules decide.
func TestMerge(t *testing.T) {
	m := func(file string, line int) Match { return Match{File: file, StartLine: line, StartCol: 1} }
	ms := func(files ...string) []Match {
		out := []Match{}
		for _, f := range files {
			out = append(out, m(f, 1))
		}
		return out
	}
	many := func(file string, n int) []Match {
		out := make([]Match, n)
		for i := range out {
			out[i] = m(file, i+1)
		}
		return out
	}
	const noFiles = "no typescript files (extensions .ts, .mts, .cts) were found under path; check path, globs and language"
	const label = "these matches come from the same pattern read as a call"
	// searched is a shard's result with no matches in n files.
	searched := func(n int, hints ...string) *Result {
		return &Result{Matches: []Match{}, FilesSearched: n, Hints: hints, Shard: &ShardInfo{}}
	}
	noFilesShard := func(hints ...string) *Result {
		r := searched(0, append([]string{noFiles}, hints...)...)
		r.Shard.NoFilesHint = true
		return r
	}
	// fellBack is a shard's result from the fallback query.
	fellBack := func(files ...string) *Result {
		return &Result{Matches: ms(files...), TotalMatches: len(files), FilesSearched: 2, Hints: []string{label},
			Shard: &ShardInfo{Query: &Result{Matches: []Match{}, FilesSearched: 2}}}
	}
	// ranFallback is a shard's result where the query and its fallback matched nothing.
	ranFallback := func(hints ...string) *Result {
		r := searched(2, hints...)
		r.Shard.Fallback = &Result{Matches: []Match{}, FilesSearched: 2}
		return r
	}
	found := func(files ...string) *Result {
		return &Result{Matches: ms(files...), TotalMatches: len(files), FilesSearched: 2, Shard: &ShardInfo{}}
	}
	stopped := func(reason string, files ...string) *Result {
		r := found(files...)
		r.Truncated, r.Reason = true, reason
		return r
	}
	paths := []string{"a.ts", "a/b.ts", "a-b/c.ts", "B.ts", "a/a/z.ts", "é.ts", "z.ts"}
	inOrder := []string{"B.ts", "a/a/z.ts", "a/b.ts", "a-b/c.ts", "a.ts", "z.ts", "é.ts"}
	skips := func(files ...string) []Skipped {
		var out []Skipped
		for _, f := range files {
			out = append(out, Skipped{File: f, Reason: "binary"})
		}
		return out
	}
	withSkipped := func(r *Result, files ...string) *Result {
		r.Skipped, r.SkippedFiles = skips(files...), len(files)
		return r
	}

	cases := []struct {
		name       string
		shards     []*Result
		maxResults int
		want       *Result
	}{{
		name:   "matches in path order, component by component, bytes compared",
		shards: []*Result{found(paths[0], paths[3], paths[6]), found(paths[1], paths[4]), found(paths[2], paths[5])},
		want:   &Result{Matches: ms(inOrder...), TotalMatches: 7, FilesSearched: 6},
	}, {
		name: "skipped files in path order, counts summed",
		shards: []*Result{withSkipped(searched(1), paths[0], paths[3], paths[6]), withSkipped(searched(0), paths[1], paths[4]),
			withSkipped(searched(3), paths[2], paths[5])},
		want: &Result{Matches: []Match{}, FilesSearched: 4, SkippedFiles: 7, Skipped: skips(inOrder...)},
	}, {
		name: "a file's matches keep their order",
		shards: []*Result{{Matches: []Match{m("b.ts", 3), {File: "b.ts", StartLine: 3, StartCol: 1, EndCol: 9}, m("b.ts", 1)},
			TotalMatches: 3, FilesSearched: 1}, found("a.ts")},
		want: &Result{Matches: []Match{m("a.ts", 1), m("b.ts", 3), {File: "b.ts", StartLine: 3, StartCol: 1, EndCol: 9}, m("b.ts", 1)},
			TotalMatches: 4, FilesSearched: 3},
	}, {
		name:   "a shard's fallback matches give way to another shard's own",
		shards: []*Result{found("b.ts"), fellBack("a.ts")},
		want:   &Result{Matches: ms("b.ts"), TotalMatches: 1, FilesSearched: 4},
	}, {
		name:   "fallback matches and their label when no shard's query matched",
		shards: []*Result{ranFallback("why not"), fellBack("a.ts"), fellBack("c.ts")},
		want:   &Result{Matches: ms("a.ts", "c.ts"), TotalMatches: 2, FilesSearched: 6, Hints: []string{label}},
	}, {
		name:   "fallback matches give way to a stopped shard (a single tool runs no fallback then)",
		shards: []*Result{stopped(ReasonTimeout), fellBack("a.ts")},
		want:   &Result{Matches: []Match{}, Truncated: true, Reason: ReasonTimeout, FilesSearched: 4},
	}, {
		name:       "fallback matches cut to maxResults",
		shards:     []*Result{fellBack("b.ts", "c.ts"), ranFallback("why not"), fellBack("a.ts")},
		maxResults: 2,
		want: &Result{Matches: ms("a.ts", "b.ts"), TotalMatches: 3, FilesSearched: 6, Truncated: true, Reason: ReasonMaxResults,
			Hints: []string{label}, NextOffset: 2},
	}, {
		name:   "the no-files hint goes when another shard searched files",
		shards: []*Result{noFilesShard("x"), searched(2, "x"), noFilesShard("x")},
		want:   &Result{Matches: []Match{}, FilesSearched: 2, Hints: []string{"x"}},
	}, {
		name:   "the no-files hint stays when no shard searched a file",
		shards: []*Result{noFilesShard(), noFilesShard()},
		want:   &Result{Matches: []Match{}, Hints: []string{noFiles}},
	}, {
		name:   "the no-files hint stays with the query's hints",
		shards: []*Result{noFilesShard("x", "y"), noFilesShard("x", "y")},
		want:   &Result{Matches: []Match{}, Hints: []string{noFiles, "x", "y"}},
	}, {
		name:   "no hints when a shard matched",
		shards: []*Result{searched(2, "x"), found("a.ts"), noFilesShard("x")},
		want:   &Result{Matches: ms("a.ts"), TotalMatches: 1, FilesSearched: 4},
	}, {
		name:   "no hints when a shard was stopped",
		shards: []*Result{searched(2, "x"), stopped(ReasonCancelled)},
		want:   &Result{Matches: []Match{}, FilesSearched: 4, Truncated: true, Reason: ReasonCancelled},
	}, {
		name: "cut to maxResults across shards",
		shards: []*Result{{Matches: []Match{m("b.ts", 2), m("b.ts", 5)}, TotalMatches: 2, FilesSearched: 2},
			{Matches: []Match{m("a.ts", 9)}, TotalMatches: 4, FilesSearched: 2, Truncated: true, Reason: ReasonMaxResults}},
		maxResults: 2,
		want: &Result{Matches: []Match{m("a.ts", 9), m("b.ts", 2)}, TotalMatches: 6, FilesSearched: 4,
			Truncated: true, Reason: ReasonMaxResults, NextOffset: 2},
	}, {
		name:       "all matches, not truncated",
		shards:     []*Result{found("b.ts"), found("a.ts")},
		maxResults: 2,
		want:       &Result{Matches: ms("a.ts", "b.ts"), TotalMatches: 2, FilesSearched: 4},
	}, {
		name:   "maxResults 0 is the default",
		shards: []*Result{{Matches: many("a.ts", 60), TotalMatches: 60}, {Matches: many("b.ts", 60), TotalMatches: 60}},
		want: &Result{Matches: append(many("a.ts", 60), many("b.ts", 40)...), TotalMatches: 120, Truncated: true,
			Reason: ReasonMaxResults, NextOffset: 100},
	}, {
		name:       "a negative maxResults is the default",
		shards:     []*Result{{Matches: many("a.ts", 60), TotalMatches: 60}, {Matches: many("b.ts", 60), TotalMatches: 60}},
		maxResults: -1,
		want: &Result{Matches: append(many("a.ts", 60), many("b.ts", 40)...), TotalMatches: 120, Truncated: true,
			Reason: ReasonMaxResults, NextOffset: 100},
	}, {
		name:       "maxResults is capped",
		shards:     []*Result{{Matches: many("a.ts", 600), TotalMatches: 600}, {Matches: many("b.ts", 600), TotalMatches: 600}},
		maxResults: 5000,
		want: &Result{Matches: append(many("a.ts", 600), many("b.ts", 400)...), TotalMatches: 1200, Truncated: true,
			Reason: ReasonMaxResults, NextOffset: 1000},
	}, {
		name:       "a timeout wins over maxResults",
		shards:     []*Result{stopped(ReasonMaxResults, "a.ts", "b.ts"), stopped(ReasonTimeout, "c.ts")},
		maxResults: 1,
		want:       &Result{Matches: ms("a.ts"), TotalMatches: 3, FilesSearched: 4, Truncated: true, Reason: ReasonTimeout},
	}, {
		name:   "a timeout in one shard truncates the whole",
		shards: []*Result{stopped(ReasonTimeout), searched(2)},
		want:   &Result{Matches: []Match{}, FilesSearched: 4, Truncated: true, Reason: ReasonTimeout},
	}, {
		name:   "a timeout wins over a cancellation",
		shards: []*Result{stopped(ReasonCancelled), stopped(ReasonTimeout, "a.ts")},
		want:   &Result{Matches: ms("a.ts"), TotalMatches: 1, FilesSearched: 4, Truncated: true, Reason: ReasonTimeout},
	}, {
		name:   "stopped before the search began",
		shards: []*Result{{Matches: []Match{}, Truncated: true, Reason: ReasonCancelled}, {Matches: []Match{}, Truncated: true, Reason: ReasonCancelled}},
		want:   &Result{Matches: []Match{}, Truncated: true, Reason: ReasonCancelled},
	}, {
		name:   "results without shard information",
		shards: []*Result{{Matches: []Match{}, FilesSearched: 1, Hints: []string{"x"}}, {Matches: []Match{}, FilesSearched: 1, Hints: []string{"x"}}},
		want:   &Result{Matches: []Match{}, FilesSearched: 2, Hints: []string{"x"}},
	}, {
		name:   "one shard",
		shards: []*Result{fellBack("a.ts")},
		want:   &Result{Matches: ms("a.ts"), TotalMatches: 1, FilesSearched: 2, Hints: []string{label}},
	}, {
		name:   "no shards",
		shards: nil,
		want:   &Result{Matches: []Match{}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, err := json.Marshal(c.shards)
			if err != nil {
				t.Fatal(err)
			}
			got := Merge(c.shards, c.maxResults, 0)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Merge:\n%s\nwant:\n%s", jsonText(t, got), jsonText(t, c.want))
			}
			if after, _ := json.Marshal(c.shards); string(after) != string(before) {
				t.Errorf("Merge modified its shards:\n%s\nwas:\n%s", after, before)
			}
		})
	}
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMergeEqualsOneTool runs calls on a workspace with one tool and split
// between three, and checks that Merge gives the one tool's result.
func TestMergeEqualsOneTool(t *testing.T) {
	files := map[string]string{
		"src/a.ts":       "a.foo(a.foo(1));\n",
		"src/ünï.ts":     "const café = 'é'; café.foo();\n",
		"src/t.test.ts":  "it.foo();\n",
		"src/bin.ts":     "a\x00\x01",
		"src/empty.ts":   "",
		"lib/x.rb":       "x.foo\n",
		"go/big.go":      "package g\n\n// " + strings.Repeat("padding ", 200) + "\nfunc big() { println(1) }\n",
		"go/a.go":        "package g\n\nimport \"fmt\"\n\nfunc a() error { return fmt.Errorf(\"a %d\", 1) }\n",
		"go/b.go":        "package g\n\nimport \"fmt\"\n\nfunc b() error {\n\t_ = fmt.Errorf(\"b\")\n\treturn fmt.Errorf(\"b %d\", 2)\n}\n",
		"go/sub/d.go":    "package sub\n\nimport \"fmt\"\n\nvar e = fmt.Errorf(\"d\")\n",
		"go/sub/z_2.go":  "package sub\n",
		"go/sub/z_1.go":  "package sub\n\nfunc z() {}\n",
		"go/sub.go":      "package g\n",
		"go/sub/x/y.go":  "package x\n",
		"go/sub-b/yy.go": "package x\n",
	}
	for i := range 16 {
		dir := []string{"src", "src/deep", "lib", "src/a"}[i%4]
		files[fmt.Sprintf("%s/f%d.ts", dir, i)] = fmt.Sprintf("export function f%d() {\n  x%d.foo(%d);\n  if (%d > 3) { y.foo(); }\n  return bar(%d);\n}\n%s",
			i, i, i, i, i, strings.Repeat("// pad\n", i*i))
	}
	root := workspace(t, files)
	const count = 3
	one, err := New(Config{Workspace: root})
	if err != nil {
		t.Fatal(err)
	}
	var shards [count]*Tool
	for i := range shards {
		if shards[i], err = New(Config{Workspace: root, Shard: search.Shard{Index: i, Count: count}}); err != nil {
			t.Fatal(err)
		}
	}
	foo := "$OBJ.foo($$$ARGS)"
	errorf := "fmt.Errorf($$$A)"
	cases := []struct {
		p Params
		// check, when set, says what the shards' results must show, so that
		// the case tests what it means to.
		check func(parts []*Result) string
	}{
		{p: Params{Pattern: foo, Language: "typescript"}, check: func(parts []*Result) string {
			n := 0
			for _, r := range parts {
				if r.TotalMatches > 0 {
					n++
				}
			}
			if n < 2 {
				return "matches in fewer than two shards"
			}
			return ""
		}},
		{p: Params{Pattern: foo, Language: "typescript", MaxResults: 5}},
		{p: Params{Pattern: foo, Language: "typescript", MaxResults: 1}},
		{p: Params{Pattern: foo, Language: "typescript", MaxResults: 5000}},
		// Pages: the shards cannot tell which of their matches fall before
		// the offset; the merged page is the one tool's all the same.
		{p: Params{Pattern: foo, Language: "typescript", MaxResults: 2, Params: paging.Params{Offset: 1}}},
		{p: Params{Pattern: foo, Language: "typescript", MaxResults: 3, Params: paging.Params{Offset: 4}}},
		{p: Params{Pattern: foo, Language: "typescript", Params: paging.Params{Offset: 1000}}},
		{p: Params{Pattern: errorf, Language: "go", MaxResults: 1, Params: paging.Params{Offset: 1}}},
		{p: Params{Pattern: foo, Language: "typescript", Globs: []string{"!*.test.ts", "!lib/**"}}},
		{p: Params{Pattern: foo, Language: "typescript", Globs: []string{"src/deep/**"}}},
		{p: Params{Pattern: foo, Language: "typescript", Path: "src/a"}},
		{p: Params{Pattern: foo, Path: "src/a.ts"}},
		{p: Params{Pattern: "nothing($A)", Path: "src/a.ts"}},
		{p: Params{Rule: map[string]any{"kind": "call_expression", "has": map[string]any{"field": "function", "regex": "^bar"}}, Language: "ts"}},
		{p: Params{Rule: map[string]any{"kind": "statement_block", "has": map[string]any{"pattern": "y.foo()"}}, Language: "ts"}},
		{p: Params{Rule: map[string]any{"kind": "function_declaration", "has": map[string]any{"pattern": "y.foo()"}}, Language: "ts"}},
		{p: Params{Pattern: "nothing($A)", Language: "typescript"}},
		{p: Params{Pattern: "$x.foo()", Language: "typescript"}},
		// No file of the language anywhere, and in some shards only.
		{p: Params{Pattern: "$A.foo()", Language: "python"}},
		{p: Params{Pattern: "$A.foo", Language: "ruby"}},
		{p: Params{Pattern: "$A.bar", Language: "ruby"}},
		// Go reads a bare call pattern as a conversion; the fallback query
		// finds the calls in some shards.
		{p: Params{Pattern: errorf, Language: "go"}, check: func(parts []*Result) string {
			var fell, ran int
			for _, r := range parts {
				switch {
				case r.Shard == nil:
					return "a shard's result has no shard information"
				case r.Shard.Query != nil:
					fell++
				case r.Shard.Fallback != nil:
					ran++
				}
			}
			if fell == 0 || ran == 0 {
				return fmt.Sprintf("%d shards with fallback matches, %d without: want some of each", fell, ran)
			}
			return ""
		}},
		{p: Params{Pattern: errorf, Language: "go", MaxResults: 2}},
		{p: Params{Pattern: errorf, Language: "go", Path: "go/sub"}},
		{p: Params{Pattern: errorf, Path: "go/big.go"}},
		{p: Params{Pattern: "nothing.Here($$$A)", Language: "go"}},
		{p: Params{Pattern: "println($A)", Language: "go"}},
	}
	ctx := context.Background()
	for _, c := range cases {
		name, _ := json.Marshal(c.p)
		t.Run(string(name), func(t *testing.T) {
			want, err := one.Run(ctx, c.p)
			if err != nil {
				t.Fatal(err)
			}
			parts := make([]*Result, count)
			for i, tool := range shards {
				if parts[i], err = tool.Run(ctx, c.p); err != nil {
					t.Fatal(err)
				}
				if parts[i].Shard == nil {
					t.Errorf("shard %d's result has no shard information", i)
				}
			}
			if c.check != nil {
				if msg := c.check(parts); msg != "" {
					t.Errorf("shards: %s", msg)
				}
			}
			// Through JSON, as the shards' results reach the GOOS=js merge.
			var decoded []*Result
			if err := json.Unmarshal([]byte(jsonText(t, parts)), &decoded); err != nil {
				t.Fatal(err)
			}
			for label, in := range map[string][]*Result{"shards": parts, "shards through JSON": decoded} {
				got := Merge(in, c.p.MaxResults, c.p.Offset)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: Merge:\n%s\none tool:\n%s\nshards:\n%s", label, jsonText(t, got), jsonText(t, want), jsonText(t, in))
				}
				if got.Text() != want.Text() {
					t.Errorf("%s: text:\n%s\none tool:\n%s", label, got.Text(), want.Text())
				}
			}
			if b, _ := json.Marshal(want); strings.Contains(string(b), `"shard"`) {
				t.Errorf("one tool's result carries shard information: %s", b)
			}
		})
	}
}
