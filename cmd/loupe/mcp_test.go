package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/loupe-dev/loupe/tools"
)

// buildLoupe builds the loupe binary into a temporary directory.
func buildLoupe(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "loupe")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// mcpWorkspace holds a file with a match, a binary file every face skips,
// and a call chain for structural_analysis.
func mcpWorkspace(t *testing.T) string {
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

// The built binary serves every tool of the registry over stdio to the
// SDK's client: tools/list, a call of each tool with progress and the
// warnings logged at the level the client set.
func TestMCPBinary(t *testing.T) {
	bin := buildLoupe(t)
	root := mcpWorkspace(t)
	var (
		mu       sync.Mutex
		logs     []string
		progress int
	)
	logged := make(chan struct{}, 8)
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, fmt.Sprintf("%s %v", req.Params.Level, req.Params.Data))
			mu.Unlock()
			logged <- struct{}{}
		},
		ProgressNotificationHandler: func(context.Context, *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			progress++
			mu.Unlock()
		},
	})
	ctx := context.Background()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(bin, "mcp", "--workspace", root)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Errorf("negotiated %s", v)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	var want []string
	for _, info := range tools.Infos() {
		// No index in root: the project-index tools are left out
		// (js/test/index.test.mjs serves them).
		if info.Category != tools.ProjectIndex {
			want = append(want, info.Name)
		}
	}
	if strings.Join(names, " ") != strings.Join(slices.Sorted(slices.Values(want)), " ") {
		t.Errorf("tools %v, want %v", names, want)
	}
	if err := cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	calls := map[string]struct {
		args map[string]any
		text string
	}{
		"ast_grep":            {map[string]any{"pattern": "$O.foo($A)", "language": "typescript"}, "a.ts:1:1 [call_expression] x.foo(1)"},
		"structural_analysis": {map[string]any{"mode": "callers", "language": "typescript", "symbol": "leaf", "depth": 2}, "← top()  calls.ts:1"},
		"outline":             {map[string]any{"path": "calls.ts"}, "calls.ts\n1: export function top()"},
		// The file tools, in registry order: the writes (approved by the
		// client, which asks its user by the annotations) make, change
		// and remove new.txt.
		"grep":            {map[string]any{"pattern": `foo\(\d\)`}, "a.ts"},
		"glob":            {map[string]any{"pattern": "*.ts"}, "calls.ts"},
		"search":          {map[string]any{"query": "calls"}, "calls.ts"},
		"list_directory":  {map[string]any{}, "a.ts"},
		"read_file":       {map[string]any{"path": "calls.ts", "start_line": 2, "end_line": 2}, "export function mid()"},
		"create_file":     {map[string]any{"path": "new.txt", "content": "one\n"}, "new.txt"},
		"update_file":     {map[string]any{"path": "new.txt", "content": "one\ntwo\n"}, "new.txt"},
		"append_file":     {map[string]any{"path": "new.txt", "content": "three"}, "3 lines"},
		"replace_in_file": {map[string]any{"path": "new.txt", "find": "two", "replace": "2"}, "1 occurrence"},
		"edit_lines":      {map[string]any{"path": "new.txt", "operation": "delete", "start_line": 1, "end_line": 1}, "2 lines"},
		"delete_file":     {map[string]any{"path": "new.txt"}, "new.txt"},
	}
	for _, name := range want {
		c, ok := calls[name]
		if !ok {
			t.Errorf("no test call of %s", name)
			continue
		}
		params := &sdk.CallToolParams{Name: name, Arguments: c.args}
		params.SetProgressToken(name)
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if text := res.Content[0].(*sdk.TextContent).Text; res.IsError || !strings.Contains(text, c.text) || res.StructuredContent == nil {
			t.Errorf("%s: %v\n%s", name, res.IsError, text)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("new.txt after delete_file: %v", err)
	}
	<-logged // bin.ts skipped
	mu.Lock()
	defer mu.Unlock()
	if len(logs) == 0 || logs[0] != "warning ast_grep skipped bin.ts (binary)" {
		t.Errorf("logs %q", logs)
	}
	if progress == 0 {
		t.Error("no progress notification")
	}
}

// An older client (2024-11-05) gets that revision; when the binary's
// standard input closes while a call runs, it exits with status 0.
func TestMCPBinaryOldClientAndShutdown(t *testing.T) {
	bin := buildLoupe(t)
	root := t.TempDir()
	// Enough files that the call is likely still running when the input
	// closes (the test holds either way).
	src := strings.Repeat("function f(a, b) { return g(a) + h(b, [1, 2, 3]); }\n", 200)
	for i := range 400 {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%03d.js", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "mcp", "-w", root)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewScanner(stdout)
	out.Buffer(make([]byte, 1<<20), 16<<20)
	recv := func() map[string]any {
		if !out.Scan() {
			t.Fatalf("no reply: %v", out.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", out.Text(), err)
		}
		return m
	}
	send := func(msg string) {
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	if r := recv(); r["result"].(map[string]any)["protocolVersion"] != "2024-11-05" {
		t.Errorf("initialize: %v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ast_grep","arguments":{"rule":{"kind":"call_expression"},"language":"javascript","maxResults":1000},"_meta":{"progressToken":"t"}}}`)
	if r := recv(); r["method"] != "notifications/progress" {
		t.Fatalf("want the call's first progress notification, got %v", r)
	}
	stdin.Close()
	if _, err := io.Copy(io.Discard, stdout); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("loupe mcp: %v", err)
	}
}

// The server keeps its project index up with the tree: an edit through
// edit_lines is in search_symbols' next answer, and index_status's
// files_changed counts it.
func TestMCPIndexFollowsEdits(t *testing.T) {
	bin := buildLoupe(t)
	root := mcpWorkspace(t)
	if out, err := exec.Command(bin, "index", root).CombinedOutput(); err != nil {
		t.Fatalf("loupe index: %v\n%s", err, out)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(bin, "mcp", "--workspace", root)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := res.Content[0].(*sdk.TextContent).Text
		if res.IsError {
			t.Fatalf("%s: %s", name, text)
		}
		return text
	}
	if got := call("search_symbols", map[string]any{"query": "renamedLeaf"}); got != "[]" {
		t.Fatalf("before the edit: %s", got)
	}
	call("edit_lines", map[string]any{"path": "calls.ts", "operation": "replace", "start_line": 3, "content": "export function renamedLeaf() { return 1; }"})
	if got := call("search_symbols", map[string]any{"query": "renamedLeaf"}); !strings.Contains(got, `"file_path":"calls.ts","line":3`) {
		t.Errorf("after edit_lines: %s", got)
	}
	if got := call("index_status", map[string]any{}); !strings.Contains(got, `"files_changed":1`) {
		t.Errorf("index_status: %s", got)
	}
}
