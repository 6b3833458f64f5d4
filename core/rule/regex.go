package rule

import (
	"errors"
	"regexp"
	"strings"

	"github.com/loupe-dev/loupe/internal/regexlimit"
)

// ast-grep rules use Rust's regex syntax; loupe runs them on Go's RE2.
// compileRegex bridges the differences it can: Rust's \d, \w and \s are
// Unicode-aware (Go's are ASCII) and are rewritten to Unicode classes, and
// Rust's \u escapes become \x escapes. Syntax RE2 would misread instead of
// rejecting (class set operations, nested classes) is reported as an
// error, and so are Rust's word-boundary forms Go would read as literals
// (\<, \>, \b{start}). docs/differences.md lists what remains different.
// The translation is compiled under regexlimit's bounds on its size.

const (
	uniWord  = `\p{L}\p{M}\p{Nd}\p{Pc}`
	uniSpace = `\t-\r\x{85}\p{Z}`
)

func compileRegex(src string) (*regexp.Regexp, error) {
	translated, err := translateRegex(src)
	if err != nil {
		return nil, err
	}
	return regexlimit.Compile(translated)
}

func translateRegex(src string) (string, error) {
	var b strings.Builder
	inClass := false
	classStart := false // just after "[" or "[^": a "]" here is literal
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\\' {
			if i+1 >= len(src) {
				return "", errors.New("trailing backslash")
			}
			e := src[i+1]
			i++
			classStart = false
			switch e {
			case 'd':
				b.WriteString(`\p{Nd}`)
			case 'D':
				b.WriteString(`\P{Nd}`)
			case 'w':
				if inClass {
					b.WriteString(uniWord)
				} else {
					b.WriteString("[" + uniWord + "]")
				}
			case 'W':
				if inClass {
					b.WriteString(`\W`)
				} else {
					b.WriteString("[^" + uniWord + "]")
				}
			case 's':
				if inClass {
					b.WriteString(uniSpace)
				} else {
					b.WriteString("[" + uniSpace + "]")
				}
			case 'S':
				if inClass {
					b.WriteString(`\S`)
				} else {
					b.WriteString("[^" + uniSpace + "]")
				}
			case '<', '>':
				return "", errors.New(`the word-boundary assertions \< and \> are not supported`)
			case 'b', 'B':
				if i+1 < len(src) && src[i+1] == '{' {
					return "", errors.New(`word-boundary assertions \b{...} are not supported`)
				}
				b.WriteByte('\\')
				b.WriteByte(e)
			case 'u', 'U':
				hex, n, err := unicodeEscape(src[i+1:], e)
				if err != nil {
					return "", err
				}
				b.WriteString(`\x{` + hex + `}`)
				i += n
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			continue
		}
		if !inClass {
			if c == '[' {
				inClass, classStart = true, true
				b.WriteByte(c)
				if i+1 < len(src) && src[i+1] == '^' {
					b.WriteByte('^')
					i++
				}
				continue
			}
			b.WriteByte(c)
			continue
		}
		switch {
		case c == ']' && !classStart:
			inClass = false
		case c == '[':
			if j := strings.Index(src[i:], ":]"); j > 0 && strings.HasPrefix(src[i:], "[:") {
				b.WriteString(src[i : i+j+2])
				i += j + 1
				classStart = false
				continue
			}
			return "", errors.New("nested character classes are not supported")
		case (c == '&' || c == '-' || c == '~') && i+1 < len(src) && src[i+1] == c && !classStart:
			if c != '-' || i+2 < len(src) && src[i+2] != ']' {
				return "", errors.New("character class set operations (&&, --, ~~) are not supported")
			}
		}
		classStart = false
		b.WriteByte(c)
	}
	return b.String(), nil
}

// unicodeEscape reads the digits of a Rust \u or \U escape: \u{X..},
// \uXXXX or \UXXXXXXXX. It returns the hex digits and how many bytes of
// rest they used.
func unicodeEscape(rest string, e byte) (string, int, error) {
	if strings.HasPrefix(rest, "{") {
		end := strings.IndexByte(rest, '}')
		if end < 2 || !isHex(rest[1:end]) {
			return "", 0, errors.New("invalid \\" + string(e) + "{...} escape")
		}
		return rest[1:end], end + 1, nil
	}
	n := 4
	if e == 'U' {
		n = 8
	}
	if len(rest) < n || !isHex(rest[:n]) {
		return "", 0, errors.New("invalid \\" + string(e) + " escape")
	}
	return rest[:n], n, nil
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}
