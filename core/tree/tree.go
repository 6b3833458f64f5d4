// Package tree is loupe's syntax tree: an arena of nodes built from a
// grammar module's flat pre-order array (see package host), navigated with
// small Node values. It has no parser of its own and no WebAssembly.
package tree

import (
	"bytes"
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
	// ownNodes says the node records were allocated for the tree
	// (NewBuilder), not given to it (New), and so Release may reuse them.
	ownNodes bool
}

// lineStarts returns the offset of every row's first byte. Rows end at
// '\n' only, as tree-sitter counts them ("\r\n" ends a row at its '\n').
func lineStarts(source []byte) []uint32 {
	lines := linePool.Get(1 + bytes.Count(source, []byte{'\n'}))
	lines[0] = 0
	off := 0
	for i := 1; i < len(lines); i++ {
		off += bytes.IndexByte(source[off:], '\n') + 1
		lines[i] = uint32(off)
	}
	return lines
}

// point returns the row and byte column of offset off.
func (t *Tree) point(off uint32) Point {
	row := t.row(off)
	return Point{Row: row, Column: int(off - t.lines[row])}
}

// row returns the row of offset off: the last row starting at or before
// it.
func (t *Tree) row(off uint32) int {
	lo, hi := 0, len(t.lines) // lines[lo] <= off; lines[hi] > off, or hi is the end
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if t.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// CharColumn returns the column of byte offset off counted in characters
// (code points since the start of its row), as ast-grep reports columns.
// An offset past the source is taken as its end.
func (t *Tree) CharColumn(off int) int {
	_, col := t.CharPosition(off)
	return col
}

// CharPosition returns the row of byte offset off and its column counted
// in characters, as CharColumn does.
func (t *Tree) CharPosition(off int) (row, column int) {
	off = max(0, min(off, len(t.source)))
	row = t.row(uint32(off))
	return row, utf8.RuneCount(t.source[t.lines[row]:off])
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
