package pattern

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// benchPatterns are typical searches over Go code.
var benchPatterns = []struct {
	name, src string
	opts      Options
}{
	{"iferr", "if err != nil { return $$$R }", Options{}},
	{"method-call", "", Options{Context: "func _() { $A.$B($$$C) }", Selector: "call_expression"}},
	{"errorf", "", Options{Context: "func _() { fmt.Errorf($$$A) }", Selector: "call_expression"}},
	{"return", "return $A", Options{}},
	{"any-node", "$$A", Options{}},
	{"template", "$A.$B", Options{Strictness: Template}},
}

func goRootFile(tb testing.TB, rel string) []byte {
	tb.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "src", rel))
	if err != nil {
		tb.Fatal(err)
	}
	return src
}

// BenchmarkMatch reports, for net/http/server.go, the time to parse the
// file and the time each pattern takes to search the parsed tree, so the
// two can be compared (the match-vs-parse metric is their ratio).
func BenchmarkMatch(b *testing.B) {
	ctx := context.Background()
	lang := mustLang(b, "go")
	src := goRootFile(b, "net/http/server.go")
	var tr *tree.Tree
	var parseTime time.Duration
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			var err error
			if tr, err = lang.Parse(ctx, src); err != nil {
				b.Fatal(err)
			}
		}
		parseTime = b.Elapsed() / time.Duration(b.N)
	})
	if tr == nil {
		t, err := lang.Parse(ctx, src)
		if err != nil {
			b.Fatal(err)
		}
		tr = t
	}
	for _, bp := range benchPatterns {
		p, err := Compile(ctx, lang, bp.src, bp.opts)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("match/"+bp.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			matches := 0
			for b.Loop() {
				matches = 0
				eachMatch(tr.Root(), p, func(tree.Node, *match.Env) bool { matches++; return true })
			}
			per := b.Elapsed() / time.Duration(b.N)
			b.ReportMetric(float64(matches), "matches")
			if parseTime > 0 {
				b.ReportMetric(float64(per)/float64(parseTime), "match/parse")
			}
		})
	}
}

// Matching a node that does not match allocates nothing, and neither does
// a match that binds only single metavariables once the env has grown.
func TestMatchAllocations(t *testing.T) {
	ctx := context.Background()
	lang := mustLang(t, "go")
	tr := parse(t, lang, string(goRootFile(t, "strings/strings.go")))
	for _, bp := range benchPatterns {
		p, err := Compile(ctx, lang, bp.src, bp.opts)
		if err != nil {
			t.Fatal(err)
		}
		env := &match.Env{}
		allocs := testing.AllocsPerRun(3, func() {
			tr.Root().Descendants(func(n tree.Node) bool {
				if p.Match(n, env) {
					env.Reset()
				}
				return true
			})
		})
		hasMulti := strings.Contains(bp.src+bp.opts.Context, "$$$")
		if allocs > 0 && !hasMulti {
			t.Errorf("%s: %.0f allocations per search, want 0", bp.name, allocs)
		}
		// Non-matching nodes only: a pattern that never matches.
		none, err := Compile(ctx, lang, "if zzz != nil { return $$$R }", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(3, func() {
			tr.Root().Descendants(func(n tree.Node) bool { none.Match(n, env); return true })
		}); a > 0 {
			t.Errorf("a search without matches allocates %.0f times", a)
		}
	}
}
