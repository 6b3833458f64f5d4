package tree

import (
	"fmt"
	"math"

	"github.com/loupe-dev/loupe/host"
)

// New builds a Tree over source from a flat pre-order node array. It checks
// the array's shape (subtree sizes, child counts, ranges, symbol and field
// ids), so a corrupt module output is an error, not a panic later. Its
// subtree sizes are given, so it is linked at once.
func New(source []byte, nodes []host.Node, names *host.Names) (*Tree, error) {
	if err := checkSizes(source, names, len(nodes)); err != nil {
		return nil, err
	}
	parent := parentPool.Get(len(nodes))
	if err := link(nodes, parent, uint32(len(source)), len(names.Symbols), len(names.Fields)); err != nil {
		parentPool.Put(parent)
		return nil, err
	}
	t := &Tree{source: source, nodes: nodes, names: names, parent: parent}
	t.linkOnce.Do(func() {})
	return t, nil
}

// NewOver is New for a tree of code injected in the source of outer (a
// region of it parsed with another grammar, its nodes' offsets in outer's
// source): the tree shares outer's source and row index, so that the
// trees of many regions of one file do not each index its rows. outer
// must outlive it (not be released while it is in use).
func NewOver(outer *Tree, nodes []host.Node, names *host.Names) (*Tree, error) {
	t, err := New(outer.source, nodes, names)
	if err != nil {
		return nil, err
	}
	t.over = outer
	return t, nil
}

// A Builder builds a Tree from a flat pre-order node array whose subtree
// sizes are not given, filled and added a part at a time (so that each
// part is checked while it is still in the processor's cache). It checks
// everything New does (an array that does not close into one tree, a range
// or an id out of bounds is an error), but leaves the links (each node's
// parent and SubtreeSize) to the tree's first walk between nodes: a query
// that reads nodes by their kind alone, as a `kind` rule does, never pays
// for them.
type Builder struct {
	source []byte
	nodes  []host.Node
	names  *host.Names
	added  int
	// slots is how many nodes the ones added still need: 1 (the root)
	// plus each node's child count, less one for each node. The array is
	// one tree when it reaches 0 at the last node and not before.
	slots int64
	err   error
}

// NewBuilder returns a Builder of a tree of count nodes over source, with
// the grammar's names.
func NewBuilder(source []byte, names *host.Names, count int) (*Builder, error) {
	if count <= 0 || count > math.MaxInt32 {
		return nil, fmt.Errorf("tree: %d nodes", count)
	}
	if err := checkSizes(source, names, count); err != nil {
		return nil, err
	}
	return &Builder{source: source, nodes: nodePool.Get(count), names: names, slots: 1}, nil
}

// checkSizes refuses a tree of count nodes over source that its indexes
// cannot hold.
func checkSizes(source []byte, names *host.Names, count int) error {
	if names == nil {
		return fmt.Errorf("tree: no name table")
	}
	if count == 0 {
		return fmt.Errorf("tree: empty node array")
	}
	if count > math.MaxInt32 || int64(len(source)) > math.MaxUint32 {
		return fmt.Errorf("tree: %d nodes over %d bytes is more than a tree can index", count, len(source))
	}
	return nil
}

// Nodes returns the array to fill, in pre-order, with every field of each
// node but SubtreeSize (what it holds before is undefined: memory of
// trees released earlier).
func (b *Builder) Nodes() []host.Node { return b.nodes }

// Add checks the nodes filled since the last Add, up to index n
// (excluded). After an error, the Builder returns it again.
func (b *Builder) Add(n int) error {
	if b.err == nil && (n < b.added || n > len(b.nodes)) {
		b.err = fmt.Errorf("tree: nodes added up to %d, then to %d of %d", b.added, n, len(b.nodes))
	}
	if b.err != nil {
		return b.err
	}
	srcLen, symbols, fields := uint32(len(b.source)), len(b.names.Symbols), len(b.names.Fields)
	slots := b.slots
	for i := b.added; i < n; i++ {
		nd := &b.nodes[i]
		if slots == 0 {
			b.err = fmt.Errorf("tree: node %d follows a complete tree", i)
			return b.err
		}
		if nd.StartByte > nd.EndByte || nd.EndByte > srcLen ||
			(int(nd.Symbol) >= symbols && nd.Symbol != ErrorKindID) || int(nd.Field) >= fields {
			b.err = fmt.Errorf("tree: malformed node %d", i)
			return b.err
		}
		slots += int64(nd.ChildCount) - 1
	}
	b.slots, b.added = slots, n
	return nil
}

// Tree returns the tree once every node is added.
func (b *Builder) Tree() (*Tree, error) {
	switch {
	case b.err != nil:
		return nil, b.err
	case b.added < len(b.nodes):
		return nil, fmt.Errorf("tree: %d of %d nodes added", b.added, len(b.nodes))
	case b.slots != 0:
		return nil, fmt.Errorf("tree: the nodes count %d children more than follow them", b.slots)
	}
	return &Tree{source: b.source, nodes: b.nodes, names: b.names, ownNodes: true}, nil
}

// open is a node whose children are not all complete yet.
type open struct {
	index int32
	left  uint32 // children not yet complete
}

// link checks an array whose subtree sizes are given, as a Builder checks
// one (and the sizes against the child counts), and fills parent.
func link(nodes []host.Node, parent []int32, srcLen uint32, symbols, fields int) error {
	stack := make([]open, 0, 32)
	cur := open{index: -1}
	for i := range nodes {
		nd := &nodes[i]
		if i > 0 && cur.index < 0 {
			return fmt.Errorf("tree: node %d follows a complete tree", i)
		}
		if nd.StartByte > nd.EndByte || nd.EndByte > srcLen ||
			(int(nd.Symbol) >= symbols && nd.Symbol != ErrorKindID) || int(nd.Field) >= fields {
			return fmt.Errorf("tree: malformed node %d", i)
		}
		parent[i] = cur.index
		if nd.ChildCount > 0 {
			stack = append(stack, cur)
			cur = open{index: int32(i), left: nd.ChildCount}
			continue
		}
		if nd.SubtreeSize != 1 {
			return fmt.Errorf("tree: leaf %d covers %d nodes", i, nd.SubtreeSize)
		}
		// Node i completes its parent's child; parents whose last child
		// that was complete in turn.
		for cur.index >= 0 {
			if cur.left--; cur.left > 0 {
				break
			}
			p := &nodes[cur.index]
			if size := uint32(i - int(cur.index) + 1); p.SubtreeSize != size {
				return fmt.Errorf("tree: node %d covers %d nodes, its %d children %d", cur.index, p.SubtreeSize, p.ChildCount, size)
			}
			cur = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
	}
	if cur.index >= 0 {
		return fmt.Errorf("tree: node %d has fewer children than the %d it counts", cur.index, nodes[cur.index].ChildCount)
	}
	return nil
}

// linkSizes fills parent, and each node's SubtreeSize from the child
// counts, of an array a Builder checked: one tree, so that every pop has
// a node to take.
func linkSizes(nodes []host.Node, parent []int32) {
	parent = parent[:len(nodes)]
	stack := make([]open, 1, 64) // the sentinel the root's completion takes
	stack[0] = open{index: -1}
	cur := stack[0]
	for i := range nodes {
		nd := &nodes[i]
		parent[i] = cur.index
		if nd.ChildCount > 0 {
			stack = append(stack, cur)
			cur = open{index: int32(i), left: nd.ChildCount}
			continue
		}
		nd.SubtreeSize = 1
		for cur.left--; cur.left == 0; cur.left-- {
			nodes[cur.index].SubtreeSize = uint32(i) - uint32(cur.index) + 1
			cur = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if cur.index < 0 {
				return
			}
		}
	}
}
