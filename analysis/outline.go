package analysis

import (
	"context"
	"strings"

	"github.com/loupe-dev/loupe/core/tree"
)

// Symbol is one definition of a file as an outline (the project index)
// lists it: a module-level definition or a member of a class-like one,
// never a local of a function body.
type Symbol struct {
	Name string `json:"name"`
	// Kind is what the definition is, as structural_analysis labels it:
	// function, method, constructor, class, interface, struct, trait,
	// enum, type, variable, constant, property, field, module,
	// namespace, impl, object, record, macro, signature.
	Kind string `json:"kind"`
	// Container is the class-like definition (or, for a Go method, the
	// receiver type) the symbol is a member of; "" at module level.
	Container string `json:"container,omitempty"`
	// Signature is the definition's head, up to its body, on one line
	// with runs of blanks made one space, at most maxSignature bytes.
	Signature string `json:"signature"`
	// ReturnType and Parameters are a callable's declared result and
	// parameter list as written, "" where the language or the
	// definition gives none.
	ReturnType string `json:"return_type"`
	Parameters string `json:"parameters"`
	// Line is the 1-based line of the symbol's name.
	Line int `json:"line"`
}

// maxSignature bounds a Symbol's Signature, ReturnType and Parameters,
// in bytes.
const maxSignature = 240

// returnFields are the fields grammars give a callable's declared result.
var returnFields = []string{"result", "return_type", "returns", "type"}

// FileSymbols lists the symbols of a file of language lang (a
// SupportedLanguages name) from its parsed tree, in source order, through
// the same tables and fact walk every structural_analysis mode reads.
func FileSymbols(ctx context.Context, lang string, t *tree.Tree) ([]Symbol, error) {
	c, err := compileSpec(ctx, lang)
	if err != nil {
		return nil, err
	}
	f, err := safeExtract(c, "", t)
	if err != nil {
		return nil, err
	}
	var out []Symbol
	for _, d := range f.defs {
		if d.Parent >= 0 && !f.defs[d.Parent].container {
			continue
		}
		s := Symbol{Name: d.Name, Kind: d.Label, Container: d.Container, Line: d.Line}
		if n := nodeAt(t.Root(), d.Start, d.End, d.kind); !n.IsZero() {
			s.Signature = signature(n)
			if d.Callable {
				s.Parameters = oneLine(parametersOf(n).Text(), maxSignature)
				for _, fld := range returnFields {
					if r := n.ChildByField(fld); !r.IsZero() {
						// TypeScript's annotation starts with its colon.
						s.ReturnType = oneLine(strings.TrimPrefix(r.Text(), ":"), maxSignature)
						break
					}
				}
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// nodeAt finds the node of kind spanning exactly [start, end).
func nodeAt(n tree.Node, start, end int, kind uint16) tree.Node {
	for !n.IsZero() {
		if n.StartByte() == start && n.EndByte() == end && n.KindID() == kind {
			return n
		}
		var next tree.Node
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			if c.StartByte() <= start && end <= c.EndByte() && (c.StartByte() < c.EndByte() || start == end) {
				next = c
				break
			}
		}
		n = next
	}
	return tree.Node{}
}

// signature is a definition's text up to its body (its first line when
// it has no body field), on one line.
func signature(n tree.Node) string {
	src := n.Tree().Source()
	end := n.EndByte()
	if b := n.ChildByField("body"); !b.IsZero() && b.StartByte() > n.StartByte() {
		end = b.StartByte()
	} else if i := strings.IndexByte(string(src[n.StartByte():end]), '\n'); i >= 0 {
		end = n.StartByte() + i
	}
	s := strings.TrimRight(strings.TrimSpace(string(src[n.StartByte():end])), "{:= ")
	return oneLine(s, maxSignature)
}

// parametersOf finds a callable's parameter list: its parameters field,
// else the first such field or parameter-list node below it outside the
// body, a few levels down (C's declarator, Kotlin's
// function_value_parameters).
func parametersOf(n tree.Node) tree.Node {
	if p := n.ChildByField("parameters"); !p.IsZero() {
		return p
	}
	level := []tree.Node{n}
	for range 3 {
		var next []tree.Node
		for _, m := range level {
			for c := m.FirstChild(); !c.IsZero(); c = c.NextSibling() {
				if !c.IsNamed() || c.Field() == "body" {
					continue
				}
				if c.Field() == "parameters" || strings.HasSuffix(c.Kind(), "parameters") || c.Kind() == "parameter_list" {
					return c
				}
				next = append(next, c)
			}
		}
		level = next
	}
	return tree.Node{}
}
