// Package glob compiles path globs with the semantics ripgrep's globset
// gives them when globs come from ignore files or --globs flags: `*` and
// `?` never cross a `/`, `**` spans directories only as a whole path
// component (`**/x`, `x/**`, `a/**/b`, or `**` alone), `{a,b}` alternates,
// `[ab]`/`[!ab]` classes, and a backslash escapes the next character.
// A `**` inside a component (`a**b`) is an ordinary `*`.
package glob

import (
	"fmt"
	"regexp"
	"strings"
)

// Glob is a compiled glob. It is safe for concurrent use.
type Glob struct {
	src  string
	kind kind
	lit  string // exact path, base name or base-name suffix, by kind
	re   *regexp.Regexp
}

type kind uint8

const (
	kindRegexp   kind = iota
	kindAll           // "**": everything
	kindExact         // the whole path equals lit
	kindBase          // "**/lit": the base name equals lit
	kindBaseSufx      // "**/*lit": the base name ends with lit
)

// Compile compiles pattern. It fails on an unclosed class or alternation,
// nested alternations and a dangling escape, as globset does.
func Compile(pattern string) (*Glob, error) {
	toks, err := parse(pattern)
	if err != nil {
		return nil, fmt.Errorf("glob %q: %w", pattern, err)
	}
	g := &Glob{src: pattern}
	if fast(g, toks) {
		return g, nil
	}
	var re strings.Builder
	re.WriteString(`(?s)^`)
	writeRegexp(&re, toks)
	re.WriteString(`$`)
	g.re, err = regexp.Compile(re.String())
	if err != nil {
		return nil, fmt.Errorf("glob %q: %w", pattern, err)
	}
	return g, nil
}

// Match reports whether the slash-separated path matches the glob.
func (g *Glob) Match(path string) bool {
	switch g.kind {
	case kindAll:
		return true
	case kindExact:
		return path == g.lit
	case kindBase:
		return base(path) == g.lit
	case kindBaseSufx:
		return strings.HasSuffix(base(path), g.lit)
	}
	return g.re.MatchString(path)
}

// String returns the source pattern.
func (g *Glob) String() string { return g.src }

func base(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

type tokKind uint8

const (
	tLit         tokKind = iota
	tAny                 // ?
	tStar                // *
	tRecPrefix           // leading **/ (or ** alone)
	tRecSuffix           // trailing /**
	tRecMiddle           // /**/
	tClass               // [...]
	tAlternation         // {a,b}
)

type token struct {
	kind    tokKind
	lit     rune
	negated bool
	ranges  [][2]rune
	alts    [][]token
}

// parse turns a glob into tokens, following globset's parser.
func parse(p string) ([]token, error) {
	rs := []rune(p)
	var (
		stack [][]token // alternation branches being built; stack[0] is the top level
		alts  [][]token // finished branches of the open alternation
		inAlt bool
	)
	stack = append(stack, nil)
	push := func(t token) { stack[len(stack)-1] = append(stack[len(stack)-1], t) }
	cur := func() []token { return stack[len(stack)-1] }
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch c {
		case '?':
			push(token{kind: tAny})
		case '*':
			var prev rune = -1
			if i > 0 {
				prev = rs[i-1]
			}
			if i+1 >= len(rs) || rs[i+1] != '*' {
				push(token{kind: tStar})
				continue
			}
			i++ // consume the second '*'
			var next rune = -1
			if i+1 < len(rs) {
				next = rs[i+1]
			}
			if len(cur()) == 0 {
				// At the very start of the glob or of an alternative.
				if next != -1 && next != '/' {
					push(token{kind: tStar})
					continue
				}
				push(token{kind: tRecPrefix})
				if next == '/' {
					i++
				}
				continue
			}
			if prev != '/' && !(inAlt && (prev == ',' || prev == '{')) {
				push(token{kind: tStar})
				continue
			}
			suffix := false
			switch {
			case next == -1:
				suffix = true
			case inAlt && (next == ',' || next == '}'):
				suffix = true
			case next == '/':
				i++
			default:
				push(token{kind: tStar})
				continue
			}
			// The '/' before "**" was pushed as a literal: fold it in.
			toks := cur()
			if n := len(toks); n > 0 && toks[n-1].kind == tLit && toks[n-1].lit == '/' {
				stack[len(stack)-1] = toks[:n-1]
			}
			if suffix {
				push(token{kind: tRecSuffix})
			} else {
				push(token{kind: tRecMiddle})
			}
		case '[':
			t, n, ok := parseClass(rs[i:])
			if !ok {
				return nil, fmt.Errorf("unclosed character class")
			}
			push(t)
			i += n - 1
		case '{':
			if inAlt {
				return nil, fmt.Errorf("nested alternations are not allowed")
			}
			inAlt = true
			alts = nil
			stack = append(stack, nil)
		case '}':
			if !inAlt {
				push(token{kind: tLit, lit: '}'})
				continue
			}
			alts = append(alts, cur())
			stack = stack[:len(stack)-1]
			inAlt = false
			push(token{kind: tAlternation, alts: alts})
		case ',':
			if inAlt {
				alts = append(alts, cur())
				stack[len(stack)-1] = nil
				continue
			}
			push(token{kind: tLit, lit: ','})
		case '\\':
			if i+1 >= len(rs) {
				return nil, fmt.Errorf("dangling '\\'")
			}
			i++
			push(token{kind: tLit, lit: rs[i]})
		default:
			push(token{kind: tLit, lit: c})
		}
	}
	if inAlt {
		return nil, fmt.Errorf("unclosed alternation")
	}
	return stack[0], nil
}

// parseClass parses a class starting at rs[0] == '['. It returns the
// token and the number of runes consumed.
func parseClass(rs []rune) (token, int, bool) {
	t := token{kind: tClass}
	i := 1
	if i < len(rs) && (rs[i] == '!' || rs[i] == '^') {
		t.negated = true
		i++
	}
	first := true
	for i < len(rs) {
		c := rs[i]
		if c == ']' && !first {
			return t, i + 1, true
		}
		first = false
		if c == '-' && len(t.ranges) > 0 && i+1 < len(rs) && rs[i+1] != ']' {
			last := &t.ranges[len(t.ranges)-1]
			if last[0] == last[1] {
				hi := rs[i+1]
				if hi < last[0] {
					return t, 0, false
				}
				last[1] = hi
				i += 2
				continue
			}
		}
		t.ranges = append(t.ranges, [2]rune{c, c})
		i++
	}
	return t, 0, false
}

// fast recognises the shapes that need no regular expression.
func fast(g *Glob, toks []token) bool {
	lit := func(ts []token) (string, bool) {
		var b strings.Builder
		for _, t := range ts {
			if t.kind != tLit || t.lit == '/' {
				return "", false
			}
			b.WriteRune(t.lit)
		}
		return b.String(), true
	}
	switch {
	case len(toks) == 1 && toks[0].kind == tRecPrefix:
		g.kind = kindAll
		return true
	case len(toks) > 0 && toks[0].kind == tRecPrefix:
		if s, ok := lit(toks[1:]); ok && s != "" {
			g.kind, g.lit = kindBase, s
			return true
		}
		if len(toks) > 2 && toks[1].kind == tStar {
			if s, ok := lit(toks[2:]); ok && s != "" {
				g.kind, g.lit = kindBaseSufx, s
				return true
			}
		}
	}
	var b strings.Builder
	for _, t := range toks {
		if t.kind != tLit {
			return false
		}
		b.WriteRune(t.lit)
	}
	g.kind, g.lit = kindExact, b.String()
	return true
}

func writeRegexp(b *strings.Builder, toks []token) {
	for _, t := range toks {
		switch t.kind {
		case tLit:
			b.WriteString(regexp.QuoteMeta(string(t.lit)))
		case tAny:
			b.WriteString(`[^/]`)
		case tStar:
			b.WriteString(`[^/]*`)
		case tRecPrefix:
			b.WriteString(`(?:/?|.*/)`)
		case tRecSuffix:
			b.WriteString(`/.*`)
		case tRecMiddle:
			b.WriteString(`(?:/|/.*/)`)
		case tClass:
			b.WriteByte('[')
			if t.negated {
				b.WriteByte('^')
			}
			for _, r := range t.ranges {
				writeClassRune(b, r[0])
				if r[1] != r[0] {
					b.WriteByte('-')
					writeClassRune(b, r[1])
				}
			}
			b.WriteByte(']')
		case tAlternation:
			var parts []string
			for _, alt := range t.alts {
				var ab strings.Builder
				writeRegexp(&ab, alt)
				if ab.Len() > 0 {
					parts = append(parts, ab.String())
				}
			}
			if len(parts) > 0 {
				b.WriteString(`(?:` + strings.Join(parts, "|") + `)`)
			}
		}
	}
}

func writeClassRune(b *strings.Builder, r rune) {
	switch r {
	case '\\', ']', '[', '^', '-':
		b.WriteByte('\\')
	}
	b.WriteRune(r)
}
