package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/treecache"
)

// TestTreeCache runs run and scan over testdata/demo with the tree cache
// in a temporary folder: the output is the same whether the trees are
// parsed, read from the cache or the cache is off; --no-cache and
// LOUPE_NO_CACHE leave the cache as it was; `loupe cache` shows it and
// `loupe cache clear` empties it.
func TestTreeCache(t *testing.T) {
	demo := filepath.Join("..", "..", "testdata", "demo")
	search := [][]string{
		{"run", "-p", "console.log($$$A)", "--json=stream", demo},
		{"scan", "--inline-rules", "id: c\nlanguage: ts\nrule:\n  kind: class_declaration\n", "--json=stream", demo},
	}
	tests := []struct {
		name  string
		env   map[string]string
		flags []string
		on    bool // whether the searches keep trees
	}{
		{"cache on", nil, nil, true},
		{"--no-cache", nil, []string{"--no-cache"}, false},
		{treecache.EnvOff, map[string]string{treecache.EnvOff: "1"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			env := map[string]string{treecache.EnvDir: dir}
			for k, v := range tt.env {
				env[k] = v
			}
			getenv := func(k string) string { return env[k] }
			for _, args := range search {
				args = append(append([]string{args[0]}, tt.flags...), args[1:]...)
				want, code := dispatchOut(t, func(string) string { return "" }, append([]string{args[0], "--no-cache"}, args[1:]...)...)
				if code != exitMatch || want == "" {
					t.Fatalf("%q without a cache: exit %d, output %q", args, code, want)
				}
				for round := range 2 {
					if got, code := dispatchOut(t, getenv, args...); got != want || code != exitMatch {
						t.Fatalf("%q, search %d: exit %d, output\n%s\nwant\n%s", args, round+1, code, got, want)
					}
				}
			}
			n := cacheEntries(t, getenv)
			if tt.on != (n > 0) {
				t.Errorf("%d entries after searching, cache on: %v", n, tt.on)
			}
			if out, code := dispatchOut(t, getenv, "cache", "clear"); code != exitMatch || !strings.Contains(out, dir) {
				t.Fatalf("cache clear: exit %d %q", code, out)
			}
			if n := cacheEntries(t, getenv); n != 0 {
				t.Errorf("%d entries after clear", n)
			}
		})
	}
	for _, bad := range [][]string{{"cache", "nope"}, {"cache", "show", "clear"}, {"cache", "--bogus"}} {
		if out, code := dispatchOut(t, func(k string) string { return map[string]string{treecache.EnvDir: t.TempDir()}[k] }, bad...); code != exitError {
			t.Errorf("%q: exit %d, want %d\n%s", bad, code, exitError, out)
		}
	}
}

// cacheEntries runs `loupe cache` and returns the entries it counts.
func cacheEntries(t *testing.T, getenv func(string) string) int {
	t.Helper()
	out, code := dispatchOut(t, getenv, "cache")
	m := regexp.MustCompile(`(?m)^Entries: (\d+)$`).FindStringSubmatch(out)
	if code != exitMatch || m == nil {
		t.Fatalf("loupe cache: exit %d\n%s", code, out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// dispatchOut runs loupe in-process and returns its stdout and stderr and
// its exit status.
func dispatchOut(t *testing.T, getenv func(string) string, args ...string) (string, int) {
	t.Helper()
	var out, errb strings.Builder
	code := dispatch(context.Background(), &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: getenv}, args)
	return out.String() + errb.String(), code
}

// TestMCPTreeCache: `loupe mcp` parses through the persistent store, so
// that the next server starts warm; with --no-cache it keeps trees in
// memory only.
func TestMCPTreeCache(t *testing.T) {
	for _, flags := range [][]string{nil, {"--no-cache"}} {
		t.Run(strings.Join(append([]string{"mcp"}, flags...), " "), func(t *testing.T) {
			root := t.TempDir()
			// Content no earlier test parsed, so the process's memory cache
			// does not hold its tree.
			src := "x.foo(" + strconv.Quote(t.Name()+root) + ");\n"
			if err := os.WriteFile(filepath.Join(root, "a.ts"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			getenv := func(k string) string { return map[string]string{treecache.EnvDir: dir}[k] }
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan int)
			go func() {
				e := &env{stdin: inR, stdout: outW, stderr: io.Discard, getenv: getenv}
				done <- dispatch(context.Background(), e, append([]string{"mcp", "-w", root}, flags...))
				outW.Close()
			}()
			lines := bufio.NewScanner(outR)
			send := func(msg string) {
				if _, err := io.WriteString(inW, msg+"\n"); err != nil {
					t.Fatal(err)
				}
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			if !lines.Scan() {
				t.Fatal("no answer to initialize")
			}
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ast_grep","arguments":{"pattern":"$A.foo($B)","language":"typescript"}}}`)
			for lines.Scan() {
				if strings.Contains(lines.Text(), `"id":2`) {
					break
				}
			}
			if !strings.Contains(lines.Text(), "a.ts") {
				t.Fatalf("ast_grep answered %s", lines.Text())
			}
			inW.Close()
			go io.Copy(io.Discard, outR)
			if code := <-done; code != exitMatch {
				t.Fatalf("mcp exited %d", code)
			}
			n := cacheEntries(t, getenv)
			if want := flags == nil; want != (n > 0) {
				t.Errorf("%d entries after the session", n)
			}
		})
	}
}
