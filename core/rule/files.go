package rule

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/loupe-dev/loupe/internal/regexlimit"
)

// A rule's `files` and `ignores` globs use ast-grep's (globset's default)
// semantics, which differ from ignore-file globs: `*` and `?` also match
// `/`, so `*.ts` matches `src/a.ts`. `**/` matches any (or no) leading
// folders, `/**` anything below, `{a,b}` alternates, `[ab]`, `[!ab]` and
// `[^ab]` are classes, and a backslash escapes.

// compileFileGlob compiles a rule file glob to an anchored expression.
func compileFileGlob(g FileGlob) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("(?s)")
	if g.CaseInsensitive {
		b.WriteString("(?i)")
	}
	b.WriteString("^")
	src := g.Glob
	depth := 0 // open {
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\\':
			if i+1 >= len(src) {
				return nil, fmt.Errorf("glob %q: dangling escape", src)
			}
			i++
			b.WriteString(regexp.QuoteMeta(src[i : i+1]))
		case '*':
			if i+1 < len(src) && src[i+1] == '*' {
				atStart := i == 0 || src[i-1] == '/'
				i++
				switch {
				case atStart && i+1 < len(src) && src[i+1] == '/':
					i++
					b.WriteString("(?:.*/)?")
				default:
					b.WriteString(".*")
				}
				continue
			}
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			end := i + 1
			if end < len(src) && (src[end] == '!' || src[end] == '^') {
				end++
			}
			if end < len(src) && src[end] == ']' {
				end++
			}
			for end < len(src) && src[end] != ']' {
				end++
			}
			if end >= len(src) {
				return nil, fmt.Errorf("glob %q: unclosed character class", src)
			}
			class := src[i+1 : end]
			b.WriteByte('[')
			if class != "" && (class[0] == '!' || class[0] == '^') {
				b.WriteByte('^')
				class = class[1:]
			}
			for _, r := range class {
				if r == '\\' || r == '[' || r == ']' || r == '^' {
					b.WriteByte('\\')
				}
				b.WriteRune(r)
			}
			b.WriteByte(']')
			i = end
		case '{':
			if depth > 0 {
				return nil, fmt.Errorf("glob %q: nested alternations are not supported", src)
			}
			depth++
			b.WriteString("(?:")
		case '}':
			if depth == 0 {
				b.WriteString(`\}`)
				continue
			}
			depth--
			b.WriteString(")")
		case ',':
			if depth > 0 {
				b.WriteString("|")
			} else {
				b.WriteString(",")
			}
		default:
			b.WriteString(regexp.QuoteMeta(src[i : i+1]))
		}
	}
	if depth > 0 {
		return nil, fmt.Errorf("glob %q: unclosed alternation", src)
	}
	b.WriteString("$")
	re, err := regexlimit.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("glob: %w", err)
	}
	return re, nil
}

// AppliesTo reports whether the rule applies to a file, given its
// slash-separated path relative to the project (or rule file) folder: no
// `ignores` glob matches it and, when `files` is set, a `files` glob does.
func (cfg *Config) AppliesTo(path string) bool {
	for _, re := range cfg.ignoreRes {
		if re.MatchString(path) {
			return false
		}
	}
	if cfg.Files == nil {
		return true
	}
	for _, re := range cfg.fileRes {
		if re.MatchString(path) {
			return true
		}
	}
	return false
}
