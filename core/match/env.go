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
	budget      *Budget
}

// NewEnv returns an empty environment whose matches spend b (nil: no
// limits).
func NewEnv(b *Budget) *Env { return &Env{budget: b} }

// Budget returns the budget matches in e spend; nil has no limits.
func (e *Env) Budget() *Budget {
	if e == nil {
		return nil
	}
	return e.budget
}

// Fresh returns an empty environment spending e's budget.
func (e *Env) Fresh() *Env { return &Env{budget: e.Budget()} }

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

// Counts returns the single and multi bindings made up to m, a name bound
// again counted each time: at most as many names are bound.
func (m Mark) Counts() (singles, multis int) { return m.singles, m.multis }

// Mark returns the current point of e's history.
func (e *Env) Mark() Mark { return Mark{len(e.singles), len(e.multis)} }

// Rollback undoes every binding made since m.
func (e *Env) Rollback(m Mark) {
	clear(e.singles[m.singles:])
	e.singles = e.singles[:m.singles]
	clear(e.multis[m.multis:])
	e.multis = e.multis[:m.multis]
}

// Reset empties e for reuse; its budget stays.
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

// BindSingle binds name to n. Binding a name again to the node it holds
// changes nothing, so a rule that rebinds the same variable a thousand
// times keeps one binding.
func (e *Env) BindSingle(name string, n tree.Node) {
	if old, ok := e.Single(name); ok && old.Equal(n) {
		return
	}
	e.singles = append(e.singles, single{name, n})
}

// BindMulti binds name to nodes (again, a binding to the very same nodes
// changes nothing).
func (e *Env) BindMulti(name string, nodes []tree.Node) {
	if old, ok := e.Multi(name); ok && sameSpan(old, nodes) {
		return
	}
	e.multis = append(e.multis, multi{name, nodes})
}

// sameSpan reports whether a and b are the same nodes.
func sameSpan(a, b []tree.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
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

// Clone returns an independent copy of e's bindings, spending e's budget.
func (e *Env) Clone() *Env {
	c := &Env{
		singles: append([]single(nil), e.singles...),
		multis:  append([]multi(nil), e.multis...),
		budget:  e.budget,
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
