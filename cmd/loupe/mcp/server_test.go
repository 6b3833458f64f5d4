package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/loupe-dev/loupe/tools"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// workspace writes the test files: two calls of foo (one in a comment,
// which a structural search never matches), a binary file every face
// skips, and a small call chain.
func workspace(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, src := range map[string]string{
		"a.ts":     "x.foo(1);\n// x.foo(2)\n",
		"bin.ts":   "x.foo(3);\x00\n",
		"calls.ts": "export function top() { mid(); }\nexport function mid() { leaf(); }\nexport function leaf() { return 1; }\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// registryTools are the registry's tools over a test workspace.
func registryTools(t *testing.T) []*tools.Tool {
	t.Helper()
	ts, err := toolsFor(workspace(t))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func toolsFor(root string) ([]*tools.Tool, error) {
	return tools.New(tools.Config{Workspace: root})
}

// blocker is a tool whose calls run until they are cancelled: started
// receives each call's context as it starts, and ended the cause of its
// cancellation as it returns.
type blocker struct {
	started chan context.Context
	ended   chan error
}

func newBlocker() *blocker {
	return &blocker{started: make(chan context.Context, 4), ended: make(chan error, 4)}
}

func (b *blocker) tool() *tools.Tool {
	info := toolspec.Info{
		Name: "block", Title: "Blocks", Summary: "Runs until cancelled.", Description: "Runs until cancelled.",
		Category: toolspec.SearchDiscovery, Permissions: toolspec.ReadFiles, Termination: "Never.",
		InputSchema: map[string]any{"type": "object"},
	}
	return tools.NewTool(info, func(ctx context.Context, _ json.RawMessage) (*tools.Output, error) {
		b.started <- ctx
		<-ctx.Done()
		b.ended <- context.Cause(ctx)
		return nil, ctx.Err()
	})
}

// connect serves ts in memory and returns a connected client session.
func connect(t *testing.T, ts []*tools.Tool, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := NewServer("test", ts).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

func TestListTools(t *testing.T) {
	ts := registryTools(t)
	cs := connect(t, ts, nil)
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "loupe" || init.Instructions != Instructions {
		t.Errorf("initialize: %+v", init)
	}
	// The instructions say how the tools combine and name them; each
	// tool's own text comes with tools/list, not again here.
	for _, want := range []string{"ast_grep", "structural_analysis", "grep", "read_file", "replace_in_file", "search_symbols"} {
		if !strings.Contains(init.Instructions, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(ts) {
		t.Fatalf("%d tools listed, want %d", len(res.Tools), len(ts))
	}
	byName := map[string]*tools.Tool{}
	for _, tool := range ts {
		byName[tool.Name] = tool
	}
	for _, got := range res.Tools {
		want := byName[got.Name]
		if want == nil {
			t.Errorf("tool %s is not in the registry", got.Name)
			continue
		}
		if got.Title != want.Title || got.Description != want.Description {
			t.Errorf("tool %s: %q, want %q", got.Name, got.Title, want.Title)
		}
		if !sameJSON(t, got.InputSchema, want.InputSchema) || !sameJSON(t, got.OutputSchema, want.OutputSchema) {
			t.Errorf("%s: schemas differ from the registry's", got.Name)
		}
		a, h := got.Annotations, want.Hints()
		if a == nil || a.Title != "" || a.ReadOnlyHint != h.ReadOnly || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations %+v, want hints %+v", got.Name, a, h)
		}
		// A writing tool says whether it is destructive and idempotent; a
		// read-only one leaves both to their meaningless defaults.
		if h.ReadOnly && (a.DestructiveHint != nil || a.IdempotentHint) ||
			!h.ReadOnly && (a.DestructiveHint == nil || *a.DestructiveHint != h.Destructive || a.IdempotentHint != h.Idempotent) {
			t.Errorf("%s: annotations %+v, want hints %+v", got.Name, a, h)
		}
	}
}

// sameJSON compares two values by their JSON.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var va, vb any
	if err := json.Unmarshal(ja, &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(jb, &vb); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(va, vb)
}

func TestCallTool(t *testing.T) {
	ts := registryTools(t)
	cs := connect(t, ts, nil)
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range ts {
		var s jsonschema.Schema
		raw, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		if schemas[tool.Name], err = s.Resolve(nil); err != nil {
			t.Fatalf("%s: output schema: %v", tool.Name, err)
		}
	}
	cases := []struct {
		tool     string
		args     map[string]any
		isError  bool
		wantText string
	}{
		{"ast_grep", map[string]any{"pattern": "$O.foo($A)", "language": "typescript"}, false, "a.ts:1:1 [call_expression] x.foo(1)\n  $A = 1\n  $O = x\n1 match.\n1 file skipped: bin.ts (binary)\n"},
		{"structural_analysis", map[string]any{"mode": "callers", "language": "typescript", "symbol": "leaf", "depth": 2}, false, "← mid()  calls.ts:2"},
		{"outline", map[string]any{"path": "calls.ts", "limit": 2}, false, "calls.ts\n1: export function top() { mid(); }\n2: export function mid() { leaf(); }\n1 more of 3: call again with offset=2\n"},
		{"outline", map[string]any{"type": "klass"}, true, "Unknown outline symbol type `klass`"},
		{"ast_grep", map[string]any{"pattern": "x", "rule": map[string]any{"kind": "identifier"}, "language": "ts"}, true, "exactly one of pattern or rule"},
		{"ast_grep", map[string]any{"patern": "x"}, true, `unknown field "patern"`},
		{"structural_analysis", map[string]any{"mode": "nope", "language": "typescript"}, true, "callers"},
	}
	for _, c := range cases {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s %v: %v", c.tool, c.args, err)
		}
		text := res.Content[0].(*sdk.TextContent).Text
		if res.IsError != c.isError || !strings.Contains(text, c.wantText) {
			t.Errorf("%s %v: isError %v, text:\n%s\nwant %q", c.tool, c.args, res.IsError, text, c.wantText)
		}
		if c.isError {
			if res.StructuredContent != nil {
				t.Errorf("%s %v: an error with structured content", c.tool, c.args)
			}
			continue
		}
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if err := schemas[c.tool].Validate(v); err != nil {
			t.Errorf("%s: structuredContent does not match the output schema: %v\n%s", c.tool, err, raw)
		}
		if len(raw) > tools.MaxStructuredBytes {
			t.Errorf("%s: structuredContent of %d bytes", c.tool, len(raw))
		}
	}
	// The unknown tool is a protocol error, not a tool error.
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "nope"}); err == nil {
		t.Error("an unknown tool was called")
	}
}

func TestProgress(t *testing.T) {
	var notes []*sdk.ProgressNotificationParams
	last := make(chan struct{})
	cs := connect(t, registryTools(t), &sdk.ClientOptions{
		// Notifications are handled one at a time, in order.
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			notes = append(notes, req.Params)
			if req.Params.Progress == req.Params.Total {
				close(last)
			}
		},
	})
	params := &sdk.CallToolParams{Name: "ast_grep", Arguments: map[string]any{"pattern": "$O.foo($A)", "language": "typescript"}}
	params.SetProgressToken("p1")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	<-last
	if len(notes) < 2 || notes[0].Progress != 0 || notes[0].Total < 2 {
		t.Fatalf("progress: %+v", notes)
	}
	for i, n := range notes {
		if n.ProgressToken != "p1" || n.Total != notes[0].Total || !strings.HasPrefix(n.Message, "ast_grep: ") {
			t.Errorf("notification %d: %+v", i, n)
		}
		if i > 0 && n.Progress <= notes[i-1].Progress {
			t.Errorf("progress does not grow: %v after %v", n.Progress, notes[i-1].Progress)
		}
	}
}
