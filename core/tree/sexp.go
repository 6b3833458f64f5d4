package tree

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// SExp renders n's subtree as tree-sitter's ts_node_string does: named
// nodes in parentheses, fields as "name: ", MISSING and UNEXPECTED markers.
// It walks the tree with an explicit stack, so any depth is fine.
//
// Two things differ, both in trees with syntax errors, because tree-sitter
// prints internal state its node API (and so the flat tree) never exposes:
//   - an ERROR leaf prints as (UNEXPECTED c) with c its first character;
//     tree-sitter prints the lexer's lookahead when the error was found,
//     which is usually that character, and prints (ERROR) when the error
//     node's only children are hidden ones;
//   - a MISSING node of a hidden symbol, e.g. (MISSING "source_file_token1"),
//     is not printed, since it is not a node of the tree.
func (n Node) SExp() string {
	if n.IsZero() {
		return ""
	}
	var b strings.Builder
	type frame struct {
		visible bool // whether the node printed an opening parenthesis
		next    Node // the next child to print
	}
	stack := []frame{{visible: writeOpen(&b, n, true, ""), next: n.FirstChild()}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		c := top.next
		if c.IsZero() {
			if top.visible {
				b.WriteByte(')')
			}
			stack = stack[:len(stack)-1]
			continue
		}
		top.next = c.NextSibling()
		field := c.Field()
		if c.IsExtra() {
			field = ""
		}
		stack = append(stack, frame{visible: writeOpen(&b, c, false, field), next: c.FirstChild()})
	}
	return b.String()
}

// writeOpen writes the opening of n and reports whether it opened a
// parenthesis that its children's output must close.
func writeOpen(b *strings.Builder, n Node, root bool, field string) bool {
	visible := n.IsNamed() || n.IsMissing()
	if !visible {
		if !root {
			return false
		}
		// An anonymous root: with children it is left open, as tree-sitter
		// leaves it.
		if n.ChildCount() > 0 {
			b.WriteString("(" + n.Kind())
		} else {
			b.WriteString(`("` + n.Kind() + `")`)
		}
		return false
	}
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
		writeChar(b, n.Bytes())
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
	return true
}

// writeChar writes the first character of text as tree-sitter writes a
// lookahead character: quoted when printable ASCII, escaped for a few
// controls, INVALID for a byte that does not start valid UTF-8, and as a
// decimal code point otherwise.
func writeChar(b *strings.Builder, text []byte) {
	r, size := utf8.DecodeRune(text)
	switch {
	case r == utf8.RuneError && size <= 1:
		b.WriteString("INVALID")
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
