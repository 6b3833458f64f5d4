package printer

import (
	"fmt"
	"io"
	"strings"

	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/core/wire"
)

// Matches prints matches as ast-grep's run prints them: with a heading
// (the path, then "LINE│text" lines) or with a "path:LINE:text" prefix on
// every line, Before and After lines of context around each match.
// Matches on the same or adjacent lines share a block; a match inside a
// previous one is not repeated.
type Matches struct {
	Heading       bool
	Before, After int
	Palette       Palette
}

// Print writes one file's matches, nodes of one tree in document order.
func (m Matches) Print(w io.Writer, path string, nodes []tree.Node) {
	if len(nodes) == 0 {
		return
	}
	if m.Heading {
		fmt.Fprintln(w, m.Palette.Path.Paint(path))
	}
	src := nodes[0].Tree().Source()
	first := nodes[0]
	d := wire.Around(first, m.Before, m.After)
	lastStart := d.StartLine + 1
	lastEnd := first.EndPoint().Row + 1
	lastTrailing := d.Trailing
	lastEndOff := first.EndByte()
	var ret strings.Builder
	ret.WriteString(d.Leading)
	m.paintMatched(&ret, d.Matched)
	for _, n := range nodes[1:] {
		if n.StartByte() < lastEndOff {
			continue
		}
		d := wire.Around(n, m.Before, m.After)
		if d.StartLine <= lastEnd+m.After {
			ret.Write(src[lastEndOff:n.StartByte()])
			m.paintMatched(&ret, d.Matched)
			lastEndOff = n.EndByte()
			lastTrailing = d.Trailing
			continue
		}
		ret.WriteString(lastTrailing)
		width := m.block(w, path, ret.String(), lastStart)
		if m.Before+m.After > 0 {
			if m.Heading {
				fmt.Fprintf(w, "%s┤\n", strings.Repeat("╴", width))
			} else {
				fmt.Fprintln(w, "--")
			}
		}
		lastStart = d.StartLine + 1
		lastEnd = n.EndPoint().Row + 1
		lastTrailing = d.Trailing
		lastEndOff = n.EndByte()
		ret.Reset()
		ret.WriteString(d.Leading)
		m.paintMatched(&ret, d.Matched)
	}
	ret.WriteString(lastTrailing)
	m.block(w, path, ret.String(), lastStart)
	if m.Heading {
		fmt.Fprintln(w)
	}
}

func (m Matches) paintMatched(b *strings.Builder, matched string) {
	for i, l := range Lines(matched) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(m.Palette.Matched.Paint(l))
	}
}

// block prints the lines of one block, numbered from start; it returns
// the width of the line numbers.
func (m Matches) block(w io.Writer, path, text string, start int) int {
	lines := Lines(text)
	width := len(fmt.Sprint(len(lines) + start))
	for i, l := range lines {
		if m.Heading {
			num := fmt.Sprintf("%-*d", width, start+i)
			fmt.Fprintf(w, "%s│%s\n", m.Palette.LineNum.Paint(num), l)
		} else {
			fmt.Fprintf(w, "%s:%d:%s\n", path, start+i, l)
		}
	}
	return width
}
