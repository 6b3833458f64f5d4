package rule

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stringCases are the values of convert's toCase.
var stringCases = []string{"lowerCase", "upperCase", "capitalize", "camelCase", "snakeCase", "kebabCase", "pascalCase"}

// separatorNames are the values of convert's separatedBy.
var separatorNames = []string{"caseChange", "dash", "dot", "slash", "space", "underscore"}

// convertCase implements the convert transformation. Words are split at
// the given separators (all of them when seps is nil) and rejoined.
func convertCase(s, toCase string, seps []string) string {
	switch toCase {
	case "lowerCase":
		return strings.ToLower(s)
	case "upperCase":
		return strings.ToUpper(s)
	case "capitalize":
		return capitalize(s)
	case "camelCase":
		var b strings.Builder
		for i, w := range splitWords(s, seps) {
			if i == 0 {
				b.WriteString(strings.ToLower(w))
			} else {
				b.WriteString(capitalize(w))
			}
		}
		return b.String()
	case "snakeCase":
		return joinLower(splitWords(s, seps), "_")
	case "kebabCase":
		return joinLower(splitWords(s, seps), "-")
	}
	var b strings.Builder // pascalCase
	for _, w := range splitWords(s, seps) {
		b.WriteString(capitalize(w))
	}
	return b.String()
}

// capitalize upper-cases the first character and keeps the rest.
func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return strings.ToUpper(string(r)) + s[size:]
}

func joinLower(words []string, sep string) string {
	for i, w := range words {
		words[i] = strings.ToLower(w)
	}
	return strings.Join(words, sep)
}

func isUpper(r rune) bool { return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r) }

func isLower(r rune) bool { return unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r) }

type caseState uint8

const (
	caseLower      caseState = iota // after a lower-case (or no) letter
	caseOneUpper                    // after one upper-case letter
	caseMultiUpper                  // after several upper-case letters
	caseIgnore                      // case changes do not split words
)

// splitWords splits s into words at separator characters and, when
// caseChange is among seps (or seps is nil), where lower case turns to
// upper case ("fooBar" -> foo, Bar) and before the last capital of a run
// followed by lower case ("XMLHttp" -> XML, Http).
func splitWords(s string, seps []string) []string {
	state := caseLower
	var delims []rune
	if seps != nil {
		state = caseIgnore
		for _, sep := range seps {
			switch sep {
			case "caseChange":
				state = caseLower
			case "dash":
				delims = append(delims, '-')
			case "dot":
				delims = append(delims, '.')
			case "slash":
				delims = append(delims, '/')
			case "space":
				delims = append(delims, ' ')
			case "underscore":
				delims = append(delims, '_')
			}
		}
	} else {
		delims = []rune{'-', '.', '/', ' ', '_'}
	}
	var words []string
	emit := func(lo, hi int) {
		if lo < hi {
			words = append(words, s[lo:hi])
		}
	}
	left, right := 0, 0
	lastSize := 0 // byte size of the latest capital of a run
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case containsRune(delims, c):
			emit(left, right)
			left = right + 1
			right = left
			if state != caseIgnore {
				state = caseLower
			}
			continue
		case state == caseLower && isUpper(c):
			emit(left, right)
			left = right
			right = left + size
			state = caseOneUpper
			continue
		case state == caseMultiUpper && isLower(c):
			cut := right - lastSize
			emit(left, cut)
			left = cut
			right += size
			state = caseLower
			continue
		}
		right += size
		switch {
		case state == caseIgnore:
		case isLower(c):
			state = caseLower
		case state == caseLower:
			state = caseOneUpper
		default:
			state, lastSize = caseMultiUpper, size
		}
	}
	if left < right && right <= len(s) {
		emit(left, right)
	}
	return words
}

func containsRune(list []rune, r rune) bool {
	for _, x := range list {
		if x == r {
			return true
		}
	}
	return false
}
