package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// kindMatcher matches nodes of one kind and binds the node's first named
// child to "FIRST" (a real Matcher over real trees).
type kindMatcher struct {
	kind  string
	kinds match.KindSet
}

func (k kindMatcher) Match(n tree.Node, env *match.Env) bool {
	if n.Kind() != k.kind {
		return false
	}
	if c := n.NamedChildren(); len(c) > 0 {
		env.BindSingle("FIRST", c[0])
	}
	return true
}

func (k kindMatcher) Kinds() match.KindSet { return k.kinds }

func kindOf(kind string) MatcherFor {
	return func(l *language.Language) (match.Matcher, error) {
		ids, err := l.KindIDs(context.Background(), kind)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, nil
		}
		return kindMatcher{kind: kind, kinds: match.NewKindSet(ids...)}, nil
	}
}

type hit struct {
	Path        string
	Start, End  int
	Text, First string
}

func collect(t *testing.T, opts Options, mf MatcherFor) ([]hit, Stats) {
	t.Helper()
	var out []hit
	st, err := Search(context.Background(), opts, mf, func(fm FileMatches) error {
		for _, m := range fm.Matches {
			h := hit{Path: fm.File.Path, Start: m.Node.StartByte(), End: m.Node.EndByte(), Text: m.Node.Text()}
			if n, ok := m.Env.Single("FIRST"); ok {
				h.First = n.Text()
			}
			out = append(out, h)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, st
}

func TestSearchScreensFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.ts":      "foo(1);\nbar(foo(2));\n",
		"bin.ts":    "foo(1);\x00\n",
		"latin1.ts": "foo('\xe9');\n",
		"empty.ts":  "",
		"big.ts":    "foo(3);\n" + strings.Repeat("// pad\n", 200),
		"none.ts":   "let x = 1;\n",
		"c.go":      "package c\nfunc f() { foo(4) }\n",
		"d.json":    "{\"a\": 1}\n",
	})
	hits, st := collect(t, Options{Root: dir, MaxFileSize: 1000}, kindOf("call_expression"))
	want := []hit{
		{"a.ts", 0, 6, "foo(1)", "foo"},
		{"a.ts", 8, 19, "bar(foo(2))", "bar"},
		{"a.ts", 12, 18, "foo(2)", "foo"},
		{"c.go", 21, 27, "foo(4)", "foo"},
	}
	if !reflect.DeepEqual(hits, want) {
		t.Errorf("hits\n got %+v\nwant %+v", hits, want)
	}
	if got, want := skipList(st.Skipped), []string{"big.ts: too large", "bin.ts: binary", "latin1.ts: bad encoding"}; !reflect.DeepEqual(got, want) {
		t.Errorf("skipped %q want %q", got, want)
	}
	if st.Files != 7 || st.Empty != 1 || st.Searched != 3 || st.NoMatcher != 1 || st.MatchedFiles != 2 || st.Matches != 4 {
		t.Errorf("stats %+v", st)
	}
}

func TestSearchFixedLanguage(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.ts": "f()", "b.tsx": "f()", "c.mts": "f()", "d.js": "f()"})
	hits, _ := collect(t, Options{Root: dir, Lang: lang(t, "ts")}, kindOf("call_expression"))
	var got []string
	for _, h := range hits {
		got = append(got, h.Path)
	}
	if want := []string{"a.ts", "c.mts"}; !reflect.DeepEqual(got, want) {
		t.Errorf("-l ts searched %q, want %q", got, want)
	}
}

func TestSearchPrefilterAndCache(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.ts": "console.log(1)",
		"b.ts": "alert(2)",
		"c.ts": "console.log(3)",
	})
	cache := NewCache(1 << 20)
	opts := Options{Root: dir, Cache: cache, Prefilter: RequireAll("console", "log", "")}
	hits, st := collect(t, opts, kindOf("call_expression"))
	if len(hits) != 2 || st.Prefiltered != 1 || st.Searched != 2 || st.CacheHits != 0 {
		t.Fatalf("first run: %d hits, stats %+v", len(hits), st)
	}
	hits2, st := collect(t, opts, kindOf("call_expression"))
	if !reflect.DeepEqual(hits, hits2) || st.CacheHits != 2 {
		t.Fatalf("second run must hit the cache: stats %+v", st)
	}
	if cs := cache.Stats(); cs.Entries != 2 || cs.Hits != 2 {
		t.Errorf("cache stats %+v", cs)
	}
}

func TestRequireAll(t *testing.T) {
	f := RequireAll("fmt", "Errorf", "fmt")
	for src, want := range map[string]bool{
		"fmt.Errorf(x)":     true,
		"fmt.Println(x)":    false,
		"errors.New(x)":     false,
		"Errorf fmt (else)": true,
	} {
		if got := f(nil, []byte(src)); got != want {
			t.Errorf("%q: %v", src, got)
		}
	}
	if !RequireAll()(nil, []byte("x")) {
		t.Error("no literals must pass everything")
	}
	ts, goLang := lang(t, "ts"), lang(t, "go")
	bl := RequireAllByLang(map[*language.Language][]string{ts: {"console"}})
	if bl(ts, []byte("alert()")) || !bl(ts, []byte("console.log()")) || !bl(goLang, []byte("x")) {
		t.Error("RequireAllByLang")
	}
}

func TestCacheEviction(t *testing.T) {
	ctx := context.Background()
	ts := lang(t, "ts")
	srcA := []byte("let a = 1;")
	ta, err := ts.Parse(ctx, srcA)
	if err != nil {
		t.Fatal(err)
	}
	cost := ta.Bytes()
	c := NewCache(cost * 2)
	srcs := [][]byte{[]byte("let a = 1;"), []byte("let b = 1;"), []byte("let c = 1;")}
	for _, s := range srcs {
		if _, hit, err := c.Parse(ctx, ts, s); err != nil || hit {
			t.Fatalf("first parse: hit %v err %v", hit, err)
		}
	}
	st := c.Stats()
	if st.Entries != 2 || st.Evictions != 1 || st.Bytes > st.Limit {
		t.Fatalf("stats %+v", st)
	}
	// "a" was the least recently used and is gone; "c" is there.
	if _, hit, _ := c.Parse(ctx, ts, []byte("let c = 1;")); !hit {
		t.Error("c must be cached")
	}
	if _, hit, _ := c.Parse(ctx, ts, []byte("let a = 1;")); hit {
		t.Error("a must have been evicted")
	}
	// The same bytes in another language are another entry.
	if _, hit, _ := c.Parse(ctx, lang(t, "js"), []byte("let c = 1;")); hit {
		t.Error("language must be part of the key")
	}
	c.SetLimit(0)
	if st := c.Stats(); st.Entries != 0 || st.Bytes != 0 {
		t.Errorf("after SetLimit(0): %+v", st)
	}
	// The package-level Parse goes through Default: the second parse of the
	// same bytes returns the very same tree. (Other tests share Default, so
	// its counters are not compared.)
	src := []byte(fmt.Sprintf("const zzq = %d;", time.Now().UnixNano()))
	t1, err := Parse(ctx, ts, src)
	if err != nil {
		t.Fatal(err)
	}
	t2, err := Parse(ctx, ts, src)
	if err != nil {
		t.Fatal(err)
	}
	if t1 != t2 {
		t.Error("search.Parse must use the Default cache")
	}
}

// corpus writes n TypeScript files with calls in them.
func corpus(t *testing.T, dir string, n, callsPerFile int) {
	t.Helper()
	for i := range n {
		var b strings.Builder
		for j := range callsPerFile {
			fmt.Fprintf(&b, "function f%d_%d(a, b) { return g%d(a, h(b, %d)); }\n", i, j, j, j)
		}
		p := filepath.Join(dir, fmt.Sprintf("d%d", i%7), fmt.Sprintf("f%03d.ts", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSearchDeterministic(t *testing.T) {
	dir := t.TempDir()
	corpus(t, dir, 60, 20)
	one, st1 := collect(t, Options{Root: dir, Threads: 1}, kindOf("call_expression"))
	many, st4 := collect(t, Options{Root: dir, Threads: 4}, kindOf("call_expression"))
	if len(one) != 60*20*2 {
		t.Fatalf("%d matches", len(one))
	}
	if !reflect.DeepEqual(one, many) {
		t.Error("Threads=1 and Threads=4 disagree")
	}
	if st1.Matches != st4.Matches || st1.MatchedFiles != 60 {
		t.Errorf("stats %+v vs %+v", st1, st4)
	}
	for i := 1; i < len(one); i++ {
		a, b := one[i-1], one[i]
		if a.Path == b.Path && a.Start > b.Start || a.Path != b.Path && !pathLess(a.Path, b.Path) {
			t.Fatalf("out of order: %+v then %+v", a, b)
		}
	}
}

func TestSearchStops(t *testing.T) {
	dir := t.TempDir()
	corpus(t, dir, 40, 20)
	// A sink error ends the search and is returned; ErrStop ends it quietly.
	boom := errors.New("boom")
	calls := 0
	_, err := Search(context.Background(), Options{Root: dir}, kindOf("call_expression"), func(FileMatches) error {
		calls++
		return boom
	})
	if !errors.Is(err, boom) || calls != 1 {
		t.Errorf("sink error: err %v after %d calls", err, calls)
	}
	calls = 0
	st, err := Search(context.Background(), Options{Root: dir}, kindOf("call_expression"), func(FileMatches) error {
		calls++
		if calls == 3 {
			return ErrStop
		}
		return nil
	})
	if err != nil || calls != 3 || st.MatchedFiles != 3 {
		t.Errorf("ErrStop: err %v, %d calls, stats %+v", err, calls, st)
	}
	// A matcher that fails to build is an error.
	_, err = Search(context.Background(), Options{Root: dir}, func(*language.Language) (match.Matcher, error) {
		return nil, errors.New("bad pattern")
	}, func(FileMatches) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "bad pattern") {
		t.Errorf("matcher error: %v", err)
	}
}

func TestSearchCancellation(t *testing.T) {
	dir := t.TempDir()
	corpus(t, dir, 30, 20)
	// A large file, first in order, keeps a parse in flight when the
	// cancel comes; the small files after it finish meanwhile. Whether
	// the search stopped is told by what it delivered, not by a clock: a
	// parse that ran on to its end would deliver the big file's matches.
	var b strings.Builder
	for i := 0; b.Len() < 3<<20; i++ {
		fmt.Fprintf(&b, "function big%d(a) { if (a) { return call%d(a, [1, 2, 3], {k: a}); } }\n", i, i)
	}
	writeTree(t, dir, map[string]string{"d0/a_big.ts": b.String()})

	var got []string
	// Cancel while the big file is parsing: the cancel comes from the
	// prefilter, which sees the big file's bytes just before its parse.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	var once sync.Once
	opts := Options{Root: dir, Threads: 2, Prefilter: func(_ *language.Language, src []byte) bool {
		if len(src) > 1<<20 {
			once.Do(func() { close(started) })
		}
		return true
	}}
	go func() {
		<-started
		cancel()
	}()
	st, err := Search(ctx, opts, kindOf("call_expression"), func(fm FileMatches) error {
		got = append(got, fm.File.Path)
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if st.MatchedFiles != len(got) || len(got) >= 31 {
		t.Errorf("partial results: %d files delivered, stats %+v", len(got), st)
	}
	for i, p := range got {
		if p == "d0/a_big.ts" {
			t.Errorf("the file whose parse was cancelled was delivered")
		}
		if i > 0 && !pathLess(got[i-1], p) {
			t.Errorf("partial results out of order: %q", got)
		}
	}

	// A deadline while the big file alone is parsing: it is abandoned,
	// not delivered.
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	delivered := 0
	_, err = Search(ctx, Options{Root: dir, Paths: []string{"d0/a_big.ts"}}, kindOf("call_expression"), func(FileMatches) error {
		delivered++
		return nil
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if delivered != 0 {
		t.Errorf("the file whose parse hit the deadline was delivered")
	}
}

// TestCacheSingleFlight: concurrent requests for the same content share
// one parse; a request whose shared parse was cancelled parses itself.
func TestCacheSingleFlight(t *testing.T) {
	ctx := context.Background()
	ts := lang(t, "ts")
	src := []byte(strings.Repeat("function f(a) { return g(a, [1, 2, 3]); }\n", 20000))
	c := NewCache(1 << 30)
	const n = 6
	trees := make([]*tree.Tree, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr, _, err := c.Parse(ctx, ts, src)
			if err != nil {
				t.Error(err)
			}
			trees[i] = tr
		}()
	}
	wg.Wait()
	if st := c.Stats(); st.Misses != 1 || st.Hits != n-1 {
		t.Errorf("%d concurrent requests: %d parses, %d shared (want 1 and %d)", n, st.Misses, st.Hits, n-1)
	}
	for _, tr := range trees[1:] {
		if tr != trees[0] {
			t.Errorf("requests got different trees")
		}
	}

	// The first request is cancelled while it parses; the one waiting for
	// it parses the content itself.
	c = NewCache(1 << 30)
	leaderCtx, cancel := context.WithCancel(ctx)
	leaderDone := make(chan error, 1)
	go func() {
		_, _, err := c.Parse(leaderCtx, ts, src)
		leaderDone <- err
	}()
	for c.Stats().Misses == 0 { // the leader's parse has started
		runtime.Gosched()
	}
	waiterDone := make(chan error, 1)
	go func() {
		tr, _, err := c.Parse(ctx, ts, src)
		if err == nil && tr.Len() == 0 {
			err = errors.New("empty tree")
		}
		waiterDone <- err
	}()
	cancel()
	if err := <-leaderDone; err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled leader: %v", err)
	}
	if err := <-waiterDone; err != nil {
		t.Errorf("the waiter of a cancelled parse: %v", err)
	}
}
