package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/project"
)

// rawClient writes bytes to a server and reads its framed messages.
type rawClient struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
	out  chan string // written in order by one goroutine
	done chan int
}

func startRaw(t *testing.T) *rawClient {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sgconfig.yml"), []byte("ruleDirs: [rules]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := project.Find("", dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, cli := net.Pipe()
	c := &rawClient{t: t, conn: cli, r: bufio.NewReader(cli), out: make(chan string, 128), done: make(chan int, 1)}
	go func() { c.done <- Serve(context.Background(), srv, Config{Project: p, Dir: dir, Name: "test"}) }()
	go func() {
		for raw := range c.out {
			io.WriteString(cli, raw)
		}
	}()
	t.Cleanup(func() {
		close(c.out)
		cli.Close()
	})
	return c
}

// write sends raw bytes, in order, from another goroutine (the pipe has
// no buffer and the server may answer before it has read them all).
func (c *rawClient) write(raw string) { c.out <- raw }

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// read returns the server's next message.
func (c *rawClient) read() map[string]any {
	c.t.Helper()
	n := -1
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			c.t.Fatalf("reading a header: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		c.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		c.t.Fatalf("%s: %v", body, err)
	}
	return m
}

// until reads messages until the answer to id, returning those before.
func (c *rawClient) until(id any) (before []map[string]any, answer map[string]any) {
	c.t.Helper()
	for {
		m := c.read()
		if m["id"] == id && m["method"] == nil {
			return before, m
		}
		before = append(before, m)
	}
}

// codes lists the error codes and ids of messages.
func codes(ms []map[string]any) []string {
	var out []string
	for _, m := range ms {
		if e, ok := m["error"].(map[string]any); ok {
			out = append(out, fmt.Sprintf("%v/%v", e["code"], m["id"]))
		}
	}
	return out
}

// The server survives every kind of malformed message: a request it
// cannot take is answered with an error, a bad notification dropped, a
// broken frame skipped to the next Content-Length header, and after each
// the session goes on.
func TestMalformedMessages(t *testing.T) {
	c := startRaw(t)
	c.write(frame(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`))
	if _, r := c.until(0.0); r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	c.write(frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))
	cases := []struct {
		name, raw string
		want      []string // error code/id of the answers before the next request's
	}{
		{"bad Content-Length", "Content-Length: abc\r\n\r\n", []string{"-32600/<nil>"}},
		{"negative Content-Length", "Content-Length: -5\r\n\r\n", []string{"-32600/<nil>"}},
		{"no header, the body alone", `{"jsonrpc":"2.0","id":"lost","method":"shutdown"}`, []string{"-32700/<nil>"}},
		{"a header without Content-Length", "Content-Type: application/json\r\n\r\n", []string{"-32600/<nil>"}},
		{"non-JSON body", frame(`{"jsonrpc":"2.0","id":`), []string{"-32700/<nil>"}},
		{"JSON that is not an object", frame(`[1,2]`) + frame(`42`), []string{"-32600/<nil>", "-32600/<nil>"}},
		{"a method that is not a string", frame(`{"jsonrpc":"2.0","id":7,"method":5}`), []string{"-32600/7"}},
		{"params of the wrong type", frame(`{"jsonrpc":"2.0","id":"p","method":"textDocument/hover","params":"x"}`), []string{"-32600/p"}},
		{"params of the wrong shape", frame(`{"jsonrpc":"2.0","id":9,"method":"textDocument/hover","params":{"position":"x"}}`), []string{"-32602/9"}},
		{"a bad notification", frame(`{"jsonrpc":"2.0","method":5}`), nil},
		{"an unknown notification", frame(`{"jsonrpc":"2.0","method":"nope/nope"}`), nil},
		{"neither request nor response", frame(`{"jsonrpc":"2.0"}`), nil},
		{"an unknown method", frame(`{"jsonrpc":"2.0","id":10,"method":"nope/nope"}`), []string{"-32601/10"}},
		{"an answer to nothing", frame(`{"jsonrpc":"2.0","id":11,"result":null}`), nil},
		{"bare \\n line endings", "Content-Length: 2\n\n{}", nil},
	}
	for i, cs := range cases {
		c.write(cs.raw)
		id := float64(100 + i)
		c.write(frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere.ts"},"position":{"line":0,"character":0}}}`, id)))
		before, r := c.until(id)
		if _, isErr := r["error"]; isErr {
			t.Errorf("%s: then hover: %v", cs.name, r)
		}
		if got := codes(before); fmt.Sprint(got) != fmt.Sprint(cs.want) {
			t.Errorf("%s: answers %v, want %v", cs.name, got, cs.want)
		}
	}
	// Over the size bound: skipped unread, refused, and the session goes
	// on.
	c.write(fmt.Sprintf("Content-Length: %d\r\n\r\n", MaxMessageBytes+1))
	chunk := strings.Repeat(" ", 1<<20)
	for left := MaxMessageBytes + 1; left > 0; left -= len(chunk) {
		c.write(chunk[:min(left, len(chunk))])
	}
	c.write(frame(`{"jsonrpc":"2.0","id":"after","method":"shutdown"}`))
	before, r := c.until("after")
	if got := codes(before); len(got) != 1 || got[0] != "-32600/<nil>" || !strings.Contains(fmt.Sprint(before), "limit") {
		t.Errorf("an oversized message: %v", before)
	}
	if _, isErr := r["error"]; isErr {
		t.Errorf("shutdown after it: %v", r)
	}
	c.write(frame(`{"jsonrpc":"2.0","method":"exit"}`))
	if code := <-c.done; code != 0 {
		t.Errorf("exit status %d after shutdown", code)
	}
}

// A body the input ends inside cannot be resynchronised: the session
// ends.
func TestTruncatedBodyEnds(t *testing.T) {
	c := startRaw(t)
	go func() {
		io.WriteString(c.conn, "Content-Length: 100\r\n\r\n{\"jsonrpc\"")
		c.conn.Close()
	}()
	if code := <-c.done; code != 1 {
		t.Errorf("exit status %d, want 1 (no shutdown)", code)
	}
}

// Parameters of the wrong type are answered in JSON's words, not Go's.
func TestParamsErrorWording(t *testing.T) {
	c := startRaw(t)
	c.write(frame(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`))
	c.until(0.0)
	for i, params := range []string{`{"position":"x"}`, `{"textDocument":{"uri":5},"position":{"line":0,"character":0}}`, `[1]`} {
		c.write(frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":%s}`, i+1, params)))
		_, r := c.until(float64(i + 1))
		e, _ := r["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if e["code"] != -32602.0 || !strings.Contains(msg, "invalid params") || strings.Contains(msg, "Go ") || strings.Contains(msg, "lsp.") {
			t.Errorf("%s: %v", params, r)
		}
	}
}
