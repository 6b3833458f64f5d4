package main

import (
	"fmt"
	"strings"
)

// style is an ANSI text style written the way ast-grep's terminal library
// (ansi_term) writes it: attributes, then the colour, in one escape.
type style struct {
	bold, dimmed, italic bool
	fg                   colour
}

// colour is 0 for none, 30-37 for the basic colours, or 256+N for the
// 8-bit colour N.
type colour int

const (
	red  colour = 31
	blue colour = 34
	cyan colour = 36
)

func fixed(n int) colour { return colour(256 + n) }

// code is the colour's SGR parameters as a foreground colour.
func (c colour) code() string {
	if c >= 256 {
		return fmt.Sprintf("38;5;%d", int(c)-256)
	}
	return fmt.Sprint(int(c))
}

// paint wraps s in the style's escapes; a plain style leaves s alone.
func (s style) paint(text string) string {
	var codes []string
	if s.bold {
		codes = append(codes, "1")
	}
	if s.dimmed {
		codes = append(codes, "2")
	}
	if s.italic {
		codes = append(codes, "3")
	}
	if s.fg != 0 {
		codes = append(codes, s.fg.code())
	}
	if len(codes) == 0 {
		return text
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + text + "\x1b[0m"
}

// palette is the set of styles output uses; the zero palette is plain.
type palette struct {
	path, matched, lineNum style
	insert, delete, hunk   style
	field, kind            style
}

func colouredPalette() palette {
	return palette{
		path:    style{italic: true, fg: cyan},
		matched: style{bold: true, fg: red},
		lineNum: style{dimmed: true},
		insert:  style{fg: fixed(35)},
		delete:  style{fg: fixed(161)},
		hunk:    style{fg: blue},
		field:   style{italic: true},
		kind:    style{bold: true},
	}
}

// useColour decides colour for --color WHEN as ast-grep does: auto means
// a terminal, TERM set and not "dumb", and NO_COLOR unset.
func useColour(when string, e *env) bool {
	switch when {
	case "always", "ansi":
		return true
	case "never":
		return false
	}
	term := e.getenv("TERM")
	return e.tty && term != "" && term != "dumb" && e.getenv("NO_COLOR") == ""
}

// rustLines splits s like Rust's str::lines: on "\n", a "\r" before it
// dropped, no empty last line for a trailing newline.
func rustLines(s string) []string {
	if s == "" {
		return nil
	}
	trailing := strings.HasSuffix(s, "\n")
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		if i < len(lines)-1 || trailing {
			lines[i] = strings.TrimSuffix(l, "\r")
		}
	}
	return lines
}
