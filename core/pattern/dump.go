package pattern

import (
	"strings"

	"github.com/loupe-dev/loupe/core/tree"
)

// DumpNode is one node of a compiled pattern as ast-grep's
// --debug-query=pattern shows it.
type DumpNode struct {
	// MetaVar marks a metavariable; Text is then its display form: $A
	// (also for $$A), $$$A, $$$ (also for $$$_X) or $_ (also for $$_X).
	MetaVar bool
	// Kind is the node kind, "MetaVar" for a metavariable, "(node)" for an
	// inner node under Template, and empty where the strictness ignores
	// it (leaves under Template, anonymous tokens).
	Kind string
	// Text is a leaf's text, empty for inner nodes and under Signature.
	Text     string
	Children []DumpNode
}

// Dump returns the pattern as the matcher sees it under its strictness:
// anonymous tokens are left out where they are skipped (Ast, Relaxed,
// Signature), kinds where they are ignored (Template), leaf text where it
// is (Signature).
func (p *Pattern) Dump() DumpNode {
	d, _ := p.dump(&p.node)
	return d
}

func (p *Pattern) dump(g *node) (DumpNode, bool) {
	switch g.kind {
	case metaVarNode:
		text := "$$$"
		switch g.mv {
		case capture:
			text = "$" + g.text
		case dropped:
			text = "$_"
		case multiCapture:
			text = "$$$" + g.text
		}
		return DumpNode{MetaVar: true, Kind: "MetaVar", Text: text}, true
	case terminalNode:
		if !g.named {
			switch p.strictness {
			case Cst, Smart, Template:
				return DumpNode{Text: g.text}, true
			}
			return DumpNode{}, false
		}
		d := DumpNode{Kind: p.kindName(g.kindID), Text: g.text}
		if p.strictness == Template {
			d.Kind = ""
		}
		if p.strictness == Signature {
			d.Text = ""
		}
		return d, true
	}
	d := DumpNode{Kind: p.kindName(g.kindID)}
	if p.strictness == Template {
		d.Kind = "(node)"
	}
	for i := range g.children {
		if c, ok := p.dump(&g.children[i]); ok {
			d.Children = append(d.Children, c)
		}
	}
	return d, true
}

func (p *Pattern) kindName(id uint16) string {
	if id == tree.ErrorKindID {
		return "ERROR"
	}
	if names := p.tree.Names(); int(id) < len(names.Symbols) {
		return names.Symbols[id]
	}
	return "UNKNOWN"
}

// String renders the dump one node a line, indented by two spaces a level,
// each line "KIND TEXT" with the empty parts left out, as ast-grep prints
// it under "Debug Pattern:".
func (d DumpNode) String() string {
	var b strings.Builder
	d.write(&b, 0)
	return b.String()
}

func (d DumpNode) write(b *strings.Builder, depth int) {
	b.WriteString(strings.Repeat("  ", depth))
	switch {
	case d.Kind != "" && d.Text != "":
		b.WriteString(d.Kind + " " + d.Text)
	case d.Kind != "":
		b.WriteString(d.Kind)
	default:
		b.WriteString(d.Text)
	}
	b.WriteByte('\n')
	for _, c := range d.Children {
		c.write(b, depth+1)
	}
}
