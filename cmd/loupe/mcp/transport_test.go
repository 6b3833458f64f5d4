package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tools"
)

// line is a raw session over the stdio transport: send writes one line,
// recv reads one.
type line struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error // Run's result
}

// serve runs the server over pipes with a message limit of maxBytes.
func serve(t *testing.T, ts []*tools.Tool, maxBytes int) *line {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	l := &line{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	l.out.Buffer(make([]byte, 1<<20), 16<<20)
	go func() {
		l.done <- NewServer("test", ts).Run(context.Background(), NewTransport(inR, outW, maxBytes))
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		<-l.done
	})
	return l
}

func (l *line) send(msg string) {
	l.t.Helper()
	if _, err := io.WriteString(l.in, msg+"\n"); err != nil {
		l.t.Fatal(err)
	}
}

func (l *line) recv() map[string]any {
	l.t.Helper()
	if !l.out.Scan() {
		l.t.Fatalf("no reply: %v", l.out.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(l.out.Bytes(), &m); err != nil {
		l.t.Fatalf("reply %q: %v", l.out.Text(), err)
	}
	return m
}

// initialize opens the session at protocol version v.
func (l *line) initialize(v string) map[string]any {
	l.t.Helper()
	l.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + v + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	r := l.recv()
	l.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

// errorCode is a reply's JSON-RPC error code and its id; ok is false
// for a result.
func errorCode(t *testing.T, r map[string]any) (code float64, id any, ok bool) {
	t.Helper()
	e, ok := r["error"].(map[string]any)
	if !ok {
		return 0, r["id"], false
	}
	if _, ok := r["id"]; !ok {
		t.Errorf("an error without an id: %v", r)
	}
	return e["code"].(float64), r["id"], true
}

func TestVersionNegotiation(t *testing.T) {
	for _, c := range []struct{ asked, got string }{
		{"2024-11-05", "2024-11-05"},
		{"2025-03-26", "2025-03-26"},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2099-01-01", ProtocolVersions[0]},
	} {
		ts := registryTools(t)
		l := serve(t, ts, 0)
		r := l.initialize(c.asked)
		res := r["result"].(map[string]any)
		if res["protocolVersion"] != c.got {
			t.Errorf("asked %s, got %v, want %s", c.asked, res["protocolVersion"], c.got)
		}
		if ins, _ := res["instructions"].(string); !strings.HasPrefix(ins, Instructions) {
			t.Errorf("asked %s: instructions %q", c.asked, ins)
		}
		l.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
		if tl := l.recv()["result"].(map[string]any)["tools"].([]any); len(tl) != len(ts) {
			t.Errorf("asked %s: tools/list %v", c.asked, tl)
		}
	}
}

// Lines the server cannot take are answered with an error, and the
// session goes on.
func TestBadLines(t *testing.T) {
	l := serve(t, registryTools(t), 1024)
	// Before initialize, a tool call is refused (by the SDK, with code 0).
	l.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ast_grep","arguments":{"pattern":"x","language":"ts"}}}`)
	if _, id, isErr := errorCode(t, l.recv()); !isErr || id != 1.0 {
		t.Errorf("a call before initialize: not refused (id %v)", id)
	}
	l.initialize("2025-06-18")
	cases := []struct {
		name, line string
		code       float64
		id         any
	}{
		{"not JSON", `not json`, -32700, nil},
		{"truncated JSON", `{"jsonrpc":"2.0","id":2,"method":`, -32700, nil},
		{"over the size limit", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2000) + `"}}`, -32600, nil},
		{"a batch", `[{"jsonrpc":"2.0","id":4,"method":"ping"}]`, -32600, nil},
		{"no version", `{"id":5,"method":"ping"}`, -32600, 5.0},
		{"not a message", `42`, -32600, nil},
		{"unknown method", `{"jsonrpc":"2.0","id":6,"method":"nope"}`, -32601, 6.0},
	}
	for i, c := range cases {
		l.send(c.line)
		code, id, _ := errorCode(t, l.recv())
		if code != c.code || id != c.id {
			t.Errorf("%s: code %v id %v, want %v %v", c.name, code, id, c.code, c.id)
		}
		// The session is still up.
		l.send(`{"jsonrpc":"2.0","id":"p` + string(rune('a'+i)) + `","method":"ping"}`)
		if r := l.recv(); r["id"] != "p"+string(rune('a'+i)) || r["result"] == nil {
			t.Errorf("%s: then ping: %v", c.name, r)
		}
	}
	l.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"ast_grep","arguments":{"pattern":"$O.foo($A)","language":"typescript"}}}`)
	r := l.recv()
	if sc := r["result"].(map[string]any)["structuredContent"].(map[string]any); sc["totalMatches"] != 1.0 || sc["skippedFiles"] != 1.0 {
		t.Errorf("tools/call after the bad lines: %v", r)
	}
}

// A cancelled call is stopped and never answered, a call reusing the id of
// one in flight is refused without touching it, and other calls run
// meanwhile.
func TestCancellation(t *testing.T) {
	b := newBlocker()
	l := serve(t, append(registryTools(t), b.tool()), 0)
	l.initialize("2025-06-18")
	l.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
	ctx := <-b.started
	// The same id again, while 5 is in flight.
	l.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ast_grep","arguments":{"pattern":"$O.foo($A)","language":"typescript"}}}`)
	if code, id, _ := errorCode(t, l.recv()); code != -32600 || id != nil {
		t.Errorf("a duplicate id: code %v id %v", code, id)
	}
	// Another call runs while the first blocks.
	l.send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"ast_grep","arguments":{"pattern":"$O.foo($A)","language":"typescript"}}}`)
	if r := l.recv(); r["id"] != 6.0 || r["result"] == nil {
		t.Errorf("a concurrent call: %v", r)
	}
	if ctx.Err() != nil {
		t.Fatal("the blocked call was cancelled by the duplicate")
	}
	l.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"test"}}`)
	if err := <-b.ended; err == nil {
		t.Error("the cancelled call's context has no cause")
	}
	// The cancelled call sends nothing: the next line is the ping's.
	l.send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if r := l.recv(); r["id"] != 7.0 {
		t.Errorf("after the cancellation: %v", r)
	}
}

// When the input ends, the calls in flight are cancelled, answered, and
// Run returns. (The blocked call returns only when cancelled, so Run
// returning proves it was.)
func TestInputEndStopsCalls(t *testing.T) {
	b := newBlocker()
	l := serve(t, []*tools.Tool{b.tool()}, 0)
	l.initialize("2025-06-18")
	l.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
	<-b.started
	l.in.Close()
	<-b.ended
	if r := l.recv(); r["id"] != 1.0 || r["result"].(map[string]any)["isError"] != true {
		t.Errorf("the cancelled call's answer: %v", r)
	}
	if err := <-l.done; err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Errorf("Run: %v", err)
	}
	l.done <- nil // for the cleanup
}
