package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/tools"
)

// session runs a server over pipes and returns a function that sends one
// message and, when wantReply, reads one reply.
func session(t *testing.T, ts []tools.Tool) (send func(msg string), recv func() map[string]any) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- NewServer("loupe", "test", ts).Serve(ctx, inR, outW) }()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("server did not stop")
		}
		outW.Close()
	})
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	send = func(msg string) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	recv = func() map[string]any {
		if !sc.Scan() {
			t.Fatalf("no reply: %v", sc.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("reply %q: %v", sc.Text(), err)
		}
		return m
	}
	return send, recv
}

func astGrepTools(t *testing.T) []tools.Tool {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.ts"), []byte("x.foo(1);\n// x.foo(2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Screened out as binary, as every face screens files.
	if err := os.WriteFile(filepath.Join(root, "bin.ts"), []byte("x.foo(3);\x00\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts, err := tools.New(tools.Config{Workspace: root})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestProtocol(t *testing.T) {
	send, recv := session(t, astGrepTools(t))
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	r := recv()
	if r["result"].(map[string]any)["serverInfo"].(map[string]any)["name"] != "loupe" {
		t.Errorf("initialize: %v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":"two","method":"tools/list"}`)
	r = recv()
	if r["id"] != "two" {
		t.Errorf("id not echoed: %v", r)
	}
	tools := r["result"].(map[string]any)["tools"].([]any)
	if len(tools) != 2 || tools[0].(map[string]any)["name"] != "ast_grep" || tools[1].(map[string]any)["name"] != "structural_analysis" {
		t.Errorf("tools/list: %v", tools)
	}
	for _, tool := range tools {
		if tool.(map[string]any)["inputSchema"] == nil {
			t.Errorf("no inputSchema: %v", tool)
		}
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ast_grep","arguments":{"pattern":"$O.foo($A)","language":"typescript"}}}`)
	r = recv()
	res := r["result"].(map[string]any)
	text := res["content"].([]any)[0].(map[string]any)["text"].(string)
	if res["isError"] != nil || !strings.Contains(text, "a.ts:1:1 [call_expression] x.foo(1)") {
		t.Errorf("tools/call: %v", r)
	}
	if sc := res["structuredContent"].(map[string]any); sc["totalMatches"].(float64) != 1 || sc["skippedFiles"].(float64) != 1 {
		t.Errorf("structured: %v", sc)
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"ast_grep","arguments":{"pattern":"x","rule":{"kind":"identifier"},"language":"ts"}}}`)
	r = recv()
	if res := r["result"].(map[string]any); res["isError"] != true {
		t.Errorf("tool error not flagged: %v", r)
	}
	send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ast_grep","arguments":{"patern":"x"}}}`)
	r = recv()
	if text := r["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string); !strings.Contains(text, `unknown field "patern"`) {
		t.Errorf("misspelt argument: %v", r)
	}
	send(`{"jsonrpc":"2.0","id":6,"method":"nope"}`)
	if r = recv(); r["error"].(map[string]any)["code"].(float64) != codeMethodNotFound {
		t.Errorf("unknown method: %v", r)
	}
	send(`not json`)
	if r = recv(); r["error"].(map[string]any)["code"].(float64) != codeParse {
		t.Errorf("parse error: %v", r)
	}
	send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if r = recv(); r["id"].(float64) != 7 {
		t.Errorf("ping: %v", r)
	}
}

func TestCancelledCall(t *testing.T) {
	started := make(chan struct{})
	slow := tools.Tool{Name: "slow", Schema: map[string]any{"type": "object"},
		Call: func(ctx context.Context, _ json.RawMessage) (string, any, error) {
			close(started)
			<-ctx.Done()
			// Return late, when the session may be ending too: a call the
			// client cancelled must stay unanswered even then (an answer
			// nobody reads would block the server's shutdown).
			time.Sleep(100 * time.Millisecond)
			return "", nil, ctx.Err()
		}}
	send, recv := session(t, []tools.Tool{slow})
	send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
	<-started
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	// The cancelled call sends nothing; the next reply is the ping's.
	if r := recv(); r["id"].(float64) != 2 {
		t.Errorf("after cancel: %v", r)
	}
}
