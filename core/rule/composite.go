package rule

import (
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// allM matches when every sub-rule matches the node, each seeing the
// bindings of the ones before it.
type allM struct {
	rules []matcher
	ks    match.KindSet
}

func newAll(rules []matcher) *allM {
	var ks match.KindSet
	for _, r := range rules {
		if k := r.kinds(); k != nil {
			ks = match.Intersect(ks, k)
		}
	}
	return &allM{rules: rules, ks: ks}
}

func (m *allM) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	if !m.ks.Has(n.KindID()) {
		return tree.Node{}, false
	}
	mark := env.Mark()
	for _, r := range m.rules {
		if _, ok := r.match(n, env, ec); !ok {
			env.Rollback(mark)
			return tree.Node{}, false
		}
	}
	return n, true
}

func (m *allM) kinds() match.KindSet { return m.ks }

func (m *allM) vars(set map[string]bool) {
	for _, r := range m.rules {
		r.vars(set)
	}
}

// anyM matches when some sub-rule matches; the bindings are those of the
// first sub-rule that matches.
type anyM struct {
	rules []matcher
	ks    match.KindSet
}

func newAny(rules []matcher) *anyM {
	ks := match.NewKindSet()
	for _, r := range rules {
		k := r.kinds()
		if k == nil {
			ks = nil
			break
		}
		ks = match.Union(ks, k)
	}
	return &anyM{rules: rules, ks: ks}
}

func (m *anyM) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	if !m.ks.Has(n.KindID()) {
		return tree.Node{}, false
	}
	for _, r := range m.rules {
		if _, ok := r.match(n, env, ec); ok {
			return n, true
		}
	}
	return tree.Node{}, false
}

func (m *anyM) kinds() match.KindSet { return m.ks }

func (m *anyM) vars(set map[string]bool) {
	for _, r := range m.rules {
		r.vars(set)
	}
}

// notM matches when its sub-rule does not; it never binds anything.
type notM struct{ rule matcher }

func (m *notM) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	mark := env.Mark()
	_, ok := m.rule.match(n, env, ec)
	env.Rollback(mark)
	if ok || env.Budget().Err() != nil {
		// A sub-rule stopped by the budget did not fail: neither does
		// the negation succeed.
		return tree.Node{}, false
	}
	return n, true
}

func (m *notM) kinds() match.KindSet { return nil }

func (m *notM) vars(set map[string]bool) { m.rule.vars(set) }
