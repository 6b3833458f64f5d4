package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// binaryProbe is how much of a file is looked at for a NUL byte.
const binaryProbe = 8 << 10

// FileMatches is the matches of one file, in document order.
type FileMatches struct {
	File    File
	Tree    *tree.Tree
	Matches []Match
}

// Stats summarises a search.
type Stats struct {
	Files        int       // files the walk selected
	Searched     int       // files parsed (or found in the cache) and matched
	Prefiltered  int       // files the prefilter ruled out
	Empty        int       // empty files, passed over as ast-grep does
	NoMatcher    int       // files of a language the matcher does not cover
	CacheHits    int       // searched files whose tree came from the cache
	MatchedFiles int       // files with at least one match
	Matches      int       // matches delivered to the sink
	Skipped      []Skipped // files not searched, with the reason, by path
}

// ErrStop, returned by a sink, ends a search early; Search then returns
// a nil error.
var ErrStop = errors.New("search: stop")

// MatcherFor returns the matcher to run on files of a language. It is
// called at most once per language per search. Returning (nil, nil)
// passes over that language's files (counted in Stats.NoMatcher); an
// error ends the search with that error.
type MatcherFor func(*language.Language) (match.Matcher, error)

// Search walks the files opts selects and calls sink, from one goroutine
// at a time, with each file that has matches, in File.Path order with the
// matches in document order, whatever the scheduling. Files are read,
// parsed and matched on opts.Threads goroutines.
//
// When ctx is done, Search stops promptly: parses and matching in flight
// are abandoned, the files already finished are still delivered in order
// (the ones not finished are left out), and the returned error wraps
// ctx's error. A sink error ends the search and is returned, except
// ErrStop, which ends it without error.
func Search(ctx context.Context, opts Options, matcherFor MatcherFor, sink func(FileMatches) error) (Stats, error) {
	files, skipped, err := Files(ctx, opts)
	if err != nil {
		return Stats{}, err
	}
	r := &run{
		opts:       &opts,
		matcherFor: matcherFor,
		matchers:   map[*language.Language]*matcherSlot{},
	}
	st := Stats{Files: len(files), Skipped: skipped}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var fatal, sinkErr error
	work := func(ctx context.Context, i int) (*outcome, int64) {
		o := r.process(ctx, files[i])
		if o.err != nil {
			cancel() // stop the other workers now; the error is reported in order
		}
		// Only files with matches keep their tree until delivery.
		if o.tree != nil {
			return o, o.tree.Bytes()
		}
		return o, 0
	}
	deliver := func(i int, o *outcome) bool {
		account(&st, o)
		if o.err != nil && fatal == nil {
			fatal = o.err
		}
		if len(o.matches) > 0 && fatal == nil && sinkErr == nil {
			st.MatchedFiles++
			st.Matches += len(o.matches)
			sinkErr = sink(FileMatches{File: files[i], Tree: o.tree, Matches: o.matches})
		}
		return fatal == nil && sinkErr == nil
	}
	Ordered(runCtx, len(files), OrderedLimits{Threads: opts.threads()}, work, deliver)
	sort.SliceStable(st.Skipped, func(i, j int) bool { return pathLess(st.Skipped[i].Path, st.Skipped[j].Path) })
	switch {
	case fatal != nil:
		return st, fatal
	case sinkErr != nil && !errors.Is(sinkErr, ErrStop):
		return st, sinkErr
	case sinkErr == nil && ctx.Err() != nil:
		return st, fmt.Errorf("search: %w", ctx.Err())
	}
	return st, nil
}

// run is what one search's workers share: its options and the matcher
// built for each language.
type run struct {
	opts       *Options
	matcherFor MatcherFor

	mu       sync.Mutex
	matchers map[*language.Language]*matcherSlot
}

type matcherSlot struct {
	once sync.Once
	m    match.Matcher
	err  error
}

type outcomeKind uint8

const (
	outSearched outcomeKind = iota
	outSkipped
	outPrefiltered
	outEmpty
	outNoMatcher
	outAbandoned // stopped before finishing
)

type outcome struct {
	kind    outcomeKind
	hit     bool
	skip    Skipped
	matches []Match
	tree    *tree.Tree
	err     error // fatal to the search: a matcher that failed to build
}

func account(st *Stats, o *outcome) {
	switch o.kind {
	case outSearched:
		st.Searched++
		if o.hit {
			st.CacheHits++
		}
	case outSkipped:
		st.Skipped = append(st.Skipped, o.skip)
	case outPrefiltered:
		st.Prefiltered++
	case outEmpty:
		st.Empty++
	case outNoMatcher:
		st.NoMatcher++
	}
}

func (r *run) matcher(lang *language.Language) (match.Matcher, error) {
	r.mu.Lock()
	s, ok := r.matchers[lang]
	if !ok {
		s = &matcherSlot{}
		r.matchers[lang] = s
	}
	r.mu.Unlock()
	s.once.Do(func() {
		s.m, s.err = r.matcherFor(lang)
		if s.err != nil {
			s.err = fmt.Errorf("%s: %w", lang.Name(), s.err)
		}
	})
	return s.m, s.err
}

// process reads, screens, parses and matches one file.
func (r *run) process(ctx context.Context, f File) *outcome {
	m, err := r.matcher(f.Lang)
	if err != nil {
		return &outcome{kind: outAbandoned, err: err}
	}
	if m == nil {
		return &outcome{kind: outNoMatcher}
	}
	src, err := os.ReadFile(f.Abs)
	if err != nil {
		return skipped(f, SkipUnreadable, unwrapPathErr(err))
	}
	if o := screen(f, src, r.opts.MaxFileSize); o != nil {
		return o
	}
	if p := r.opts.Prefilter; p != nil && !p(f.Lang, src) {
		return &outcome{kind: outPrefiltered}
	}
	var (
		t   *tree.Tree
		hit bool
	)
	if r.opts.Cache != nil {
		t, hit, err = r.opts.Cache.Parse(ctx, f.Lang, src)
	} else {
		t, err = f.Lang.Parse(ctx, src)
	}
	if err != nil {
		if ctx.Err() != nil {
			return &outcome{kind: outAbandoned}
		}
		return skipped(f, SkipParse, err)
	}
	ms, err := FindAll(ctx, t, m)
	if err != nil {
		return &outcome{kind: outAbandoned}
	}
	o := &outcome{kind: outSearched, hit: hit, matches: ms}
	if len(ms) > 0 {
		o.tree = t
	}
	return o
}

// screen passes over empty files and skips binary, oversized and
// non-UTF-8 ones; nil means the file is fit to parse.
func screen(f File, src []byte, maxSize int64) *outcome {
	switch {
	case len(src) == 0:
		return &outcome{kind: outEmpty}
	case maxSize > 0 && int64(len(src)) > maxSize:
		return skipped(f, SkipTooLarge, nil)
	case bytes.IndexByte(src[:min(len(src), binaryProbe)], 0) >= 0:
		return skipped(f, SkipBinary, nil)
	case !utf8.Valid(src):
		return skipped(f, SkipEncoding, nil)
	}
	return nil
}

func skipped(f File, r SkipReason, err error) *outcome {
	return &outcome{kind: outSkipped, skip: Skipped{Path: f.Path, Reason: r, Err: err}}
}
