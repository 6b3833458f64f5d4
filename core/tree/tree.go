// Package tree is loupe's syntax tree: an arena of nodes built from a
// grammar module's flat pre-order array (see package host), navigated with
// small Node values. It has no parser of its own and no WebAssembly.
package tree

import (
	"bytes"
	"encoding/binary"
	"sync"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/host"
)

// Tree is a parsed source file. It is immutable and safe for concurrent
// reads.
//
// What only some queries need is computed on first use, once: the links
// between nodes (a tree from a Builder; New's are given) on the first walk
// between them, and the row index on the first position asked for. A
// query that reads nodes by their kind and reports no position, or a file
// where nothing matches, costs neither.
type Tree struct {
	source []byte
	nodes  []host.Node
	names  *host.Names
	// ownNodes says the node records were allocated for the tree
	// (NewBuilder), not given to it (New), and so Release may reuse them.
	ownNodes bool

	linkOnce sync.Once
	parent   []int32 // parent index of each node, -1 for the root; set by linkOnce

	linesOnce sync.Once
	lines     []uint32 // byte offset where each row starts: 0, then after each '\n'; set by linesOnce
	// over, for a tree of code injected in another's source (NewOver),
	// is that tree, whose row index it uses.
	over *Tree
}

// linked returns t once its nodes' parents and subtree sizes are set.
func (t *Tree) linked() *Tree {
	t.linkOnce.Do(t.link)
	return t
}

// link sets the parents and subtree sizes of a Builder's tree, whose
// array the Builder checked.
func (t *Tree) link() {
	t.parent = parentPool.Get(len(t.nodes))
	linkSizes(t.nodes, t.parent)
}

// rows returns the row index, made on first use.
func (t *Tree) rows() []uint32 {
	if t.over != nil {
		return t.over.rows()
	}
	t.linesOnce.Do(func() { t.lines = lineStarts(t.source) })
	return t.lines
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
	return Point{Row: row, Column: int(off - t.rows()[row])}
}

// row returns the row of offset off: the last row starting at or before
// it.
func (t *Tree) row(off uint32) int { return t.rowFrom(0, off) }

// rowFrom returns the row of offset off, which lies on row lo or after.
func (t *Tree) rowFrom(lo int, off uint32) int {
	lines := t.rows()
	hi := len(lines) // lines[lo] <= off; lines[hi] > off, or hi is the end
	if lo+1 < hi && lines[lo+1] > off {
		return lo // on row lo itself, as most ranges end: no search
	}
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if lines[mid] <= off {
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
	return row, charCount(t.source[t.rows()[row]:off])
}

// CharRange returns the positions of the byte offsets start and end (at
// or after start), rows and columns in characters as CharPosition counts
// them, the end's found from the start's.
func (t *Tree) CharRange(start, end int) (startRow, startCol, endRow, endCol int) {
	startRow, startCol = t.CharPosition(start)
	start = max(0, min(start, len(t.source)))
	end = max(start, min(end, len(t.source)))
	endRow = t.rowFrom(startRow, uint32(end))
	if endRow == startRow && (start == end || utf8.RuneStart(t.source[start])) {
		// Counted on from the start, which cuts no character in two.
		return startRow, startCol, endRow, startCol + charCount(t.source[start:end])
	}
	return startRow, startCol, endRow, charCount(t.source[t.rows()[endRow]:end])
}

// charCount returns the characters of b as utf8.RuneCount counts them
// (an invalid byte as one), its ASCII start eight bytes at a time.
func charCount(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	return i + utf8.RuneCount(b[i:])
}

// Root returns the root node.
func (t *Tree) Root() Node { return Node{t: t, i: 0} }

// Source returns the parsed bytes; callers must not modify them.
func (t *Tree) Source() []byte { return t.source }

// Names returns the grammar's symbol and field table.
func (t *Tree) Names() *host.Names { return t.names }

// Nodes returns the flat pre-order node array the tree was built from
// (for a tree cache to keep, for a scan to pass over by kind); callers
// must not modify it. A Builder's tree sets its records' SubtreeSize on
// its first walk between nodes (Linked does it at once), so a reader of
// the sizes calls Linked.
func (t *Tree) Nodes() []host.Node { return t.nodes }

// Linked returns Nodes once every record's SubtreeSize is set.
func (t *Tree) Linked() []host.Node { return t.linked().nodes }

// Len returns the number of nodes in the tree.
func (t *Tree) Len() int { return len(t.nodes) }

// Bytes is about the memory the tree holds: its source, its node records,
// their parent links and the row index (counted whether made yet or not,
// at a row every rowBytes bytes, so that the figure is the same before
// and after and costs no pass over the source).
func (t *Tree) Bytes() int64 {
	return int64(len(t.source)) + int64(len(t.nodes))*(host.NodeSize+4) + int64(len(t.source)/rowBytes+1)*4
}

// rowBytes is about the bytes of a row of source code, for Bytes.
const rowBytes = 32

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
