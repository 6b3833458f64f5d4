package pattern

import (
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// Match reports whether n matches the pattern, binding its metavariables
// in env. On false env is left as it was.
func (p *Pattern) Match(n tree.Node, env *match.Env) bool {
	ok, _ := p.match(n, env)
	return ok
}

// match is Match that also returns how many pattern-node comparisons it
// made, so tests can bound the matcher's work without a clock.
func (p *Pattern) match(n tree.Node, env *match.Env) (bool, int) {
	if n.IsZero() {
		return false, 0
	}
	// Like ast-grep, only a context pattern's kind is checked up front;
	// Kinds is a filter for searches, and a pattern ERROR leaf compares by
	// text whatever the candidate's kind.
	if p.hasRootKind && n.KindID() != p.rootKind {
		return false, 0
	}
	if env == nil {
		env = &match.Env{}
	}
	m := matcher{strictness: p.strictness, env: env}
	mark := env.Mark()
	if m.matchRoot(&p.node, n) {
		return true, m.steps
	}
	env.Rollback(mark)
	return false, m.steps
}

// outcome is the result of comparing one pattern node with one candidate.
type outcome uint8

const (
	matched  outcome = iota // both match: consume both
	skipBoth                // both are skippable trivia: consume both
	skipGoal                // the pattern node is skippable: consume it
	skipCand                // the candidate is skippable: consume it
	noMatch                 // a mismatch of significant nodes
)

// matcher carries what one Match call shares.
type matcher struct {
	strictness Strictness
	env        *match.Env
	steps      int // matchNode calls
}

// matchRoot matches the pattern root. Under Smart a root metavariable
// stands for the candidate itself, so it also matches a comment.
func (m *matcher) matchRoot(g *node, c tree.Node) bool {
	if g.kind == metaVarNode && m.strictness == Smart {
		return m.bindLeaf(g, c)
	}
	return m.matchNode(g, c) == matched
}

func (m *matcher) matchNode(g *node, c tree.Node) outcome {
	m.steps++
	switch g.kind {
	case terminalNode:
		return m.matchTerminal(g, c)
	case metaVarNode:
		if m.strictness.skipsComments() && c.IsExtra() {
			return skipCand
		}
		if m.bindLeaf(g, c) {
			return matched
		}
		return noMatch
	}
	if m.strictness != Template && !kindsMatch(g.kindID, c.KindID()) {
		return noMatch
	}
	if m.matchChildren(g.children, c.FirstChild()) {
		return matched
	}
	return noMatch
}

// kindsMatch reports whether a candidate of kind cand can match a pattern
// node of kind goal; a pattern ERROR node matches any kind.
func kindsMatch(goal, cand uint16) bool {
	return goal == cand || goal == tree.ErrorKindID
}

func (m *matcher) matchTerminal(g *node, c tree.Node) outcome {
	kindOK := kindsMatch(g.kindID, c.KindID())
	// Anonymous tokens compare by kind alone: some grammars give them
	// spans that do not cover their text.
	if kindOK && (!g.named || g.text == c.Text()) {
		return matched
	}
	if m.strictness.skipsComments() && c.IsExtra() {
		return skipCand
	}
	switch m.strictness {
	case Cst:
		return noMatch
	case Smart:
		if !c.IsNamed() {
			return skipCand
		}
		return noMatch
	case Signature:
		if kindOK {
			return matched
		}
	case Template:
		if g.text == c.Text() {
			return matched
		}
		if !c.IsNamed() {
			return skipCand
		}
		return noMatch
	}
	// Ast, Relaxed, Signature: anonymous nodes on either side are skipped.
	switch goalTrivial, candTrivial := !g.named, !c.IsNamed(); {
	case goalTrivial && candTrivial:
		return skipBoth
	case goalTrivial:
		return skipGoal
	case candTrivial:
		return skipCand
	}
	return noMatch
}

// bindLeaf matches a metavariable against one candidate node.
func (m *matcher) bindLeaf(g *node, c tree.Node) bool {
	switch g.mv {
	case capture:
		if g.named && !c.IsNamed() {
			return false
		}
		if prev, ok := m.env.Single(g.text); ok && !match.SameNode(prev, c) {
			return false
		}
		m.env.BindSingle(g.text, c)
		return true
	case dropped:
		return !g.named || c.IsNamed()
	case multiCapture:
		// Reached only when a skipped pattern node leaves a multi
		// metavariable facing a single candidate; it takes that one.
		return m.bindMulti(g.text, c, 1)
	}
	return true // multiple
}

// matchChildren matches the pattern children goals against the candidate
// children that start at c, the way ast-grep walks two child lists.
func (m *matcher) matchChildren(goals []node, c tree.Node) bool {
	if c.IsZero() {
		return false
	}
	gi := 0
	for {
		if gi == len(goals) {
			return true
		}
		if goals[gi].isEllipsis() {
			var f flow
			gi, c, f = m.matchEllipsis(goals, gi, c)
			switch f {
			case flowFail:
				return false
			case flowDone:
				return true
			case flowRestart:
				continue
			}
		}
		// Match goals[gi] against the next significant candidate.
		for {
			if c.IsZero() {
				for gi < len(goals) && m.strictness.skipsGoal(&goals[gi]) {
					gi++
				}
				if gi < len(goals) {
					return false
				}
				break
			}
			stop := false
			switch m.matchNode(&goals[gi], c) {
			case matched:
				stop = true
			case skipGoal:
				gi++
				stop = gi == len(goals)
			case skipBoth:
				c = c.NextSibling()
				gi++
				stop = gi == len(goals)
			case skipCand:
				c = c.NextSibling()
			default:
				return false
			}
			if stop {
				break
			}
		}
		if gi < len(goals) {
			gi++
			c = c.NextSibling()
		}
		if gi == len(goals) {
			for ; !c.IsZero(); c = c.NextSibling() {
				if !m.strictness.skipsTrailing(c) {
					return false
				}
			}
			return true
		}
		if c.IsZero() {
			return false
		}
	}
}

// flow tells matchChildren how to go on after a multi metavariable.
type flow uint8

const (
	flowFail    flow = iota // no match
	flowDone                // the whole child list matched
	flowRestart             // start over at the returned goal (another ellipsis)
	flowNext                // match the returned goal against the returned candidate
)

// matchEllipsis handles the multi metavariable goals[gi] facing candidate
// c (never zero) and returns the goal and candidate to go on with.
func (m *matcher) matchEllipsis(goals []node, gi int, c tree.Node) (int, tree.Node, flow) {
	ell := &goals[gi]
	gi++
	start := c
	if gi == len(goals) {
		return gi, c, result(m.bindEllipsis(ell, start, siblingsFrom(c), 0), flowDone)
	}
	// Anonymous pattern tokens right after the ellipsis are stepped over;
	// as many trailing candidates are left out of its binding.
	skipped := 0
	for goals[gi].isTrivial() {
		gi++
		skipped++
		if gi == len(goals) {
			return gi, c, result(m.bindEllipsis(ell, start, siblingsFrom(c), skipped), flowDone)
		}
	}
	if goals[gi].isEllipsis() {
		// It takes exactly one node when another one follows.
		c = c.NextSibling()
		return gi, c, result(!c.IsZero() && m.bindEllipsis(ell, start, 1, skipped), flowRestart)
	}
	// Lazily extend the run until the next pattern node matches the
	// candidate; the probe's bindings are undone, the real match follows.
	taken := 0
	for {
		mark := m.env.Mark()
		r := m.matchNode(&goals[gi], c)
		m.env.Rollback(mark)
		if r == matched {
			return gi, c, result(m.bindEllipsis(ell, start, taken, skipped), flowNext)
		}
		taken++
		c = c.NextSibling()
		if c.IsZero() {
			return gi, c, flowFail
		}
	}
}

// result is f when ok, else flowFail.
func result(ok bool, f flow) flow {
	if ok {
		return f
	}
	return flowFail
}

func siblingsFrom(c tree.Node) int {
	k := 0
	for ; !c.IsZero(); c = c.NextSibling() {
		k++
	}
	return k
}

// bindEllipsis binds a multi metavariable to count siblings from start,
// less the last skipped ones.
func (m *matcher) bindEllipsis(g *node, start tree.Node, count, skipped int) bool {
	if g.mv != multiCapture {
		return true
	}
	return m.bindMulti(g.text, start, max(count-skipped, 0))
}

func (m *matcher) bindMulti(name string, start tree.Node, count int) bool {
	nodes := make([]tree.Node, 0, count)
	for c := start; len(nodes) < count; c = c.NextSibling() {
		nodes = append(nodes, c)
	}
	if prev, ok := m.env.Multi(name); ok && !match.SameNodes(prev, nodes) {
		return false
	}
	m.env.BindMulti(name, nodes)
	return true
}
