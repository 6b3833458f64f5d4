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

// RequireWords is RequireAll(literals...) where each of words (which
// should be among the literals) must also occur as a whole word at least
// once: where it starts or ends with an ASCII letter, digit or '_', not
// right after or before another such byte. It is the filter for a
// pattern's identifiers (pattern.Pattern.WordLiterals), which a match
// holds as whole tokens: `err` only inside `error` or `stderr` rules a
// file out.
func RequireWords(literals, words []string) Prefilter {
	all := RequireAll(literals...)
	var ws [][]byte
	for _, w := range words {
		if w != "" && (isWordByte(w[0]) || isWordByte(w[len(w)-1])) {
			ws = append(ws, []byte(w))
		}
	}
	if len(ws) == 0 {
		return all
	}
	return func(lang *language.Language, src []byte) bool {
		if !all(lang, src) {
			return false
		}
		for _, w := range ws {
			if !containsWord(src, w) {
				return false
			}
		}
		return true
	}
}

// containsWord reports whether w occurs in src with no word byte joined to
// it on a side where w itself ends in a word byte.
func containsWord(src, w []byte) bool {
	checkStart, checkEnd := isWordByte(w[0]), isWordByte(w[len(w)-1])
	for off := 0; ; {
		i := bytes.Index(src[off:], w)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(w)
		if (!checkStart || start == 0 || !isWordByte(src[start-1])) &&
			(!checkEnd || end == len(src) || !isWordByte(src[end])) {
			return true
		}
		off = start + 1
	}
}

// isWordByte reports an ASCII letter, digit or '_'. Other bytes, those of
// non-ASCII letters included, count as boundaries, which can only let more
// files through.
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
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
