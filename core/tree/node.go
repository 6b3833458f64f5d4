package tree

import (
	"unsafe"

	"github.com/loupe-dev/loupe/host"
)

// Node is a node of a Tree. The zero Node is "no node": IsZero reports it,
// and every navigation method returns it when there is nothing to go to.
// Every method is safe on the zero Node: navigation returns the zero Node
// again and accessors return zero values, so chains such as
// n.Parent().Parent().Kind() never panic.
type Node struct {
	t *Tree
	i int32
}

// IsZero reports whether n is no node.
func (n Node) IsZero() bool { return n.t == nil }

// Tree returns the tree n belongs to.
func (n Node) Tree() *Tree { return n.t }

// Index returns n's pre-order index in its tree; nodes of one tree compare
// by document order through it.
func (n Node) Index() int { return int(n.i) }

// noNode is what the zero Node reads: no flags, no children, an empty range.
var noNode host.Node

func (n Node) raw() *host.Node {
	if n.t == nil {
		return &noNode
	}
	return &n.t.nodes[n.i]
}

// Kind returns the node's type, e.g. "call_expression" or "(".
func (n Node) Kind() string {
	if n.t == nil {
		return ""
	}
	s := n.raw().Symbol
	if s == ErrorKindID {
		return "ERROR"
	}
	return n.t.names.Symbols[s]
}

// KindID returns the grammar's symbol id of the node's type.
func (n Node) KindID() uint16 { return n.raw().Symbol }

// IsNamed reports whether n is a named node rather than an anonymous token.
func (n Node) IsNamed() bool { return n.raw().Flags&host.FlagNamed != 0 }

// IsExtra reports whether n is an extra, such as a comment.
func (n Node) IsExtra() bool { return n.raw().Flags&host.FlagExtra != 0 }

// IsMissing reports whether n was inserted by error recovery.
func (n Node) IsMissing() bool { return n.raw().Flags&host.FlagMissing != 0 }

// IsError reports whether n is an ERROR node.
func (n Node) IsError() bool { return n.raw().Flags&host.FlagError != 0 }

// HasError reports whether n's subtree has an ERROR or MISSING node.
func (n Node) HasError() bool { return n.raw().Flags&host.FlagHasError != 0 }

// Field returns the field name under which n sits in its parent, or "".
func (n Node) Field() string {
	if n.t == nil {
		return ""
	}
	return n.t.names.Fields[n.raw().Field]
}

// StartByte returns the byte offset where n starts.
func (n Node) StartByte() int { return int(n.raw().StartByte) }

// EndByte returns the byte offset just past n's end.
func (n Node) EndByte() int { return int(n.raw().EndByte) }

// StartPoint returns n's start position.
func (n Node) StartPoint() Point {
	if n.t == nil {
		return Point{}
	}
	return n.t.point(n.raw().StartByte)
}

// EndPoint returns n's end position.
func (n Node) EndPoint() Point {
	if n.t == nil {
		return Point{}
	}
	return n.t.point(n.raw().EndByte)
}

// Bytes returns n's source bytes without copying; callers must not modify them.
func (n Node) Bytes() []byte {
	if n.t == nil {
		return nil
	}
	r := n.raw()
	return n.t.source[r.StartByte:r.EndByte]
}

// Text returns n's source text.
func (n Node) Text() string {
	b := n.Bytes()
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b)) // the source is never modified
}

// Parent returns n's parent, or the zero Node for the root.
func (n Node) Parent() Node {
	if n.t == nil {
		return Node{}
	}
	p := n.t.linked().parent[n.i]
	if p < 0 {
		return Node{}
	}
	return Node{t: n.t, i: p}
}

// ChildCount returns the number of children, named and anonymous.
func (n Node) ChildCount() int { return int(n.raw().ChildCount) }

// FirstChild returns n's first child.
func (n Node) FirstChild() Node {
	if n.raw().ChildCount == 0 {
		return Node{}
	}
	return Node{t: n.t, i: n.i + 1}
}

// LastChild returns n's last child.
func (n Node) LastChild() Node {
	var last Node
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		last = c
	}
	return last
}

// NextSibling returns the node after n under the same parent.
func (n Node) NextSibling() Node {
	if n.t == nil {
		return Node{}
	}
	p := n.t.linked().parent[n.i]
	if p < 0 {
		return Node{}
	}
	next := n.i + int32(n.raw().SubtreeSize)
	if next >= p+int32(n.t.nodes[p].SubtreeSize) {
		return Node{}
	}
	return Node{t: n.t, i: next}
}

// PrevSibling returns the node before n under the same parent.
func (n Node) PrevSibling() Node {
	p := n.Parent()
	if p.IsZero() {
		return Node{}
	}
	var prev Node
	for c := p.FirstChild(); c.i != n.i; c = c.NextSibling() {
		prev = c
	}
	return prev
}

// NextNamedSibling returns the next named node under the same parent.
func (n Node) NextNamedSibling() Node {
	for s := n.NextSibling(); !s.IsZero(); s = s.NextSibling() {
		if s.IsNamed() {
			return s
		}
	}
	return Node{}
}

// PrevNamedSibling returns the previous named node under the same parent.
func (n Node) PrevNamedSibling() Node {
	var prev Node
	p := n.Parent()
	if p.IsZero() {
		return prev
	}
	for c := p.FirstChild(); c.i != n.i; c = c.NextSibling() {
		if c.IsNamed() {
			prev = c
		}
	}
	return prev
}

// Child returns the i-th child, or the zero Node when out of range.
func (n Node) Child(i int) Node {
	if i < 0 || i >= n.ChildCount() {
		return Node{}
	}
	c := n.FirstChild()
	for ; i > 0; i-- {
		c = c.NextSibling()
	}
	return c
}

// Children returns all children in order.
func (n Node) Children() []Node {
	out := make([]Node, 0, n.ChildCount())
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		out = append(out, c)
	}
	return out
}

// NamedChildren returns the named children in order.
func (n Node) NamedChildren() []Node {
	var out []Node
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		if c.IsNamed() {
			out = append(out, c)
		}
	}
	return out
}

// NamedChildCount returns the number of named children.
func (n Node) NamedChildCount() int {
	k := 0
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		if c.IsNamed() {
			k++
		}
	}
	return k
}

// ChildByField returns the first child under the given field name.
func (n Node) ChildByField(name string) Node {
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		if c.Field() == name {
			return c
		}
	}
	return Node{}
}

// ChildrenByField returns every child under the given field name.
func (n Node) ChildrenByField(name string) []Node {
	var out []Node
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		if c.Field() == name {
			out = append(out, c)
		}
	}
	return out
}

// Descendants calls yield for n and every node below it in pre-order, until
// yield returns false.
func (n Node) Descendants(yield func(Node) bool) {
	if n.t == nil {
		return
	}
	end := n.t.linked().nodes[n.i].SubtreeSize + uint32(n.i)
	for i := n.i; i < int32(end); i++ {
		if !yield(Node{t: n.t, i: i}) {
			return
		}
	}
}

// Contains reports whether m lies in n's subtree (n contains itself).
func (n Node) Contains(m Node) bool {
	return n.t == m.t && n.t != nil && m.i >= n.i && m.i < n.i+int32(n.t.linked().nodes[n.i].SubtreeSize)
}

// Equal reports whether n and m are the same node.
func (n Node) Equal(m Node) bool { return n.t == m.t && n.i == m.i }
