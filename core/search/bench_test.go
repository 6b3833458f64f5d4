package search

import (
	"context"
	"go/build"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
)

func goSrc(b *testing.B) string {
	dir := filepath.Join(build.Default.GOROOT, "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no GOROOT/src: %v", err)
	}
	return dir
}

// BenchmarkFiles walks GOROOT/src (ignore files, hidden rule, languages).
func BenchmarkFiles(b *testing.B) {
	dir := goSrc(b)
	n := 0
	for b.Loop() {
		fs, _, err := Files(context.Background(), Options{Root: dir})
		if err != nil {
			b.Fatal(err)
		}
		n = len(fs)
	}
	b.ReportMetric(float64(n), "files")
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkSearchCached searches GOROOT/src/net/http for call expressions
// with a warm tree cache: the cost of a repeated query. The first,
// parsing, search is outside the timed loop and reported as cold-ms.
func BenchmarkSearchCached(b *testing.B) {
	dir := filepath.Join(goSrc(b), "net", "http")
	cache := NewCache(1 << 30)
	opts := Options{Root: dir, Cache: cache, Lang: mustLang(b, "go")}
	mf := func(l *language.Language) (match.Matcher, error) {
		return kindOf("call_expression")(l)
	}
	sink := func(FileMatches) error { return nil }
	start := time.Now()
	cold, err := Search(context.Background(), opts, mf, sink)
	if err != nil {
		b.Fatal(err)
	}
	coldMS := float64(time.Since(start).Milliseconds())
	b.ResetTimer()
	for b.Loop() {
		st, err := Search(context.Background(), opts, mf, sink)
		if err != nil {
			b.Fatal(err)
		}
		if st.CacheHits != st.Searched || st.Matches != cold.Matches {
			b.Fatalf("warm run: %+v", st)
		}
	}
	b.ReportMetric(coldMS, "cold-ms")
}

func mustLang(b testing.TB, name string) *language.Language {
	l, err := language.Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	return l
}
