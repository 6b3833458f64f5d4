package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/core/rule"
)

// The text output of `loupe scan`, laid out as ast-grep's: a rule with a
// fix prints each finding as a diff; other findings print as
// codespan-reporting diagnostics (--report-style rich), or as one line
// each with the note (medium) or without (short).

// severityLabels are the diagnostic levels ast-grep prints per severity.
var severityLabels = map[rule.Severity]string{
	rule.SeverityError: "error", rule.SeverityWarning: "warning", rule.SeverityInfo: "note", rule.SeverityHint: "help",
}

func (p *scanPrinter) severityStyle(s rule.Severity) style {
	if p.pal == (palette{}) {
		return style{}
	}
	switch s {
	case rule.SeverityError:
		return style{bold: true, fg: fixed(9)}
	case rule.SeverityWarning:
		return style{bold: true, fg: fixed(11)}
	case rule.SeverityInfo:
		return style{bold: true, fg: fixed(10)}
	}
	return style{bold: true, fg: fixed(14)}
}

func (p *scanPrinter) gutter() style {
	if p.pal == (palette{}) {
		return style{}
	}
	return style{fg: cyan}
}

// title is "severity[rule-id]: message".
func (p *scanPrinter) title(f rule.Finding) string {
	c := f.Config
	head := p.severityStyle(c.Severity).paint(fmt.Sprintf("%s[%s]", severityLabels[c.Severity], c.ID))
	msg := c.RenderMessage(f.Node, f.Env)
	if p.pal != (palette{}) {
		return head + style{bold: true}.paint(": "+msg)
	}
	return head + ": " + msg
}

// report prints one file's findings, rule by rule.
func (p *scanPrinter) report(r fileResult, fs []rule.Finding) {
	var lines []string // the file's lines, split once for all its findings
	for _, group := range sortedFindingsByRule(fs) {
		c := group[0].Config
		if len(c.Fixes) > 0 {
			p.reportFixes(r, group)
			continue
		}
		for _, f := range group {
			switch p.o.reportStyle {
			case "rich":
				if lines == nil {
					lines = splitSourceLines(r.src)
				}
				p.rich(r, f, lines)
			default:
				line, col := nodeLineCol(f.Node)
				fmt.Fprintf(p.out, "%s:%d:%d: %s\n", r.path, line, col, p.title(f))
				if p.o.reportStyle == "medium" && c.Note != nil {
					note := strings.TrimSuffix(plainMarkdown(*c.Note), "\n")
					for i, l := range strings.Split(note, "\n") {
						if i == 0 {
							fmt.Fprintf(p.out, " = %s\n", l)
						} else {
							fmt.Fprintf(p.out, "   %s\n", l)
						}
					}
				}
			}
		}
	}
}

// note prints a rule's note after a diff or a medium diagnostic.
func (p *scanPrinter) note(c *rule.Config) {
	if c.Note == nil {
		return
	}
	fmt.Fprintln(p.out, style{bold: p.pal != (palette{})}.paint("Note:"))
	fmt.Fprintln(p.out, plainMarkdown(*c.Note))
}

// reportFixes prints the findings of a fixable rule as diffs, skipping a
// finding whose fix overlaps the previous one.
func (p *scanPrinter) reportFixes(r fileResult, group []rule.Finding) {
	end := 0
	context := 3
	if p.o.before > 0 {
		context = p.o.before
	}
	for _, f := range group {
		e := f.Config.Fixes[0].Edit(f.Node, f.Env)
		if e.Start < end {
			continue
		}
		end = e.End
		if p.o.reportStyle == "rich" {
			fmt.Fprintln(p.out, p.pal.path.paint(r.path))
		} else {
			line, col := nodeLineCol(f.Node)
			fmt.Fprintf(p.out, "%s:%d:%d: ", r.path, line, col)
		}
		fmt.Fprintln(p.out, p.title(f))
		if p.o.reportStyle == "rich" {
			updated := string(r.src[:e.Start]) + string(e.Text) + string(r.src[e.End:])
			printDiff(p.out, string(r.src), updated, context, p.pal)
		}
		if p.o.reportStyle != "short" {
			p.note(f.Config)
		}
	}
}

// plainMarkdown renders a note without styles, as ast-grep's terminal
// markdown does: bold and italic asterisks and code backticks dropped,
// with a final newline.
func plainMarkdown(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.ReplaceAll(l, "**", "")
		l = strings.ReplaceAll(l, "`", "")
		var b strings.Builder
		for i := 0; i < len(l); i++ {
			if l[i] == '*' && (i+1 < len(l) && l[i+1] != ' ' || i > 0 && l[i-1] != ' ') {
				continue
			}
			b.WriteByte(l[i])
		}
		lines = append(lines, b.String())
	}
	return strings.Join(lines, "\n") + "\n"
}

// label is a span of a diagnostic in line and character-column terms.
type label struct {
	primary            bool
	message            string
	startLine, endLine int // 0-based
	startCol, endCol   int // character columns, end exclusive
	column             int // multi-line labels: the gutter column
}

func (l *label) multi() bool { return l.startLine != l.endLine }

// rich prints one finding as a codespan-reporting diagnostic.
func (p *scanPrinter) rich(r fileResult, f rule.Finding, lines []string) {
	spans := f.Config.Spans(f.Node, f.Env)
	var labels []*label
	var multis []*label
	for _, s := range spans {
		sp, ep := s.StartNode.StartPoint(), s.EndNode.EndPoint()
		l := &label{
			primary: s.Style == "primary", startLine: sp.Row, endLine: ep.Row,
			startCol: f.Node.Tree().CharColumn(s.Start), endCol: f.Node.Tree().CharColumn(s.End),
		}
		if s.Message != nil {
			l.message = *s.Message
		}
		if l.multi() {
			l.column = len(multis)
			multis = append(multis, l)
		}
		labels = append(labels, l)
	}
	w := p.out
	fmt.Fprintln(w, p.title(f))
	if len(labels) == 0 {
		fmt.Fprintln(w)
		return
	}
	loc := labels[0]
	for _, l := range labels {
		if l.primary {
			loc = l
			break
		}
	}
	shown := map[int]bool{}
	maxLine := 0
	for _, l := range labels {
		shown[l.startLine] = true
		if l.multi() {
			for i := l.startLine; i <= l.endLine; i++ {
				shown[i] = true
			}
		}
		maxLine = max(maxLine, l.endLine+1)
	}
	var order []int
	for n := range shown {
		order = append(order, n)
	}
	sort.Ints(order)
	width := len(fmt.Sprint(maxLine))
	pad := strings.Repeat(" ", width+1)
	g := p.gutter()
	bar := g.paint("│")
	blank := pad + bar + strings.Repeat(" ", 2*len(multis))
	fmt.Fprintf(w, "%s%s %s:%d:%d\n", pad, g.paint("┌─"), r.path, loc.startLine+1, loc.startCol+1)
	fmt.Fprintln(w, blank)
	mark := func(l *label) string {
		if l.primary {
			return "^"
		}
		return "'"
	}
	active := func(m *label, n int) bool { return m.startLine < n && n <= m.endLine }
	// rowCells is the multi-line gutter of a row below source line n.
	rowCells := func(n int) string {
		var b strings.Builder
		for _, m := range multis {
			if active(m, n) {
				b.WriteString(g.paint("│") + " ")
			} else {
				b.WriteString("  ")
			}
		}
		return b.String()
	}
	// lineCells is the gutter of source line n: a corner where a label
	// starts after nothing but indentation.
	lineCells := func(n int) string {
		var b strings.Builder
		for _, m := range multis {
			switch {
			case m.startLine == n && leadingOnly(lines, m):
				b.WriteString(g.paint("╭") + " ")
			case active(m, n):
				b.WriteString(g.paint("│") + " ")
			default:
				b.WriteString("  ")
			}
		}
		return b.String()
	}
	// edgeCells is the gutter of the row drawing e's start or end: the
	// horizontal stroke crosses the columns to its right.
	edgeCells := func(n int, e *label, corner string) string {
		var b strings.Builder
		for _, m := range multis {
			switch {
			case m == e:
				b.WriteString(g.paint(corner + "─"))
			case m.column < e.column && active(m, n) && !(m.endLine == n):
				b.WriteString(g.paint("│") + " ")
			case m.column < e.column:
				b.WriteString("  ")
			case active(m, n) || m.startLine == n && leadingOnly(lines, m):
				b.WriteString(g.paint("│") + "─")
			default:
				b.WriteString("──")
			}
		}
		return b.String()
	}
	prev := -1
	for _, n := range order {
		if prev >= 0 && n > prev+1 {
			if n == prev+2 {
				p.sourceLine(width, bar, lineCells(prev+1), prev+1, lines)
			} else {
				fmt.Fprintf(w, "%s%s\n", pad, g.paint("·"))
			}
		}
		prev = n
		p.sourceLine(width, bar, lineCells(n), n, lines)
		for _, m := range multis {
			if m.startLine == n && !leadingOnly(lines, m) {
				fmt.Fprintf(w, "%s%s %s%s%s\n", pad, bar, edgeCells(n, m, "╭"), strings.Repeat("─", m.startCol), mark(m))
			}
		}
		p.singleLabels(pad, bar, rowCells(n), n, labels)
		for _, m := range multis {
			if m.endLine == n {
				line := fmt.Sprintf("%s%s %s%s%s", pad, bar, edgeCells(n, m, "╰"), strings.Repeat("─", max(m.endCol-1, 0)), mark(m))
				if m.message != "" {
					line += " " + m.message
				}
				fmt.Fprintln(w, line)
			}
		}
	}
	if f.Config.Note != nil {
		fmt.Fprintln(w, blank)
		note := strings.TrimSuffix(plainMarkdown(*f.Config.Note), "\n")
		for i, l := range strings.Split(note, "\n") {
			if i == 0 {
				fmt.Fprintf(w, "%s= %s\n", pad, l)
			} else {
				fmt.Fprintf(w, "%s  %s\n", pad, l)
			}
		}
	}
	fmt.Fprintln(w)
}

// leadingOnly reports whether only spaces and tabs precede a label's start
// on its line.
func leadingOnly(lines []string, l *label) bool {
	if l.startLine >= len(lines) {
		return true
	}
	runes := []rune(lines[l.startLine])
	for i := 0; i < l.startCol && i < len(runes); i++ {
		if runes[i] != ' ' && runes[i] != '\t' {
			return false
		}
	}
	return true
}

func (p *scanPrinter) sourceLine(width int, bar, cells string, n int, lines []string) {
	text := ""
	if n < len(lines) {
		text = lines[n]
	}
	num := fmt.Sprintf("%*d", width, n+1)
	fmt.Fprintf(p.out, "%s %s %s%s\n", p.gutter().paint(num), bar, cells, text)
}

// singleLabels draws the underlines of the single-line labels of line n:
// one row of ^ (primary) and - (secondary), with the rightmost label's
// message; the other messages follow on rows of their own.
func (p *scanPrinter) singleLabels(pad, bar, cells string, n int, labels []*label) {
	var on []*label
	for _, l := range labels {
		if !l.multi() && l.startLine == n {
			on = append(on, l)
		}
	}
	if len(on) == 0 {
		return
	}
	sort.SliceStable(on, func(i, j int) bool { return on[i].startCol < on[j].startCol })
	end := 0
	for _, l := range on {
		end = max(end, l.endCol, l.startCol+1)
	}
	row := []rune(strings.Repeat(" ", end))
	for _, primary := range []bool{false, true} {
		for _, l := range on {
			if l.primary != primary {
				continue
			}
			ch := '-'
			if primary {
				ch = '^'
			}
			for c := l.startCol; c < max(l.endCol, l.startCol+1); c++ {
				row[c] = ch
			}
		}
	}
	last := on[len(on)-1]
	line := strings.TrimRight(string(row), " ")
	if last.message != "" {
		line += " " + last.message
	}
	fmt.Fprintf(p.out, "%s%s %s%s\n", pad, bar, cells, line)
	for i := len(on) - 2; i >= 0; i-- {
		l := on[i]
		if l.message == "" {
			continue
		}
		fmt.Fprintf(p.out, "%s%s %s%s%s\n", pad, bar, cells, strings.Repeat(" ", l.startCol), l.message)
	}
}

// splitSourceLines splits source into lines without their line endings.
func splitSourceLines(src []byte) []string {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}
