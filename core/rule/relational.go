package rule

import (
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// stopKind says how far a relational rule searches.
type stopKind uint8

const (
	stopNeighbor stopKind = iota // only the nearest node
	stopEnd                      // all the way
	stopRule                     // up to and including the first node matching a rule
)

type stopBy struct {
	kind stopKind
	rule matcher
}

// stops reports whether n matches the stop rule; the check binds nothing
// in env (whose budget it spends). A node the budget leaves unchecked
// stops the search.
func (s stopBy) stops(n tree.Node, env *match.Env, ec *evalCtx) bool {
	_, ok := s.rule.match(n, env.Fresh(), ec)
	return ok || env.Budget().Err() != nil
}

func (s stopBy) vars(set map[string]bool) {
	if s.rule != nil {
		s.rule.vars(set)
	}
}

// find tries try on the nodes a relational search visits, nearest first:
// only next for neighbor, every node of rest for end, and the nodes of
// rest up to and including the first stop-rule match otherwise. Each
// visit spends a step of env's budget.
func (s stopBy) find(next tree.Node, rest func(yield func(tree.Node) bool), try func(tree.Node) (tree.Node, bool), env *match.Env, ec *evalCtx) (tree.Node, bool) {
	budget := env.Budget()
	if s.kind == stopNeighbor {
		if next.IsZero() || !budget.Step() {
			return tree.Node{}, false
		}
		return try(next)
	}
	var found tree.Node
	ok := false
	rest(func(c tree.Node) bool {
		if !budget.Step() {
			return false
		}
		if found, ok = try(c); ok {
			return false
		}
		return s.kind == stopEnd || !s.stops(c, env, ec)
	})
	return found, ok
}

// ancestors visits n's ancestors from its parent to the root.
func ancestors(n tree.Node) func(func(tree.Node) bool) {
	return func(yield func(tree.Node) bool) {
		for p := n.Parent(); !p.IsZero(); p = p.Parent() {
			if !yield(p) {
				return
			}
		}
	}
}

// The sibling walks below start from the parent's first child (a node
// knows its next sibling, not its previous one), so each spends a step
// per sibling it passes: over a node with many children they cost time
// in proportion to the children, and the budget counts it.

// anchor is where ast-grep starts walking n's siblings: the first child of
// n's parent (of n itself, for the root) that ends after n starts. It is n
// unless n is empty. It is the zero node when there is none, or when the
// budget ran out.
func anchor(n tree.Node, budget *match.Budget) tree.Node {
	p := n.Parent()
	if p.IsZero() {
		p = n
	}
	for c := p.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		if !budget.Step() {
			return tree.Node{}
		}
		if c.EndByte() > n.StartByte() && c.EndPoint() != (tree.Point{}) {
			return c
		}
	}
	return tree.Node{}
}

// prevSibling is n.PrevSibling(), spending a step per sibling before n; it
// is the zero node when the budget ran out.
func prevSibling(n tree.Node, budget *match.Budget) tree.Node {
	p := n.Parent()
	if p.IsZero() {
		return tree.Node{}
	}
	var prev tree.Node
	for c := p.FirstChild(); !c.IsZero() && !c.Equal(n); c = c.NextSibling() {
		if !budget.Step() {
			return tree.Node{}
		}
		prev = c
	}
	return prev
}

// following visits the siblings after n's anchor, nearest first.
func following(n tree.Node, budget *match.Budget) func(func(tree.Node) bool) {
	return func(yield func(tree.Node) bool) {
		a := anchor(n, budget)
		if a.IsZero() {
			return
		}
		for s := a.NextSibling(); !s.IsZero(); s = s.NextSibling() {
			if !yield(s) {
				return
			}
		}
	}
}

// preceding visits the siblings before n's anchor, nearest first.
func preceding(n tree.Node, budget *match.Budget) func(func(tree.Node) bool) {
	return func(yield func(tree.Node) bool) {
		a := anchor(n, budget)
		if a.IsZero() {
			return
		}
		var before []tree.Node
		for c := a.Parent().FirstChild(); !c.Equal(a); c = c.NextSibling() {
			if !budget.Step() {
				return
			}
			before = append(before, c)
		}
		for i := len(before) - 1; i >= 0; i-- {
			if !yield(before[i]) {
				return
			}
		}
	}
}

// insideM matches nodes that lie inside a node matching its rule.
type insideM struct {
	outer matcher
	stop  stopBy
	field string // when set, the path must enter the ancestor through it
}

func (m *insideM) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	try := func(a tree.Node) (tree.Node, bool) { return m.outer.match(a, env, ec) }
	if m.field != "" {
		last := n
		try = func(a tree.Node) (tree.Node, bool) {
			via := last
			last = a
			if !a.ChildByField(m.field).Equal(via) {
				return tree.Node{}, false
			}
			return m.outer.match(a, env, ec)
		}
	}
	found, ok := m.stop.find(n.Parent(), ancestors(n), try, env, ec)
	if ok {
		addLabel(env, found)
	}
	return found, ok
}

func (m *insideM) kinds() match.KindSet { return nil }

func (m *insideM) vars(set map[string]bool) { m.outer.vars(set); m.stop.vars(set) }

// hasM matches nodes that have a descendant matching its rule.
type hasM struct {
	inner matcher
	stop  stopBy
	field string // when set, search from the child in that field
}

func (m *hasM) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	found, ok := m.search(n, env, ec)
	if ok {
		addLabel(env, found)
	}
	return found, ok
}

func (m *hasM) search(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if m.field != "" {
		c := n.ChildByField(m.field)
		if c.IsZero() {
			return tree.Node{}, false
		}
		switch m.stop.kind {
		case stopNeighbor:
			return m.inner.match(c, env, ec)
		case stopEnd:
			return m.firstDescendant(c, true, env, ec)
		}
		// ast-grep only looks one level below the field child here.
		if found, ok := m.inner.match(c, env, ec); ok {
			return found, ok
		}
		if m.stop.stops(c, env, ec) {
			return tree.Node{}, false
		}
		for g := c.FirstChild(); !g.IsZero(); g = g.NextSibling() {
			if !env.Budget().Step() {
				return tree.Node{}, false
			}
			if found, ok := m.inner.match(g, env, ec); ok {
				return found, ok
			}
		}
		return tree.Node{}, false
	}
	switch m.stop.kind {
	case stopNeighbor:
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			if !env.Budget().Step() {
				return tree.Node{}, false
			}
			if found, ok := m.inner.match(c, env, ec); ok {
				return found, ok
			}
		}
		return tree.Node{}, false
	case stopEnd:
		return m.firstDescendant(n, false, env, ec)
	}
	return m.searchUntil(n, env, ec)
}

// firstDescendant tries inner on n's subtree in pre-order.
func (m *hasM) firstDescendant(n tree.Node, self bool, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	var found tree.Node
	ok := false
	budget := env.Budget()
	n.Descendants(func(d tree.Node) bool {
		if !self && d.Equal(n) {
			return true
		}
		if !budget.Step() {
			return false
		}
		found, ok = m.inner.match(d, env, ec)
		return !ok
	})
	return found, ok
}

// searchUntil tries inner on n's descendants in pre-order without going
// below a node that matches the stop rule.
func (m *hasM) searchUntil(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		if !env.Budget().Step() {
			return tree.Node{}, false
		}
		if found, ok := m.inner.match(c, env, ec); ok {
			return found, ok
		}
		if m.stop.stops(c, env, ec) {
			continue
		}
		if found, ok := m.searchUntil(c, env, ec); ok {
			return found, ok
		}
	}
	return tree.Node{}, false
}

func (m *hasM) kinds() match.KindSet { return nil }

func (m *hasM) vars(set map[string]bool) { m.inner.vars(set); m.stop.vars(set) }

// siblingM implements precedes (forward) and follows (backward).
type siblingM struct {
	other   matcher
	stop    stopBy
	forward bool
}

func (m *siblingM) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	var next tree.Node
	var walk func(func(tree.Node) bool)
	if m.forward {
		next, walk = n.NextSibling(), following(n, env.Budget())
	} else {
		next, walk = prevSibling(n, env.Budget()), preceding(n, env.Budget())
	}
	try := func(s tree.Node) (tree.Node, bool) { return m.other.match(s, env, ec) }
	found, ok := m.stop.find(next, walk, try, env, ec)
	if ok {
		addLabel(env, found)
	}
	return found, ok
}

func (m *siblingM) kinds() match.KindSet { return nil }

func (m *siblingM) vars(set map[string]bool) { m.other.vars(set); m.stop.vars(set) }
