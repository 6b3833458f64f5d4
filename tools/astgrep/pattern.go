package astgrep

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/search"
)

func compilePattern(ctx context.Context, lang *language.Language, src string) (*query, error) {
	ps := search.NewPatterns(src, pattern.Options{}, false)
	p, err := ps.Compile(ctx, lang)
	if err != nil {
		return nil, fmt.Errorf("ast_grep: invalid %s pattern: %w", lang.Name(), err)
	}
	q := &query{lang: lang, matcher: p, prefilter: ps.Prefilter}
	q.hints = func() []string { return patternHints(lang, src, p) }
	if rw, ok := callRewrites[lang.Name()]; ok && p.Root().Kind() == rw.rootKind {
		ctxSrc := fmt.Sprintf(rw.context, src)
		fps := search.NewPatterns("", pattern.Options{Context: ctxSrc, Selector: "call_expression"}, false)
		if fp, err := fps.Compile(ctx, lang); err == nil {
			q.fallback = &query{lang: lang, matcher: fp, prefilter: fps.Prefilter}
			q.fallbackHint = fmt.Sprintf("in %s the pattern alone parses as a %s and matches nothing; these matches come from the same pattern read as a call (context %q, selector call_expression)",
				lang.Name(), rw.rootKind, ctxSrc)
		}
	}
	return q, nil
}

var (
	// lowerMetaVar finds $name, $$name and $$$name: ast-grep only treats
	// uppercase names as metavariables.
	lowerMetaVar = regexp.MustCompile(`\${1,3}[a-z][A-Za-z0-9_]*`)
	// regexSyntax finds constructs that mean something in a regex but are
	// rarely code.
	regexSyntax = regexp.MustCompile(`\.\*|\.\+|\\[wdsbWDS]|\[\^|\(\?[:=!<]|^\^|[^$A-Z_]\$$`)
)

// callRewrites are the grammars that read a bare call pattern as something
// else (ast-grep then silently finds nothing), with the context that makes
// it a call.
var callRewrites = map[string]struct{ rootKind, context string }{
	"go":  {"type_conversion_expression", "func _() {\n%s\n}"},
	"c":   {"macro_type_specifier", "%s;"},
	"cpp": {"macro_type_specifier", "%s;"},
}

// patternHints explains an empty result.
func patternHints(lang *language.Language, src string, p *pattern.Pattern) []string {
	var hints []string
	if m := lowerMetaVar.FindString(src); m != "" {
		hints = append(hints, fmt.Sprintf("%s is not a metavariable (they are uppercase, e.g. $%s): it is matched as literal code",
			m, strings.ToUpper(strings.TrimLeft(m, "$"))))
	}
	if regexSyntax.MatchString(src) {
		hints = append(hints, "the pattern looks like a regular expression, but patterns are code; for a name regex use a rule such as {kind: identifier, regex: '...'}, and for text use a text search")
	}
	if rw, ok := callRewrites[lang.Name()]; ok && p.Root().Kind() == rw.rootKind {
		hints = append(hints, fmt.Sprintf("in %s this pattern parses as a %s, not a call; use a rule with pattern {context: %q, selector: call_expression}",
			lang.Name(), rw.rootKind, fmt.Sprintf(rw.context, src)))
	} else if p.HasErrors() {
		hints = append(hints, fmt.Sprintf("the pattern does not parse as complete %s code (it has syntax errors: %s); write a whole expression, statement or declaration, or use a rule with kind",
			lang.Name(), p.Root().SExp()))
	}
	return hints
}
