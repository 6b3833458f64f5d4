package difftest

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Expect is what a case requires of ast-grep's answer, so that a case that
// agrees trivially (both find nothing) is caught.
type Expect int

// What ast-grep must answer.
const (
	ExpectSome   Expect = iota // at least one match (the default)
	ExpectNone                 // no match: the case pins a no-match behaviour
	ExpectError                // the pattern is rejected; loupe must reject it too
	ExpectDiffer               // a known difference (docs/differences.md): the tools must disagree
)

// Case is one pattern of a differential suite.
type Case struct {
	Line       int    // line in the cases file
	Lang       string // language name as both tools accept it
	Corpus     string // corpus name
	Pattern    string // the pattern, or the context when Selector is set
	Strictness string // "" for the default
	Selector   string
	Expect     Expect
	// Bounded cases match nearly every node: LOUPE_DIFFTEST_FULL runs skip
	// them rather than stream gigabytes of JSON.
	Bounded bool
}

func (c Case) String() string {
	s := fmt.Sprintf("line %d %s/%s %q", c.Line, c.Lang, c.Corpus, c.Pattern)
	if c.Strictness != "" {
		s += " strictness=" + c.Strictness
	}
	if c.Selector != "" {
		s += " selector=" + c.Selector
	}
	return s
}

// ParseCases reads a cases file:
//
//	# a comment
//	== LANG CORPUS          a section: the language and corpus of the cases below
//	PATTERN                 one case per line
//	%key=value PATTERN      options before the pattern: %strictness=S,
//	                        %selector=KIND, %none (ast-grep finds nothing),
//	                        %error (ast-grep rejects the pattern), %differs
//	                        (a difference listed in docs/differences.md),
//	                        %bounded (skipped by full-corpus runs)
//	  MORE                  a line indented by two spaces continues the
//	                        pattern above on a new line (the two spaces dropped)
func ParseCases(r io.Reader) ([]Case, error) {
	var out []Case
	var lang, corpus string
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), " \t\r")
		switch {
		case text == "" || strings.HasPrefix(text, "#"):
			continue
		case strings.HasPrefix(text, "  "):
			if len(out) == 0 || out[len(out)-1].Lang != lang {
				return nil, fmt.Errorf("line %d: continuation without a pattern", line)
			}
			out[len(out)-1].Pattern += "\n" + text[2:]
			continue
		case strings.HasPrefix(text, "=="):
			f := strings.Fields(text[2:])
			if len(f) != 2 {
				return nil, fmt.Errorf("line %d: want `== LANG CORPUS`", line)
			}
			lang, corpus = f[0], f[1]
			continue
		}
		if lang == "" {
			return nil, fmt.Errorf("line %d: case before any `== LANG CORPUS` section", line)
		}
		c := Case{Line: line, Lang: lang, Corpus: corpus}
		for strings.HasPrefix(text, "%") {
			opt, rest, _ := strings.Cut(text, " ")
			key, val, _ := strings.Cut(opt[1:], "=")
			switch key {
			case "strictness":
				c.Strictness = val
			case "selector":
				c.Selector = val
			case "none":
				c.Expect = ExpectNone
			case "error":
				c.Expect = ExpectError
			case "differs":
				c.Expect = ExpectDiffer
			case "bounded":
				c.Bounded = true
			default:
				return nil, fmt.Errorf("line %d: unknown option %q", line, opt)
			}
			text = strings.TrimLeft(rest, " ")
		}
		if text == "" && c.Expect != ExpectError {
			return nil, fmt.Errorf("line %d: no pattern", line)
		}
		c.Pattern = text
		out = append(out, c)
	}
	return out, sc.Err()
}
