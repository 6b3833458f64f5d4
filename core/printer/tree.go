package printer

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/tree"
)

// Tree dumps the subtree at n as ast-grep's --debug-query=ast/cst does:
// one node per line, indented by depth, "field: kind (row,col)-(row,col)"
// with 0-based rows and byte columns. namedOnly (ast) leaves anonymous
// nodes, and everything under them, out.
func Tree(n tree.Node, namedOnly bool, pal Palette) string {
	var b strings.Builder
	var walk func(n tree.Node, depth int)
	walk = func(n tree.Node, depth int) {
		if namedOnly && !n.IsNamed() {
			return
		}
		b.WriteString(strings.Repeat("  ", depth))
		if f := n.Field(); f != "" && !n.IsExtra() {
			b.WriteString(pal.Field.Paint(f) + ": ")
		}
		kind := n.Kind()
		if n.IsMissing() {
			kind = "MISSING " + kind
		}
		sp, ep := n.StartPoint(), n.EndPoint()
		fmt.Fprintf(&b, "%s (%d,%d)-(%d,%d)\n", pal.Kind.Paint(kind), sp.Row, sp.Column, ep.Row, ep.Column)
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// Pattern dumps a compiled pattern as ast-grep's --debug-query=pattern
// does, one node per line: "kind text" for a named leaf, the text of an
// anonymous one, "kind" for an inner node and "MetaVar $X" for a
// metavariable. Anonymous leaves are left out under the strictness levels
// that skip them, and Template shows no kinds.
func Pattern(p *pattern.Pattern, pal Palette) string {
	var b strings.Builder
	sigil := p.Language().Expando()
	s := p.Strictness()
	var walk func(n tree.Node, depth int)
	walk = func(n tree.Node, depth int) {
		indent := strings.Repeat("  ", depth)
		if mv, ok := metaVarDisplay(n.Text(), sigil); ok {
			fmt.Fprintf(&b, "%s%s %s\n", indent, pal.Field.Paint("MetaVar"), pal.Kind.Paint(mv))
			return
		}
		if n.ChildCount() == 0 {
			if !n.IsNamed() {
				if s == pattern.Cst || s == pattern.Smart || s == pattern.Template {
					fmt.Fprintf(&b, "%s%s\n", indent, n.Text())
				}
				return
			}
			text := n.Text()
			if s == pattern.Signature {
				text = ""
			}
			if s == pattern.Template {
				fmt.Fprintf(&b, "%s%s\n", indent, text)
				return
			}
			if text == "" {
				fmt.Fprintf(&b, "%s%s\n", indent, pal.Kind.Paint(n.Kind()))
			} else {
				fmt.Fprintf(&b, "%s%s %s\n", indent, pal.Kind.Paint(n.Kind()), text)
			}
			return
		}
		kind := n.Kind()
		if s == pattern.Template {
			kind = "(node)"
		}
		fmt.Fprintf(&b, "%s%s\n", indent, pal.Kind.Paint(kind))
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			if !c.IsMissing() {
				walk(c, depth+1)
			}
		}
	}
	walk(p.Root(), 0)
	return b.String()
}

// metaVarDisplay reads text (with the language's expando character) as a
// metavariable, by the rules core/pattern applies, and spells it as
// ast-grep's dump does: $A for $A and $$A, $$$A, $$$ for an anonymous
// list, $_ for a non-capturing one.
func metaVarDisplay(text string, sigil rune) (string, bool) {
	sig := string(sigil)
	three := strings.Repeat(sig, 3)
	switch {
	case !strings.HasPrefix(text, sig):
		return "", false
	case text == three:
		return "$$$", true
	}
	if rest, ok := strings.CutPrefix(text, three); ok {
		switch {
		case !metaChars(rest):
			return "", false
		case rest[0] == '_':
			return "$$$", true
		}
		return "$$$" + rest, true
	}
	rest := strings.TrimPrefix(text[utf8.RuneLen(sigil):], sig)
	switch {
	case !metaChars(rest) || rest[0] >= '0' && rest[0] <= '9':
		return "", false
	case rest[0] == '_':
		return "$_", true
	}
	return "$" + rest, true
}

// metaChars reports a non-empty run of A-Z, 0-9 and _.
func metaChars(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r == '_' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
