package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools/astgrep"
	"github.com/loupe-dev/loupe/tools/paging"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// writeFiles writes files (path → content) under a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// resolve compiles a schema published as a map.
func resolve(t *testing.T, m map[string]any) *jsonschema.Resolved {
	t.Helper()
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("schema does not resolve: %v\n%s", err, raw)
	}
	return r
}

func TestRegistry(t *testing.T) {
	ts, err := New(Config{Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	infos := Infos()
	if len(ts) != len(infos) || infos[0].Name != "ast_grep" || infos[1].Name != "structural_analysis" {
		t.Fatalf("registry: %d tools, %d infos", len(ts), len(infos))
	}
	seen := map[string]bool{}
	for i, info := range infos {
		if seen[info.Name] {
			t.Errorf("%s declared twice", info.Name)
		}
		seen[info.Name] = true
		if ts[i].Name != info.Name {
			t.Errorf("New and Infos disagree on tool %d: %s, %s", i, ts[i].Name, info.Name)
		}
		if info.Title == "" || info.Summary == "" || info.Description == "" || info.Guide == "" || info.Termination == "" || info.Category.Description == "" {
			t.Errorf("%s: incomplete info %+v", info.Name, info)
		}
		if h := info.Hints(); h.ReadOnly != (info.Permissions == toolspec.ReadFiles) || h.ReadOnly == info.RequiresApproval || h.Idempotent != h.ReadOnly {
			t.Errorf("%s: permissions %s, approval %v, hints %+v", info.Name, info.Permissions, info.RequiresApproval, h)
		}
		// Destructive: what can change or remove what exists. An append
		// only adds; a create may overwrite (overwrite=true).
		destructive := map[string]bool{"create_file": true, "update_file": true, "replace_in_file": true, "edit_lines": true, "delete_file": true}
		if h := info.Hints(); h.Destructive != destructive[info.Name] {
			t.Errorf("%s: destructive %v, want %v", info.Name, h.Destructive, destructive[info.Name])
		}
		if info.InputSchema["type"] != "object" || info.OutputSchema["type"] != "object" {
			t.Errorf("%s: schemas are not objects", info.Name)
		}
		in := resolve(t, info.InputSchema)
		resolve(t, info.OutputSchema)
		if len(info.Examples) == 0 {
			t.Errorf("%s: no examples", info.Name)
		}
		for _, e := range info.Examples {
			var v any
			if err := json.Unmarshal(e.Params, &v); err != nil {
				t.Fatal(err)
			}
			if err := in.Validate(v); err != nil {
				t.Errorf("%s example %q does not match the input schema: %v", info.Name, e.Use, err)
			}
			// A write's examples would write, but a preview's.
			preview := strings.Contains(string(e.Params), `"preview_only":true`)
			if needs, err := ts[i].NeedsApproval(e.Params); err != nil || needs != (info.RequiresApproval && !preview) {
				t.Errorf("%s example %q: NeedsApproval %v, %v", info.Name, e.Use, needs, err)
			}
		}
	}
	if p := Prompt(); !strings.Contains(p, "## Search & Discovery") || !strings.Contains(p, "## Code Analysis") {
		t.Errorf("prompt:\n%s", p)
	}
}

func TestCall(t *testing.T) {
	root := writeFiles(t, map[string]string{"m.ts": "function a() { b(); }\nfunction b() { c(); }\nfunction c() {}\n"})
	ts, err := New(Config{Workspace: root})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Tool{}
	for _, tool := range ts {
		byName[tool.Name] = tool
	}
	cases := []struct {
		tool, params, want string
		wantErr            bool
	}{
		{"ast_grep", `{"pattern":"c()","language":"typescript"}`, "m.ts:2:16 [call_expression] c()", false},
		{"structural_analysis", `{"mode":"callers","language":"typescript","symbol":"c","depth":2}`, "via:", false},
		{"ast_grep", `{"patern":"c()"}`, `unknown field "patern"`, true},
		{"ast_grep", `{"pattern":"c()"} {}`, "more than one JSON value", true},
		{"structural_analysis", `{"mode":"nope","language":"typescript"}`, "callers", true},
		{"ast_grep", ``, "exactly one of pattern or rule", true},
		{"ast_grep", `null`, "exactly one of pattern or rule", true},
	}
	for _, c := range cases {
		out, err := byName[c.tool].Call(context.Background(), json.RawMessage(c.params))
		if c.wantErr {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %s: error %v, want %q", c.tool, c.params, err, c.want)
			}
			continue
		}
		if err != nil || out.Result == nil || out.Structured == nil || !strings.Contains(out.Text, c.want) {
			t.Errorf("%s %s: %v\n%+v\nwant %q", c.tool, c.params, err, out, c.want)
		}
	}
}

func TestNewRejectsBadWorkspace(t *testing.T) {
	if _, err := New(Config{Workspace: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("a missing workspace was accepted")
	}
	if _, err := New(Config{}); err == nil {
		t.Error("an empty workspace was accepted")
	}
}

// The structured output stays within MaxStructuredBytes whatever the
// result, and the text within paging.MaxTextBytes; both say where the
// next page starts.
func TestStructuredBound(t *testing.T) {
	line := "  call(" + strings.Repeat("argument, ", 30) + "last);\n"
	src := "function f() {\n" + strings.Repeat(line, 400) + "}\n" + strings.Repeat("function g() { f(); }\n", 300)
	root := writeFiles(t, map[string]string{"big.ts": src, "other.ts": "f();\n"})
	ts, err := New(Config{Workspace: root})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool, params string
		items        func(any) int
	}{
		{"ast_grep", `{"pattern":"call($$$A)","language":"typescript","maxResults":1000}`, func(s any) int { return s.(astGrepOutput).NextOffset }},
		{"ast_grep", `{"pattern":"function $F() { $$$B }","language":"typescript","maxResults":1000}`, func(s any) int { return s.(astGrepOutput).NextOffset }},
		{"structural_analysis", `{"mode":"callers","language":"typescript","symbol":"f","maxNodes":1000}`, func(s any) int { return s.(analysisOutput).NextOffset }},
		{"structural_analysis", `{"mode":"references","language":"typescript","symbol":"call","maxNodes":1000}`, func(s any) int { return s.(analysisOutput).NextOffset }},
	}
	for _, c := range cases {
		tool := ts[0]
		if c.tool != tool.Name {
			tool = ts[1]
		}
		out, err := tool.Call(context.Background(), json.RawMessage(c.params))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(out.Structured)
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) > MaxStructuredBytes {
			t.Errorf("%s: %d bytes of structured output", c.params, len(raw))
		}
		if n := c.items(out.Structured); n == 0 || len(out.Text) > paging.MaxTextBytes {
			t.Errorf("%s: a page of %d bytes of text, next offset %d", c.params, len(out.Text), n)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if err := resolve(t, tool.OutputSchema).Validate(v); err != nil {
			t.Errorf("%s: does not match the output schema: %v", c.params, err)
		}
	}
	if got := clip("first line\nsecond\nthird"); got != "first line … (+2 lines)" {
		t.Errorf("clip: %q", got)
	}
	if got := clip(strings.Repeat("é", maxClip+5)); got != strings.Repeat("é", maxClip)+"…" {
		t.Errorf("clip: %q", got)
	}
}

// A call split between sharded tools merges into what one tool returns.
func TestMerge(t *testing.T) {
	files := map[string]string{}
	for _, name := range []string{"a.ts", "b.ts", "c.ts", "d/e.ts", "d/f.ts"} {
		files[name] = "x.foo(1);\nfoo(2);\n"
	}
	root := writeFiles(t, files)
	params := json.RawMessage(`{"pattern":"$O.foo($A)","language":"typescript","maxResults":3}`)
	whole, err := New(Config{Workspace: root})
	if err != nil {
		t.Fatal(err)
	}
	if !whole[0].Splittable() || whole[1].Splittable() {
		t.Fatal("ast_grep must be splittable, structural_analysis not")
	}
	want, err := whole[0].Call(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	var shards []json.RawMessage
	for i := range 2 {
		ts, err := New(Config{Workspace: root, Shard: search.Shard{Index: i, Count: 2}})
		if err != nil {
			t.Fatal(err)
		}
		out, err := ts[0].Call(context.Background(), params)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(out.Result)
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, raw)
	}
	got, err := Merge("ast_grep", params, shards)
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != want.Text || got.Result.(*astgrep.Result).TotalMatches != 5 {
		t.Errorf("merged:\n%s\nwant:\n%s", got.Text, want.Text)
	}
	if _, err := Merge("structural_analysis", params, shards); err == nil {
		t.Error("structural_analysis merged")
	}
	if _, err := Merge("nope", params, shards); err == nil {
		t.Error("an unknown tool merged")
	}
}

// writer is a test tool that writes a file, asking for approval first
// unless it only previews.
type writerParams struct {
	Path    string `json:"path"`
	Content string `json:"content"`
	Preview bool   `json:"preview,omitempty"`
}

type writerResult struct{ msg string }

func (r *writerResult) Text() string { return r.msg }

var writer = declare(decl[writerParams, *writerResult, struct{}]{
	Name: "write_test", Title: "Write", Summary: "Writes a file.", Description: "Writes a file.", Guide: "Write files with it.",
	Category: toolspec.FileWriting, Permissions: toolspec.ReadFiles | toolspec.WriteFiles,
	NeedsApproval: func(p writerParams) bool { return !p.Preview },
	Termination:   "After the write.",
	Examples:      []example[writerParams]{{"Write a file", writerParams{Path: "a.txt", Content: "x"}}},
	Open: func(cfg Config) (func(context.Context, writerParams) (*writerResult, error), error) {
		return func(ctx context.Context, p writerParams) (*writerResult, error) {
			if p.Preview {
				return &writerResult{"would write " + p.Path}, nil
			}
			if err := toolspec.Approve(ctx, toolspec.Request{Tool: "write_test", Permission: toolspec.WriteFiles, Path: p.Path, Summary: "write " + p.Path}); err != nil {
				return nil, err
			}
			return &writerResult{"wrote " + p.Path}, os.WriteFile(filepath.Join(cfg.Workspace, p.Path), []byte(p.Content), 0o644)
		}, nil
	},
	Structured: func(*writerResult) struct{} { return struct{}{} },
})

func TestApproval(t *testing.T) {
	var asked []toolspec.Request
	answer := func(ok bool, err error) toolspec.Approver {
		return func(_ context.Context, r toolspec.Request) (bool, error) {
			asked = append(asked, r)
			return ok, err
		}
	}
	cases := []struct {
		name     string
		config   toolspec.Approver
		ctx      toolspec.Approver
		params   string
		want     error  // wrapped by the call's error
		wantText string // when the call succeeds
		asks     int
		written  bool
	}{
		{"no approver", nil, nil, `{"path":"a.txt","content":"x"}`, toolspec.ErrNoApprover, "", 0, false},
		{"denied", answer(false, nil), nil, `{"path":"a.txt","content":"x"}`, toolspec.ErrDenied, "", 1, false},
		{"approver fails", answer(true, errors.New("no terminal")), nil, `{"path":"a.txt","content":"x"}`, errors.New("no terminal"), "", 1, false},
		{"approved", answer(true, nil), nil, `{"path":"a.txt","content":"x"}`, nil, "wrote a.txt", 1, true},
		{"the context's approver first", answer(false, nil), answer(true, nil), `{"path":"a.txt","content":"x"}`, nil, "wrote a.txt", 1, true},
		{"a preview asks nothing", nil, nil, `{"path":"a.txt","preview":true}`, nil, "would write a.txt", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			asked = nil
			root := t.TempDir()
			tool, err := writer.bind(Config{Workspace: root, Approver: c.config})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if c.ctx != nil {
				ctx = toolspec.WithApprover(ctx, c.ctx)
			}
			out, err := tool.Call(ctx, json.RawMessage(c.params))
			switch {
			case c.want == nil && err != nil:
				t.Errorf("error %v", err)
			case c.want != nil && (err == nil || !errors.Is(err, c.want) && !strings.Contains(err.Error(), c.want.Error())):
				t.Errorf("error %v, want %v", err, c.want)
			case c.want != nil && (!strings.HasPrefix(err.Error(), "write_test: ") || !strings.Contains(err.Error(), "write a.txt")):
				t.Errorf("error %q does not say what was refused", err)
			case c.want == nil && out.Text != c.wantText:
				t.Errorf("text %q", out.Text)
			}
			if len(asked) != c.asks || c.asks > 0 && (asked[0].Tool != "write_test" || asked[0].Path != "a.txt") {
				t.Errorf("asked %+v", asked)
			}
			if _, err := os.Stat(filepath.Join(root, "a.txt")); (err == nil) != c.written {
				t.Errorf("written: %v", err == nil)
			}
			needs, err := tool.NeedsApproval(json.RawMessage(c.params))
			if err != nil || needs != strings.Contains(c.params, `"content"`) {
				t.Errorf("NeedsApproval %v, %v", needs, err)
			}
		})
	}
	info := writer.info()
	if h := info.Hints(); h.ReadOnly || !h.Destructive || h.Idempotent || !info.RequiresApproval {
		t.Errorf("a writing tool: hints %+v, approval %v", h, info.RequiresApproval)
	}
}

func TestDeclareRejectsIncomplete(t *testing.T) {
	for name, d := range map[string]decl[writerParams, *writerResult, struct{}]{
		"no title": {Name: "x"},
		"writes without a rule": {
			Name: "x", Title: "X", Summary: "x", Description: "x", Guide: "x", Category: toolspec.FileWriting,
			Permissions: toolspec.WriteFiles, Termination: "x", Examples: []example[writerParams]{{"x", writerParams{}}},
			Open:       func(Config) (func(context.Context, writerParams) (*writerResult, error), error) { return nil, nil },
			Structured: func(*writerResult) struct{} { return struct{}{} },
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: declared", name)
				}
			}()
			declare(d)
		}()
	}
}

// TestAnalysisCompleteness: structural_analysis's structured answer says
// whether a callers or references answer is exhaustive, and a note why
// not.
func TestAnalysisCompleteness(t *testing.T) {
	root := writeFiles(t, map[string]string{"m.ts": "export class S { get() {} }\n" +
		"export function a(s: S) { s.get(); }\nexport function b<T>(x: T) { x.get(); }\nexport function c(x: any) { x.get(); }\n"})
	tool := toolsByName(t, Config{Workspace: root})["structural_analysis"]
	cases := []struct {
		params     string
		exhaustive bool
		note       string
	}{
		{`{"mode":"callers","language":"typescript","symbol":"S.get"}`, false,
			"not exhaustive: 1 name-only (1 untyped receiver); 1 call on untyped values (any) not listed"},
		{`{"mode":"callers","language":"typescript","symbol":"a"}`, true, ""},
		{`{"mode":"references","language":"typescript","symbol":"S.get"}`, false,
			"not exhaustive: 1 name-only (1 untyped receiver); 1 call on untyped values (any) not listed"},
	}
	for _, c := range cases {
		out, err := tool.Call(context.Background(), json.RawMessage(c.params))
		if err != nil {
			t.Fatal(err)
		}
		s := out.Structured.(analysisOutput)
		if s.Exhaustive == nil || *s.Exhaustive != c.exhaustive {
			t.Errorf("%s: exhaustive %v, want %v", c.params, s.Exhaustive, c.exhaustive)
		}
		found := c.note == ""
		for _, n := range s.Notes {
			found = found || n == c.note
		}
		if !found {
			t.Errorf("%s: notes %q lack %q", c.params, s.Notes, c.note)
		}
	}
}

// TestAnalysisNaming: the tool takes the file form of a symbol
// (file#Owner.name), answers a qualifier matching nothing with an error
// naming the near candidates, and its structured answer says which
// definition each caller of a bare name several classes define calls.
func TestAnalysisNaming(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"a/m.test.ts": "export class S { get() {} }\nexport function a(s: S) { s.get(); }\n",
		"b/m.test.ts": "export class T { get() {} }\nexport function b(x: T) { x.get(); }\n"})
	tool := toolsByName(t, Config{Workspace: root})["structural_analysis"]
	out, err := tool.Call(context.Background(), json.RawMessage(`{"mode":"callers","language":"typescript","symbol":"b/m.test.ts#T.get"}`))
	if err != nil {
		t.Fatal(err)
	}
	if items := out.Structured.(analysisOutput).Items; len(items) != 1 || items[0].Name != "b" {
		t.Errorf("callers of b/m.test.ts#T.get: %+v", items)
	}
	_, err = tool.Call(context.Background(), json.RawMessage(`{"mode":"callers","language":"typescript","symbol":"U.get"}`))
	if err == nil || !strings.Contains(err.Error(), "near candidates: S.get a/m.test.ts:1, T.get b/m.test.ts:1") {
		t.Errorf("callers of U.get: %v", err)
	}
	out, err = tool.Call(context.Background(), json.RawMessage(`{"mode":"callers","language":"typescript","symbol":"get"}`))
	if err != nil {
		t.Fatal(err)
	}
	var details []string
	for _, it := range out.Structured.(analysisOutput).Items {
		details = append(details, it.Name+" "+it.Detail)
	}
	if got := strings.Join(details, "; "); got != "a calls S.get a/m.test.ts:1; b calls T.get b/m.test.ts:1" {
		t.Errorf("callers of get: %s", got)
	}
	out, err = tool.Call(context.Background(), json.RawMessage(`{"mode":"references","language":"typescript","symbol":"get"}`))
	if err != nil {
		t.Fatal(err)
	}
	details = nil
	for _, it := range out.Structured.(analysisOutput).Items {
		details = append(details, it.Detail)
	}
	if got := strings.Join(details, "; "); got != "directCalls, calls S.get a/m.test.ts:1; directCalls, calls T.get b/m.test.ts:1" {
		t.Errorf("references of get: %s", got)
	}
}
