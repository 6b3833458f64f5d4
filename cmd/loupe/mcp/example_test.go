package mcp_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"testing/fstest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/loupe-dev/loupe/cmd/loupe/mcp"
	"github.com/loupe-dev/loupe/tools"
)

// Serve the registry's read-only tools for a workspace over a pair of pipes,
// as `loupe mcp` serves them on stdio, and use them from an MCP client:
// list the tools with their read-only annotation, then call ast_grep.
func ExampleNewServer() {
	dir, err := os.MkdirTemp("", "mcp")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, fstest.MapFS{"app.ts": {Data: []byte("console.log('hi', user);\n")}}); err != nil {
		log.Fatal(err)
	}
	all, err := tools.New(tools.Config{Workspace: dir})
	if err != nil {
		log.Fatal(err)
	}
	var readOnly []*tools.Tool
	for _, t := range all {
		if t.Hints().ReadOnly {
			readOnly = append(readOnly, t)
		}
	}
	ctx := context.Background()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	ss, err := mcp.NewServer("example", readOnly).Connect(ctx, mcp.NewTransport(serverIn, serverOut, 0), nil)
	if err != nil {
		log.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "example-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		log.Fatal(err)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	offered, allReadOnly := map[string]bool{}, true
	for _, t := range list.Tools {
		offered[t.Name] = true
		allReadOnly = allReadOnly && t.Annotations.ReadOnlyHint
	}
	fmt.Printf("ast_grep %t, read_file %t, update_file %t; all read-only %t\n",
		offered["ast_grep"], offered["read_file"], offered["update_file"], allReadOnly)
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ast_grep",
		Arguments: map[string]any{"pattern": "console.log($$$ARGS)", "language": "typescript"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Content[0].(*sdk.TextContent).Text)
	cs.Close() // the server sees its input end and shuts down
	ss.Wait()
	// Output:
	// ast_grep true, read_file true, update_file false; all read-only true
	// app.ts:1:1 [call_expression] console.log('hi', user)
	//   $$$ARGS = 'hi', user
	// 1 match.
}
