package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/loupe-dev/loupe/core/project"
)

// client is the test's side of a session: a JSON-RPC connection to a
// server running Serve, recording what the server sends.
type client struct {
	t    *testing.T
	conn *jsonrpc2.Conn
	dir  string // the project
	done chan int

	mu       sync.Mutex
	messages []MessageParams            // window/showMessage
	diags    []PublishDiagnosticsParams // textDocument/publishDiagnostics
}

// Handle records the server's notifications and answers its requests.
func (c *client) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p PublishDiagnosticsParams
		json.Unmarshal(*req.Params, &p)
		c.diags = append(c.diags, p)
	case "window/showMessage":
		var p MessageParams
		json.Unmarshal(*req.Params, &p)
		c.messages = append(c.messages, p)
	}
	if !req.Notif {
		// Not on the reading goroutine: the pipe has no buffer, and the
		// server may be writing a notification the reader has to take.
		go conn.Reply(ctx, req.ID, nil)
	}
}

// startServer writes files (by slash path) into a new project folder,
// serves it and connects a client.
func startServer(t *testing.T, files map[string]string) *client {
	t.Helper()
	dir := t.TempDir()
	files["sgconfig.yml"] = "ruleDirs: [rules]\n"
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := project.Find("", dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, cli := net.Pipe()
	c := &client{t: t, dir: dir, done: make(chan int, 1)}
	go func() { c.done <- Serve(context.Background(), srv, Config{Project: p, Dir: dir, Name: "test"}) }()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(cli, jsonrpc2.VSCodeObjectCodec{}), c)
	t.Cleanup(func() { c.conn.Close() })
	return c
}

// call sends a request and returns its error code (0 for none).
func (c *client) call(method string, params, result any) int64 {
	c.t.Helper()
	err := c.conn.Call(context.Background(), method, params, result)
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		return rpcErr.Code
	}
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	return 0
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// sync returns what the server has published so far: it sends a request
// and waits for the answer, which the server sends after it has handled
// (and published for) every earlier message.
func (c *client) sync() []PublishDiagnosticsParams {
	c.t.Helper()
	var h json.RawMessage
	c.call("textDocument/hover", HoverParams{TextDocument: TextDocumentIdentifier{URI: "file:///nowhere.ts"}}, &h)
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]PublishDiagnosticsParams(nil), c.diags...)
}

func (c *client) uri(name string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(c.dir, name))}).String()
}

func (c *client) initialize() {
	c.t.Helper()
	var res InitializeResult
	if code := c.call("initialize", map[string]any{"capabilities": map[string]any{}}, &res); code != 0 {
		c.t.Fatalf("initialize: error %d", code)
	}
	c.notify("initialized", map[string]any{})
}

func (c *client) open(name, text string) {
	c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{
		URI: c.uri(name), LanguageID: "typescript", Version: 1, Text: text,
	}})
}

const consoleRule = `id: no-console
language: TypeScript
severity: warning
message: no console
rule:
  pattern: console.log($A)
fix: logger.log($A)
`

func TestLifecycle(t *testing.T) {
	c := startServer(t, map[string]string{"rules/r.yml": consoleRule})
	var res json.RawMessage
	if code := c.call("textDocument/hover", HoverParams{}, &res); code != codeServerNotInitialized {
		t.Errorf("a request before initialize: error %d, want %d", code, codeServerNotInitialized)
	}
	c.initialize()
	if code := c.call("initialize", map[string]any{"capabilities": map[string]any{}}, &res); code != jsonrpc2.CodeInvalidRequest {
		t.Errorf("a second initialize: error %d, want %d", code, jsonrpc2.CodeInvalidRequest)
	}
	if code := c.call("textDocument/definition", HoverParams{}, &res); code != jsonrpc2.CodeMethodNotFound {
		t.Errorf("an unknown method: error %d, want %d", code, jsonrpc2.CodeMethodNotFound)
	}
	if code := c.call("shutdown", nil, &res); code != 0 {
		t.Fatalf("shutdown: error %d", code)
	}
	if code := c.call("textDocument/hover", HoverParams{}, &res); code != jsonrpc2.CodeInvalidRequest {
		t.Errorf("a request after shutdown: error %d, want %d", code, jsonrpc2.CodeInvalidRequest)
	}
	c.notify("exit", nil)
	if status := <-c.done; status != 0 {
		t.Errorf("exit after shutdown: status %d, want 0", status)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := startServer(t, map[string]string{"rules/r.yml": consoleRule})
	c.initialize()
	c.notify("exit", nil)
	if status := <-c.done; status != 1 {
		t.Errorf("exit without shutdown: status %d, want 1", status)
	}
}

// Columns are UTF-16 code units: an emoji before a match counts two.
func TestUTF16Columns(t *testing.T) {
	c := startServer(t, map[string]string{"rules/r.yml": consoleRule})
	c.initialize()
	c.open("a.ts", "const s = \"😀\"; console.log(s);\n")
	got := c.sync()
	if len(got) != 1 || len(got[0].Diagnostics) != 1 {
		t.Fatalf("published %+v, want one diagnostic", got)
	}
	d := got[0].Diagnostics[0]
	if want := (Range{Position{0, 16}, Position{0, 30}}); d.Range != want {
		t.Errorf("range %+v, want %+v", d.Range, want)
	}
	var actions []CodeAction
	params := CodeActionParams{TextDocument: TextDocumentIdentifier{URI: c.uri("a.ts")}}
	params.Context.Diagnostics = []Diagnostic{d}
	c.call("textDocument/codeAction", params, &actions)
	if len(actions) != 1 || actions[0].Edit.Changes[c.uri("a.ts")][0].Range != d.Range {
		t.Errorf("quick fix %+v, want an edit over %+v", actions, d.Range)
	}
}

// A document outside the workspace, or of no language, is not scanned; a
// rule that stops loading keeps the previous rules, and the user hears.
func TestSkippedDocumentsAndBadReload(t *testing.T) {
	c := startServer(t, map[string]string{"rules/r.yml": consoleRule})
	c.initialize()
	c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{
		URI: "file:///elsewhere/a.ts", Version: 1, Text: "console.log(1)",
	}})
	c.open("notes.txt", "console.log(1)")
	if got := c.sync(); len(got) != 0 {
		t.Fatalf("published %+v for documents that are not scanned", got)
	}
	c.open("a.ts", "console.log(1)")
	if err := os.WriteFile(filepath.Join(c.dir, "rules", "r.yml"), []byte("id: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": c.uri("rules/r.yml"), "type": 2}}})
	got := c.sync()
	if len(got) != 2 || len(got[1].Diagnostics) != 1 || got[1].Diagnostics[0].Code != "no-console" {
		t.Errorf("after a bad reload published %+v, want the previous rules' diagnostic again", got)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.messages) != 1 || !strings.HasPrefix(c.messages[0].Message, "Failed to load rules: ") {
		t.Errorf("messages %+v, want one saying the rules failed to load", c.messages)
	}
}

// The fix-all action answers a request for source.fixAll and for its own
// kind; the fixes of overlapping findings after the first are left out.
func TestFixAll(t *testing.T) {
	c := startServer(t, map[string]string{"rules/r.yml": consoleRule})
	c.initialize()
	c.open("a.ts", "console.log(console.log(1));\nconsole.log(2);\n")
	for _, kind := range []string{"source.fixAll", KindFixAll} {
		params := CodeActionParams{TextDocument: TextDocumentIdentifier{URI: c.uri("a.ts")}}
		params.Context.Only = []string{kind}
		var actions []CodeAction
		c.call("textDocument/codeAction", params, &actions)
		if len(actions) != 1 || actions[0].Kind != KindFixAll || actions[0].Title != "Fix by ast-grep" {
			t.Fatalf("only %s: actions %+v", kind, actions)
		}
		edits := actions[0].Edit.Changes[c.uri("a.ts")]
		want := []TextEdit{
			{Range{Position{0, 0}, Position{0, 27}}, "logger.log(console.log(1))"},
			{Range{Position{1, 0}, Position{1, 14}}, "logger.log(2)"},
		}
		if len(edits) != len(want) || edits[0] != want[0] || edits[1] != want[1] {
			t.Errorf("only %s: edits %+v, want %+v", kind, edits, want)
		}
	}
}

// Rules that fail to load at start leave the documents tracked: once the
// rules are fixed, a reload scans them.
func TestRulesFixedLater(t *testing.T) {
	c := startServer(t, map[string]string{"rules/r.yml": "id: [\n"})
	c.initialize()
	c.open("a.ts", "console.log(1)")
	if got := c.sync(); len(got) != 1 || len(got[0].Diagnostics) != 0 {
		t.Fatalf("without rules published %+v, want no diagnostics", got)
	}
	if err := os.WriteFile(filepath.Join(c.dir, "rules", "r.yml"), []byte(consoleRule), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": c.uri("rules/r.yml"), "type": 2}}})
	if got := c.sync(); len(got) != 2 || len(got[1].Diagnostics) != 1 {
		t.Errorf("after the rules were fixed published %+v, want the diagnostic", got)
	}
}

// The script of an HTML document is scanned with the rules of its
// language, as ast-grep's server scans it, at its place in the document.
func TestInjectedScript(t *testing.T) {
	c := startServer(t, map[string]string{"rules/r.yml": consoleRule})
	c.initialize()
	c.open("page.html", "<p>x</p>\n<script lang=\"ts\">let a = 1; console.log(a)</script>\n<script>console.log(2)</script>\n")
	got := c.sync()
	if len(got) != 1 || len(got[0].Diagnostics) != 1 {
		t.Fatalf("published %+v, want one diagnostic (the TypeScript script's)", got)
	}
	if d, want := got[0].Diagnostics[0], (Range{Position{1, 29}, Position{1, 43}}); d.Range != want || d.Code != "no-console" {
		t.Errorf("diagnostic %s over %+v, want no-console over %+v", d.Code, d.Range, want)
	}
}
