package filetools

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/loupe-dev/loupe/internal/regexlimit"
)

// compileRegex compiles an agent's pattern with Go's RE2 syntax; an
// invalid one is an *Error that says what is wrong and how to write it.
func compileRegex(tool, pattern string, flags string) (*regexp.Regexp, error) {
	re, err := regexlimit.Compile(flags + pattern)
	if err == nil {
		return re, nil
	}
	msg := err.Error()
	var se *syntax.Error
	if errors.As(err, &se) {
		msg = se.Code.String()
		if se.Expr != "" {
			msg += ": `" + se.Expr + "`"
		}
	}
	return nil, &Error{Tool: tool, Msg: "invalid regular expression (" + msg + ")", Hint: regexHint(pattern), Err: err}
}

// regexHint suggests a valid pattern for an invalid one, naming what RE2
// lacks when the pattern uses it.
func regexHint(p string) string {
	var hints []string
	switch {
	case strings.Contains(p, "(?=") || strings.Contains(p, "(?!"):
		hints = append(hints, "Go's RE2 syntax has no lookahead ((?=...), (?!...)): match the following text itself, or search twice")
	case strings.Contains(p, "(?<=") || strings.Contains(p, "(?<!"):
		hints = append(hints, "Go's RE2 syntax has no lookbehind ((?<=...), (?<!...)): match the preceding text itself, or search twice")
	}
	if backref.MatchString(p) {
		hints = append(hints, `RE2 has no backreferences (\1, \k<name>): match the repeated text explicitly`)
	}
	if strings.Contains(p, "(?>") || possessive.MatchString(p) {
		hints = append(hints, "RE2 has no atomic groups or possessive quantifiers ((?>...), *+, ++): drop them, RE2 never backtracks anyway")
	}
	hints = append(hints, `Escape characters meant literally with a backslash (\( \) \[ \{ \. \* \+ \? \|) or set literal=true to search for the text as written. `+
		`RE2 syntax as in Go's regexp package, e.g. 'func\s+\w+\(', 'TODO|FIXME', '(?i)error', '^import .*from'`)
	return strings.Join(hints, ". ")
}

var (
	backref    = regexp.MustCompile(`\\[1-9]|\\k<`)
	possessive = regexp.MustCompile(`[*+?}]\+`)
)
