package language_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
)

// TestSamples parses every language's samples in testdata/parse: sample.*
// must parse without an ERROR or MISSING node, broken.* must have one.
func TestSamples(t *testing.T) {
	for _, l := range language.All() {
		t.Run(l.Name(), func(t *testing.T) {
			t.Parallel()
			files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "parse", l.Name(), "*"))
			if err != nil {
				t.Fatal(err)
			}
			var sample bool
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if got, ok := language.ForPath(f); !ok || got != l {
					t.Errorf("%s: ForPath gives %v, want %s", f, got, l.Name())
				}
				tr, err := l.Parse(context.Background(), src)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				base := filepath.Base(f)
				switch {
				case strings.HasPrefix(base, "sample."):
					sample = true
					if lines := strings.Count(string(src), "\n"); lines < 60 || lines > 200 {
						t.Errorf("%s: %d lines, want 60-200", f, lines)
					}
					if errs := errorNodes(tr); len(errs) > 0 {
						t.Errorf("%s: parse errors at %s", f, strings.Join(errs, ", "))
					}
				case strings.HasPrefix(base, "broken."):
					if !tr.Root().HasError() {
						t.Errorf("%s: parses without errors", f)
					}
				default:
					t.Errorf("%s: unexpected file (want sample.* or broken.*)", f)
				}
			}
			if !sample {
				t.Errorf("no sample for %s", l.Name())
			}
		})
	}
}

// errorNodes lists the positions of ERROR and MISSING nodes.
func errorNodes(t *tree.Tree) []string {
	var out []string
	t.Root().Descendants(func(n tree.Node) bool {
		if n.IsError() || n.IsMissing() {
			p := n.StartPoint()
			out = append(out, n.Kind()+"@"+itoa(p.Row+1)+":"+itoa(p.Column+1))
		}
		return len(out) < 10
	})
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }
