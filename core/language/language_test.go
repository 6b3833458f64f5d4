package language_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/grammars"
)

func lookup(t testing.TB, name string) *language.Language {
	t.Helper()
	l, err := language.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLookup(t *testing.T) {
	if n := len(language.All()); n != 30 {
		t.Errorf("%d languages, want 30", n)
	}
	ts := lookup(t, "typescript")
	for _, alias := range []string{"ts", "TS", "TypeScript", " typescript "} {
		if l := lookup(t, alias); l != ts {
			t.Errorf("Lookup(%q) = %s, want the TypeScript language", alias, l.Name())
		}
	}
	if ts.Display() != "TypeScript" || ts.Expando() != '$' || strings.Join(ts.Extensions(), ",") != "ts,cts,mts" {
		t.Errorf("typescript: %q %q %v", ts.Display(), ts.Expando(), ts.Extensions())
	}
	if l := lookup(t, "go"); l.Expando() != 'µ' {
		t.Errorf("go expando %q", l.Expando())
	}
	if l, ok := language.ForPath("src/x.ts"); !ok || l != ts {
		t.Errorf("ForPath(x.ts) = %v, %v", l, ok)
	}
	if _, ok := language.ForPath("README"); ok {
		t.Error("ForPath found a language for a file without extension")
	}
}

func TestUnknownLanguage(t *testing.T) {
	for _, name := range []string{"klingon", "", "type script", "ts2"} {
		l, err := language.Lookup(name)
		if err == nil {
			t.Fatalf("Lookup(%q) = %s", name, l.Name())
		}
		if !strings.Contains(err.Error(), "unsupported language") || !strings.Contains(err.Error(), "typescript") {
			t.Errorf("Lookup(%q): unhelpful error %q", name, err)
		}
	}
}

func TestKindsAndFields(t *testing.T) {
	ctx := context.Background()
	l := lookup(t, "javascript")
	tests := []struct {
		kind string
		want bool
	}{
		{"call_expression", true},
		{"identifier", true},
		{"(", true},
		{"ERROR", false},
		{"no_such_kind", false},
		{"_expression", false}, // hidden symbols are not node kinds
	}
	for _, tt := range tests {
		if got, err := l.HasKind(ctx, tt.kind); err != nil || got != tt.want {
			t.Errorf("HasKind(%q) = %v, %v", tt.kind, got, err)
		}
	}
	ids, err := l.KindIDs(ctx, "identifier")
	if err != nil || len(ids) == 0 {
		t.Fatalf("KindIDs(identifier) = %v, %v", ids, err)
	}
	tr, err := l.Parse(ctx, []byte("foo(bar)"))
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	tr.Root().Descendants(func(n tree.Node) bool {
		if n.Kind() == "identifier" {
			found = slices.Contains(ids, n.KindID())
		}
		return !found
	})
	if !found {
		t.Errorf("the identifier node's kind id is not among KindIDs %v", ids)
	}
	for field, want := range map[string]bool{"function": true, "arguments": true, "nope": false, "": false} {
		if got, err := l.HasField(ctx, field); err != nil || got != want {
			t.Errorf("HasField(%q) = %v, %v", field, got, err)
		}
	}
	names, err := l.Names(ctx)
	if err != nil || len(names.Symbols) == 0 {
		t.Errorf("Names: %v", err)
	}
}

// parseAll parses src in every language and checks the tree covers it.
func parseAll(t *testing.T, what string, src func(l *language.Language) []byte) {
	for _, l := range language.All() {
		t.Run(l.Name(), func(t *testing.T) {
			t.Parallel()
			b := src(l)
			tr, err := l.Parse(context.Background(), b)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			root := tr.Root()
			if root.IsZero() || root.EndByte() > len(b) || tr.Len() < 1 {
				t.Fatalf("%s: root [%d,%d) over %d bytes", what, root.StartByte(), root.EndByte(), len(b))
			}
			if s := root.SExp(); !strings.HasPrefix(s, "(") {
				t.Errorf("%s: S-expression %q", what, s)
			}
		})
	}
}

func TestEmptyInput(t *testing.T) {
	parseAll(t, "empty", func(*language.Language) []byte { return nil })
	parseAll(t, "blank", func(*language.Language) []byte { return []byte(" \n\t\r\n") })
}

func TestBinaryInput(t *testing.T) {
	parseAll(t, "binary", func(l *language.Language) []byte {
		r := rand.New(rand.NewPCG(uint64(len(l.Name())), 7))
		b := make([]byte, 16<<10)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	})
	parseAll(t, "NUL bytes", func(*language.Language) []byte { return make([]byte, 4096) })
}

func TestInvalidUTF8(t *testing.T) {
	parseAll(t, "invalid UTF-8", func(l *language.Language) []byte {
		sample := readSample(t, l)
		// Splice invalid sequences into the middle of real code: a lone
		// continuation byte, a truncated sequence, an overlong encoding, a
		// surrogate and a byte that never occurs in UTF-8.
		mid := len(sample) / 2
		var b bytes.Buffer
		b.Write(sample[:mid])
		b.WriteString("\x80 \xe2\x82 \xc0\xaf \xed\xa0\x80 \xff")
		b.Write(sample[mid:])
		b.WriteString(`"\xfe"`)
		return b.Bytes()
	})
}

func readSample(t testing.TB, l *language.Language) []byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "parse", l.Name(), "sample.*"))
	if err != nil || len(files) != 1 {
		t.Fatalf("sample of %s: %v %v", l.Name(), files, err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDeepNesting parses 100,000 nested brackets: the tree is 100,000
// levels deep, and building it, printing it and walking it must neither
// recurse nor take long.
func TestDeepNesting(t *testing.T) {
	const depth = 100_000
	tests := []struct {
		lang, open, mid, close string
	}{
		{"json", "[", "1", "]"},
		{"javascript", "(", "a", ")"},
		{"python", "[", "", "]"},
		{"go", "package p\nvar x = " + strings.Repeat("(", depth), "1", strings.Repeat(")", depth)},
		{"json", "[", "", ""}, // never closed
	}
	for _, tt := range tests {
		src := tt.open
		if len(tt.open) == 1 {
			src = strings.Repeat(tt.open, depth)
		}
		src += tt.mid
		if len(tt.close) == 1 {
			src += strings.Repeat(tt.close, depth)
		} else {
			src += tt.close
		}
		start := time.Now()
		tr, err := lookup(t, tt.lang).Parse(context.Background(), []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tt.lang, err)
		}
		// Parents come before children in pre-order, so one pass gives
		// every node's depth.
		depths := make([]int, tr.Len())
		deepest := 0
		count := 0
		tr.Root().Descendants(func(n tree.Node) bool {
			count++
			if p := n.Parent(); !p.IsZero() {
				depths[n.Index()] = depths[p.Index()] + 1
			}
			deepest = max(deepest, depths[n.Index()])
			return true
		})
		sexp := tr.Root().SExp()
		took := time.Since(start)
		t.Logf("%s %q…: %d nodes, %d levels, S-expression %d bytes, %v", tt.lang, src[:12], tr.Len(), deepest, len(sexp), took)
		if count != tr.Len() || strings.Count(sexp, "(") != strings.Count(sexp, ")") {
			t.Errorf("%s: walked %d of %d nodes; S-expression unbalanced", tt.lang, count, tr.Len())
		}
		if tt.close != "" && deepest < depth {
			t.Errorf("%s: only %d levels deep", tt.lang, deepest)
		}
	}
}

// big20MB returns about 20 MB of valid JSON: the JSON sample repeated as
// the elements of one array, the shape of a large data file.
func big20MB(t testing.TB) []byte {
	sample := bytes.TrimSpace(readSample(t, lookup(t, "json")))
	var b bytes.Buffer
	b.WriteString("[\n")
	for b.Len() < 20<<20 {
		b.Write(sample)
		b.WriteString(",\n")
	}
	b.WriteString("null]\n")
	return b.Bytes()
}

// TestLargeFile parses a 20 MB file and logs the peak RSS the parse added
// (Linux only). The bound is generous; the log shows the real figure.
func TestLargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("20 MB parse")
	}
	src := big20MB(t)
	l := lookup(t, "json")
	if _, err := l.Parse(context.Background(), []byte("1")); err != nil { // load outside the measurement
		t.Fatal(err)
	}
	runtime.GC()
	base, peakOK := resetPeakRSS()
	start := time.Now()
	tr, err := l.Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if tr.Root().HasError() || tr.Root().EndByte() != len(src) {
		t.Errorf("20 MB of valid JSON: has error %v, root ends at %d of %d", tr.Root().HasError(), tr.Root().EndByte(), len(src))
	}
	if peakOK {
		peak := peakRSS() - base
		t.Logf("%d MB parsed in %v (%.1f MB/s), %d nodes; peak RSS grew by %d MB (%.0f bytes per source byte; the tree's arrays are %d MB)",
			len(src)>>20, took, float64(len(src))/took.Seconds()/1e6, tr.Len(), peak>>20,
			float64(peak)/float64(len(src)), tr.Len()*44>>20)
		if peak > 100*len(src) {
			t.Errorf("peak RSS grew by %d MB for a %d MB file", peak>>20, len(src)>>20)
		}
	}
}

// bigJS repeats the JavaScript sample (without its shebang line) to n bytes.
func bigJS(t testing.TB, n int) []byte {
	sample := readSample(t, lookup(t, "javascript"))
	_, body, _ := bytes.Cut(sample, []byte("\n"))
	var b bytes.Buffer
	for b.Len() < n {
		b.Write(body)
	}
	return b.Bytes()
}

func TestCancel(t *testing.T) {
	l := lookup(t, "javascript")
	src := bigJS(t, 4<<20)
	if _, err := l.Parse(context.Background(), []byte("1")); err != nil {
		t.Fatal(err)
	}

	// Cancelled before: refused without parsing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Parse(ctx, src); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: %v", err)
	}

	// Cancelled during a parse that takes seconds: it returns the
	// cancellation, not a tree (a parse that ignored the cancel would
	// end with a tree and no error); no clock is read. That the stop
	// comes from inside the parse is host/wazhost's test.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	if _, err := l.Parse(ctx, src); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled during: %v", err)
	}

	// The language keeps working afterwards.
	tr, err := l.Parse(context.Background(), []byte("f(1)"))
	if err != nil || tr.Root().SExp() != "(program (expression_statement (call_expression function: (identifier) arguments: (arguments (number)))))" {
		t.Fatalf("after cancellation: %v", err)
	}
}

// TestConcurrent parses every sample from many goroutines at once and
// requires the trees sequential parses give.
func TestConcurrent(t *testing.T) {
	type job struct {
		l    *language.Language
		src  []byte
		want string
	}
	var jobs []job
	for _, name := range []string{"go", "python", "typescript", "json", "rust", "css"} {
		l := lookup(t, name)
		src := readSample(t, l)
		tr, err := l.Parse(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{l, src, tr.Root().SExp()})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 32; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 3*len(jobs); i++ {
				j := jobs[(g+i)%len(jobs)]
				tr, err := j.l.Parse(context.Background(), j.src)
				switch {
				case err != nil:
					errs <- err.Error()
				case tr.Root().SExp() != j.want:
					errs <- j.l.Name() + ": concurrent parse gave another tree"
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestManifestLanguagesLoad(t *testing.T) {
	m, err := grammars.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range m.Languages {
		l := lookup(t, info.Name)
		if ok, err := l.HasKind(context.Background(), "ERROR"); err != nil || ok {
			t.Errorf("%s: HasKind(ERROR) = %v, %v", info.Name, ok, err)
		}
	}
}
