package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"testing/fstest"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/loupe-dev/loupe/cmd/loupe/lsp"
	"github.com/loupe-dev/loupe/core/project"
)

// Serve a project's rules to an editor, as `loupe lsp` does on stdio (here
// over an in-memory connection, with a JSON-RPC client in the editor's
// place): open a document and receive its diagnostics, then shut down.
func ExampleServe() {
	dir, err := os.MkdirTemp("", "lsp")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, fstest.MapFS{
		"sgconfig.yml":         {Data: []byte("ruleDirs: [rules]\n")},
		"rules/no-console.yml": {Data: []byte("id: no-console\nlanguage: ts\nseverity: warning\nmessage: no console.log\nrule: {pattern: console.log($A)}\n")},
	}); err != nil {
		log.Fatal(err)
	}
	p, err := project.Find("", dir)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	serverSide, editorSide := net.Pipe()
	status := make(chan int)
	go func() { status <- lsp.Serve(ctx, serverSide, lsp.Config{Project: p, Dir: p.Dir, Name: "loupe"}) }()

	published := make(chan lsp.PublishDiagnosticsParams, 1)
	editor := jsonrpc2.AsyncHandler(jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method == "textDocument/publishDiagnostics" {
			var d lsp.PublishDiagnosticsParams
			if err := json.Unmarshal(*req.Params, &d); err != nil {
				return nil, err
			}
			published <- d
		}
		return nil, nil
	}))
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(editorSide, jsonrpc2.VSCodeObjectCodec{}), editor)
	call := func(method string, params, result any) {
		if err := conn.Call(ctx, method, params, result); err != nil {
			log.Fatal(err)
		}
	}
	notify := func(method string, params any) {
		if err := conn.Notify(ctx, method, params); err != nil {
			log.Fatal(err)
		}
	}
	var init lsp.InitializeResult
	call("initialize", map[string]any{"capabilities": map[string]any{}}, &init)
	fmt.Println("server:", init.ServerInfo.Name)
	notify("initialized", map[string]any{})
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(p.Dir, "app.ts"))}).String()
	notify("textDocument/didOpen", lsp.DidOpenTextDocumentParams{TextDocument: lsp.TextDocumentItem{
		URI: uri, LanguageID: "typescript", Version: 1, Text: "let x = 1;\nconsole.log(x);\n"}})
	for _, d := range (<-published).Diagnostics {
		fmt.Printf("%d:%d %s (%v, severity %d)\n", d.Range.Start.Line+1, d.Range.Start.Character+1, d.Message, d.Code, d.Severity)
	}
	call("shutdown", nil, nil)
	notify("exit", nil)
	fmt.Println("exit status:", <-status)
	conn.Close()
	// Output:
	// server: loupe
	// 2:1 no console.log (no-console, severity 2)
	// exit status: 0
}
