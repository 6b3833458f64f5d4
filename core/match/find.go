package match

import "github.com/loupe-dev/loupe/core/tree"

// FindAll calls yield for every node of root's subtree (root included) that
// m matches, in pre-order, until yield returns false. Like ast-grep's
// find_all it visits every node, named or not, and reports matches nested
// inside other matches too. Nodes whose kind is outside m.Kinds() are
// skipped without calling Match.
//
// env is reused: it holds the match's bindings only while yield runs, so
// yield must Clone it to keep it.
func FindAll(root tree.Node, m Matcher, yield func(n tree.Node, env *Env) bool) {
	if root.IsZero() {
		return
	}
	kinds := m.Kinds()
	env := &Env{}
	root.Descendants(func(n tree.Node) bool {
		if kinds != nil && !kinds.Has(n.KindID()) {
			return true
		}
		if !m.Match(n, env) {
			return true // Match leaves env empty on false
		}
		more := yield(n, env)
		env.Reset()
		return more
	})
}
