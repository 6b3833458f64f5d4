package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tools/toolspec"
)

// infoByName indexes the registry's Infos.
func infoByName() map[string]toolspec.Info {
	m := map[string]toolspec.Info{}
	for _, i := range Infos() {
		m[i.Name] = i
	}
	return m
}

// toolsByName binds the registry to cfg and indexes the tools.
func toolsByName(t *testing.T, cfg Config) map[string]*Tool {
	t.Helper()
	ts, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]*Tool{}
	for _, tool := range ts {
		m[tool.Name] = tool
	}
	return m
}

// Seed 003, Requirement: Tool Categorization for System Prompt.
func TestToolCategorizationForSystemPrompt(t *testing.T) {
	byCategory := map[string][]string{}
	for _, i := range Infos() {
		byCategory[i.Category.Name] = append(byCategory[i.Category.Name], i.Name)
	}
	cases := []struct {
		scenario string
		category toolspec.Category
		tools    []string
		explains []string
	}{
		{"Search & Discovery category", toolspec.SearchDiscovery, []string{"ast_grep", "grep", "glob", "search", "list_directory"}, []string{"Find files and text", "read-only"}},
		{"File Reading category", toolspec.FileReading, []string{"read_file"}, []string{"Read-only access"}},
		{"File Writing category", toolspec.FileWriting, []string{"create_file", "update_file", "append_file", "replace_in_file", "edit_lines"}, []string{"approval"}},
		{"File Management category", toolspec.FileManagement, []string{"delete_file"}, []string{"Destructive"}},
	}
	prompt := Prompt()
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			if got := byCategory[c.category.Name]; !reflect.DeepEqual(got, c.tools) {
				t.Errorf("tools %q, want %q", got, c.tools)
			}
			for _, e := range c.explains {
				if !strings.Contains(c.category.Description, e) {
					t.Errorf("description %q lacks %q", c.category.Description, e)
				}
			}
			// The prompt shows the category, its description, then its
			// tools.
			head := "## " + c.category.Name + "\n" + c.category.Description + "\n"
			at := strings.Index(prompt, head)
			if at < 0 {
				t.Fatalf("the prompt has no section %q", c.category.Name)
			}
			section, _, _ := strings.Cut(prompt[at+len(head):], "\n## ")
			for _, name := range c.tools {
				if !strings.Contains(section, "\n### "+name+": ") {
					t.Errorf("%s is not listed under %s", name, c.category.Name)
				}
			}
		})
	}
}

// Seed 003, Requirement: Tool Permission Declarations.
func TestToolPermissionDeclarations(t *testing.T) {
	infos := infoByName()
	cases := []struct {
		scenario string
		tools    []string
		perms    toolspec.Permission
		atLeast  bool
		approval bool
	}{
		{"Read-only search tools", []string{"grep", "glob", "search", "list_directory", "read_file"}, toolspec.ReadFiles, false, false},
		{"Write-access editing tools", []string{"replace_in_file", "edit_lines"}, toolspec.ReadFiles | toolspec.WriteFiles, false, true},
		{"Create/delete operations (create_file)", []string{"create_file"}, toolspec.CreateFiles, true, true},
		{"Create/delete operations (delete_file)", []string{"delete_file"}, toolspec.DeleteFiles, true, true},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			for _, name := range c.tools {
				i := infos[name]
				ok := i.Permissions == c.perms || c.atLeast && i.Permissions&c.perms == c.perms
				if !ok {
					t.Errorf("%s: permissions %s, want %s", name, i.Permissions, c.perms)
				}
				if i.RequiresApproval != c.approval {
					t.Errorf("%s: requires approval %v, want %v", name, i.RequiresApproval, c.approval)
				}
				if h := i.Hints(); h.ReadOnly == c.approval {
					t.Errorf("%s: hints %+v", name, h)
				}
			}
		})
	}
}

// Seed 003, Requirement: Tool Documentation for LLM Guidance.
func TestToolDocumentationForLLMGuidance(t *testing.T) {
	infos := infoByName()
	t.Run("Search tool guidance", func(t *testing.T) {
		for _, name := range []string{"grep", "glob"} {
			for _, want := range []string{"terminate=false when the results need further processing", "terminate=true only when the results themselves answer the user"} {
				if !strings.Contains(infos[name].Termination, want) {
					t.Errorf("%s: termination doc lacks %q", name, want)
				}
			}
		}
	})
	t.Run("Edit tool guidance", func(t *testing.T) {
		for _, name := range []string{"replace_in_file", "edit_lines"} {
			for _, want := range []string{"preview_only=true first", "terminate=true if it completes", "terminate=false if it needs verifying"} {
				if !strings.Contains(infos[name].Termination, want) {
					t.Errorf("%s: termination doc lacks %q", name, want)
				}
			}
		}
	})
	t.Run("Parameter examples", func(t *testing.T) {
		for _, i := range infos {
			p := i.CustomPrompt()
			if !strings.HasPrefix(p, "Use ") {
				t.Errorf("%s: the custom prompt does not open with use cases: %q", i.Name, p)
			}
			// A tool without parameters (index_status) shows `{}`.
			if !strings.Contains(p, "\nExamples:\n- ") || !strings.Contains(p, "`{\"") && fmt.Sprint(i.InputSchema["properties"]) != "map[]" {
				t.Errorf("%s: the custom prompt has no JSON examples: %q", i.Name, p)
			}
		}
		grep := infos["grep"]
		if p := grep.CustomPrompt(); !strings.Contains(p, "`{\"pattern\":\"async fn.*execute\",\"file_type\":\"rs\"}`") || !strings.Contains(p, "Important options") {
			t.Errorf("grep prompt: %s", p)
		}
	})
}

// TestFileToolExamplesRun runs every file tool's examples through the
// registry on a workspace laid out for them: none is refused.
func TestFileToolExamplesRun(t *testing.T) {
	src := strings.Repeat("x\n", 200)
	root := writeFiles(t, map[string]string{
		"src/main.rs":                src,
		"src/tools/registry.ts":      src,
		"src/registry.ts":            "oldText\n",
		"src/api.go":                 "assertEqual(a, b)\n",
		"src/app.py":                 src,
		".prettierrc":                "{}\n",
		".gitignore":                 "dist/\n",
		"src/legacy/old_registry.ts": "x\n",
	})
	ts := toolsByName(t, Config{Workspace: root, Approver: toolspec.AllowAll})
	for _, i := range Infos() {
		// The project-index tools' examples run on an index in index_test.go.
		if i.Category == toolspec.CodeAnalysis || i.Name == "ast_grep" || i.Category == ProjectIndex {
			continue
		}
		for _, e := range i.Examples {
			out, err := ts[i.Name].Call(context.Background(), e.Params)
			if err != nil {
				t.Errorf("%s example %q: %v", i.Name, e.Use, err)
				continue
			}
			if out.Text == "" || out.Structured == nil {
				t.Errorf("%s example %q: %+v", i.Name, e.Use, out)
			}
		}
	}
}

// TestFileToolApproval: through the registry, approval is asked only
// when a call writes (never for a preview or a 0-match replace), the
// call context's approver takes precedence over the Config's, and without
// either the write is refused.
func TestFileToolApproval(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\ntwo\n"})
	var asked []toolspec.Request
	record := func(ok bool) toolspec.Approver {
		return func(_ context.Context, r toolspec.Request) (bool, error) {
			asked = append(asked, r)
			return ok, nil
		}
	}
	call := func(ts map[string]*Tool, ctx context.Context, name, params string) (*Output, error) {
		return ts[name].Call(ctx, json.RawMessage(params))
	}
	ctx := context.Background()

	none := toolsByName(t, Config{Workspace: root})
	if _, err := call(none, ctx, "replace_in_file", `{"path":"a.txt","find":"one","replace":"1"}`); !errors.Is(err, toolspec.ErrNoApprover) {
		t.Errorf("a write without an approver: %v", err)
	}
	if out, err := call(none, ctx, "replace_in_file", `{"path":"a.txt","find":"one","replace":"1","preview_only":true}`); err != nil || !strings.Contains(out.Text, "+1") {
		t.Errorf("a preview without an approver: %v %+v", err, out)
	}

	denying := toolsByName(t, Config{Workspace: root, Approver: record(false)})
	if out, err := call(denying, ctx, "replace_in_file", `{"path":"a.txt","find":"absent","replace":"1"}`); err != nil || !strings.Contains(out.Text, "0 replacements") {
		t.Errorf("a 0-match replace: %v %+v", err, out)
	}
	if len(asked) != 0 {
		t.Errorf("asked %+v for calls that write nothing", asked)
	}
	if _, err := call(denying, ctx, "edit_lines", `{"path":"a.txt","operation":"delete","start_line":1}`); !errors.Is(err, toolspec.ErrDenied) {
		t.Errorf("a denied write: %v", err)
	}
	allowed := toolspec.WithApprover(ctx, record(true))
	if _, err := call(denying, allowed, "edit_lines", `{"path":"a.txt","operation":"delete","start_line":1}`); err != nil {
		t.Errorf("the context's approver did not take precedence: %v", err)
	}
	want := []toolspec.Request{
		{Tool: "edit_lines", Permission: toolspec.WriteFiles, Path: "a.txt"},
		{Tool: "edit_lines", Permission: toolspec.WriteFiles, Path: "a.txt"},
	}
	for i := range asked {
		asked[i].Summary, asked[i].Diff = "", ""
	}
	if !reflect.DeepEqual(asked, want) {
		t.Errorf("asked %+v, want %+v", asked, want)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "two\n" {
		t.Errorf("a.txt is %q", b)
	}
}

// TestFileToolStructuredBound: the structured outputs stay within
// MaxStructuredBytes however much the text output carries, and say what
// they left out: the listing tools, whose text pages are bounded too
// (paging.MaxTextBytes), by the offset of their next page.
func TestFileToolStructuredBound(t *testing.T) {
	long := strings.Repeat("hit \"quoted\" \\ \x01 text ", 30)
	var big strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&big, "%d %s\n", i, long)
	}
	files := map[string]string{"big.txt": big.String(), "one_line.txt": strings.Repeat("\x01", 200000) + "\n"}
	for i := range 600 {
		files[fmt.Sprintf("d/%03d_with_a_rather_long_file_name_to_fill_the_listing_past_the_bound_of_the_structured_output.txt", i)] = "hit\n"
	}
	root := writeFiles(t, files)
	ts := toolsByName(t, Config{Workspace: root, Approver: toolspec.AllowAll})
	cases := []struct{ tool, params, omitted string }{
		{"grep", `{"pattern":"hit","max_results":500}`, `"next_offset":`},
		{"glob", `{"pattern":"**/*.txt","max_results":500}`, `"next_offset":`},
		{"search", `{"query":"with","max_results":500}`, `"next_offset":`},
		{"list_directory", `{"path":"d","max_results":500}`, `"next_offset":`},
		{"read_file", `{"path":"big.txt"}`, `"next_start_line":`},
		{"read_file", `{"path":"one_line.txt"}`, `"next_start_line":2`},
		{"replace_in_file", `{"path":"big.txt","find":"hit","replace":"miss","preview_only":true}`, `more lines)`},
	}
	for _, c := range cases {
		out, err := ts[c.tool].Call(context.Background(), json.RawMessage(c.params))
		if err != nil {
			t.Fatalf("%s %s: %v", c.tool, c.params, err)
		}
		js, err := json.Marshal(out.Structured)
		if err != nil {
			t.Fatal(err)
		}
		if len(js) > MaxStructuredBytes {
			t.Errorf("%s %s: structured output of %d bytes", c.tool, c.params, len(js))
		}
		if !strings.Contains(string(js), c.omitted) {
			t.Errorf("%s %s: the structured output does not say what it left out (%s): %.300s", c.tool, c.params, c.omitted, js)
		}
		if c.omitted != `"next_offset":` && len(out.Text) <= len(js) {
			t.Errorf("%s %s: the text (%d bytes) carries no more than the structured output (%d)", c.tool, c.params, len(out.Text), len(js))
		}
	}
	// read_file's structured content is whole lines of the file, in order.
	out, err := ts["read_file"].Call(context.Background(), json.RawMessage(`{"path":"big.txt"}`))
	if err != nil {
		t.Fatal(err)
	}
	r := out.Structured.(readOutput)
	if !strings.HasPrefix(big.String(), r.Content) || !strings.HasSuffix(r.Content, "\n") || strings.Count(r.Content, "\n") != r.EndLine || r.NextStartLine != r.EndLine+1 {
		t.Errorf("read_file structured: lines 1-%d, next %d, content ends %q", r.EndLine, r.NextStartLine, r.Content[max(0, len(r.Content)-20):])
	}
}
