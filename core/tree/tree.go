// Package tree is loupe's syntax tree: an arena of nodes built from a
// grammar module's flat pre-order array (see package host), navigated with
// small Node values. It has no parser of its own and no WebAssembly.
package tree

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/host"
)

// Tree is a parsed source file. It is immutable and safe for concurrent
// reads.
type Tree struct {
	source []byte
	nodes  []host.Node
	parent []int32 // parent index of each node, -1 for the root
	names  *host.Names
	lines  []uint32 // byte offset where each row starts: 0, then after each '\n'
}

// New builds a Tree over source from a flat pre-order node array. It checks
// the array's shape (subtree sizes, child counts, ranges, symbol and field
// ids), so a corrupt module output is an error, not a panic later.
func New(source []byte, nodes []host.Node, names *host.Names) (*Tree, error) {
	if names == nil {
		return nil, fmt.Errorf("tree: no name table")
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("tree: empty node array")
	}
	if len(nodes) > math.MaxInt32 {
		return nil, fmt.Errorf("tree: %d nodes is more than a tree can index", len(nodes))
	}
	if int(nodes[0].SubtreeSize) != len(nodes) {
		return nil, fmt.Errorf("tree: root covers %d nodes, array has %d", nodes[0].SubtreeSize, len(nodes))
	}
	parent := make([]int32, len(nodes))
	parent[0] = -1
	for i := range nodes {
		n := &nodes[i]
		if n.SubtreeSize == 0 || i+int(n.SubtreeSize) > len(nodes) ||
			n.StartByte > n.EndByte || int(n.EndByte) > len(source) ||
			(int(n.Symbol) >= len(names.Symbols) && n.Symbol != ErrorKindID) || int(n.Field) >= len(names.Fields) {
			return nil, fmt.Errorf("tree: malformed node %d", i)
		}
		// The children must tile the subtree exactly, as many as counted;
		// walking them also gives each its parent. Since the root covers
		// the array, every later node is reached as a child this way
		// before it is visited, and each only once, so this stays linear.
		end, k := i+int(n.SubtreeSize), uint32(0)
		for c := i + 1; c < end; k++ {
			size := int(nodes[c].SubtreeSize)
			if size == 0 || c+size > end {
				return nil, fmt.Errorf("tree: node %d overruns its parent %d", c, i)
			}
			parent[c] = int32(i)
			c += size
		}
		if k != n.ChildCount {
			return nil, fmt.Errorf("tree: node %d has %d children, records %d", i, k, n.ChildCount)
		}
	}
	return &Tree{source: source, nodes: nodes, parent: parent, names: names, lines: lineStarts(source)}, nil
}

// lineStarts returns the offset of every row's first byte. Rows end at
// '\n' only, as tree-sitter counts them ("\r\n" ends a row at its '\n').
func lineStarts(source []byte) []uint32 {
	lines := make([]uint32, 1, 1+len(source)/32)
	for off := 0; ; {
		i := bytes.IndexByte(source[off:], '\n')
		if i < 0 {
			return lines
		}
		off += i + 1
		lines = append(lines, uint32(off))
	}
}

// point returns the row and byte column of offset off.
func (t *Tree) point(off uint32) Point {
	row := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	return Point{Row: row, Column: int(off - t.lines[row])}
}

// CharColumn returns the column of byte offset off counted in characters
// (code points since the start of its row), as ast-grep reports columns.
// An offset past the source is taken as its end.
func (t *Tree) CharColumn(off int) int {
	off = max(0, min(off, len(t.source)))
	start := int(t.lines[t.point(uint32(off)).Row])
	return utf8.RuneCount(t.source[start:off])
}

// Root returns the root node.
func (t *Tree) Root() Node { return Node{t: t, i: 0} }

// Source returns the parsed bytes; callers must not modify them.
func (t *Tree) Source() []byte { return t.source }

// Names returns the grammar's symbol and field table.
func (t *Tree) Names() *host.Names { return t.names }

// Nodes returns the flat pre-order node array the tree was built from
// (for a tree cache to keep); callers must not modify it.
func (t *Tree) Nodes() []host.Node { return t.nodes }

// Len returns the number of nodes in the tree.
func (t *Tree) Len() int { return len(t.nodes) }

// Bytes is about the memory the tree holds: its source, its node records,
// their parent links and the row index.
func (t *Tree) Bytes() int64 {
	return int64(len(t.source)) + int64(len(t.nodes))*(host.NodeSize+4) + int64(len(t.lines))*4
}

// Node returns the node with pre-order index i, or the zero Node when i is
// out of range.
func (t *Tree) Node(i int) Node {
	if i < 0 || i >= len(t.nodes) {
		return Node{}
	}
	return Node{t: t, i: int32(i)}
}

// ErrorKindID is the symbol id tree-sitter gives ERROR nodes; it lies
// outside a grammar's symbol table.
const ErrorKindID = 0xFFFF

// Point is a position in the source: a 0-based row and a 0-based column in
// bytes, as tree-sitter counts them.
type Point struct {
	Row, Column int
}
