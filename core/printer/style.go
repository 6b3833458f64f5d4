// Package printer writes loupe's human-readable output in ast-grep's text
// formats, for any face (the CLI, an editor or an agent's tool): matches
// with a heading or a "path:LINE:" prefix (Matches), rewrite diffs (Diff),
// scan reports as codespan-style diagnostics (Report), and the syntax tree
// and pattern dumps of --debug-query (Tree, Pattern). Everything is painted
// with a Palette; the zero Palette is plain text, Coloured is ast-grep's
// ANSI colours.
package printer

import (
	"fmt"
	"strings"
)

// Style is an ANSI text style, written the way ast-grep's terminal library
// (ansi_term) writes it: the attributes, then the colour, in one escape.
// The zero Style is plain.
type Style struct {
	Bold, Dimmed, Italic bool
	Fg                   Colour // foreground; 0 for none
}

// Colour is a foreground colour: 0 for none, 30-37 for the basic colours
// (Red, Green, Blue, Cyan…), or Fixed(n) for the 8-bit colour n.
type Colour int

// The basic colours the formats use.
const (
	Red   Colour = 31
	Green Colour = 32
	Blue  Colour = 34
	Cyan  Colour = 36
)

// Fixed is the 8-bit colour n (0-255).
func Fixed(n int) Colour { return Colour(256 + n) }

// code is the colour's SGR parameters as a foreground colour.
func (c Colour) code() string {
	if c >= 256 {
		return fmt.Sprintf("38;5;%d", int(c)-256)
	}
	return fmt.Sprint(int(c))
}

// Paint wraps text in the style's escapes; a plain style leaves it alone.
func (s Style) Paint(text string) string {
	var codes []string
	if s.Bold {
		codes = append(codes, "1")
	}
	if s.Dimmed {
		codes = append(codes, "2")
	}
	if s.Italic {
		codes = append(codes, "3")
	}
	if s.Fg != 0 {
		codes = append(codes, s.Fg.code())
	}
	if len(codes) == 0 {
		return text
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + text + "\x1b[0m"
}

// Palette is the set of styles the formats paint with. The zero Palette
// is plain: every format then writes no escapes.
type Palette struct {
	Path, Matched, LineNum Style // file paths, matched text, line numbers
	Insert, Delete, Hunk   Style // diff lines and "@@" headers
	Field, Kind            Style // field names and kinds in tree dumps

	// Diagnostics: the "severity[rule]" titles, the gutter, and the
	// message and "Note:" after a title.
	Error, Warning, Info, Hint Style
	Gutter, Emphasis           Style
}

// Coloured is the palette of ast-grep's coloured output.
func Coloured() Palette {
	return Palette{
		Path:     Style{Italic: true, Fg: Cyan},
		Matched:  Style{Bold: true, Fg: Red},
		LineNum:  Style{Dimmed: true},
		Insert:   Style{Fg: Fixed(35)},
		Delete:   Style{Fg: Fixed(161)},
		Hunk:     Style{Fg: Blue},
		Field:    Style{Italic: true},
		Kind:     Style{Bold: true},
		Error:    Style{Bold: true, Fg: Fixed(9)},
		Warning:  Style{Bold: true, Fg: Fixed(11)},
		Info:     Style{Bold: true, Fg: Fixed(10)},
		Hint:     Style{Bold: true, Fg: Fixed(14)},
		Gutter:   Style{Fg: Cyan},
		Emphasis: Style{Bold: true},
	}
}

// Lines splits s like Rust's str::lines, as ast-grep does: on "\n", with a
// "\r" before it dropped and no empty last line for a trailing newline.
func Lines(s string) []string {
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
