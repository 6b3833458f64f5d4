package tree

import (
	"fmt"
	"math"

	"github.com/loupe-dev/loupe/host"
)

// New builds a Tree over source from a flat pre-order node array. It checks
// the array's shape (subtree sizes, child counts, ranges, symbol and field
// ids), so a corrupt module output is an error, not a panic later.
func New(source []byte, nodes []host.Node, names *host.Names) (*Tree, error) {
	b, err := newBuilder(source, nodes, names, true)
	if err != nil {
		return nil, err
	}
	if err := b.Add(len(nodes)); err != nil {
		return nil, err
	}
	return b.Tree()
}

// A Builder builds a Tree from a flat pre-order node array whose subtree
// sizes are not given, filled and added a part at a time (so that each
// part is linked while it is still in the processor's cache): it computes
// each node's SubtreeSize from the child counts and checks everything
// else as New does (an array that does not close into one tree, a range
// or an id out of bounds is an error).
type Builder struct {
	source []byte
	nodes  []host.Node
	parent []int32
	names  *host.Names
	check  bool // the subtree sizes are given, and checked (New)
	added  int
	// stack holds the open ancestors of cur, the node the next one is a
	// child of (index -1 before the root and after it closes).
	stack []open
	cur   open
	err   error
}

type open struct {
	index int32
	left  uint32 // children not yet complete
}

// NewBuilder returns a Builder of a tree of count nodes over source, with
// the grammar's names.
func NewBuilder(source []byte, names *host.Names, count int) (*Builder, error) {
	if count <= 0 || count > math.MaxInt32 {
		return nil, fmt.Errorf("tree: %d nodes", count)
	}
	return newBuilder(source, nodePool.Get(count), names, false)
}

func newBuilder(source []byte, nodes []host.Node, names *host.Names, check bool) (*Builder, error) {
	if names == nil {
		return nil, fmt.Errorf("tree: no name table")
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("tree: empty node array")
	}
	if len(nodes) > math.MaxInt32 || int64(len(source)) > math.MaxUint32 {
		return nil, fmt.Errorf("tree: %d nodes over %d bytes is more than a tree can index", len(nodes), len(source))
	}
	return &Builder{source: source, nodes: nodes, parent: parentPool.Get(len(nodes)), names: names, check: check,
		stack: make([]open, 0, 32), cur: open{index: -1}}, nil
}

// Nodes returns the array to fill, in pre-order, with every field of each
// node but SubtreeSize (what it holds before is undefined: memory of
// trees released earlier).
func (b *Builder) Nodes() []host.Node { return b.nodes }

// Add links the nodes filled since the last Add, up to index n (excluded).
// After an error, the Builder returns it again.
func (b *Builder) Add(n int) error {
	if b.err == nil && (n < b.added || n > len(b.nodes)) {
		b.err = fmt.Errorf("tree: nodes added up to %d, then to %d of %d", b.added, n, len(b.nodes))
	}
	if b.err != nil {
		return b.err
	}
	b.stack, b.cur, b.err = link(b.nodes[:n], b.parent[:n], b.added, b.stack, b.cur, b.check,
		uint32(len(b.source)), len(b.names.Symbols), len(b.names.Fields))
	b.added = n
	return b.err
}

// link links nodes[from:] and returns the open ancestors and node after
// them (see Builder.stack and cur).
func link(nodes []host.Node, parent []int32, from int, stack []open, cur open, check bool,
	srcLen uint32, symbols, fields int) ([]open, open, error) {
	for i := from; i < len(nodes); i++ {
		nd := &nodes[i]
		if i > 0 && cur.index < 0 {
			return stack, cur, fmt.Errorf("tree: node %d follows a complete tree", i)
		}
		if nd.StartByte > nd.EndByte || nd.EndByte > srcLen ||
			(int(nd.Symbol) >= symbols && nd.Symbol != ErrorKindID) || int(nd.Field) >= fields {
			return stack, cur, fmt.Errorf("tree: malformed node %d", i)
		}
		parent[i] = cur.index
		if nd.ChildCount > 0 {
			stack = append(stack, cur)
			cur = open{index: int32(i), left: nd.ChildCount}
			continue
		}
		if !check {
			nd.SubtreeSize = 1
		} else if nd.SubtreeSize != 1 {
			return stack, cur, fmt.Errorf("tree: leaf %d covers %d nodes", i, nd.SubtreeSize)
		}
		// Node i completes its parent's child; parents whose last child
		// that was complete in turn.
		for cur.index >= 0 {
			if cur.left--; cur.left > 0 {
				break
			}
			size := uint32(i - int(cur.index) + 1)
			p := &nodes[cur.index]
			if !check {
				p.SubtreeSize = size
			} else if p.SubtreeSize != size {
				return stack, cur, fmt.Errorf("tree: node %d covers %d nodes, its %d children %d", cur.index, p.SubtreeSize, p.ChildCount, size)
			}
			cur = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
	}
	return stack, cur, nil
}

// Tree returns the tree once every node is added.
func (b *Builder) Tree() (*Tree, error) {
	switch {
	case b.err != nil:
		return nil, b.err
	case b.added < len(b.nodes):
		return nil, fmt.Errorf("tree: %d of %d nodes added", b.added, len(b.nodes))
	case b.cur.index >= 0:
		return nil, fmt.Errorf("tree: node %d has fewer children than the %d it counts", b.cur.index, b.nodes[b.cur.index].ChildCount)
	}
	return &Tree{source: b.source, nodes: b.nodes, parent: b.parent, names: b.names, lines: lineStarts(b.source), ownNodes: !b.check}, nil
}
