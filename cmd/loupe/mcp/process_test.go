package mcp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// serveEnv, set in a test process's environment, makes it an MCP server
// on its standard input and output (see TestMain) serving the registry's
// tools and a tool that blocks until it is cancelled, saying "started" on
// standard error when it starts.
const serveEnv = "LOUPE_MCP_TEST_SERVE"

func TestMain(m *testing.M) {
	if root := os.Getenv(serveEnv); root != "" {
		os.Exit(serveStdio(root))
	}
	os.Exit(m.Run())
}

func serveStdio(root string) int {
	b := newBlocker()
	ts, err := toolsFor(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	go func() {
		for range b.started {
			fmt.Fprintln(os.Stderr, "started")
		}
	}()
	err = NewServer("test", append(ts, b.tool())).Run(context.Background(), NewTransport(os.Stdin, os.Stdout, 0))
	if err != nil && !strings.Contains(err.Error(), "EOF") {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// A server process stops when its standard input closes, cancelling the
// call in flight and writing its answer first: the blocking call returns
// only when cancelled, so the process exiting at all shows it was.
func TestProcessStopsWhenInputCloses(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"="+workspace(t))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewScanner(stdout)
	send := func(msg string) {
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if !out.Scan() || !strings.Contains(out.Text(), `"protocolVersion":"2024-11-05"`) {
		t.Fatalf("initialize: %s %v", out.Text(), out.Err())
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
	errs := bufio.NewScanner(stderr)
	if !errs.Scan() || errs.Text() != "started" {
		t.Fatalf("the blocking call did not start: %q %v", errs.Text(), errs.Err())
	}
	stdin.Close()
	rest, err := io.ReadAll(stdout)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the server process: %v", err)
	}
	// The cancelled call answered, saying so, before the process exited.
	if !strings.HasPrefix(string(rest), `{"jsonrpc":"2.0","id":2,"result":{`) || !strings.Contains(string(rest), `"isError":true`) ||
		strings.Count(string(rest), "\n") != 1 {
		t.Errorf("output after the input closed: %s", rest)
	}
}
