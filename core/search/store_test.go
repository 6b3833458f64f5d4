package search_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/treecache"
	"github.com/loupe-dev/loupe/core/wire"
	"github.com/loupe-dev/loupe/tests/difftest"
)

// TestStoreSameResults searches real code (rxjs's sources and tree-sitter's
// C runtime, fetched into the corpora cache) without a tree cache, then
// with a fresh persistent store (every tree parsed and saved), then with
// a new Cache over the same store (every tree read from it), then, as
// another process, after damaging every pack (every tree parsed again and
// saved anew), then once more: each search prints the same JSON, match
// for match, metavariables included.
func TestStoreSameResults(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches corpora")
	}
	ctx := context.Background()
	corpora := []struct {
		pkg, version, dir, lang string
		queries                 []string
	}{
		{"rxjs", "7.8.2", "src", "typescript", []string{"$A.pipe($$$OPS)", "new $C($$$ARGS)", "export function $F($$$P): $R { $$$B }"}},
		{"tree-sitter", "0.25.1", "vendor/tree-sitter/lib", "c", []string{"$A->$F($$$ARGS)", "if ($C) { $$$B }"}},
	}
	for _, c := range corpora {
		pkg, err := difftest.NpmPackage(ctx, c.pkg, c.version)
		if err != nil {
			t.Skipf("corpus %s@%s: %v", c.pkg, c.version, err)
		}
		lang, err := language.Lookup(c.lang)
		if err != nil {
			t.Fatal(err)
		}
		root := filepath.Join(pkg, filepath.FromSlash(c.dir))
		store, err := treecache.Open(t.TempDir(), 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range c.queries {
			t.Run(c.pkg+"/"+q, func(t *testing.T) {
				want, st := searchJSON(t, root, lang, q, nil)
				if st.Matches == 0 {
					t.Fatalf("%s finds nothing: the test would prove little", q)
				}
				stored := func() *search.Cache {
					c := search.NewCache(0)
					c.SetStore(store)
					return c
				}
				got, _ := searchJSON(t, root, lang, q, stored())
				if got != want {
					t.Fatal("with a store (first search) the output differs")
				}
				warm := stored()
				got, st = searchJSON(t, root, lang, q, warm)
				if got != want {
					t.Fatal("with trees read from the store the output differs")
				}
				// Files of equal content may share one read in memory.
				if cs := warm.Stats(); cs.StoreHits != cs.Misses || st.CacheHits != st.Searched {
					t.Fatalf("second search: %d of %d trees from the cache (stats %+v)", st.CacheHits, st.Searched, cs)
				}
				if err := store.Flush(); err != nil {
					t.Fatal(err)
				}
				damageAll(t, store)
				// A new Store, as another process: the damaged packs are
				// passed over, every tree is parsed and saved again.
				damaged, err := treecache.Open(store.Dir(), 1<<30)
				if err != nil {
					t.Fatal(err)
				}
				repaired := search.NewCache(0)
				repaired.SetStore(damaged)
				if got, st = searchJSON(t, root, lang, q, repaired); got != want {
					t.Fatal("with damaged packs the output differs")
				}
				// Only trees this process saved meanwhile (of files of equal
				// content) come from the store.
				if cs, ss := repaired.Stats(), damaged.Stats(); cs.Misses-cs.StoreHits == 0 || ss.Saves != cs.Misses-cs.StoreHits || ss.Hits != cs.StoreHits {
					t.Fatalf("with damaged packs: cache %+v, store %+v", cs, ss)
				}
				if err := damaged.Close(); err != nil {
					t.Fatal(err)
				}
				store, err = treecache.Open(store.Dir(), 1<<30)
				if err != nil {
					t.Fatal(err)
				}
				again := stored()
				if got, _ = searchJSON(t, root, lang, q, again); got != want || again.Stats().StoreHits != again.Stats().Misses {
					t.Fatalf("after the repair: output equal %v, stats %+v", got == want, again.Stats())
				}
			})
		}
	}
}

// searchJSON searches root for pattern q with cache and returns the
// matches as ast-grep's JSON stream.
func searchJSON(t *testing.T, root string, lang *language.Language, q string, cache *search.Cache) (string, search.Stats) {
	t.Helper()
	ps := search.NewPatterns(q, pattern.Options{}, false)
	var out strings.Builder
	st, err := search.Search(context.Background(), search.Options{Root: root, Lang: lang, Cache: cache, Prefilter: ps.Prefilter},
		ps.MatcherFor(context.Background()), func(fm search.FileMatches) error {
			for _, m := range fm.Matches {
				wm := wire.NewMatch(fm.File.Path, m.Node, m.Env, lang.Display(), 1, 1, nil)
				out.WriteString(wm.Encode(wire.Stream))
				out.WriteByte('\n')
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Skipped) > 0 {
		t.Fatalf("skipped: %v", st.Skipped)
	}
	return out.String(), st
}

// damageAll overwrites the magic number of every pack of the store (the
// first bytes of its 32-byte footer), which makes the whole pack refused.
func damageAll(t *testing.T, s *treecache.Store) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(s.Dir(), "*", "*.pack"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no packs to damage (%v)", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		copy(b[len(b)-32:], "XXXX")
		if err := os.WriteFile(f, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
