package rule

import (
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/tree"
)

// The JSON shapes of ast-grep's --json output, field for field.

// Position is a zero-based line and a zero-based column in characters.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// ByteRange is a half-open byte range.
type ByteRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Range locates a node.
type Range struct {
	ByteOffset ByteRange `json:"byteOffset"`
	Start      Position  `json:"start"`
	End        Position  `json:"end"`
}

// NodeJSON is a node's text and range.
type NodeJSON struct {
	Text  string `json:"text"`
	Range Range  `json:"range"`
}

// MetaVariablesJSON holds a match's bindings.
type MetaVariablesJSON struct {
	Single      map[string]NodeJSON   `json:"single"`
	Multi       map[string][]NodeJSON `json:"multi"`
	Transformed map[string]string     `json:"transformed"`
}

// CharCount is the number of characters of a match's first line before
// it and of its last line after it.
type CharCount struct {
	Leading  int `json:"leading"`
	Trailing int `json:"trailing"`
}

// LabelJSON is a labelled span of a finding.
type LabelJSON struct {
	Text    string  `json:"text"`
	Range   Range   `json:"range"`
	Message *string `json:"message,omitempty"`
	Style   string  `json:"style"`
}

// MatchJSON is one match as `ast-grep run --json` prints it.
type MatchJSON struct {
	Text               string             `json:"text"`
	Range              Range              `json:"range"`
	File               string             `json:"file"`
	Lines              string             `json:"lines"`
	CharCount          CharCount          `json:"charCount"`
	Replacement        *string            `json:"replacement,omitempty"`
	ReplacementOffsets *ByteRange         `json:"replacementOffsets,omitempty"`
	Language           string             `json:"language"`
	MetaVariables      *MetaVariablesJSON `json:"metaVariables,omitempty"`
}

// FindingJSON is one finding as `ast-grep scan --json` prints it.
type FindingJSON struct {
	MatchJSON
	RuleID   string         `json:"ruleId"`
	Severity string         `json:"severity"`
	Note     *string        `json:"note"`
	Message  string         `json:"message"`
	Labels   []LabelJSON    `json:"labels,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// NodeRange returns n's range with character columns.
func NodeRange(n tree.Node) Range {
	return spanRange(n.Tree().Source(), n.StartByte(), n.EndByte(), n.StartPoint().Row, n.EndPoint().Row)
}

func spanRange(src []byte, start, end, startRow, endRow int) Range {
	return Range{
		ByteOffset: ByteRange{start, end},
		Start:      Position{startRow, charColumn(src, start)},
		End:        Position{endRow, charColumn(src, end)},
	}
}

func nodeJSON(n tree.Node) NodeJSON { return NodeJSON{Text: n.Text(), Range: NodeRange(n)} }

// NewMatchJSON describes a match of n with bindings env in file. A fix
// edit, when given, fills the replacement fields.
func NewMatchJSON(file string, n tree.Node, env *match.Env, lang string, edit *rewrite.Edit) MatchJSON {
	src := n.Tree().Source()
	start, end := n.StartByte(), min(n.EndByte(), len(src))
	lead := start
	for lead > 0 && src[lead-1] != '\n' {
		lead--
	}
	trail := end
	for trail < len(src) && src[trail] != '\n' {
		trail++
	}
	m := MatchJSON{
		Text:      n.Text(),
		Range:     NodeRange(n),
		File:      file,
		Lines:     string(src[lead:trail]),
		CharCount: CharCount{Leading: utf8.RuneCount(src[lead:start]), Trailing: utf8.RuneCount(src[end:trail])},
		Language:  lang,
	}
	if edit != nil {
		s := string(edit.Text)
		m.Replacement = &s
		m.ReplacementOffsets = &ByteRange{edit.Start, edit.End}
	}
	if env != nil {
		m.MetaVariables = metaVariablesJSON(env)
	}
	return m
}

func metaVariablesJSON(env *match.Env) *MetaVariablesJSON {
	mv := &MetaVariablesJSON{Single: map[string]NodeJSON{}, Multi: map[string][]NodeJSON{}, Transformed: map[string]string{}}
	any := false
	env.Singles(func(name string, n tree.Node) {
		mv.Single[name] = nodeJSON(n)
		any = true
	})
	env.Multis(func(name string, ns []tree.Node) {
		list := make([]NodeJSON, len(ns))
		for i, n := range ns {
			list[i] = nodeJSON(n)
		}
		mv.Multi[name] = list
		any = true
	})
	for name, s := range env.TransformedAll() {
		any = true
		if _, ok := mv.Single[name]; !ok {
			mv.Transformed[name] = s
		}
	}
	if !any {
		return nil
	}
	return mv
}

// JSON describes the finding as ast-grep's scan does. withFix adds the
// first fix's replacement; withMetadata adds the rule's metadata.
func (f Finding) JSON(file string, withFix, withMetadata bool) FindingJSON {
	c := f.Config
	var edit *rewrite.Edit
	if withFix && len(c.Fixes) > 0 {
		e := c.Fixes[0].Edit(f.Node, f.Env)
		edit = &e
	}
	out := FindingJSON{
		MatchJSON: NewMatchJSON(file, f.Node, f.Env, c.Language.Display(), edit),
		RuleID:    c.ID,
		Severity:  string(c.Severity),
		Note:      c.Note,
		Message:   c.RenderMessage(f.Node, f.Env),
	}
	src := f.Node.Tree().Source()
	for _, s := range c.Spans(f.Node, f.Env) {
		l := LabelJSON{
			Text:  string(src[s.Start:s.End]),
			Range: spanRange(src, s.Start, s.End, s.StartNode.StartPoint().Row, s.EndNode.EndPoint().Row),
			Style: string(s.Style),
		}
		l.Message = s.Message
		out.Labels = append(out.Labels, l)
	}
	if withMetadata {
		out.Metadata = c.Metadata
	}
	return out
}
