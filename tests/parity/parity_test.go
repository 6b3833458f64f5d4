//go:build parity

package parity

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/grammars"
)

// maxReported bounds the mismatching inputs reported in detail per language.
const maxReported = 10

type langResult struct {
	name                 string
	inputs, bytes, nodes int
	mismatched           int
	known                int // S-expressions differ only in what the flat tree cannot carry
}

func limitsFromEnv() corpusLimits {
	if os.Getenv("LOUPE_PARITY_FULL") == "1" {
		return corpusLimits{full: true}
	}
	return defaultLimits
}

// setup returns the cache folder, the manifest and the corpus.
func setup(tb testing.TB, limits corpusLimits) (string, grammars.Manifest, *corpus) {
	tb.Helper()
	cache, err := cacheDir()
	if err != nil {
		tb.Fatal(err)
	}
	m, err := grammars.All()
	if err != nil {
		tb.Fatal(err)
	}
	c, err := newCorpus(context.Background(), cache, m, limits)
	if err != nil {
		tb.Fatal(err)
	}
	return cache, m, c
}

// TestParity parses every language's inputs with loupe (wazero) and with
// native tree-sitter and requires identical trees, node by node, and
// identical S-expressions. LOUPE_PARITY_FULL=1 takes the whole corpus.
func TestParity(t *testing.T) {
	ctx := context.Background()
	cache, m, c := setup(t, limitsFromEnv())
	var (
		mu      sync.Mutex
		results []langResult
	)
	t.Cleanup(func() {
		sort.Slice(results, func(i, j int) bool { return results[i].name < results[j].name })
		var b strings.Builder
		fmt.Fprintf(&b, "\n%-11s %7s %11s %10s %10s %10s\n", "language", "inputs", "bytes", "nodes", "mismatched", "known-sexp")
		var total langResult
		for _, r := range results {
			fmt.Fprintf(&b, "%-11s %7d %11d %10d %10d %10d\n", r.name, r.inputs, r.bytes, r.nodes, r.mismatched, r.known)
			total.inputs += r.inputs
			total.bytes += r.bytes
			total.nodes += r.nodes
			total.mismatched += r.mismatched
			total.known += r.known
		}
		fmt.Fprintf(&b, "%-11s %7d %11d %10d %10d %10d", "total", total.inputs, total.bytes, total.nodes, total.mismatched, total.known)
		t.Log(b.String())
	})
	for _, info := range m.Languages {
		t.Run(info.Name, func(t *testing.T) {
			t.Parallel()
			r := checkLanguage(ctx, t, cache, c, info)
			mu.Lock()
			results = append(results, r)
			mu.Unlock()
		})
	}
}

func checkLanguage(ctx context.Context, t *testing.T, cache string, c *corpus, info grammars.Language) langResult {
	r := langResult{name: info.Name}
	l, err := language.Lookup(info.Name)
	if err != nil {
		t.Fatal(err)
	}
	nat, err := loadNative(ctx, cache, info)
	if err != nil {
		t.Fatal(err)
	}
	p, err := nat.parser()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	inputs, err := c.inputs(info.Name)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		lt, err := l.Parse(ctx, in.src)
		if err != nil {
			t.Errorf("%s: loupe: %v", in.name, err)
			r.mismatched++
			continue
		}
		nt := p.Parse(in.src, nil)
		if nt == nil {
			t.Errorf("%s: native tree-sitter returned no tree", in.name)
			r.mismatched++
			continue
		}
		cmp := compareTrees(nt, lt)
		nt.Close()
		r.inputs++
		r.bytes += len(in.src)
		r.nodes += cmp.nodes
		if cmp.known != "" {
			r.known++
			if r.known == 1 {
				t.Logf("%s: S-expressions differ only in what the node API does not expose:\n  %s", in.name, cmp.known)
			}
		}
		if len(cmp.diffs) == 0 && cmp.sexp == "" {
			continue
		}
		r.mismatched++
		if r.mismatched <= maxReported {
			msg := strings.Join(cmp.diffs, "\n  ")
			if cmp.sexp != "" {
				msg += "\n  " + cmp.sexp
			}
			t.Errorf("%s (%d bytes): trees differ:\n  %s", in.name, len(in.src), msg)
		}
	}
	if r.mismatched > maxReported {
		t.Errorf("%d more inputs differ", r.mismatched-maxReported)
	}
	t.Logf("%d inputs, %d bytes, %d nodes compared, %d differ, %d S-expressions differ only in hidden MISSING nodes or error-leaf characters",
		r.inputs, r.bytes, r.nodes, r.mismatched, r.known)
	return r
}
