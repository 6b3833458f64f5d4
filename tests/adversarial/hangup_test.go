package adversarial

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/cmd/loupe/mcp"
	"github.com/loupe-dev/loupe/tools"
)

// TestClientsThatHangUp: an MCP client writes its requests and closes
// the server's stdin at once, through OS pipes as `loupe mcp` is served;
// every request read is answered before the server exits (issue 33 item
// 7: 2 to 5 of 6 initialize answers were lost). Sessions: one
// initialize, a last line without its newline, many requests pipelined,
// a tool call. A tool call may be cancelled by the hang-up and say so;
// everything else must succeed. 100 runs of each in make test, 1,000
// full.
func TestClientsThatHangUp(t *testing.T) {
	runs := 100
	if full() {
		runs = 1000
	}
	ws := t.TempDir()
	write(t, ws+"/a.ts", "x.foo(1);\n")
	ts, err := tools.New(tools.Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	const init = `{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	pipelined := []string{init, `{"jsonrpc":"2.0","method":"notifications/initialized"}`}
	want := map[string]bool{`"i"`: true}
	for i := range 40 {
		pipelined = append(pipelined, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i))
		want[fmt.Sprint(i)] = true
	}
	pipelined = append(pipelined, `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
	want[`"list"`] = true
	sessions := []struct {
		name  string
		input string
		must  map[string]bool // ids that must succeed
		may   []string        // ids that may be cancelled by the hang-up
	}{
		{"initialize", init + "\n", map[string]bool{`"i"`: true}, nil},
		{"no final newline", init, map[string]bool{`"i"`: true}, nil},
		{"pipelined", strings.Join(pipelined, "\n") + "\n", want, nil},
		{"a tool call", init + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
			`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"ast_grep","arguments":{"pattern":"$O.foo($A)","language":"typescript"}}}` + "\n",
			map[string]bool{`"i"`: true}, []string{`"call"`}},
	}
	for _, s := range sessions {
		lost, cancelled := 0, 0
		for range runs {
			got := hangUp(t, ts, s.input)
			for id := range s.must {
				switch r, ok := got[id]; {
				case !ok:
					lost++
				case r["error"] != nil:
					t.Errorf("%s: %s answered %v", s.name, id, r)
				}
			}
			for _, id := range s.may {
				r, ok := got[id]
				if !ok {
					lost++
					continue
				}
				if e, isErr := r["error"].(map[string]any); isErr {
					if e["code"] != float64(mcp.CodeRequestCancelled) {
						t.Errorf("%s: %s answered %v", s.name, id, r)
					}
					cancelled++
				}
			}
		}
		t.Logf("%s: %d runs, %d answers lost, %d tool calls cancelled by the hang-up", s.name, runs, lost, cancelled)
		if lost > 0 {
			t.Errorf("%s: %d answers lost in %d runs", s.name, lost, runs)
		}
	}
}

// hangUp serves ts on OS pipes, writes input, closes the server's stdin
// and returns the answers it wrote before exiting, by id (as JSON).
func hangUp(t *testing.T, ts []*tools.Tool, input string) map[string]map[string]any {
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
		done <- mcp.NewServer("test", ts).Run(context.Background(), mcp.NewTransport(inR, outW, 0))
		outW.Close()
	}()
	go func() {
		io.WriteString(inW, input)
		inW.Close()
	}()
	got := map[string]map[string]any{}
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		id, _ := json.Marshal(m["id"])
		got[string(id)] = m
	}
	outR.Close()
	if err := <-done; err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Errorf("Run: %v", err)
	}
	inR.Close()
	return got
}
