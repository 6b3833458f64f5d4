// Package wire is ast-grep's JSON output, field for field: the types of a
// match (`run --json`) and of a finding (`scan --json`), built from a
// matched node, and an encoder that writes them byte for byte as ast-grep
// (serde_json) does in its three styles, pretty, stream and compact.
//
// It is the one place loupe knows this format: the CLI prints it, the
// differential tests decode ast-grep's own output into the same types,
// and core never imports it.
package wire

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/tree"
)

// Position is a zero-based line and a zero-based column in characters.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// ByteRange is a half-open range of byte offsets.
type ByteRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Range locates a node or a label.
type Range struct {
	ByteOffset ByteRange `json:"byteOffset"`
	Start      Position  `json:"start"`
	End        Position  `json:"end"`
}

// Node is a captured node's text and range.
type Node struct {
	Text  string `json:"text"`
	Range Range  `json:"range"`
}

// MetaVariables holds a match's bindings, each list in name order, one
// entry a name. In JSON each list is an object keyed by name, as ast-grep
// writes them ("single", "multi" and "transformed").
type MetaVariables struct {
	Single      []Single
	Multi       []Multi
	Transformed []Transformed
}

// Single is a metavariable bound to one node ($A).
type Single struct {
	Name string
	Node Node
}

// Multi is a metavariable bound to a list of nodes ($$$A).
type Multi struct {
	Name  string
	Nodes []Node
}

// Transformed is a metavariable a rule's transform set to a text.
type Transformed struct {
	Name, Text string
}

// CharCount is the number of characters of Lines before the match and
// after it.
type CharCount struct {
	Leading  int `json:"leading"`
	Trailing int `json:"trailing"`
}

// Label is a labelled span of a finding.
type Label struct {
	Text    string  `json:"text"`
	Range   Range   `json:"range"`
	Message *string `json:"message,omitempty"`
	Style   string  `json:"style"`
}

// Match is one match as `ast-grep run --json` prints it.
type Match struct {
	Text               string         `json:"text"`
	Range              Range          `json:"range"`
	File               string         `json:"file"`
	Lines              string         `json:"lines"`
	CharCount          CharCount      `json:"charCount"`
	Replacement        *string        `json:"replacement,omitempty"`
	ReplacementOffsets *ByteRange     `json:"replacementOffsets,omitempty"`
	Language           string         `json:"language"`
	MetaVariables      *MetaVariables `json:"metaVariables,omitempty"`
}

// Finding is one finding as `ast-grep scan --json` prints it.
type Finding struct {
	Match
	RuleID   string         `json:"ruleId"`
	Severity string         `json:"severity"`
	Note     *string        `json:"note"`
	Message  string         `json:"message"`
	Labels   []Label        `json:"labels,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Replacement is the rewrite of a match: its text and the bytes it
// replaces.
type Replacement struct {
	Text       string
	Start, End int
}

// SpanRange returns the range of the bytes [start, end) of t, which lie
// on rows startRow to endRow.
func SpanRange(t *tree.Tree, start, end, startRow, endRow int) Range {
	return Range{
		ByteOffset: ByteRange{start, end},
		Start:      Position{startRow, t.CharColumn(start)},
		End:        Position{endRow, t.CharColumn(end)},
	}
}

// NodeRange returns n's range.
func NodeRange(n tree.Node) Range {
	t, start, end := n.Tree(), n.StartByte(), n.EndByte()
	startRow, startCol, endRow, endCol := t.CharRange(start, end)
	return Range{ByteOffset: ByteRange{start, end}, Start: Position{startRow, startCol}, End: Position{endRow, endCol}}
}

func newNode(n tree.Node) Node { return Node{Text: n.Text(), Range: NodeRange(n)} }

// NewMatch describes a match of n with bindings env in file, with before
// and after lines of context in Lines (ast-grep's -B and -A) and, when
// repl is not nil, its rewrite.
func NewMatch(file string, n tree.Node, env *match.Env, lang string, before, after int, repl *Replacement) Match {
	c := Around(n, before, after)
	m := Match{
		Text:      n.Text(),
		Range:     NodeRange(n),
		File:      file,
		Lines:     c.lines,
		CharCount: CharCount{Leading: utf8.RuneCountInString(c.Leading), Trailing: utf8.RuneCountInString(c.Trailing)},
		Language:  lang,
	}
	if repl != nil {
		text := repl.Text
		m.Replacement = &text
		m.ReplacementOffsets = &ByteRange{repl.Start, repl.End}
	}
	m.MetaVariables = newMetaVariables(env)
	return m
}

// newMetaVariables returns env's bindings, or nil when nothing is bound
// (ast-grep then leaves the field out).
func newMetaVariables(env *match.Env) *MetaVariables {
	if env == nil {
		return nil
	}
	mark, transformed := env.Mark(), env.TransformedAll()
	if mark == (match.Mark{}) && len(transformed) == 0 {
		return nil // nothing bound
	}
	// Past an empty mark at least one name is bound, so mv has an entry.
	singles, multis := mark.Counts()
	mv := &MetaVariables{}
	if singles > 0 {
		mv.Single = make([]Single, 0, singles)
		env.Singles(func(name string, n tree.Node) { mv.Single = append(mv.Single, Single{name, newNode(n)}) })
		slices.SortFunc(mv.Single, func(a, b Single) int { return strings.Compare(a.Name, b.Name) })
	}
	if multis > 0 {
		mv.Multi = make([]Multi, 0, multis)
		env.Multis(func(name string, ns []tree.Node) {
			list := make([]Node, len(ns))
			for i, n := range ns {
				list[i] = newNode(n)
			}
			mv.Multi = append(mv.Multi, Multi{name, list})
		})
		slices.SortFunc(mv.Multi, func(a, b Multi) int { return strings.Compare(a.Name, b.Name) })
	}
	mv.Transformed = byName(transformed, func(name, text string) Transformed { return Transformed{name, text} })
	return mv
}

// byName returns m's entries made by f, in name order (nil for none).
func byName[V, E any](m map[string]V, f func(name string, v V) E) []E {
	var out []E
	for _, name := range slices.Sorted(maps.Keys(m)) {
		out = append(out, f(name, m[name]))
	}
	return out
}

// MarshalJSON writes mv as ast-grep does: three objects keyed by name.
func (mv *MetaVariables) MarshalJSON() ([]byte, error) {
	e := newEncoder(Compact)
	e.metaVariables(mv)
	return e.b.b, nil
}

// UnmarshalJSON reads ast-grep's three objects keyed by name.
func (mv *MetaVariables) UnmarshalJSON(b []byte) error {
	var m struct {
		Single      map[string]Node   `json:"single"`
		Multi       map[string][]Node `json:"multi"`
		Transformed map[string]string `json:"transformed"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*mv = MetaVariables{
		Single:      byName(m.Single, func(name string, n Node) Single { return Single{name, n} }),
		Multi:       byName(m.Multi, func(name string, ns []Node) Multi { return Multi{name, ns} }),
		Transformed: byName(m.Transformed, func(name, text string) Transformed { return Transformed{name, text} }),
	}
	return nil
}

// NewFinding describes a finding of a scan in file as ast-grep's scan
// does (no context lines). withFix adds the replacement of the rule's
// first fix; withMetadata adds the rule's metadata.
func NewFinding(file string, f rule.Finding, withFix, withMetadata bool) Finding {
	c := f.Config
	var repl *Replacement
	if withFix && len(c.Fixes) > 0 {
		e := c.Fixes[0].Edit(f.Node, f.Env)
		repl = &Replacement{Text: string(e.Text), Start: e.Start, End: e.End}
	}
	out := Finding{
		Match:    NewMatch(file, f.Node, f.Env, c.Language.Display(), 0, 0, repl),
		RuleID:   c.ID,
		Severity: string(c.Severity),
		Note:     c.Note,
		Message:  c.RenderMessage(f.Node, f.Env),
	}
	t := f.Node.Tree()
	src := t.Source()
	for _, s := range c.Spans(f.Node, f.Env) {
		// A label over the match itself, as most are, has its range.
		r := out.Range
		if s.Start != r.ByteOffset.Start || s.End != r.ByteOffset.End {
			r = SpanRange(t, s.Start, s.End, s.StartNode.StartPoint().Row, s.EndNode.EndPoint().Row)
		}
		out.Labels = append(out.Labels, Label{
			Text:    view(src[s.Start:s.End]),
			Range:   r,
			Message: s.Message,
			Style:   string(s.Style),
		})
	}
	if withMetadata {
		out.Metadata = c.Metadata
	}
	return out
}

// Context is a match's text with whole lines around it, as ast-grep
// cuts it: Leading runs from the start of the line `before` lines above
// the match's first line, Trailing to the end of the line `after` lines
// below its last.
type Context struct {
	Leading, Matched, Trailing string
	// StartLine is the zero-based line of Leading's first line.
	StartLine int
	lines     string // Leading, Matched and Trailing together
}

// Around returns n's context with before and after lines.
func Around(n tree.Node, before, after int) Context {
	src := n.Tree().Source()
	start, end := n.StartByte(), min(n.EndByte(), len(src))
	lead := start
	linesBefore := before + 1
	for lead > 0 {
		if src[lead-1] == '\n' {
			linesBefore--
			if linesBefore == 0 {
				break
			}
		}
		lead--
	}
	trail := end
	linesAfter := after + 1
	for trail < len(src) {
		if src[trail] == '\n' {
			linesAfter--
			if linesAfter == 0 {
				break
			}
		}
		trail++
	}
	offset := before
	if linesBefore != 0 {
		offset = before + 1 - linesBefore
	}
	// The strings are views of the source, which is never modified, as
	// Node.Text's are.
	lines := view(src[lead:trail])
	return Context{
		Leading:   lines[:start-lead],
		Matched:   lines[start-lead : end-lead],
		Trailing:  lines[end-lead:],
		StartLine: n.StartPoint().Row - offset,
		lines:     lines,
	}
}

// view returns b as a string without copying it; b must never change.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
