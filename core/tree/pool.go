package tree

import (
	"github.com/loupe-dev/loupe/host"
	"github.com/loupe-dev/loupe/internal/slicepool"
)

// The records of trees released, for trees built later: a few of each, as
// many as the workers of a search use at once.
var (
	nodePool   = slicepool.Pool[host.Node]{Bytes: 2 << 20, Slices: 8, Max: 32 << 10 * host.NodeSize}
	parentPool = slicepool.Pool[int32]{Bytes: 512 << 10, Slices: 8, Max: 128 << 10}
	linePool   = slicepool.Pool[uint32]{Bytes: 256 << 10, Slices: 8, Max: 64 << 10}
)

// Release gives the tree's parent links, row index and node records (those
// NewBuilder allocated; New's are the caller's) back for trees built later
// to reuse, and returns its source, which is the caller's again. Neither
// the tree nor anything taken from it (a Node, a text, a byte slice, its
// node records) may be used afterwards: the caller must know that nothing
// else holds any of it.
func (t *Tree) Release() []byte {
	if t.ownNodes {
		nodePool.Put(t.nodes)
	}
	parentPool.Put(t.parent)
	linePool.Put(t.lines)
	src := t.source
	*t = Tree{}
	return src
}
