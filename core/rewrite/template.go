// Package rewrite renders fix templates the way ast-grep does and applies
// the resulting edits to source text. A template is text with metavariables
// ($A, $$$ARGS, transformed variables); rendering substitutes their matched
// text, re-indenting multi-line values so they keep their relative layout
// at the position where they are inserted.
package rewrite

import (
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// VarKind tells how a template variable is looked up in an Env.
type VarKind uint8

const (
	// Single is $A: the node bound to A.
	Single VarKind = iota
	// Multi is $$$A: the source text spanning the nodes bound to A.
	Multi
	// Transformed is $A where A is a transform key: its computed string.
	Transformed
)

// Var is one metavariable occurrence in a template.
type Var struct {
	Name   string
	Kind   VarKind
	indent int // indentation of the template line it sits on
}

// Template is a compiled fix template. The zero value renders "".
type Template struct {
	frags []string // len(frags) == len(vars)+1
	vars  []Var
}

// Compile parses a template. Names listed in transformed are looked up as
// transformed strings rather than as matched nodes. Compilation never
// fails: text that does not form a metavariable is kept literally.
func Compile(src string, transformed []string) *Template {
	t := &Template{}
	lit := 0 // start of the pending literal text
	for i := 0; i < len(src); {
		if src[i] != '$' {
			i++
			continue
		}
		name, kind, end := scanVar(src, i)
		if end < 0 {
			i++
			continue
		}
		if kind == Single && contains(transformed, name) {
			kind = Transformed
		}
		t.frags = append(t.frags, src[lit:i])
		t.vars = append(t.vars, Var{Name: name, Kind: kind, indent: IndentAt([]byte(src), i)})
		lit, i = end, end
	}
	t.frags = append(t.frags, src[lit:])
	return t
}

// scanVar reads a metavariable at src[i] == '$': one or two dollars make a
// single variable, three a multi variable, followed by a name that starts
// with A-Z or _ and goes on with A-Z, 0-9 and _. It returns end < 0 when no
// name follows.
func scanVar(src string, i int) (name string, kind VarKind, end int) {
	n := 1
	for n < 3 && i+n < len(src) && src[i+n] == '$' {
		n++
	}
	if n == 3 {
		kind = Multi
	}
	j := i + n
	if j >= len(src) || !(src[j] >= 'A' && src[j] <= 'Z' || src[j] == '_') {
		return "", 0, -1
	}
	for j < len(src) && isVarChar(src[j]) {
		j++
	}
	return src[i+n : j], kind, j
}

func isVarChar(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Vars returns the metavariables the template uses, in order.
func (t *Template) Vars() []Var { return t.vars }

// IsText reports whether the template has no metavariables.
func (t *Template) IsText() bool { return len(t.vars) == 0 }

// Expand substitutes the metavariables of env into the template without
// adjusting the result to any insertion point. Unbound variables expand to
// nothing. A text longer than env's budget allows (match.Budget.MaxText)
// is not built: Expand stops, records that in the budget (see its Err)
// and returns what it had.
func (t *Template) Expand(env *match.Env) []byte {
	if len(t.frags) == 0 {
		return nil
	}
	budget := env.Budget()
	limit := budget.MaxText()
	out := []byte(t.frags[0])
	for i, v := range t.vars {
		out = append(out, value(env, v)...)
		out = append(out, t.frags[i+1]...)
		if int64(len(out)) > limit {
			budget.Produce(len(out))
			return out
		}
	}
	budget.Produce(len(out))
	return out
}

// Render expands the template for a match of node n and indents every
// line after the first to the indentation of the line where n starts, so
// the text can replace n in place.
func (t *Template) Render(env *match.Env, n tree.Node) string {
	out := t.Expand(env)
	if n.IsZero() {
		return string(out)
	}
	return string(Reindent(out, 0, IndentAt(n.Tree().Source(), n.StartByte())))
}

// value returns the text a variable stands for, laid out for the template
// line it is inserted into.
func value(env *match.Env, v Var) []byte {
	if env == nil {
		return nil
	}
	switch v.Kind {
	case Transformed:
		s, ok := env.Transformed(v.Name)
		if !ok {
			return nil
		}
		return Reindent([]byte(s), 0, v.indent)
	case Single:
		n, ok := env.Single(v.Name)
		if !ok {
			return nil
		}
		return extract(n.Tree().Source(), n.StartByte(), n.EndByte(), v.indent)
	default:
		ns, ok := env.Multi(v.Name)
		if !ok || len(ns) == 0 {
			return nil
		}
		return extract(ns[0].Tree().Source(), ns[0].StartByte(), ns[len(ns)-1].EndByte(), v.indent)
	}
}

// extract returns src[start:end] re-indented from the indentation of the
// line it starts on to indent.
func extract(src []byte, start, end, indent int) []byte {
	text := src[start:end]
	return Reindent(text, IndentAt(src, start), indent)
}
