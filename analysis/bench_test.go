package analysis

import (
	"context"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tests/difftest"
)

// The benchmarks run the tool over real repositories of thousands of
// files: the Go standard library ($(go env GOROOT)/src, 7,700 files) and
// TypeScript's compiler (typescript@5.9.3's lib, 9 JavaScript files of
// 15 MB). "cold" empties the process-wide tree and facts caches before
// each call; "warm" measures an agent's next question over the same code.
// Run them with `go test -run '^$' -bench . ./analysis/`.

func goroot(b *testing.B) string {
	dir, err := difftest.GoRoot(context.Background())
	if err != nil {
		b.Skip(err)
	}
	return dir
}

func benchRun(b *testing.B, root string, p Params, cold bool) {
	b.Helper()
	cfg := Config{Workspace: root, Timeout: 10 * time.Minute}
	// A first call loads (compiles) the grammar modules and warms the
	// operating system's file cache; cold iterations then start from
	// empty tree and facts caches.
	if _, err := analyze(context.Background(), cfg, p); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var r *Result
	for range b.N {
		if cold {
			b.StopTimer()
			search.Default.Clear()
			sharedFacts.clear()
			b.StartTimer()
		}
		var err error
		if r, err = analyze(context.Background(), cfg, p); err != nil {
			b.Fatal(err)
		}
		if r.Partial {
			b.Fatalf("partial: %s", r.Reason)
		}
	}
	b.ReportMetric(float64(r.FilesParsed), "parsed/op")
	b.ReportMetric(float64(r.FilesInScope), "files")
}

func BenchmarkCallersGoDepth3(b *testing.B) {
	root := goroot(b)
	p := Params{Mode: "callers", Language: "go", Symbol: "quoteWith", Depth: 3}
	b.Run("cold", func(b *testing.B) { benchRun(b, root, p, true) })
	b.Run("warm", func(b *testing.B) { benchRun(b, root, p, false) })
}

func BenchmarkReferencesGo(b *testing.B) {
	root := goroot(b)
	p := Params{Mode: "references", Language: "go", Symbol: "Reader"}
	b.Run("cold", func(b *testing.B) { benchRun(b, root, p, true) })
	b.Run("warm", func(b *testing.B) { benchRun(b, root, p, false) })
}

func tsCompiler(b *testing.B) string {
	dir, err := difftest.NpmPackage(context.Background(), "typescript", "5.9.3")
	if err != nil {
		b.Fatalf("fetching typescript: %v", err)
	}
	return dir
}

func BenchmarkCallersTypeScriptDepth3(b *testing.B) {
	root := tsCompiler(b)
	p := Params{Mode: "callers", Language: "javascript", Symbol: "createSourceFile", Depth: 3, Path: "lib"}
	b.Run("cold", func(b *testing.B) { benchRun(b, root, p, true) })
	b.Run("warm", func(b *testing.B) { benchRun(b, root, p, false) })
}

func BenchmarkReferencesTypeScript(b *testing.B) {
	root := tsCompiler(b)
	p := Params{Mode: "references", Language: "javascript", Symbol: "Diagnostics", Path: "lib"}
	b.Run("cold", func(b *testing.B) { benchRun(b, root, p, true) })
	b.Run("warm", func(b *testing.B) { benchRun(b, root, p, false) })
}
