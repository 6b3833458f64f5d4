package match

import "github.com/loupe-dev/loupe/core/tree"

// SameNode is ast-grep's equality for a repeated metavariable ($A ... $A):
// the same node, or two leaves (nodes without named children) with the
// same text, or two nodes of the same kind whose children are pairwise
// the same.
func SameNode(a, b tree.Node) bool {
	if a.Equal(b) {
		return true
	}
	if a.NamedChildCount() == 0 || b.NamedChildCount() == 0 {
		return a.Text() == b.Text()
	}
	if a.KindID() != b.KindID() || a.ChildCount() != b.ChildCount() {
		return false
	}
	for x, y := a.FirstChild(), b.FirstChild(); !x.IsZero(); x, y = x.NextSibling(), y.NextSibling() {
		if !SameNode(x, y) {
			return false
		}
	}
	return true
}

// SameNodes compares two bindings of a repeated multi metavariable by
// their named nodes, with SameNode.
func SameNodes(a, b []tree.Node) bool {
	i, j := 0, 0
	for {
		for i < len(a) && !a[i].IsNamed() {
			i++
		}
		for j < len(b) && !b[j].IsNamed() {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if !SameNode(a[i], b[j]) {
			return false
		}
		i++
		j++
	}
}
