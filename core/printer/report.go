package printer

import (
	"fmt"
	"io"
	"sort"

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
			p.short(f)
		}
	}
}

// short prints a finding in the Short or Medium style, as
// codespan-reporting does: "path:LINE:COL: title" for each primary label
// (the title alone when there is none), then, Medium, the rule's note.
func (p *fileReport) short(f rule.Finding) {
	located := false
	for _, s := range f.Config.Spans(f.Node, f.Env) {
		if s.Style != "primary" {
			continue
		}
		located = true
		line, col := s.StartNode.StartPoint().Row+1, f.Node.Tree().CharColumn(s.Start)+1
		fmt.Fprintf(p.w, "%s:%d:%d: %s\n", p.path, line, col, p.title(f))
	}
	if !located {
		fmt.Fprintln(p.w, p.title(f))
	}
	if p.Style == Medium {
		p.notes(f.Config, 0)
	}
}

// fileReport is the report of one file.
type fileReport struct {
	Report
	w      io.Writer
	path   string
	src    []byte
	starts []int // the byte offsets of src's lines, found once for all its diagnostics
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
