package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// corpus says where a corpus lives and which part of it the bounded
// (default) run searches; LOUPE_DIFFTEST_FULL=1 searches all of it.
type corpus struct {
	root    func(ctx context.Context, lang string) (string, error)
	bounded map[string][]string // by language; globs relative to the root
}

var corpora = map[string]corpus{
	"ts-lib": {
		root: func(ctx context.Context, _ string) (string, error) { return NpmPackage(ctx, "typescript", "5.9.3") },
		bounded: map[string][]string{
			"typescript": {"lib/lib.es5.d.ts", "lib/lib.es20*.d.ts", "lib/lib.scripthost.d.ts", "lib/lib.webworker.importscripts.d.ts"},
			"javascript": {"lib/_tsserver.js", "lib/_typingsInstaller.js", "lib/watchGuard.js", "lib/tsserverlibrary.js"},
		},
	},
	"go-std": {
		root: func(ctx context.Context, _ string) (string, error) { return GoRoot(ctx) },
		bounded: map[string][]string{"go": {
			"fmt", "errors", "strings", "bufio", "flag", "context", "text/tabwriter", "container", "encoding/csv",
		}},
	},
	"py-std": {
		root: func(context.Context, string) (string, error) { return PythonStdlib() },
		bounded: map[string][]string{"python": {
			"json", "argparse.py", "dataclasses.py", "email/*.py", "functools.py", "textwrap.py", "shutil.py",
			"pathlib.py", "http/client.py", "logging/__init__.py", "csv.py", "string.py",
		}},
	},
	"local": {
		root: func(_ context.Context, lang string) (string, error) {
			return filepath.Abs(filepath.Join("testdata", lang))
		},
	},
}

// result is one tool's answer to one case.
type result struct {
	answer *Answer
	err    error
}

// keepKeys is how many matches a case keeps verbatim for its report.
const keepKeys = 20000

func TestPatterns(t *testing.T) {
	if testing.Short() {
		t.Skip("differential suite against ast-grep: skipped with -short")
	}
	bin := needAstGrep(t)
	f, err := os.Open(filepath.Join("testdata", "patterns.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := ParseCases(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	full := os.Getenv("LOUPE_DIFFTEST_FULL") == "1"
	var filter *regexp.Regexp
	if re := os.Getenv("LOUPE_DIFFTEST_RUN"); re != "" {
		filter = regexp.MustCompile(re)
	}
	type group struct{ lang, corpus string }
	byGroup := map[group][]Case{}
	var groups []group
	total := 0
	for _, c := range cases {
		if full && c.Bounded || filter != nil && !filter.MatchString(c.String()) {
			continue
		}
		g := group{c.Lang, c.Corpus}
		if byGroup[g] == nil {
			groups = append(groups, g)
		}
		byGroup[g] = append(byGroup[g], c)
		total++
	}

	ctx := context.Background()
	var st stats
	agree, langs := 0, map[string]bool{}
	for _, g := range groups {
		group := byGroup[g]
		lang, err := language.Lookup(g.lang)
		if err != nil {
			t.Fatal(err)
		}
		root, files := corpusFiles(ctx, t, g.corpus, lang, full)
		refDone := make(chan []result)
		go func() { refDone <- runAstGrep(ctx, bin, root, lang, group, files) }()
		got := runLoupe(ctx, t, root, lang, group, files, &st)
		ref := <-refDone
		for i, c := range group {
			t.Run(fmt.Sprintf("%s/line%d", c.Lang, c.Line), func(t *testing.T) {
				if compare(t, c, ref[i], got[i]) {
					agree++
					langs[c.Lang] = true
				}
			})
		}
	}
	names := slices.Sorted(maps.Keys(langs))
	t.Logf("difftest: %d of %d patterns agree with ast-grep, over %d languages (%s); loupe parsed %.1f MB in %v, matched in %v",
		agree, total, len(names), strings.Join(names, ", "), float64(st.bytes)/1e6, st.parse.Round(time.Millisecond), st.match.Round(time.Millisecond))
}

// stats sums loupe's work over a run.
type stats struct {
	mu           sync.Mutex
	parse, match time.Duration
	bytes        int
}

// corpusFiles returns a corpus's root and the files of lang to search:
// the bounded part unless full.
func corpusFiles(ctx context.Context, t *testing.T, name string, lang *language.Language, full bool) (string, []string) {
	t.Helper()
	co, ok := corpora[name]
	if !ok {
		t.Fatalf("unknown corpus %q", name)
	}
	root, err := co.root(ctx, lang.Name())
	if errors.Is(err, ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	if !full && co.bounded != nil {
		for _, glob := range co.bounded[lang.Name()] {
			m, err := filepath.Glob(filepath.Join(root, glob))
			if err != nil || len(m) == 0 {
				t.Fatalf("corpus %s: %q matches nothing under %s", name, glob, root)
			}
			for _, p := range m {
				rel, _ := filepath.Rel(root, p)
				parts = append(parts, rel)
			}
		}
	}
	files, err := Files(root, lang, parts...)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("corpus %s has no %s files under %s", name, lang.Name(), root)
	}
	return root, files
}

// runAstGrep answers every case with the reference, one process per case,
// as many at a time as there are cores.
func runAstGrep(ctx context.Context, bin, root string, lang *language.Language, group []Case, files []string) []result {
	ref := make([]result, len(group))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, c := range group {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			args := []string{"--pattern=" + c.Pattern, "--lang=" + lang.Name()}
			if c.Strictness != "" {
				args = append(args, "--strictness="+c.Strictness)
			}
			if c.Selector != "" {
				args = append(args, "--selector="+c.Selector)
			}
			ref[i].answer = NewAnswer(keepKeys)
			ref[i].err = Run(ctx, bin, root, args, files, ref[i].answer.Add)
		}()
	}
	wg.Wait()
	return ref
}

// runLoupe answers every case with loupe, through the pipeline `loupe
// run` runs (core/search's read, screen and parse; search.Patterns'
// compile and prefilter, fixed string included; search.FindAll), with
// each file parsed once and searched with every pattern. It also checks
// that Literals is sound: a file with a match has them all.
func runLoupe(ctx context.Context, t *testing.T, root string, lang *language.Language, group []Case, files []string, st *stats) []result {
	t.Helper()
	got := make([]result, len(group))
	queries := make([]*search.Patterns, len(group))
	pats := make([]*pattern.Pattern, len(group))
	for i, c := range group {
		opts := pattern.Options{}
		src := c.Pattern
		if c.Selector != "" {
			opts.Context, opts.Selector, src = c.Pattern, c.Selector, ""
		}
		if c.Strictness != "" {
			var err error
			if opts.Strictness, err = pattern.ParseStrictness(c.Strictness); err != nil {
				t.Fatalf("%v: %v", c, err)
			}
		}
		got[i].answer = NewAnswer(keepKeys)
		queries[i] = search.NewPatterns(src, opts, true)
		pats[i], got[i].err = queries[i].Compile(ctx, lang)
	}
	var mu sync.Mutex // guards the answers
	list := make([]search.File, len(files))
	for i, f := range files {
		list[i] = search.File{Path: f, Abs: filepath.Join(root, filepath.FromSlash(f)), Lang: lang}
	}
	start := time.Now()
	var matching time.Duration
	var bytesRead int
	run, err := search.RunFiles(ctx, search.Options{Root: root}, list, search.Job[struct{}]{
		Visit: func(ctx context.Context, f search.File, tr *tree.Tree) (struct{}, int64, error) {
			began := time.Now()
			src := tr.Source()
			for i, p := range pats {
				if p == nil || !queries[i].Prefilter(lang, src) {
					continue
				}
				found, err := search.FindAll(ctx, tr, p)
				if err != nil {
					return struct{}{}, 0, err
				}
				if len(found) > 0 {
					for _, lit := range p.Literals() {
						if !bytes.Contains(src, []byte(lit)) {
							return struct{}{}, 0, fmt.Errorf("%v: %s matches but lacks the literal %q", group[i], f.Path, lit)
						}
					}
				}
				mu.Lock()
				Matches(f.Path, found, got[i].answer.Add)
				mu.Unlock()
			}
			mu.Lock()
			matching += time.Since(began)
			bytesRead += len(src)
			mu.Unlock()
			return struct{}{}, 0, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Skipped) > 0 {
		t.Fatalf("files the pipeline skipped: %v", run.Skipped)
	}
	st.mu.Lock()
	st.parse += time.Since(start) - matching
	st.match += matching
	st.bytes += bytesRead
	st.mu.Unlock()
	return got
}

// compare checks one case and reports whether both tools agree.
func compare(t *testing.T, c Case, ref, got result) bool {
	t.Helper()
	switch {
	case c.Expect == ExpectError:
		if ref.err == nil || !errors.Is(ref.err, ErrRejected) {
			t.Errorf("%v: ast-grep accepted the pattern (err %v), the case expects a rejection", c, ref.err)
			return false
		}
		if got.err == nil {
			t.Errorf("%v: ast-grep rejects the pattern (%v) but loupe compiles it", c, ref.err)
			return false
		}
		return true
	case ref.err != nil:
		t.Errorf("%v: ast-grep: %v", c, ref.err)
		return false
	case got.err != nil:
		t.Errorf("%v: loupe: %v", c, got.err)
		return false
	}
	ok := true
	if c.Expect == ExpectSome && ref.answer.Total == 0 {
		t.Errorf("%v: ast-grep found nothing; the case expects matches (mark it %%none if that is the point)", c)
		ok = false
	}
	if c.Expect == ExpectNone && ref.answer.Total != 0 {
		t.Errorf("%v: ast-grep found %d matches; the case expects none", c, ref.answer.Total)
		ok = false
	}
	diffs := Compare(ref.answer, got.answer)
	if c.Expect == ExpectDiffer {
		if len(diffs) == 0 {
			t.Errorf("%v: the tools now agree; drop %%differs and its entry in docs/differences.md", c)
		}
		return false
	}
	if len(diffs) > 0 {
		if len(diffs) > 12 {
			diffs = append(diffs[:12], "...")
		}
		t.Errorf("%v: ast-grep %d matches, loupe %d:\n  %s", c, ref.answer.Total, got.answer.Total, strings.Join(diffs, "\n  "))
		ok = false
	}
	return ok
}

// firstDiffs renders up to n keys of each side of a difference.
func firstDiffs(onlyRef, onlyGot []string, n int) string {
	var b strings.Builder
	for i, k := range onlyRef {
		if i == n {
			fmt.Fprintf(&b, "  ...\n")
			break
		}
		fmt.Fprintf(&b, "  ast-grep: %s\n", k)
	}
	for i, k := range onlyGot {
		if i == n {
			fmt.Fprintf(&b, "  ...\n")
			break
		}
		fmt.Fprintf(&b, "  loupe:    %s\n", k)
	}
	return b.String()
}
