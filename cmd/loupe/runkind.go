package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/search"
)

// exitBadSelector is ast-grep's status for a --kind selector that does
// not compile.
const exitBadSelector = 8

// runQuery is what `loupe run` searches with: a pattern (--pattern) or a
// kind selector (--kind), compiled at most once for each language.
type runQuery struct {
	patterns *search.Patterns // nil with --kind
	kinds    *kindQuery       // nil with --pattern
}

// compile returns the query compiled for lang.
func (q runQuery) compile(ctx context.Context, lang *language.Language) (match.Matcher, error) {
	if q.kinds != nil {
		return q.kinds.compile(ctx, lang)
	}
	p, err := q.patterns.Compile(ctx, lang)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// matcherFor is the search's matcher source; a language the query does
// not compile for has no matcher and its files are passed over, as
// ast-grep passes them over.
func (q runQuery) matcherFor(ctx context.Context) search.MatcherFor {
	if q.kinds != nil {
		return func(lang *language.Language) (match.Matcher, error) {
			c, err := q.kinds.compile(ctx, lang)
			if err != nil {
				return nil, nil
			}
			return c, nil
		}
	}
	return q.patterns.MatcherFor(ctx)
}

// prefilter rules files out before they are parsed: a pattern's literals
// must be in them; a kind selector has no text to require.
func (q runQuery) prefilter() search.Prefilter {
	if q.kinds != nil {
		return nil
	}
	return q.patterns.Prefilter
}

// kindQuery is the --kind selector compiled, at most once, for each
// language a search meets. It is safe for concurrent use.
type kindQuery struct {
	src    string
	mu     sync.Mutex
	byLang map[*language.Language]*compiledKind
}

type compiledKind struct {
	once sync.Once
	core *rule.Core
	err  error
}

func newKindQuery(src string) *kindQuery {
	return &kindQuery{src: src, byLang: map[*language.Language]*compiledKind{}}
}

func (k *kindQuery) compile(ctx context.Context, lang *language.Language) (*rule.Core, error) {
	k.mu.Lock()
	c, ok := k.byLang[lang]
	if !ok {
		c = &compiledKind{}
		k.byLang[lang] = c
	}
	k.mu.Unlock()
	c.once.Do(func() { c.core, c.err = rule.ParseKind(ctx, lang, k.src) })
	return c.core, c.err
}

// badSelector reports a --kind selector that does not compile for the
// --lang language as ast-grep reports it (its message, help, link and status),
// with loupe's own reason as the cause.
func (e *env) badSelector(err error) int {
	e.guidedError(exitBadSelector, "Cannot parse kind as a valid selector.",
		"Please refer to ast-grep's ESQuery selector guide.",
		"https://ast-grep.github.io/reference/rule/esquery.html")
	fmt.Fprintf(e.stderr, "✖ Caused by\n╰▻ %v\n\n", err)
	return exitBadSelector
}
