package pattern

import (
	"strings"
	"unicode/utf8"
)

// metaVar is the metavariable a pattern leaf spells, as ast-grep reads it.
type metaVar uint8

const (
	notMetaVar   metaVar = iota
	capture              // $A (named) or $$A (any node)
	dropped              // $_ or $_X (named) or $$_X (any node): matches, binds nothing
	multiple             // $$$ or $$$_X: any run of nodes, binds nothing
	multiCapture         // $$$A: any run of nodes, bound to A
)

// preprocess replaces the $ of metavariables with the language's expando
// character so that the grammar reads them as identifiers. Like ast-grep it
// replaces a run of $ only when a capital letter or _ follows it, or when
// the run is exactly three long ($$$); other dollars stay as they are.
func preprocess(src string, expando rune) string {
	if expando == '$' || !strings.Contains(src, "$") {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 8)
	run := 0
	flush := func(next rune, atEnd bool) {
		sigil := '$'
		if run == 3 || (!atEnd && isMetaVarStart(next)) {
			sigil = expando
		}
		for range run {
			b.WriteRune(sigil)
		}
		run = 0
	}
	for _, r := range src {
		if r == '$' {
			run++
			continue
		}
		flush(r, false)
		b.WriteRune(r)
	}
	flush(0, true)
	return b.String()
}

func isMetaVarStart(r rune) bool { return r >= 'A' && r <= 'Z' || r == '_' }

func isMetaVarChar(r rune) bool { return isMetaVarStart(r) || r >= '0' && r <= '9' }

func allMetaVarChars(s string) bool {
	for _, r := range s {
		if !isMetaVarChar(r) {
			return false
		}
	}
	return true
}

// parseMetaVar reads the text of a pattern node as a metavariable spelt
// with sigil (the expando character). It returns the kind, the name (empty
// for the non-capturing kinds) and, for single metavariables, whether only
// named nodes may match.
func parseMetaVar(text string, sigil rune) (kind metaVar, name string, named bool) {
	w := utf8.RuneLen(sigil)
	if w < 0 || !strings.HasPrefix(text, string(sigil)) {
		return notMetaVar, "", false
	}
	three := strings.Repeat(string(sigil), 3)
	if text == three {
		return multiple, "", false
	}
	if rest, ok := strings.CutPrefix(text, three); ok {
		switch {
		case !allMetaVarChars(rest):
			return notMetaVar, "", false
		case rest[0] == '_':
			return multiple, "", false
		}
		return multiCapture, rest, false
	}
	rest := text[w:]
	named = true
	if r, ok := strings.CutPrefix(rest, string(sigil)); ok {
		rest, named = r, false
	}
	if rest == "" || !isMetaVarStart(rune(rest[0])) || !allMetaVarChars(rest) {
		return notMetaVar, "", false
	}
	if rest[0] == '_' {
		return dropped, "", named
	}
	return capture, rest, named
}
