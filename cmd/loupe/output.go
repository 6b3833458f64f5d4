package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/wire"
)

// matchPrinter writes matches as ast-grep's text output: with a heading
// (the path, then "LINE│text" lines) or with a "path:LINE:text" prefix on
// every line. Matches on the same or adjacent lines share a block; a match
// inside a previous one is not repeated.
type matchPrinter struct {
	w             io.Writer
	heading       bool
	before, after int
	pal           palette
}

func (p *matchPrinter) file(path string, nodes []tree.Node) {
	if len(nodes) == 0 {
		return
	}
	if p.heading {
		fmt.Fprintln(p.w, p.pal.path.paint(path))
	}
	src := nodes[0].Tree().Source()
	first := nodes[0]
	d := wire.Around(first, p.before, p.after)
	lastStart := d.StartLine + 1
	lastEnd := first.EndPoint().Row + 1
	lastTrailing := d.Trailing
	lastEndOff := first.EndByte()
	var ret strings.Builder
	ret.WriteString(d.Leading)
	p.paintMatched(&ret, d.Matched)
	for _, n := range nodes[1:] {
		if n.StartByte() < lastEndOff {
			continue
		}
		d := wire.Around(n, p.before, p.after)
		if d.StartLine <= lastEnd+p.after {
			ret.Write(src[lastEndOff:n.StartByte()])
			p.paintMatched(&ret, d.Matched)
			lastEndOff = n.EndByte()
			lastTrailing = d.Trailing
			continue
		}
		ret.WriteString(lastTrailing)
		width := p.block(path, ret.String(), lastStart)
		if p.before+p.after > 0 {
			if p.heading {
				fmt.Fprintf(p.w, "%s┤\n", strings.Repeat("╴", width))
			} else {
				fmt.Fprintln(p.w, "--")
			}
		}
		lastStart = d.StartLine + 1
		lastEnd = n.EndPoint().Row + 1
		lastTrailing = d.Trailing
		lastEndOff = n.EndByte()
		ret.Reset()
		ret.WriteString(d.Leading)
		p.paintMatched(&ret, d.Matched)
	}
	ret.WriteString(lastTrailing)
	p.block(path, ret.String(), lastStart)
	if p.heading {
		fmt.Fprintln(p.w)
	}
}

func (p *matchPrinter) paintMatched(b *strings.Builder, matched string) {
	for i, l := range rustLines(matched) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.pal.matched.paint(l))
	}
}

// block prints the lines of one block, numbered from start; it returns
// the width of the line numbers.
func (p *matchPrinter) block(path, text string, start int) int {
	lines := rustLines(text)
	width := len(fmt.Sprint(len(lines) + start))
	for i, l := range lines {
		if p.heading {
			num := fmt.Sprintf("%-*d", width, start+i)
			fmt.Fprintf(p.w, "%s│%s\n", p.pal.lineNum.paint(num), l)
		} else {
			fmt.Fprintf(p.w, "%s:%d:%s\n", path, start+i, l)
		}
	}
	return width
}
