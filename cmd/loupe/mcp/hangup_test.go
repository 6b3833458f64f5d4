package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tools"
)

// pipeRun serves ts on OS pipes, as `loupe mcp` is served, writes lines
// and closes the server's stdin at once, then reads every line the
// server wrote until it exits.
func pipeRun(t *testing.T, ts []*tools.Tool, lines ...string) []map[string]any {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- NewServer("test", ts).Run(context.Background(), NewTransport(inR, outW, 0))
		outW.Close()
	}()
	if _, err := io.WriteString(inW, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
	inW.Close()
	var replies []map[string]any
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("reply %q: %v", sc.Text(), err)
		}
		replies = append(replies, m)
	}
	outR.Close()
	if err := <-done; err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Errorf("Run: %v", err)
	}
	inR.Close()
	return replies
}

const initializeLine = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// A client that writes its requests and closes stdin at once gets an
// answer to every request: the server answers what it read before it
// exits. Counted over 100 runs per kind of session, not timed.
func TestEveryRequestAnsweredBeforeExit(t *testing.T) {
	ts := registryTools(t)
	// Each session's requests, by id: true for those that must succeed;
	// a tool call may be cancelled by the hang-up (and say so).
	sessions := []struct {
		name  string
		lines []string
		ids   map[any]bool
	}{
		{"initialize", []string{initializeLine}, map[any]bool{"init": true}},
		{"initialize, tools/list", []string{initializeLine, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`}, map[any]bool{"init": true, 2.0: true}},
		{"initialize, ping, tools/call", []string{
			initializeLine, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, `{"jsonrpc":"2.0","id":3,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"ast_grep","arguments":{"pattern":"$O.foo($A)","language":"typescript"}}}`,
		}, map[any]bool{"init": true, 3.0: true, 4.0: false}},
	}
	const runs = 100
	for _, s := range sessions {
		lost, cancelled := 0, 0
		for range runs {
			replies := pipeRun(t, ts, s.lines...)
			got := map[any]bool{}
			for _, r := range replies {
				got[r["id"]] = true
				if r["error"] == nil {
					continue
				}
				if code, _, _ := errorCode(t, r); s.ids[r["id"]] || code != CodeRequestCancelled || !strings.Contains(toJSON(t, r), "closed") {
					t.Errorf("%s: %v", s.name, r)
				}
				cancelled++
			}
			for id := range s.ids {
				if !got[id] {
					lost++
				}
			}
		}
		if lost > 0 {
			t.Errorf("%s: %d of %d answers lost in %d runs", s.name, lost, runs*len(s.ids), runs)
		}
		t.Logf("%s: %d runs, 0 answers lost, %d tool calls cancelled by the hang-up", s.name, runs, cancelled)
	}
}

// A long call in flight when stdin closes is still cancelled (and the
// server exits), and its answer, an error, is written.
func TestHangupCancelsAndAnswers(t *testing.T) {
	b := newBlocker()
	ts := []*tools.Tool{b.tool()}
	replies := pipeRun(t, ts, initializeLine, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
	// Run has returned, so a call that started has ended (cancelled).
	if len(b.started) != len(b.ended) {
		t.Errorf("%d calls started, %d ended", len(b.started), len(b.ended))
	}
	ids := map[any]bool{}
	for _, r := range replies {
		ids[r["id"]] = true
	}
	if !ids["init"] || !ids[5.0] {
		t.Errorf("replies %v: want the initialize's and the cancelled call's", replies)
	}
}

// A request nested deeper than a JSON decoder goes is answered with its
// own id and says why; a call before initialize is refused with Invalid
// Request, not the SDK's code 0.
func TestDeepAndEarlyRequests(t *testing.T) {
	deep := func(id string, levels int) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"ast_grep","arguments":{"rule":` +
			strings.Repeat("[", levels) + strings.Repeat("]", levels) + `}}}`
	}
	l := serve(t, registryTools(t), 0)
	l.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ast_grep","arguments":{"pattern":"x","language":"ts"}}}`)
	r := l.recv()
	if code, id, _ := errorCode(t, r); code != -32600 || id != 1.0 || !strings.Contains(toJSON(t, r), "initialize") {
		t.Errorf("a call before initialize: %v", r)
	}
	l.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if code, id, _ := errorCode(t, l.recv()); code != -32600 || id != 2.0 {
		t.Errorf("tools/list before initialize: code %v id %v", code, id)
	}
	l.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if r := l.recv(); r["id"] != 3.0 || r["result"] == nil {
		t.Errorf("ping before initialize: %v", r)
	}
	l.initialize("2025-06-18")
	for _, c := range []struct {
		line string
		id   any
	}{
		{deep(`"deep"`, 20000), "deep"},
		{deep(`17`, 5000), 17.0},
		{deep(`18`, 1001), 18.0},
	} {
		l.send(c.line)
		r := l.recv()
		if code, id, _ := errorCode(t, r); code != -32600 || id != c.id || !strings.Contains(toJSON(t, r), "levels") {
			t.Errorf("a request nested deep: %v", r)
		}
	}
	// Not JSON at all, deep or not, is still a parse error with a null id.
	l.send(`{"jsonrpc":"2.0","id":19,"params":` + strings.Repeat("[", 20000) + `}`)
	if code, id, _ := errorCode(t, l.recv()); code != -32700 || id != nil {
		t.Errorf("broken deep JSON: code %v id %v", code, id)
	}
	l.send(`{"jsonrpc":"2.0","id":20,"method":"ping"}`)
	if r := l.recv(); r["id"] != 20.0 || r["result"] == nil {
		t.Errorf("then ping: %v", r)
	}
}
