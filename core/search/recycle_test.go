package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/treecache"
)

// TestRecycle searches files of which many have equal content (so that
// concurrent requests share one parse) with trees recycled, through no
// cache, a cache keeping nothing in memory, one over a persistent store
// and one keeping trees in memory, several times over: every search finds
// what a search that keeps its trees finds, and trees the memory cache
// keeps are never released under it (a later search through it agrees
// too).
func TestRecycle(t *testing.T) {
	dir := t.TempDir()
	for i := range 60 {
		var b strings.Builder
		// 20 contents, each in three files next to each other (searched
		// at the same time); some over a thousand nodes, so that their
		// records come from and go back to the pools.
		for j := range 5 + (i/3)*40 {
			fmt.Fprintf(&b, "f%d(a%d, b.c(%d));\n", i/3, j, j)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.js", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	js, err := language.Lookup("javascript")
	if err != nil {
		t.Fatal(err)
	}
	base := Options{Root: dir, Lang: js}
	want, _ := collect(t, base, kindOf("call_expression"))
	store, err := treecache.Open(t.TempDir(), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	stored := NewCache(0)
	stored.SetStore(store)
	kept := NewCache(64 << 20)
	caches := map[string]*Cache{"none": nil, "nothing kept": NewCache(0), "store": stored, "memory": kept}
	for name, c := range caches {
		for round := range 3 {
			opts := base
			opts.Cache, opts.Recycle, opts.Threads = c, true, 8
			var got []hit
			render := func(fm FileMatches) ([]hit, int64, error) {
				var hs []hit
				for _, m := range fm.Matches {
					h := hit{Path: fm.File.Path, Start: m.Node.StartByte(), End: m.Node.EndByte(), Text: strings.Clone(m.Node.Text())}
					if n, ok := m.Env.Single("FIRST"); ok {
						h.First = strings.Clone(n.Text())
					}
					hs = append(hs, h)
				}
				return hs, 1, nil
			}
			if _, err := SearchRender(context.Background(), opts, kindOf("call_expression"), render, func(_ File, hs []hit) error {
				got = append(got, hs...)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, round %d: %d matches differ from the %d found keeping the trees", name, round, len(got), len(want))
			}
		}
	}
	opts := base
	opts.Cache = kept
	if got, st := collect(t, opts, kindOf("call_expression")); !reflect.DeepEqual(got, want) || st.CacheHits != st.Searched {
		t.Fatalf("the memory cache's trees after recycling searches: equal %v, %d of %d from the cache", reflect.DeepEqual(got, want), st.CacheHits, st.Searched)
	}
}
