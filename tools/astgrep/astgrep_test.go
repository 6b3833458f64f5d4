package astgrep

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/search"
)

// workspace writes files (path → content) under a new temp dir.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func newTool(t *testing.T, root string) *Tool {
	t.Helper()
	tool, err := New(Config{Workspace: root})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

var tsFiles = map[string]string{
	"src/a.ts": `class A {
  run() {
    this.foo();
    // this.foo() in a comment
    const s = "this.foo()";
    other.foo(1, 2);
  }
}
`,
	"src/b.ts":      "export function go() { x.foo(); y.foo(); z.foo(); }\n",
	"src/b.test.ts": "it('x', () => { t.foo(); });\n",
	"src/c.tsx":     "const el = <div onClick={() => w.foo()} />;\n",
	"src/d.py":      "obj.foo()\n",
	"src/ünï.ts":    "const café = 'é'; café.foo();\n",
}

func TestPatternSearch(t *testing.T) {
	tool := newTool(t, workspace(t, tsFiles))
	res, err := tool.Run(context.Background(), Params{Pattern: "$OBJ.foo($$$ARGS)", Language: "typescript"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Matches {
		got = append(got, m.File+":"+m.Text)
	}
	want := []string{
		"src/a.ts:this.foo()", "src/a.ts:other.foo(1, 2)",
		"src/b.test.ts:t.foo()",
		"src/b.ts:x.foo()", "src/b.ts:y.foo()", "src/b.ts:z.foo()",
		"src/ünï.ts:café.foo()",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("matches:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if res.Truncated || res.TotalMatches != len(want) || res.Reason != "" {
		t.Errorf("truncated=%v total=%d reason=%q", res.Truncated, res.TotalMatches, res.Reason)
	}
}

func TestMatchFormat(t *testing.T) {
	tool := newTool(t, workspace(t, tsFiles))
	res, err := tool.Run(context.Background(), Params{Pattern: "$OBJ.foo($$$ARGS)", Path: "src/ünï.ts"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 {
		t.Fatalf("got %d matches", len(res.Matches))
	}
	m := res.Matches[0]
	// "const café = 'é'; " is 18 characters (20 bytes): the match starts at
	// character column 19, 1-based, and ends after 10 more characters.
	want := Match{File: "src/ünï.ts", StartLine: 1, StartCol: 19, EndLine: 1, EndCol: 29,
		Text: "café.foo()", NodeKind: "call_expression",
		MetaVariables: MetaVars{Single: map[string]string{"OBJ": "café"}, Multi: map[string][]string{"ARGS": {}}}}
	gotJSON, _ := json.Marshal(m)
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("match:\n got %s\nwant %s", gotJSON, wantJSON)
	}
	res, err = tool.Run(context.Background(), Params{Pattern: "$OBJ.foo($A, $B)", Path: "src/a.ts"})
	if err != nil || len(res.Matches) != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	if mv := res.Matches[0].MetaVariables.Single; mv["A"] != "1" || mv["B"] != "2" || mv["OBJ"] != "other" {
		t.Errorf("captures %v", mv)
	}
	if m := res.Matches[0]; m.StartLine != 6 || m.StartCol != 5 || m.EndLine != 6 || m.EndCol != 20 {
		t.Errorf("range %d:%d-%d:%d", m.StartLine, m.StartCol, m.EndLine, m.EndCol)
	}
}

func TestParamErrors(t *testing.T) {
	root := workspace(t, tsFiles)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.ts"), []byte("a.foo()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	tool := newTool(t, root)
	cases := []struct {
		name string
		p    Params
		want string
	}{
		{"both", Params{Pattern: "a", Rule: map[string]any{"kind": "identifier"}, Language: "ts"}, "exactly one of pattern or rule, not both"},
		{"neither", Params{Language: "ts"}, "exactly one of pattern or rule"},
		{"blank rule string", Params{Rule: "  ", Language: "ts"}, "exactly one of pattern or rule"},
		{"outside", Params{Pattern: "a", Language: "ts", Path: "../"}, "outside the workspace"},
		{"absolute outside", Params{Pattern: "a", Language: "ts", Path: outside}, "outside the workspace"},
		{"symlink outside", Params{Pattern: "a", Language: "ts", Path: "escape/x.ts"}, "outside the workspace"},
		{"missing path", Params{Pattern: "a", Language: "ts", Path: "nope"}, "no such file"},
		{"dir without language", Params{Pattern: "a", Path: "src"}, "language is required"},
		{"unknown extension", Params{Pattern: "a", Path: "README.unknown"}, ""},
		{"unknown language", Params{Pattern: "a", Language: "cobol"}, `unsupported language "cobol"`},
		{"bad pattern", Params{Pattern: "", Rule: nil, Language: "ts"}, "exactly one"},
		{"multi-node pattern", Params{Pattern: "a; b", Language: "ts"}, "invalid typescript pattern"},
		{"negative maxResults", Params{Pattern: "a", Language: "ts", MaxResults: -1}, "maxResults must be positive"},
	}
	if err := os.WriteFile(filepath.Join(root, "README.unknown"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases[8].want = "cannot tell the language"
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := tool.Run(context.Background(), c.p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestMaxResultsAndEmpty(t *testing.T) {
	tool := newTool(t, workspace(t, tsFiles))
	res, err := tool.Run(context.Background(), Params{Pattern: "$OBJ.foo($$$ARGS)", Language: "ts", MaxResults: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 2 || !res.Truncated || res.TotalMatches != 7 || res.Reason != ReasonMaxResults {
		t.Errorf("got %d matches, truncated=%v total=%d reason=%q", len(res.Matches), res.Truncated, res.TotalMatches, res.Reason)
	}
	res, err = tool.Run(context.Background(), Params{Pattern: "nothingLikeThis($A)", Language: "ts"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if !strings.HasPrefix(string(b), `{"matches":[],"truncated":false,"totalMatches":0`) {
		t.Errorf("empty result JSON: %s", b)
	}
}

func TestGlobs(t *testing.T) {
	tool := newTool(t, workspace(t, tsFiles))
	files := func(globs ...string) string {
		res, err := tool.Run(context.Background(), Params{Pattern: "$OBJ.foo($$$ARGS)", Language: "ts", Globs: globs})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		var out []string
		for _, m := range res.Matches {
			if !seen[m.File] {
				seen[m.File] = true
				out = append(out, m.File)
			}
		}
		return strings.Join(out, ",")
	}
	if got := files("!*.test.ts"); got != "src/a.ts,src/b.ts,src/ünï.ts" {
		t.Errorf("exclude: %s", got)
	}
	if got := files("*.test.ts"); got != "src/b.test.ts" {
		t.Errorf("include: %s", got)
	}
	if got := files("src/b*", "!*.test.ts"); got != "src/b.ts" {
		t.Errorf("include+exclude: %s", got)
	}
}

func TestLanguageFromFile(t *testing.T) {
	tool := newTool(t, workspace(t, tsFiles))
	res, err := tool.Run(context.Background(), Params{Pattern: "$OBJ.foo()", Path: "src/c.tsx"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || res.Matches[0].Text != "w.foo()" {
		t.Errorf("tsx by extension: %+v", res.Matches)
	}
	res, err = tool.Run(context.Background(), Params{Pattern: "$OBJ.foo()", Path: "src/d.py"})
	if err != nil || len(res.Matches) != 1 {
		t.Errorf("python by extension: %v %+v", err, res)
	}
}

// TestLanguageGlobs: Config.LangGlobs (sgconfig.yml's languageGlobs)
// select a file's language ahead of its extension, in a search of the
// language and for a path that names the file; invalid ones fail New.
func TestLanguageGlobs(t *testing.T) {
	root := workspace(t, map[string]string{"SConstruct": "env.foo()\n", "b/SConstruct": "env.foo()\n", "c.py": "x.foo()\n", "d.ts": "y.foo()\n"})
	tool, err := New(Config{Workspace: root, LangGlobs: map[string][]string{"python": {"SConstruct"}, "javascript": {"*.ts"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Params{{Pattern: "$O.foo()", Language: "python"}, {Pattern: "$O.foo()", Path: "b/SConstruct"}, {Pattern: "$O.foo()", Language: "javascript"}, {Pattern: "$O.foo()", Language: "typescript"}} {
		res, err := tool.Run(context.Background(), p)
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		var got []string
		for _, m := range res.Matches {
			got = append(got, m.File)
		}
		want := map[string]string{"python": "SConstruct b/SConstruct c.py", "": "b/SConstruct", "javascript": "d.ts", "typescript": ""}[p.Language]
		if strings.Join(got, " ") != want {
			t.Errorf("%+v: matches in %q, want %q", p, got, want)
		}
	}
	if _, err := New(Config{Workspace: root, LangGlobs: map[string][]string{"nolang": {"*.x"}}}); err == nil {
		t.Error("languageGlobs of an unknown language accepted")
	}
}

func TestSkippedBinary(t *testing.T) {
	files := map[string]string{"a.ts": "a.foo()\n", "bin.ts": "a.foo()\x00\x01\x02"}
	tool := newTool(t, workspace(t, files))
	res, err := tool.Run(context.Background(), Params{Pattern: "$O.foo()", Language: "ts"})
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalMatches != 1 || res.SkippedFiles != 1 || res.Skipped[0].File != "bin.ts" || res.Skipped[0].Reason != "binary" {
		t.Errorf("total=%d skipped=%+v", res.TotalMatches, res.Skipped)
	}
}

func TestCancelAndTimeout(t *testing.T) {
	files := map[string]string{}
	for i := range 200 {
		files[filepath.Join("d", strings.Repeat("x", i%7+1)+string(rune('a'+i%26))+strings.Repeat("y", i/26)+".ts")] = strings.Repeat("a.foo(1);\n", 200)
	}
	root := workspace(t, files)
	tool := newTool(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := tool.Run(ctx, Params{Pattern: "$O.foo($A)", Language: "ts"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.Reason != ReasonCancelled {
		t.Errorf("cancelled: truncated=%v reason=%q", res.Truncated, res.Reason)
	}
	// Cancelled before it began, the call must not have searched the
	// workspace anyway (200 files of 200 matches each).
	if res.FilesSearched == len(files) || res.TotalMatches == len(files)*200 {
		t.Errorf("cancelled: searched %d of %d files, %d matches", res.FilesSearched, len(files), res.TotalMatches)
	}
	short, err := New(Config{Workspace: root, Timeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	res, err = short.Run(context.Background(), Params{Pattern: "$O.foo($A)", Language: "ts"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.Reason != ReasonTimeout {
		t.Errorf("timeout: truncated=%v reason=%q", res.Truncated, res.Reason)
	}
}

func TestHints(t *testing.T) {
	files := map[string]string{
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc f() error {\n\treturn fmt.Errorf(\"x %d\", 1)\n}\n",
		"a.ts":    "foo.bar(1)\n",
	}
	tool := newTool(t, workspace(t, files))
	cases := []struct {
		p       Params
		matches int
		hint    string
	}{
		{Params{Pattern: "fmt.Errorf($$$A)", Language: "go"}, 1, "read as a call"},
		{Params{Pattern: "$obj.bar($a)", Language: "ts"}, 0, "$obj is not a metavariable"},
		{Params{Pattern: "foo.*bar", Language: "ts"}, 0, "looks like a regular expression"},
		{Params{Pattern: "$O.bar($A)", Language: "python"}, 0, "no python files"},
	}
	for _, c := range cases {
		res, err := tool.Run(context.Background(), c.p)
		if err != nil {
			t.Errorf("%q: %v", c.p.Pattern, err)
			continue
		}
		if res.TotalMatches != c.matches || !strings.Contains(strings.Join(res.Hints, "\n"), c.hint) {
			t.Errorf("%q: %d matches, hints %q; want %d and %q", c.p.Pattern, res.TotalMatches, res.Hints, c.matches, c.hint)
		}
	}
}

func TestText(t *testing.T) {
	tool := newTool(t, workspace(t, tsFiles))
	res, err := tool.Run(context.Background(), Params{Pattern: "$OBJ.foo($A, $B)", Language: "ts"})
	if err != nil {
		t.Fatal(err)
	}
	want := "src/a.ts:6:5 [call_expression] other.foo(1, 2)\n  $A = 1\n  $B = 2\n  $OBJ = other\n1 match.\n"
	if got := res.Text(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

func TestSchemaAndDescription(t *testing.T) {
	s := Schema()
	props := s["properties"].(map[string]any)
	for _, k := range []string{"pattern", "rule", "language", "path", "globs", "maxResults"} {
		if _, ok := props[k]; !ok {
			t.Errorf("schema lacks %s", k)
		}
	}
	if _, ok := s["required"]; ok {
		t.Errorf("no parameter is unconditionally required: %v", s["required"])
	}
	for _, must := range []string{"not text search", "Metavariables", "$$$ARGS", "search_file_content", "stopBy: end"} {
		if !strings.Contains(Description, must) {
			t.Errorf("description lacks %q", must)
		}
	}
}

func TestRuleSearch(t *testing.T) {
	tool := newTool(t, workspace(t, tsFiles))
	texts := func(p Params) []string {
		t.Helper()
		res, err := tool.Run(context.Background(), p)
		if err != nil {
			t.Fatalf("%+v: %v", p.Rule, err)
		}
		var out []string
		for _, m := range res.Matches {
			out = append(out, m.Text)
		}
		return out
	}
	// A bare rule object, as JSON gives it.
	got := texts(Params{Language: "ts", Path: "src/b.ts", Rule: map[string]any{
		"kind": "call_expression",
		"has":  map[string]any{"field": "function", "regex": "^y\\."},
	}})
	if strings.Join(got, ",") != "y.foo()" {
		t.Errorf("bare rule: %q", got)
	}
	// A YAML rule file body: constraints apply, report-only keys are ignored,
	// and the language may come from the rule.
	got = texts(Params{Path: "src", Rule: `
id: foo-calls
language: typescript
message: a call
rule:
  pattern: $O.foo($$$A)
  inside:
    kind: method_definition
    stopBy: end
constraints:
  O:
    regex: ^oth
`})
	if strings.Join(got, ",") != "other.foo(1, 2)" {
		t.Errorf("rule config: %q", got)
	}
	// kind takes ESQuery-style selectors, as run --kind does.
	got = texts(Params{Language: "ts", Path: "src/a.ts", Rule: map[string]any{"kind": "method_definition call_expression:has(> arguments:has(> number))"}})
	if strings.Join(got, ",") != "other.foo(1, 2)" {
		t.Errorf("kind selector: %q", got)
	}
}

// A rule given as YAML text reads every YAML 1.2 escape, \/ too, as rule
// files do.
func TestRuleStringEscapes(t *testing.T) {
	tool := newTool(t, workspace(t, tsFiles))
	res, err := tool.Run(context.Background(), Params{Language: "ts", Rule: "rule:\n  kind: string\n  regex: \"\\/?this[.]foo\"\n"})
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalMatches != 1 {
		t.Errorf("%d matches of the string holding this.foo(), want 1", res.TotalMatches)
	}
}

func TestRuleErrorsAndHints(t *testing.T) {
	tool := newTool(t, workspace(t, tsFiles))
	for _, c := range []struct {
		rule any
		want string
	}{
		{map[string]any{"kind": "no_such_kind"}, "invalid typescript rule"},
		{map[string]any{"rule": map[string]any{"kind": "identifier"}, "bogus": 1}, `unknown key "bogus"`},
		{"rule: [unclosed", "not valid YAML"},
		{42, "must be an object or a YAML string, got a number"},
		{[]any{"a"}, "got an array"},
	} {
		_, err := tool.Run(context.Background(), Params{Language: "ts", Rule: c.rule})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.rule, err, c.want)
		}
	}
	res, err := tool.Run(context.Background(), Params{Language: "ts", Rule: map[string]any{
		"kind": "method_definition",
		"has":  map[string]any{"pattern": "this.foo()"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalMatches != 0 || !strings.Contains(strings.Join(res.Hints, "\n"), "add stopBy: end") {
		t.Errorf("has without stopBy: %d matches, hints %q", res.TotalMatches, res.Hints)
	}
}

func TestShardsSplitACall(t *testing.T) {
	root := workspace(t, tsFiles)
	whole, err := newTool(t, root).Run(context.Background(), Params{Pattern: "$OBJ.foo($$$ARGS)", Language: "typescript"})
	if err != nil {
		t.Fatal(err)
	}
	var total, searched int
	var files []string
	for i := range 2 {
		tool, err := New(Config{Workspace: root, Shard: search.Shard{Index: i, Count: 2}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := tool.Run(context.Background(), Params{Pattern: "$OBJ.foo($$$ARGS)", Language: "typescript"})
		if err != nil {
			t.Fatal(err)
		}
		if res.TotalMatches == whole.TotalMatches {
			t.Errorf("shard %d found all %d matches", i, whole.TotalMatches)
		}
		total += res.TotalMatches
		searched += res.FilesSearched
		for _, m := range res.Matches {
			files = append(files, m.File)
		}
	}
	if total != whole.TotalMatches || searched != whole.FilesSearched || len(files) != len(whole.Matches) {
		t.Errorf("shards: %d matches in %d files searched, whole: %d in %d", total, searched, whole.TotalMatches, whole.FilesSearched)
	}
}
