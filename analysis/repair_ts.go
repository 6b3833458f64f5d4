package analysis

import (
	"github.com/loupe-dev/loupe/core/tree"
)

// Repairing TypeScript's type bodies. tree-sitter-typescript reads a call
// or construct signature that starts a line of an interface or object
// type (`<T>(value: T[]): X<T>` under another signature, with no `;`
// between them) as the previous member's continuation, closes the body
// early and leaves the rest of the file in an ERROR: the interface loses
// its members (mobx's IObservableFactory). TypeScript itself reads a line
// break there as a separator. tsRepair writes that separator: it puts a
// `;` in place of the whitespace before each such signature, so the
// source keeps its length and lines and every offset the facts hold.

// tsRepair returns t's source with a `;` before each signature line of
// an interface or object type body tree-sitter closed early, or nil when
// none is.
func tsRepair(t *tree.Tree) []byte {
	src := t.Source()
	var out []byte
	changed := false
	t.Root().Descendants(func(n tree.Node) bool {
		if !n.IsMissing() || n.Kind() != "}" {
			return true
		}
		body := n.Parent()
		if body.IsZero() || body.Kind() != "interface_body" && body.Kind() != "object_type" {
			return true
		}
		if out == nil {
			out = append([]byte(nil), src...)
		}
		if separateSignatures(out, body.StartByte()) {
			changed = true
		}
		return true
	})
	if !changed {
		return nil
	}
	return out
}

// separateSignatures writes a `;` before each line of the type body
// opening at src[open] ('{') that starts a call signature ('<' or '('),
// at the body's own depth and after a member that ends without one; it
// reports whether it wrote any.
func separateSignatures(src []byte, open int) (wrote bool) {
	if open >= len(src) || src[open] != '{' {
		return false
	}
	depth := 0
	last := byte('{') // the last character that is not space or comment
	for i := open; i < len(src); i++ {
		if j, ok := skipLiteral(src, i); ok {
			i = j
			continue
		}
		c := src[i]
		switch c {
		case '{', '(', '[', '<':
			if depth == 1 && (c == '<' || c == '(') && lineStart(src, i) && last != '{' && last != ';' && last != ',' &&
				i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
				src[i-1] = ';'
				wrote = true
			}
			depth++
		case '}', ')', ']', '>':
			if c == '>' && i > 0 && src[i-1] == '=' {
				break // => of a function type
			}
			depth--
			if depth == 0 {
				return wrote
			}
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			last = src[i]
		}
	}
	return wrote
}

// skipLiteral reports whether src[i] starts a string, a template literal
// or a comment of TypeScript or JavaScript, and the index of its last
// byte (or of the line's end for a line comment).
func skipLiteral(src []byte, i int) (int, bool) {
	switch c := src[i]; {
	case c == '\'' || c == '"' || c == '`':
		for i++; i < len(src) && src[i] != c; i++ {
			if src[i] == '\\' {
				i++
			}
		}
		return i, true
	case c == '/' && i+1 < len(src) && src[i+1] == '/':
		for i < len(src) && src[i] != '\n' {
			i++
		}
		return i - 1, true
	case c == '/' && i+1 < len(src) && src[i+1] == '*':
		for i += 2; i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/'); i++ {
		}
		return i + 1, true
	}
	return i, false
}

// lineStart reports whether only spaces and tabs precede src[i] on its
// line.
func lineStart(src []byte, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch src[j] {
		case ' ', '\t':
			continue
		case '\n':
			return true
		}
		return false
	}
	return true
}
