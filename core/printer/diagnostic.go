package printer

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/rule"
)

// A Rich diagnostic is laid out as codespan-reporting 0.13 (which ast-grep
// renders its reports with) lays it out: label positions are bytes within
// their line, display widths count a tab up to the next stop of four
// columns (tabs print as spaces) and wide characters as two, single-line
// labels are underlined in one row with hanging messages below, and each
// multi-line label takes a gutter column, opened by ╭ and closed by ╰.

// tabWidth is codespan-reporting's default tab stop.
const tabWidth = 4

// dLabel is a label of a diagnostic, as byte offsets into the file.
type dLabel struct {
	primary    bool
	start, end int
	message    string
}

// singleMark is a label on one line: bytes start..end of the line.
type singleMark struct {
	primary    bool
	start, end int
	message    string
}

// multiKind is the part of a multi-line label a line holds.
type multiKind int

const (
	multiTop    multiKind = iota // the first line: the label starts at pos
	multiLeft                    // a line inside
	multiBottom                  // the last line: the label ends at pos
)

// multiMark is a multi-line label's part on one line.
type multiMark struct {
	column  int // the label's gutter column
	primary bool
	kind    multiKind
	pos     int // the byte in the line (top and bottom)
	message string
}

// dLine is a line of a diagnostic.
type dLine struct {
	index      int // 0-based
	singles    []singleMark
	multis     []multiMark
	mustRender bool
}

// lineStarts returns the byte offsets where src's lines start.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineIndex is the 0-based line of byte offset b: a line's start belongs
// to it.
func (p *fileReport) lineIndex(b int) int {
	return sort.Search(len(p.starts), func(i int) bool { return p.starts[i] > b }) - 1
}

// lineText is line i's text without its line ending (and any "\r" or NUL
// before it), as codespan-reporting trims it.
func (p *fileReport) lineText(i int) string {
	start, end := p.lineRange(i)
	return strings.TrimRight(string(p.src[start:end]), "\n\r\x00")
}

// lineRange is line i's byte range, its line break included.
func (p *fileReport) lineRange(i int) (int, int) {
	end := len(p.src)
	if i+1 < len(p.starts) {
		end = p.starts[i+1]
	}
	return p.starts[i], end
}

// cell is a character of a line with its byte offset and display width.
type cell struct {
	byte, width int
	r           rune
}

// cells measures a line's characters: a tab is as wide as the columns to
// the next tab stop.
func cells(text string) []cell {
	out := make([]cell, 0, len(text))
	col := 0
	for i, r := range text {
		w := RuneWidth(r)
		if r == '\t' {
			w = tabWidth - col%tabWidth
		}
		col += w
		out = append(out, cell{i, w, r})
	}
	return out
}

// overlaps reports whether byte ranges [a0,a1) and [b0,b1) share a byte.
func overlaps(a0, a1, b0, b1 int) bool { return max(a0, b0) < min(a1, b1) }

// diagnostic prints one finding as a codespan-reporting diagnostic.
func (p *fileReport) diagnostic(f rule.Finding) {
	if p.starts == nil {
		p.starts = lineStarts(p.src)
	}
	var labels []dLabel
	for _, s := range f.Config.Spans(f.Node, f.Env) {
		l := dLabel{primary: s.Style == "primary", start: s.Start, end: s.End}
		if s.Message != nil {
			l.message = *s.Message
		}
		labels = append(labels, l)
	}
	w := p.w
	fmt.Fprintln(w, p.title(f))
	lines := map[int]*dLine{}
	line := func(i int) *dLine {
		if lines[i] == nil {
			lines[i] = &dLine{index: i}
		}
		return lines[i]
	}
	pad, multis := 0, 0
	locus := -1 // the label the header points at
	for i, l := range labels {
		startLine, endLine := p.lineIndex(l.start), p.lineIndex(l.end)
		pad = max(pad, len(fmt.Sprint(startLine+1)), len(fmt.Sprint(endLine+1)))
		// The first primary label, else the first secondary one; between
		// labels of a style, the one starting first.
		if locus < 0 || labels[locus].primary != l.primary && l.primary ||
			labels[locus].primary == l.primary && l.start < labels[locus].start {
			locus = i
		}
		lineStart, _ := p.lineRange(startLine)
		if startLine == endLine {
			m := singleMark{primary: l.primary, start: l.start - lineStart, message: l.message}
			m.end = max(l.end-lineStart, m.start+1)
			dl := line(startLine)
			at := sort.Search(len(dl.singles), func(j int) bool {
				s := dl.singles[j]
				return s.start > m.start || s.start == m.start && s.end >= m.end
			})
			dl.singles = append(dl.singles[:at], append([]singleMark{m}, dl.singles[at:]...)...)
			dl.mustRender = true
			continue
		}
		column := multis
		multis++
		top := line(startLine)
		top.multis = append(top.multis, multiMark{column: column, primary: l.primary, kind: multiTop, pos: l.start - lineStart})
		top.mustRender = true
		for n := startLine + 1; n < endLine; n++ {
			dl := line(n)
			dl.multis = append(dl.multis, multiMark{column: column, primary: l.primary, kind: multiLeft})
			dl.mustRender = dl.mustRender || n-startLine <= p.StartContext || endLine-n <= p.EndContext
		}
		endStart, _ := p.lineRange(endLine)
		bottom := line(endLine)
		bottom.multis = append(bottom.multis, multiMark{column: column, primary: l.primary, kind: multiBottom, pos: l.end - endStart, message: l.message})
		bottom.mustRender = true
	}
	if len(labels) == 0 {
		p.notes(f.Config, 0)
		fmt.Fprintln(w)
		return
	}
	g := p.Palette.Gutter
	gutter := strings.Repeat(" ", pad) + " "
	ls := p.lineRange
	start, _ := ls(p.lineIndex(labels[locus].start))
	col := utf8.RuneCount(p.src[start:labels[locus].start]) + 1
	fmt.Fprintf(w, "%s%s %s:%d:%d\n", gutter, g.Paint("┌─"), p.path, p.lineIndex(labels[locus].start)+1, col)
	fmt.Fprintf(w, "%s%s%s\n", gutter, g.Paint("│"), p.innerGutter(multis, nil))
	var order []*dLine
	for _, dl := range lines {
		if dl.mustRender {
			order = append(order, dl)
		}
	}
	sort.Slice(order, func(i, j int) bool { return order[i].index < order[j].index })
	for k, dl := range order {
		p.sourceRows(pad, multis, dl)
		if k+1 == len(order) {
			break
		}
		next := order[k+1]
		switch next.index - dl.index {
		case 1:
		case 2:
			mid := &dLine{index: dl.index + 1}
			if lines[mid.index] != nil {
				mid.multis = lines[mid.index].multis
			}
			p.sourceRows(pad, multis, mid)
		default:
			fmt.Fprintf(w, "%s%s%s\n", gutter, g.Paint("·"), p.innerGutter(multis, next.multis))
		}
	}
	if f.Config.Note != nil {
		fmt.Fprintf(w, "%s%s%s\n", gutter, g.Paint("│"), p.innerGutter(multis, nil))
	}
	p.notes(f.Config, pad)
	fmt.Fprintln(w)
}

// notes prints a rule's note under a diagnostic: "= " before its first
// line, a gutter of pad columns before each.
func (p *fileReport) notes(c *rule.Config, pad int) {
	if c.Note == nil {
		return
	}
	gutter := strings.Repeat(" ", pad) + " "
	for i, l := range Lines(plainMarkdown(*c.Note)) {
		bullet := " "
		if i == 0 {
			bullet = "="
		}
		fmt.Fprintf(p.w, "%s%s %s\n", gutter, bullet, l)
	}
}

// innerGutter is the multi-line label columns of a row between source
// lines: a bar for each label that goes on across it.
func (p *fileReport) innerGutter(columns int, marks []multiMark) string {
	var b strings.Builder
	for c, k := 0, 0; c < columns; c++ {
		if k < len(marks) && marks[k].column == c {
			if marks[k].kind == multiTop {
				b.WriteString("  ")
			} else {
				b.WriteString(" " + p.Palette.Gutter.Paint("│"))
			}
			k++
			continue
		}
		b.WriteString("  ")
	}
	return b.String()
}

// leading is the byte length of text's leading white space.
func leading(text string) int {
	return len(text) - len(strings.TrimLeftFunc(text, unicode.IsSpace))
}

// sourceRows prints a source line and the rows that mark its labels.
func (p *fileReport) sourceRows(pad, columns int, dl *dLine) {
	w := p.w
	g := p.Palette.Gutter
	bar := g.Paint("│")
	gutter := strings.Repeat(" ", pad) + " "
	text := p.lineText(dl.index)
	cs := cells(text)
	lead := leading(text)

	// The source line, with a corner for each label that starts after
	// nothing but white space.
	var b strings.Builder
	b.WriteString(g.Paint(fmt.Sprintf("%*d", pad, dl.index+1)) + " " + bar)
	for c, k := 0, 0; c < columns; c++ {
		if k < len(dl.multis) && dl.multis[k].column == c {
			m := dl.multis[k]
			switch {
			case m.kind == multiTop && m.pos <= lead:
				b.WriteString(" " + g.Paint("╭"))
			case m.kind == multiTop:
				b.WriteString("  ")
			default:
				b.WriteString(" " + bar)
			}
			k++
			continue
		}
		b.WriteString("  ")
	}
	b.WriteString(" ")
	for _, c := range cs {
		if c.r == '\t' {
			b.WriteString(strings.Repeat(" ", c.width))
		} else {
			b.WriteRune(c.r)
		}
	}
	fmt.Fprintln(w, b.String())

	inner := p.innerGutter(columns, dl.multis)
	if len(dl.singles) > 0 {
		p.singleRows(gutter+bar+inner+" ", text, cs, dl.singles)
	}

	// A row for each multi-line label starting or ending here (a start
	// after nothing but white space has its corner on the source line).
	for k, m := range dl.multis {
		if m.kind == multiLeft || m.kind == multiTop && m.pos <= lead {
			continue
		}
		var row strings.Builder
		row.WriteString(gutter + bar)
		underline := false
		for c, j := 0, 0; c < columns; c++ {
			if j < len(dl.multis) && dl.multis[j].column == c {
				o := dl.multis[j]
				switch {
				case o.kind == multiLeft || o.kind == multiTop && k > j || o.kind == multiBottom && k < j:
					if underline {
						row.WriteString("─" + g.Paint("│"))
					} else {
						row.WriteString(" " + g.Paint("│"))
					}
				case j == k && o.kind == multiTop:
					underline = true
					row.WriteString(" " + g.Paint("╭"))
				case j == k:
					underline = true
					row.WriteString(" " + g.Paint("╰"))
				case underline:
					row.WriteString("──")
				default:
					row.WriteString("  ")
				}
				j++
				continue
			}
			if underline {
				row.WriteString("──")
			} else {
				row.WriteString("  ")
			}
		}
		caret := "'"
		if m.primary {
			caret = "^"
		}
		limit := m.pos // the bottom: the characters before the end
		if m.kind == multiTop {
			limit = m.pos + 1 // the top: up to the start, included
		}
		for _, c := range cs {
			if c.byte >= limit {
				break
			}
			row.WriteString(strings.Repeat("─", c.width))
		}
		row.WriteString(caret)
		if m.kind == multiBottom && m.message != "" {
			row.WriteString(" " + m.message)
		}
		fmt.Fprintln(w, row.String())
	}
}

// singleRows prints the rows under a source line that mark its
// single-line labels (sorted by range): one row of ^ (primary) and -
// (secondary) with the message of the label ending last, when it overlaps
// no other; then, for the other messages, a row of │ pointers and a row
// for each message, the last label's first.
func (p *fileReport) singleRows(prefix, text string, cs []cell, labels []singleMark) {
	w := p.w
	messages, maxStart, maxEnd := 0, 0, 0
	trailing := -1
	for i, l := range labels {
		if l.message != "" {
			messages++
		}
		maxStart, maxEnd = max(maxStart, l.start), max(maxEnd, l.end)
		if l.end == maxEnd {
			trailing = -1
			if l.message != "" {
				trailing = i
			}
		}
	}
	if trailing >= 0 {
		t := labels[trailing]
		for i, l := range labels {
			if i != trailing && overlaps(t.start, t.end, l.start, l.end) {
				trailing = -1
				break
			}
		}
	}
	var b strings.Builder
	b.WriteString(prefix)
	all := append(cs[:len(cs):len(cs)], cell{len(text), 1, 0})
	for _, c := range all {
		end := c.byte + max(utf8.RuneLen(c.r), 1)
		style := 0 // 0 none, 1 secondary, 2 primary
		for _, l := range labels {
			if overlaps(l.start, l.end, c.byte, end) {
				if l.primary {
					style = 2
				} else {
					style = max(style, 1)
				}
			}
		}
		switch {
		case style == 2:
			b.WriteString(strings.Repeat("^", c.width))
		case style == 1:
			b.WriteString(strings.Repeat("-", c.width))
		case c.byte < maxEnd:
			b.WriteString(strings.Repeat(" ", c.width))
		}
	}
	hasTrailing := 0
	if trailing >= 0 {
		b.WriteString(" " + labels[trailing].message)
		hasTrailing = 1
	}
	fmt.Fprintln(w, b.String())
	if messages <= hasTrailing {
		return
	}
	var hanging []singleMark
	for i, l := range labels {
		if l.message != "" && i != trailing {
			hanging = append(hanging, l)
		}
	}
	// pointers writes the │ of each hanging label starting in cs.
	pointers := func(cs []cell) string {
		var b strings.Builder
		for _, c := range cs {
			end := c.byte + max(utf8.RuneLen(c.r), 1)
			pointer := false
			for _, l := range hanging {
				if c.byte <= l.start && l.start < end {
					pointer = true
				}
			}
			spaces := c.width
			if pointer {
				b.WriteString("│")
				spaces--
			}
			if c.byte <= maxStart && spaces > 0 {
				b.WriteString(strings.Repeat(" ", spaces))
			}
		}
		return b.String()
	}
	fmt.Fprintln(w, prefix+pointers(cs))
	for i := len(hanging) - 1; i >= 0; i-- {
		l := hanging[i]
		n := sort.Search(len(cs), func(j int) bool { return cs[j].byte >= l.start })
		fmt.Fprintln(w, prefix+pointers(cs[:n])+l.message)
	}
}
