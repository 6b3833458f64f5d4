package search

import (
	"context"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
)

// FindFile returns the matches in a file of lang whose tree is t, each
// with its language: matcherFor(lang)'s in t, then, for each region of
// injected code in it (language.Inject: HTML's scripts and styles,
// Markdown's fences, languageInjections), matcherFor(its language)'s
// in the region's tree, region after region, as ast-grep reports them.
// With only set (a search's --lang), only code of that language is
// searched: t itself when lang is only, else its regions of only. A
// language matcherFor gives no matcher is passed over; without only, so
// are the regions of a file whose own language has none (ast-grep's run
// passes such a file over), but for the hosts loupe adds
// (language.InjectsAlone).
func FindFile(ctx context.Context, lang, only *language.Language, t *tree.Tree, matcherFor MatcherFor) ([]Match, error) {
	var out []Match
	if only == nil || only == lang {
		m, err := matcherFor(lang)
		if err != nil {
			return nil, err
		}
		if m != nil {
			if out, err = FindAll(ctx, t, m); err != nil {
				return nil, err
			}
			for i := range out {
				out[i].Lang = lang
			}
		}
		if only == lang || m == nil && !lang.InjectsAlone() {
			return out, nil
		}
	}
	var ferr error
	injected, err := lang.Inject(ctx, t, func(l *language.Language) bool {
		if only != nil && l != only {
			return false
		}
		m, err := matcherFor(l)
		if err != nil && ferr == nil {
			ferr = err
		}
		return m != nil
	})
	if ferr != nil {
		return nil, ferr
	}
	if err != nil {
		return nil, err
	}
	for _, in := range injected {
		m, _ := matcherFor(in.Lang)
		found, err := FindAll(ctx, in.Tree, m)
		if err != nil {
			return nil, err
		}
		for i := range found {
			found[i].Lang = in.Lang
		}
		out = append(out, found...)
	}
	return out, nil
}

// Wants reports whether a file of lang is worth parsing for a search of
// the languages ok accepts (only, when set, being the search's
// --lang): its own language, or one that may be injected in it.
func Wants(lang, only *language.Language, ok func(*language.Language) (bool, error)) (bool, error) {
	if only == nil || only == lang {
		if yes, err := ok(lang); yes || err != nil || only == lang {
			return yes, err
		}
	}
	if only != nil {
		if !lang.Injects(only) {
			return false, nil
		}
		return ok(only)
	}
	langs, any := lang.Injectable()
	if any {
		return true, nil
	}
	for _, l := range langs {
		if yes, err := ok(l); yes || err != nil {
			return yes, err
		}
	}
	return false, nil
}

// wantsFile reports whether a search with matcherFor (of only, when set)
// parses a file of lang: as FindFile searches it.
func wantsFile(lang, only *language.Language, matcherFor MatcherFor) (bool, error) {
	has := func(l *language.Language) (bool, error) {
		m, err := matcherFor(l)
		return m != nil, err
	}
	if only == nil && !lang.InjectsAlone() {
		return has(lang)
	}
	return Wants(lang, only, has)
}

// admits is the prefilter p (nil: none) of a file of lang whose code, or
// whose injected code (for a search of only, when set), may match: p
// admits it as code of one of those languages (of any language, for a
// host whose regions may be of any), and its text may hold code of
// them (language.MayHold: a Markdown file needs a fence of one).
func admits(p Prefilter, lang, only *language.Language, src []byte) bool {
	pass := func(l *language.Language) bool { return p == nil || p(l, src) }
	if only == nil || only == lang {
		if pass(lang) {
			return true
		}
		if only == lang {
			return false
		}
	}
	if !lang.MayHold(src, only) {
		return false
	}
	if only != nil {
		return lang.Injects(only) && pass(only)
	}
	langs, any := lang.Injectable()
	if any {
		langs = language.All()
	}
	for _, l := range langs {
		if pass(l) {
			return true
		}
	}
	return false
}
