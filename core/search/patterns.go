package search

import (
	"context"
	"sync"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/pattern"
)

// Patterns is one pattern compiled, at most once, for each language a
// search meets, with its prefilter: the query that `loupe run` and the
// ast_grep tool both search with. It is safe for concurrent use.
type Patterns struct {
	src  string
	opts pattern.Options
	// fixed also requires the pattern's fixed string before a file is
	// parsed, as ast-grep's run does.
	fixed bool

	mu     sync.Mutex
	byLang map[*language.Language]*compiledPattern
}

type compiledPattern struct {
	once   sync.Once
	p      *pattern.Pattern
	err    error
	filter Prefilter
}

// NewPatterns returns the query of pattern src with opts (a selector
// goes with opts.Context, src then being ignored by pattern.Compile).
// With fixed, a file must also contain the pattern's fixed string to be
// parsed, which is how `ast-grep run` selects files (it can leave out a
// file that matches; see pattern.Pattern.FixedString): `loupe run` sets
// it to agree with ast-grep, the ast_grep tool does not.
func NewPatterns(src string, opts pattern.Options, fixed bool) *Patterns {
	return &Patterns{src: src, opts: opts, fixed: fixed, byLang: map[*language.Language]*compiledPattern{}}
}

// Compile returns the pattern compiled for lang.
func (ps *Patterns) Compile(ctx context.Context, lang *language.Language) (*pattern.Pattern, error) {
	c := ps.slot(lang)
	c.once.Do(func() {
		c.p, c.err = pattern.Compile(ctx, lang, ps.src, ps.opts)
		if c.err != nil {
			return
		}
		lits := c.p.Literals()
		if ps.fixed {
			lits = append([]string{c.p.FixedString()}, lits...)
		}
		c.filter = RequireWords(lits, c.p.WordLiterals())
	})
	return c.p, c.err
}

func (ps *Patterns) slot(lang *language.Language) *compiledPattern {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	c, ok := ps.byLang[lang]
	if !ok {
		c = &compiledPattern{}
		ps.byLang[lang] = c
	}
	return c
}

// MatcherFor is the search's matcher source: the pattern compiled for
// each language, and no matcher (the language's files passed over, as
// ast-grep passes them over) where it does not compile.
func (ps *Patterns) MatcherFor(ctx context.Context) MatcherFor {
	return func(lang *language.Language) (match.Matcher, error) {
		p, err := ps.Compile(ctx, lang)
		if err != nil {
			return nil, nil
		}
		return p, nil
	}
}

// Prefilter rules out a file that lacks one of the pattern's literals
// (and, with fixed, its fixed string), or holds one of its identifiers
// only inside longer words. A search compiles a language's
// pattern before it filters that language's files.
func (ps *Patterns) Prefilter(lang *language.Language, src []byte) bool {
	c := ps.slot(lang)
	return c.filter == nil || c.filter(lang, src)
}
