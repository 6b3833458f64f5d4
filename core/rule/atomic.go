package rule

import (
	"regexp"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// kindM matches nodes of one kind. An empty set (a grammar symbol that
// never appears in trees, such as a supertype) matches nothing.
type kindM struct{ ks match.KindSet }

func (m *kindM) match(n tree.Node, env *match.Env, _ *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	return n, m.ks.Has(n.KindID())
}

func (m *kindM) kinds() match.KindSet { return m.ks }

func (m *kindM) vars(map[string]bool) {}

// regexM matches nodes whose text contains a match of the expression.
type regexM struct{ re *regexp.Regexp }

// regexBytesPerStep is how many bytes of text a regex runs over for one
// step of the budget, beyond the step every match spends: a regex on a
// large node costs in proportion to its text.
const regexBytesPerStep = 256

func (m *regexM) match(n tree.Node, env *match.Env, _ *evalCtx) (tree.Node, bool) {
	text := n.Bytes()
	if !env.Budget().Spend(1 + int64(len(text))/regexBytesPerStep) {
		return tree.Node{}, false
	}
	return n, m.re.Match(text)
}

func (m *regexM) kinds() match.KindSet { return nil }

func (m *regexM) vars(map[string]bool) {}

// position is CSS's An+B: the 1-based indices step*k + offset, k >= 0.
type position struct{ step, offset int }

func (p position) matches(index int) bool {
	i := index + 1
	if p.step == 0 {
		return i == p.offset
	}
	d := i - p.offset
	return d/p.step >= 0 && d%p.step == 0
}

// nthChildM matches nodes by their position among their parent's named
// children, optionally counting only children that match a rule.
type nthChildM struct {
	pos     position
	of      matcher
	reverse bool
}

func (m *nthChildM) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	p := n.Parent()
	if p.IsZero() {
		return tree.Node{}, false
	}
	index, count, found := 0, 0, false
	budget := env.Budget()
	for c := p.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		if !budget.Step() {
			return tree.Node{}, false
		}
		if !c.IsNamed() {
			continue
		}
		if m.of != nil {
			mark := env.Mark()
			_, ok := m.of.match(c, env, ec)
			env.Rollback(mark)
			if !ok {
				continue
			}
		}
		if c.Equal(n) {
			index, found = count, true
		}
		count++
	}
	if !found {
		return tree.Node{}, false
	}
	if m.reverse {
		index = count - 1 - index
	}
	if !m.pos.matches(index) {
		return tree.Node{}, false
	}
	if m.of != nil {
		// Keep the bindings the counted rule makes on the node itself.
		m.of.match(n, env, ec)
	}
	return n, true
}

func (m *nthChildM) kinds() match.KindSet {
	if m.of == nil {
		return nil
	}
	return m.of.kinds()
}

func (m *nthChildM) vars(set map[string]bool) {
	if m.of != nil {
		m.of.vars(set)
	}
}

// rangeM matches nodes that start and end exactly at the given positions
// (0-based lines; 0-based columns in characters, optional).
type rangeM struct {
	startLine, endLine int
	startCol, endCol   int // -1 when not given
}

func (m *rangeM) match(n tree.Node, env *match.Env, _ *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	sp, ep := n.StartPoint(), n.EndPoint()
	if sp.Row != m.startLine || ep.Row != m.endLine {
		return tree.Node{}, false
	}
	t := n.Tree()
	if m.startCol >= 0 && t.CharColumn(n.StartByte()) != m.startCol {
		return tree.Node{}, false
	}
	if m.endCol >= 0 && t.CharColumn(n.EndByte()) != m.endCol {
		return tree.Node{}, false
	}
	return n, true
}

func (m *rangeM) kinds() match.KindSet { return nil }

func (m *rangeM) vars(map[string]bool) {}
