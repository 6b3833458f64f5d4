package search

import (
	"context"
	"fmt"
	"sync"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// FileMatches is the matches of one file: those in its own code, in
// document order, then those in each region of injected code, region
// after region (see FindFile). A match's node belongs to Tree, or, in
// injected code, to its region's tree, over the same source.
type FileMatches struct {
	File    File
	Tree    *tree.Tree
	Matches []Match
}

// MatcherFor returns the matcher to run on files of a language. It is
// called at most once per language per search. Returning (nil, nil)
// passes over that language's files (counted in Stats.NoMatcher); an
// error ends the search with that error.
type MatcherFor func(*language.Language) (match.Matcher, error)

// Search is the pipeline (see Job) with a matcher: it calls sink, from
// one goroutine at a time, with each file that has matches, in File.Path
// order with the matches as FileMatches orders them, whatever the
// scheduling. The code injected in files is searched too, in its own
// language (Options.Injections is set; see FindFile). A sink error ends
// the search and is returned, except ErrStop, which ends it without
// error. Cancellation is as in Run.
func Search(ctx context.Context, opts Options, matcherFor MatcherFor, sink func(FileMatches) error) (Stats, error) {
	// Only files with matches keep their tree until delivery.
	keep := func(fm FileMatches) (FileMatches, int64, error) { return fm, fm.Tree.Bytes(), nil }
	opts.Recycle = false
	return SearchRender(ctx, opts, matcherFor, keep, func(_ File, fm FileMatches) error { return sink(fm) })
}

// SearchRender is Search where render turns each file's matches into a
// value on the worker goroutine that found them, returning it and the
// bytes it holds until delivered: rendering runs in parallel, and a file's
// tree can be let go before the file's turn comes. sink receives the
// values of files with matches in File.Path order, from one goroutine at
// a time. An error from render or sink ends the search (ErrStop from sink
// without error).
func SearchRender[T any](ctx context.Context, opts Options, matcherFor MatcherFor,
	render func(FileMatches) (T, int64, error), sink func(File, T) error) (Stats, error) {
	ms := &matchers{matcherFor: matcherFor, byLang: map[*language.Language]*matcherSlot{}}
	opts.Injections = true
	type rendered struct {
		v       T
		matches int
	}
	var matchedFiles, matches int
	st, err := Run(ctx, opts, Job[*rendered]{
		Want: func(f File) (bool, error) { return wantsFile(f.Lang, opts.Lang, ms.get) },
		Visit: func(ctx context.Context, f File, t *tree.Tree) (*rendered, int64, error) {
			found, err := FindFile(ctx, f.Lang, opts.Lang, t, ms.get)
			if err != nil || len(found) == 0 {
				return nil, 0, err
			}
			v, cost, err := render(FileMatches{File: f, Tree: t, Matches: found})
			if err != nil {
				return nil, 0, err
			}
			return &rendered{v: v, matches: len(found)}, cost, nil
		},
		Deliver: func(f File, r *rendered) error {
			if r == nil {
				return nil
			}
			matchedFiles++
			matches += r.matches
			return sink(f, r.v)
		},
	})
	st.MatchedFiles, st.Matches = matchedFiles, matches
	return st, err
}

// matchers builds each language's matcher once per search.
type matchers struct {
	matcherFor MatcherFor
	mu         sync.Mutex
	byLang     map[*language.Language]*matcherSlot
}

type matcherSlot struct {
	once sync.Once
	m    match.Matcher
	err  error
}

func (r *matchers) get(lang *language.Language) (match.Matcher, error) {
	r.mu.Lock()
	s, ok := r.byLang[lang]
	if !ok {
		s = &matcherSlot{}
		r.byLang[lang] = s
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
