package match

import "github.com/loupe-dev/loupe/core/tree"

// Env is the metavariable environment of one match: single captures ($A,
// $$A), multi captures ($$$A) and, after a rule's transform step,
// transformed strings. Bindings are kept in insertion order so a failed
// branch can be undone with Mark and Rollback instead of copying.
type Env struct {
	singles     []single
	multis      []multi
	transformed map[string]string
}

type single struct {
	name string
	node tree.Node
}

type multi struct {
	name  string
	nodes []tree.Node
}

// Mark is a point in an Env's history to roll back to.
type Mark struct{ singles, multis int }

// Mark returns the current point of e's history.
func (e *Env) Mark() Mark { return Mark{len(e.singles), len(e.multis)} }

// Rollback undoes every binding made since m.
func (e *Env) Rollback(m Mark) {
	clear(e.singles[m.singles:])
	e.singles = e.singles[:m.singles]
	clear(e.multis[m.multis:])
	e.multis = e.multis[:m.multis]
}

// Reset empties e for reuse.
func (e *Env) Reset() {
	e.Rollback(Mark{})
	clear(e.transformed)
}

// Single returns the node bound to a single metavariable.
func (e *Env) Single(name string) (tree.Node, bool) {
	for i := len(e.singles) - 1; i >= 0; i-- {
		if e.singles[i].name == name {
			return e.singles[i].node, true
		}
	}
	return tree.Node{}, false
}

// Multi returns the nodes bound to a multi metavariable.
func (e *Env) Multi(name string) ([]tree.Node, bool) {
	for i := len(e.multis) - 1; i >= 0; i-- {
		if e.multis[i].name == name {
			return e.multis[i].nodes, true
		}
	}
	return nil, false
}

// BindSingle binds name to n.
func (e *Env) BindSingle(name string, n tree.Node) {
	e.singles = append(e.singles, single{name, n})
}

// BindMulti binds name to nodes.
func (e *Env) BindMulti(name string, nodes []tree.Node) {
	e.multis = append(e.multis, multi{name, nodes})
}

// SetTransformed records the string a transform produced for name.
func (e *Env) SetTransformed(name, value string) {
	if e.transformed == nil {
		e.transformed = map[string]string{}
	}
	e.transformed[name] = value
}

// Transformed returns a transformed string.
func (e *Env) Transformed(name string) (string, bool) {
	v, ok := e.transformed[name]
	return v, ok
}

// Singles calls f for each single binding, newest binding of a name only,
// in first-bound order.
func (e *Env) Singles(f func(name string, n tree.Node)) {
	for i, s := range e.singles {
		if latest(e.singles[i+1:], s.name) {
			f(s.name, s.node)
		}
	}
}

// Multis calls f for each multi binding, newest binding of a name only.
func (e *Env) Multis(f func(name string, nodes []tree.Node)) {
	for i, m := range e.multis {
		shadowed := false
		for _, later := range e.multis[i+1:] {
			if later.name == m.name {
				shadowed = true
				break
			}
		}
		if !shadowed {
			f(m.name, m.nodes)
		}
	}
}

// TransformedAll returns every transformed binding.
func (e *Env) TransformedAll() map[string]string { return e.transformed }

// Clone returns an independent copy of e.
func (e *Env) Clone() *Env {
	c := &Env{
		singles: append([]single(nil), e.singles...),
		multis:  append([]multi(nil), e.multis...),
	}
	for k, v := range e.transformed {
		c.SetTransformed(k, v)
	}
	return c
}

func latest(later []single, name string) bool {
	for _, s := range later {
		if s.name == name {
			return false
		}
	}
	return true
}
