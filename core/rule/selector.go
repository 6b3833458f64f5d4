package rule

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// A kind selector is ast-grep's CSS-like syntax for `kind`:
//
//	selector-list     = complex-selector ("," complex-selector)*
//	complex-selector  = compound-selector (combinator compound-selector)*
//	combinator        = ">" | "+" | "~" | " "
//	compound-selector = [kind-name] pseudo-class*
//	pseudo-class      = ":" name "(" argument ")"
//
// with the pseudo-classes :has (descendant, or child with a leading ">"),
// :not, :is, :nth-child and :nth-last-child (An+B, optionally "of"
// selector). A plain kind name is the simplest selector.

type selToken struct {
	kind byte   // 'i' identifier, 'c' combinator, or the punctuation itself: . : ( ) ,
	text string // identifier text or combinator character
}

type selParser struct {
	src  string
	peek *selToken
	c    *compiler
}

var errSelectorEnd = errors.New("unexpected end of selector")

// parseSelector compiles a kind selector.
func (c *compiler) parseSelector(src string) (matcher, error) {
	p := &selParser{src: strings.TrimSpace(src), c: c}
	m, err := p.list()
	if err != nil {
		return nil, err
	}
	if !p.empty() {
		return nil, fmt.Errorf("unexpected %s", p.describeNext())
	}
	return m, nil
}

func (p *selParser) empty() bool { return p.src == "" && p.peek == nil }

func (p *selParser) describeNext() string {
	t, err := p.lookahead()
	if err != nil || t == nil {
		return "end of selector"
	}
	switch t.kind {
	case 'i':
		return fmt.Sprintf("%q", t.text)
	case 'c':
		if t.text == " " {
			return "space"
		}
		return fmt.Sprintf("%q", t.text)
	}
	return fmt.Sprintf("%q", string(t.kind))
}

func (p *selParser) scan() (*selToken, error) {
	if p.src == "" {
		return nil, nil
	}
	c := p.src[0]
	switch {
	case c == ' ':
		rest := strings.TrimLeft(p.src, " \t\n\r\v\f")
		if rest != "" && strings.IndexByte("+~>),", rest[0]) >= 0 {
			p.src = rest
			return p.scan()
		}
		p.src = rest
		return &selToken{kind: 'c', text: " "}, nil
	case c == '+' || c == '~' || c == '>':
		p.src = strings.TrimLeft(p.src[1:], " \t\n\r\v\f")
		return &selToken{kind: 'c', text: string(c)}, nil
	case c == '.' || c == ':' || c == ')':
		p.src = p.src[1:]
		return &selToken{kind: c}, nil
	case c == '(' || c == ',':
		p.src = strings.TrimLeft(p.src[1:], " \t\n\r\v\f")
		return &selToken{kind: c}, nil
	case isIdentStart(c):
		i := 1
		for i < len(p.src) && (isIdentStart(p.src[i]) || p.src[i] >= '0' && p.src[i] <= '9') {
			i++
		}
		t := &selToken{kind: 'i', text: p.src[:i]}
		p.src = p.src[i:]
		return t, nil
	}
	r, _ := utf8.DecodeRuneInString(p.src)
	return nil, fmt.Errorf("illegal character %q", r)
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-'
}

func (p *selParser) lookahead() (*selToken, error) {
	if p.peek != nil {
		return p.peek, nil
	}
	t, err := p.scan()
	if err != nil {
		return nil, err
	}
	p.peek = t
	return t, nil
}

func (p *selParser) next() (*selToken, error) {
	if p.peek != nil {
		t := p.peek
		p.peek = nil
		return t, nil
	}
	return p.scan()
}

// list parses a comma-separated selector list into an any rule.
func (p *selParser) list() (matcher, error) {
	var rules []matcher
	for !p.empty() {
		m, err := p.complex()
		if err != nil {
			return nil, err
		}
		rules = append(rules, m)
		t, err := p.lookahead()
		if err != nil {
			return nil, err
		}
		if t != nil && t.kind == ',' {
			p.next()
			continue
		}
		if !p.empty() {
			break
		}
	}
	return newAny(rules), nil
}

// complex parses compound selectors joined by combinators.
func (p *selParser) complex() (matcher, error) {
	m, err := p.compound()
	if err != nil {
		return nil, err
	}
	for {
		t, err := p.lookahead()
		if err != nil {
			return nil, err
		}
		if t == nil || t.kind != 'c' {
			return m, nil
		}
		p.next()
		right, err := p.compound()
		if err != nil {
			return nil, err
		}
		var rel matcher
		switch t.text {
		case ">":
			rel = &insideM{outer: m, stop: stopBy{kind: stopNeighbor}}
		case " ":
			rel = &insideM{outer: m, stop: stopBy{kind: stopEnd}}
		case "+":
			rel = &siblingM{other: m, stop: stopBy{kind: stopNeighbor}}
		case "~":
			rel = &siblingM{other: m, stop: stopBy{kind: stopEnd}}
		}
		m = newAll([]matcher{right, rel})
	}
}

// compound parses an optional kind name followed by pseudo-classes.
func (p *selParser) compound() (matcher, error) {
	var rules []matcher
	t, err := p.lookahead()
	if err != nil {
		return nil, err
	}
	if t != nil && t.kind == 'i' {
		p.next()
		k, err := p.c.kindMatcher(t.text)
		if err != nil {
			return nil, err
		}
		rules = append(rules, k)
	}
	for {
		t, err := p.lookahead()
		if err != nil {
			return nil, err
		}
		if t == nil {
			break
		}
		if t.kind == '.' {
			return nil, errors.New("class selectors (.name) are not supported")
		}
		if t.kind != ':' {
			break
		}
		m, err := p.pseudo()
		if err != nil {
			return nil, err
		}
		rules = append(rules, m)
	}
	if len(rules) == 0 {
		return nil, fmt.Errorf("expected a kind name or pseudo-class, found %s", p.describeNext())
	}
	return newAll(rules), nil
}

// pseudo parses ":name(argument)".
func (p *selParser) pseudo() (matcher, error) {
	p.next() // ':'
	name, err := p.next()
	if err != nil {
		return nil, err
	}
	if name == nil || name.kind != 'i' {
		return nil, errors.New("expected a pseudo-class name after ':'")
	}
	open, err := p.next()
	if err != nil {
		return nil, err
	}
	if open == nil || open.kind != '(' {
		return nil, fmt.Errorf("expected '(' after :%s", name.text)
	}
	var m matcher
	switch name.text {
	case "has":
		m, err = p.hasArg()
	case "not":
		var inner matcher
		inner, err = p.complex()
		m = &notM{rule: inner}
	case "is":
		m, err = p.list()
	case "nth-child":
		m, err = p.nthArg(false)
	case "nth-last-child":
		m, err = p.nthArg(true)
	default:
		return nil, fmt.Errorf("unknown pseudo-class :%s (expected :has, :not, :is, :nth-child or :nth-last-child)", name.text)
	}
	if err != nil {
		return nil, err
	}
	closing, err := p.next()
	if err != nil {
		return nil, err
	}
	if closing == nil || closing.kind != ')' {
		return nil, fmt.Errorf("expected ')' to close :%s", name.text)
	}
	return m, nil
}

func (p *selParser) hasArg() (matcher, error) {
	stop := stopBy{kind: stopEnd}
	t, err := p.lookahead()
	if err != nil {
		return nil, err
	}
	if t != nil && t.kind == 'c' && t.text == ">" {
		p.next()
		stop.kind = stopNeighbor
	}
	inner, err := p.complex()
	if err != nil {
		return nil, err
	}
	return &hasM{inner: inner, stop: stop}, nil
}

func (p *selParser) nthArg(reverse bool) (matcher, error) {
	i := 0
	for i < len(p.src) && strings.IndexByte("0123456789nN+- ", p.src[i]) >= 0 {
		i++
	}
	text := strings.TrimSpace(p.src[:i])
	p.src = strings.TrimLeft(p.src[i:], " \t\n\r\v\f")
	pos, err := parseAnB(text)
	if err != nil {
		return nil, err
	}
	m := &nthChildM{pos: pos, reverse: reverse}
	t, err := p.lookahead()
	if err != nil {
		return nil, err
	}
	if t != nil && t.kind == 'i' && t.text == "of" {
		p.next()
		p.src = strings.TrimLeft(p.src, " \t\n\r\v\f")
		if m.of, err = p.complex(); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// parseAnB parses CSS's An+B notation ("3", "2n+1", "-n + 3", "odd" is not
// accepted, as in ast-grep). Whitespace is ignored.
func parseAnB(s string) (position, error) {
	const (
		initial = iota
		afterN
		afterSign
		inNumber
	)
	state, sawN := initial, false
	step, sign, num := 0, 1, 0
	for _, c := range s {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		isDigit := c >= '0' && c <= '9'
		isN := c == 'n' || c == 'N'
		isSign := c == '+' || c == '-'
		if !isDigit && !isN && !isSign {
			return position{}, fmt.Errorf("illegal character %q in An+B %q", c, s)
		}
		switch state {
		case initial:
			switch {
			case isSign:
				state, sign = afterSign, signOf(c)
			case isDigit:
				state, num = inNumber, int(c-'0')
			default:
				state, step, sawN = afterN, sign, true
			}
		case afterSign:
			switch {
			case isSign:
				return position{}, fmt.Errorf("invalid An+B %q", s)
			case isDigit:
				state, num = inNumber, int(c-'0')
			default:
				if sawN {
					return position{}, fmt.Errorf("invalid An+B %q", s)
				}
				state, step, sawN = afterN, sign, true
			}
		case inNumber:
			switch {
			case isSign:
				return position{}, fmt.Errorf("invalid An+B %q", s)
			case isDigit:
				if num > 1<<24 {
					return position{}, fmt.Errorf("number too large in An+B %q", s)
				}
				num = num*10 + int(c-'0')
			default:
				if sawN {
					return position{}, fmt.Errorf("invalid An+B %q", s)
				}
				state, step, sawN, num = afterN, sign*num, true, 0
			}
		case afterN:
			if !isSign {
				return position{}, fmt.Errorf("invalid An+B %q", s)
			}
			state, sign, num = afterSign, signOf(c), 0
		}
	}
	if state == initial || state == afterSign {
		return position{}, fmt.Errorf("invalid An+B %q", s)
	}
	return position{step: step, offset: num * sign}, nil
}

func signOf(c rune) int {
	if c == '-' {
		return -1
	}
	return 1
}
