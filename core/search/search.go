package search

import (
	"context"
	"fmt"
	"sync"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// FileMatches is the matches of one file, in document order.
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
// order with the matches in document order, whatever the scheduling.
// A sink error ends the search and is returned, except ErrStop, which
// ends it without error. Cancellation is as in Run.
func Search(ctx context.Context, opts Options, matcherFor MatcherFor, sink func(FileMatches) error) (Stats, error) {
	ms := &matchers{matcherFor: matcherFor, byLang: map[*language.Language]*matcherSlot{}}
	var matchedFiles, matches int
	st, err := Run(ctx, opts, Job[*FileMatches]{
		Want: func(f File) (bool, error) {
			m, err := ms.get(f.Lang)
			return m != nil, err
		},
		Visit: func(ctx context.Context, f File, t *tree.Tree) (*FileMatches, int64, error) {
			m, _ := ms.get(f.Lang)
			found, err := FindAll(ctx, t, m)
			if err != nil || len(found) == 0 {
				return nil, 0, err
			}
			// Only files with matches keep their tree until delivery.
			return &FileMatches{File: f, Tree: t, Matches: found}, t.Bytes(), nil
		},
		Deliver: func(_ File, fm *FileMatches) error {
			if fm == nil {
				return nil
			}
			matchedFiles++
			matches += len(fm.Matches)
			return sink(*fm)
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
