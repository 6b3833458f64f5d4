package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

// TestParseSamples runs `loupe parse` on every language's samples in
// testdata/parse: the default output is the tree's S-expression, --format
// json is one JSON object per node, and --lang with standard input gives
// the same tree as the file's extension.
func TestParseSamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "parse", "*", "*"))
	if err != nil || len(files) < 28 {
		t.Fatalf("samples: %d files, %v", len(files), err)
	}
	run := func(stdin []byte, args ...string) (string, int) {
		var stdout, stderr bytes.Buffer
		e := &env{stdin: bytes.NewReader(stdin), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		code := dispatch(context.Background(), e, args)
		if stderr.Len() > 0 {
			t.Errorf("loupe %s: stderr %s", strings.Join(args, " "), stderr.String())
		}
		return stdout.String(), code
	}
	for _, f := range files {
		l, ok := language.ForPath(f)
		if !ok {
			t.Fatalf("%s: no language", f)
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := l.Parse(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		want := tr.Root().SExp() + "\n"
		if out, code := run(nil, "parse", f); code != exitMatch || out != want {
			t.Errorf("loupe parse %s: exit %d, output differs from the tree's S-expression", f, code)
		}
		out, code := run(nil, "parse", "--format", "json", f)
		var root map[string]any
		if err := json.Unmarshal([]byte(out), &root); code != exitMatch || err != nil {
			t.Errorf("loupe parse --format json %s: exit %d, %v", f, code, err)
		} else if n := countJSONNodes(root); n != tr.Len() {
			t.Errorf("loupe parse --format json %s: %d nodes, the tree has %d", f, n, tr.Len())
		}
		if strings.HasPrefix(filepath.Base(f), "sample.") {
			if out, code := run(src, "parse", "--lang", strings.ToUpper(l.Name()), "-"); code != exitMatch || out != want {
				t.Errorf("loupe parse --lang %s - < %s: exit %d, another tree", strings.ToUpper(l.Name()), f, code)
			}
		}
	}
}

func countJSONNodes(n map[string]any) int {
	count := 1
	kids, _ := n["children"].([]any)
	for _, k := range kids {
		if m, ok := k.(map[string]any); ok {
			count += countJSONNodes(m)
		}
	}
	return count
}
