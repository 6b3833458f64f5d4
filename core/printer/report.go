package printer

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/tree"
)

// ReportStyle is how Report prints a finding that has no fix.
type ReportStyle string

// The report styles of ast-grep's --report-style.
const (
	Rich   ReportStyle = "rich"   // a codespan-reporting diagnostic: the source lines, labels underlined
	Medium ReportStyle = "medium" // "path:LINE:COL: title" and the rule's note
	Short  ReportStyle = "short"  // "path:LINE:COL: title"
)

// Report prints rule findings as ast-grep's scan does, rule by rule (rule
// ids in order). A finding of a rule with a fix prints as its title and,
// in the Rich style, the diff of its fix, then the rule's note unless
// Short; a fix overlapping the previous one is left out. The other
// findings print in the report Style. A title is "severity[rule-id]:
// message".
type Report struct {
	Style   ReportStyle // "" is Rich
	Context int         // the unchanged lines around a fix's diff
	// StartContext and EndContext are how many of a multi-line label's
	// inner lines a Rich diagnostic shows after its first line and
	// before its last (ast-grep's -B and -A, 0 by default); the lines
	// between are folded into a "·" row, as codespan-reporting folds
	// them.
	StartContext, EndContext int
	Palette                  Palette
}

// Print writes one file's findings; src is the file's source, which the
// findings' nodes were parsed from, and path is the name printed for it.
func (r Report) Print(w io.Writer, path string, src []byte, findings []rule.Finding) {
	p := &fileReport{Report: r, w: w, path: path, src: src}
	for _, group := range byRule(findings) {
		c := group[0].Config
		if len(c.Fixes) > 0 {
			p.fixes(group)
			continue
		}
		for _, f := range group {
			if p.rich() {
				p.diagnostic(f)
				continue
			}
			line, col := lineCol(f.Node)
			fmt.Fprintf(w, "%s:%d:%d: %s\n", path, line, col, p.title(f))
			if r.Style == Medium && c.Note != nil {
				note := strings.TrimSuffix(plainMarkdown(*c.Note), "\n")
				for i, l := range strings.Split(note, "\n") {
					if i == 0 {
						fmt.Fprintf(w, " = %s\n", l)
					} else {
						fmt.Fprintf(w, "   %s\n", l)
					}
				}
			}
		}
	}
}

// fileReport is the report of one file.
type fileReport struct {
	Report
	w     io.Writer
	path  string
	src   []byte
	lines []string // src's lines, split once for all its diagnostics
}

func (p *fileReport) rich() bool { return p.Style == Rich || p.Style == "" }

// GroupByRule groups findings by rule id (ids in order), each group in
// the order given: the groups Report prints one after the other.
func GroupByRule(findings []rule.Finding) [][]rule.Finding { return byRule(findings) }

// byRule groups findings by rule id (ids in order), each group in the
// order given.
func byRule(fs []rule.Finding) [][]rule.Finding {
	byID := map[string][]rule.Finding{}
	var ids []string
	for _, f := range fs {
		if _, ok := byID[f.Config.ID]; !ok {
			ids = append(ids, f.Config.ID)
		}
		byID[f.Config.ID] = append(byID[f.Config.ID], f)
	}
	sort.Strings(ids)
	out := make([][]rule.Finding, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out
}

// lineCol returns a node's 1-based line and character column.
func lineCol(n tree.Node) (int, int) {
	return n.StartPoint().Row + 1, n.Tree().CharColumn(n.StartByte()) + 1
}

// severityLabels are the diagnostic levels ast-grep prints per severity.
var severityLabels = map[rule.Severity]string{
	rule.SeverityError: "error", rule.SeverityWarning: "warning", rule.SeverityInfo: "note", rule.SeverityHint: "help",
}

func (p *fileReport) severityStyle(s rule.Severity) Style {
	switch s {
	case rule.SeverityError:
		return p.Palette.Error
	case rule.SeverityWarning:
		return p.Palette.Warning
	case rule.SeverityInfo:
		return p.Palette.Info
	}
	return p.Palette.Hint
}

// title is "severity[rule-id]: message".
func (p *fileReport) title(f rule.Finding) string {
	c := f.Config
	head := p.severityStyle(c.Severity).Paint(fmt.Sprintf("%s[%s]", severityLabels[c.Severity], c.ID))
	return head + p.Palette.Emphasis.Paint(": "+c.RenderMessage(f.Node, f.Env))
}

// note prints a rule's note after a diff.
func (p *fileReport) note(c *rule.Config) {
	if c.Note == nil {
		return
	}
	fmt.Fprintln(p.w, p.Palette.Emphasis.Paint("Note:"))
	fmt.Fprintln(p.w, plainMarkdown(*c.Note))
}

// fixes prints the findings of a fixable rule as diffs, skipping a
// finding whose fix overlaps the previous one.
func (p *fileReport) fixes(group []rule.Finding) {
	end := 0
	for _, f := range group {
		e := f.Config.Fixes[0].Edit(f.Node, f.Env)
		if e.Start < end {
			continue
		}
		end = e.End
		p.fix(f, e)
	}
}

// fix prints a finding with the edit of one of its rule's fixes: its
// title and, in the Rich style, the diff of the edit, then the rule's
// note unless Short.
func (p *fileReport) fix(f rule.Finding, e rewrite.Edit) {
	if p.rich() {
		fmt.Fprintln(p.w, p.Palette.Path.Paint(p.path))
	} else {
		line, col := lineCol(f.Node)
		fmt.Fprintf(p.w, "%s:%d:%d: ", p.path, line, col)
	}
	fmt.Fprintln(p.w, p.title(f))
	if p.rich() {
		updated := string(p.src[:e.Start]) + string(e.Text) + string(p.src[e.End:])
		Diff(p.w, string(p.src), updated, p.Context, p.Palette)
	}
	if p.Style != Short {
		p.note(f.Config)
	}
}

// PrintFix writes one finding of a rule with a fix as Print writes it,
// with e, the edit of one of the rule's fixes, as its change: the one
// screen of ast-grep's interactive session for that fix.
func (r Report) PrintFix(w io.Writer, path string, src []byte, f rule.Finding, e rewrite.Edit) {
	p := &fileReport{Report: r, w: w, path: path, src: src}
	p.fix(f, e)
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

// diagnostic prints one finding as a codespan-reporting diagnostic.
func (p *fileReport) diagnostic(f rule.Finding) {
	if p.lines == nil {
		p.lines = splitSourceLines(p.src)
	}
	lines := p.lines
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
	w := p.w
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
			shown[l.endLine] = true
			for i := l.startLine + 1; i < l.endLine; i++ {
				if i-l.startLine <= p.StartContext || l.endLine-i <= p.EndContext {
					shown[i] = true
				}
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
	g := p.Palette.Gutter
	bar := g.Paint("│")
	blank := pad + bar + strings.Repeat(" ", 2*len(multis))
	fmt.Fprintf(w, "%s%s %s:%d:%d\n", pad, g.Paint("┌─"), p.path, loc.startLine+1, loc.startCol+1)
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
				b.WriteString(g.Paint("│") + " ")
			} else {
				b.WriteString("  ")
			}
		}
		return b.String()
	}
	// breakCells is the gutter of the "·" row folding the lines after
	// source line n: a bar for each label going on past n.
	breakCells := func(n int) string {
		var b strings.Builder
		for _, m := range multis {
			if m.startLine <= n && n < m.endLine {
				b.WriteString(" " + g.Paint("│"))
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
				b.WriteString(g.Paint("╭") + " ")
			case active(m, n):
				b.WriteString(g.Paint("│") + " ")
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
				b.WriteString(g.Paint(corner + "─"))
			case m.column < e.column && active(m, n) && !(m.endLine == n):
				b.WriteString(g.Paint("│") + " ")
			case m.column < e.column:
				b.WriteString("  ")
			case active(m, n) || m.startLine == n && leadingOnly(lines, m):
				b.WriteString(g.Paint("│") + "─")
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
				p.sourceLine(width, bar, lineCells(prev+1), prev+1)
			} else {
				fmt.Fprintf(w, "%s%s%s\n", pad, g.Paint("·"), breakCells(prev))
			}
		}
		prev = n
		p.sourceLine(width, bar, lineCells(n), n)
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

// sourceLine prints source line n (0-based) under a gutter of the given
// width, with the multi-line label cells before its text.
func (p *fileReport) sourceLine(width int, bar, cells string, n int) {
	text := ""
	if n < len(p.lines) {
		text = p.lines[n]
	}
	num := fmt.Sprintf("%*d", width, n+1)
	fmt.Fprintf(p.w, "%s %s %s%s\n", p.Palette.Gutter.Paint(num), bar, cells, text)
}

// singleLabels draws the underlines of the single-line labels of line n:
// one row of ^ (primary) and - (secondary), with the rightmost label's
// message; the other messages follow on rows of their own.
func (p *fileReport) singleLabels(pad, bar, cells string, n int, labels []*label) {
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
	fmt.Fprintf(p.w, "%s%s %s%s\n", pad, bar, cells, line)
	for i := len(on) - 2; i >= 0; i-- {
		l := on[i]
		if l.message == "" {
			continue
		}
		fmt.Fprintf(p.w, "%s%s %s%s%s\n", pad, bar, cells, strings.Repeat(" ", l.startCol), l.message)
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
