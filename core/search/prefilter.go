package search

import (
	"bytes"
	"sort"

	"github.com/loupe-dev/loupe/core/language"
)

// Prefilter decides from a file's raw bytes whether it can hold a match.
// Returning false rules the file out before it is parsed, so it must
// never return false for a file that could match.
type Prefilter func(lang *language.Language, src []byte) bool

// RequireAll returns a Prefilter passing only files that contain every
// one of the literal strings, e.g. the identifiers and keywords a pattern
// must match. Empty strings are ignored; with none left it passes every
// file. Longer literals, usually rarer, are checked first.
func RequireAll(literals ...string) Prefilter {
	lits := make([][]byte, 0, len(literals))
	seen := map[string]bool{}
	for _, l := range literals {
		if l == "" || seen[l] {
			continue
		}
		seen[l] = true
		lits = append(lits, []byte(l))
	}
	if len(lits) == 0 {
		return func(*language.Language, []byte) bool { return true }
	}
	sort.SliceStable(lits, func(i, j int) bool { return len(lits[i]) > len(lits[j]) })
	return func(_ *language.Language, src []byte) bool {
		for _, l := range lits {
			if !bytes.Contains(src, l) {
				return false
			}
		}
		return true
	}
}

// RequireAllByLang returns a Prefilter that applies RequireAll with the
// literals of each file's language (a pattern compiles differently per
// language); languages without an entry pass.
func RequireAllByLang(literals map[*language.Language][]string) Prefilter {
	filters := make(map[*language.Language]Prefilter, len(literals))
	for l, lits := range literals {
		filters[l] = RequireAll(lits...)
	}
	return func(lang *language.Language, src []byte) bool {
		if f, ok := filters[lang]; ok {
			return f(lang, src)
		}
		return true
	}
}
