package tree

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// SExp renders n's subtree as tree-sitter's ts_node_string does: named
// nodes in parentheses, fields as "name: ", MISSING and UNEXPECTED markers.
//
// One difference: tree-sitter prints an ERROR leaf with the lexer's
// lookahead character, which the flat tree does not carry; SExp prints the
// leaf's first character, which is the same character in practice.
func (n Node) SExp() string {
	var b strings.Builder
	n.writeSExp(&b, true, "")
	return b.String()
}

func (n Node) writeSExp(b *strings.Builder, root bool, field string) {
	visible := n.IsNamed() || n.IsMissing()
	if visible {
		if !root {
			b.WriteByte(' ')
			if field != "" {
				b.WriteString(field)
				b.WriteString(": ")
			}
		}
		switch {
		case n.IsError() && n.ChildCount() == 0 && n.EndByte() > n.StartByte():
			b.WriteString("(UNEXPECTED ")
			r, _ := utf8.DecodeRune(n.Bytes())
			writeChar(b, r)
		case n.IsMissing():
			b.WriteString("(MISSING ")
			if n.IsNamed() {
				b.WriteString(n.Kind())
			} else {
				b.WriteString(`"` + n.Kind() + `"`)
			}
		default:
			b.WriteString("(")
			b.WriteString(n.Kind())
		}
	} else if root {
		switch {
		case n.ChildCount() > 0:
			b.WriteString("(" + n.Kind())
		case n.IsNamed():
			b.WriteString("(" + n.Kind() + ")")
		default:
			b.WriteString(`("` + n.Kind() + `")`)
		}
	}
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		f := c.Field()
		if c.IsExtra() {
			f = ""
		}
		c.writeSExp(b, false, f)
	}
	if visible {
		b.WriteByte(')')
	}
}

func writeChar(b *strings.Builder, r rune) {
	switch {
	case r == utf8.RuneError:
		b.WriteString("INVALID)")
	case r == 0:
		b.WriteString(`'\0'`)
	case r == '\n':
		b.WriteString(`'\n'`)
	case r == '\t':
		b.WriteString(`'\t'`)
	case r == '\r':
		b.WriteString(`'\r'`)
	case r > 0 && r < 128 && strconv.IsPrint(r):
		b.WriteString("'" + string(r) + "'")
	default:
		b.WriteString(strconv.Itoa(int(r)))
	}
}
