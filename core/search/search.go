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
		files:      files,
		out:        make([]*outcome, len(files)),
		matcherFor: matcherFor,
		matchers:   map[*language.Language]*matcherSlot{},
		window:     opts.threads() * 64,
	}
	r.cond = sync.NewCond(&r.mu)
	st := Stats{Files: len(files), Skipped: skipped}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopWatch := context.AfterFunc(runCtx, func() {
		r.mu.Lock()
		r.stopped = true
		r.cond.Broadcast()
		r.mu.Unlock()
	})
	defer stopWatch()

	threads := min(opts.threads(), max(len(files), 1))
	r.active = threads
	for range threads {
		go r.worker(runCtx)
	}
	sinkErr := r.emit(&st, sink, cancel)
	sort.SliceStable(st.Skipped, func(i, j int) bool { return pathLess(st.Skipped[i].Path, st.Skipped[j].Path) })
	switch {
	case r.fatal != nil:
		return st, r.fatal
	case sinkErr != nil && !errors.Is(sinkErr, ErrStop):
		return st, sinkErr
	case sinkErr == nil && ctx.Err() != nil:
		return st, fmt.Errorf("search: %w", ctx.Err())
	}
	return st, nil
}

// heldBudget bounds the bytes of trees that finished, undelivered files
// keep (only files with matches keep theirs); past it, workers wait for
// delivery to catch up.
const heldBudget = 32 << 20

type run struct {
	opts       *Options
	files      []File
	matcherFor MatcherFor
	window     int // how many files past the last delivered one may be taken

	mu       sync.Mutex
	cond     *sync.Cond
	out      []*outcome // per file, set when done
	next     int        // next file to take
	emitted  int        // files delivered so far
	held     int64      // bytes of the trees finished files keep until delivered
	active   int        // workers still running
	stopped  bool
	fatal    error
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
}

func (r *run) worker(ctx context.Context) {
	defer func() {
		r.mu.Lock()
		r.active--
		r.cond.Broadcast()
		r.mu.Unlock()
	}()
	for {
		r.mu.Lock()
		// Work runs ahead of delivery, in path order, so that a big file
		// does not idle the other workers; how far is bounded by files
		// and by the trees kept for delivery.
		for !r.stopped && r.next < len(r.files) && (r.next >= r.emitted+r.window || r.held > heldBudget) {
			r.cond.Wait()
		}
		if r.stopped || r.next >= len(r.files) {
			r.mu.Unlock()
			return
		}
		i := r.next
		r.next++
		r.mu.Unlock()

		o, err := r.process(ctx, r.files[i])
		r.mu.Lock()
		if err != nil && r.fatal == nil {
			r.fatal = err
			r.stopped = true
		}
		r.out[i] = o
		if o.tree != nil {
			r.held += o.tree.Bytes()
		}
		r.cond.Broadcast()
		r.mu.Unlock()
	}
}

// emit delivers finished files in order until every file is delivered or
// the search stopped and its workers are gone.
func (r *run) emit(st *Stats, sink func(FileMatches) error, cancel context.CancelFunc) error {
	var sinkErr error
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.emitted < len(r.files) {
		o := r.out[r.emitted]
		if o == nil {
			if r.stopped && r.active == 0 {
				// Skip the gap the stop left; deliver what finished after it.
				r.emitted++
				continue
			}
			r.cond.Wait()
			continue
		}
		r.out[r.emitted] = nil
		if o.tree != nil {
			r.held -= o.tree.Bytes()
		}
		f := r.files[r.emitted]
		if r.fatal != nil && sinkErr == nil {
			sinkErr = r.fatal
		}
		r.mu.Unlock()
		r.account(st, f, o)
		if len(o.matches) > 0 && sinkErr == nil {
			st.MatchedFiles++
			st.Matches += len(o.matches)
			if err := sink(FileMatches{File: f, Tree: o.tree, Matches: o.matches}); err != nil {
				sinkErr = err
				cancel()
			}
		}
		r.mu.Lock()
		r.emitted++
		r.cond.Broadcast()
	}
	return sinkErr
}

func (r *run) account(st *Stats, f File, o *outcome) {
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

// process reads, screens, parses and matches one file. The error is
// fatal to the search (a matcher that failed to build).
func (r *run) process(ctx context.Context, f File) (*outcome, error) {
	m, err := r.matcher(f.Lang)
	if err != nil {
		return &outcome{kind: outAbandoned}, err
	}
	if m == nil {
		return &outcome{kind: outNoMatcher}, nil
	}
	src, err := os.ReadFile(f.Abs)
	if err != nil {
		return skipped(f, SkipUnreadable, unwrapPathErr(err)), nil
	}
	if o := screen(f, src, r.opts.MaxFileSize); o != nil {
		return o, nil
	}
	if p := r.opts.Prefilter; p != nil && !p(f.Lang, src) {
		return &outcome{kind: outPrefiltered}, nil
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
			return &outcome{kind: outAbandoned}, nil
		}
		return skipped(f, SkipParse, err), nil
	}
	ms, err := FindAll(ctx, t, m)
	if err != nil {
		return &outcome{kind: outAbandoned}, nil
	}
	o := &outcome{kind: outSearched, hit: hit, matches: ms}
	if len(ms) > 0 {
		o.tree = t
	}
	return o, nil
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
