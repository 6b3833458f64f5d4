package wire

import "github.com/loupe-dev/loupe/internal/slicepool"

// Items is a run of items of one style, such as one file's matches,
// encoded into a few buffers that are written at once (Writer.WriteItems)
// and recycled afterwards (Free), so that encoding them allocates little.
// Use NewItems.
type Items struct {
	e encoder // encodes into the current chunk, e.b.b
	// chunks are the full chunks, in order, and counts the items in each.
	chunks [][]byte
	counts []int
	sealed int   // the items in the full chunks
	ends   []int // where each item ends in its chunk, its separator included
	held   int   // bytes of the full chunks' buffers
}

// Chunks grow from minChunk to maxChunk bytes, doubling: a file with one
// small match holds little, and a file with thousands of them is written
// maxChunk bytes at a time.
const (
	minChunk = 8 << 10
	maxChunk = 256 << 10
)

// chunks recycles chunk buffers: as many as a search holds rendered
// ahead of its output (8 MiB, see cmd/loupe's heldItems) and a few more of
// the largest. Kept at 3 MiB, most of a large output's chunks were
// garbage: Python's standard library, every function (100 MB of JSON
// from the tree cache), took 299 ms of CPU against 271 kept at 10 MiB.
var chunks = slicepool.Pool[byte]{Bytes: 10 << 20, Slices: 64, Max: maxChunk}

// getChunk returns an empty buffer of at least n bytes, twice the size of
// prev (the chunk before, 0 for none) up to maxChunk.
func getChunk(prev, n int) []byte {
	size := minChunk
	if prev > 0 {
		size = min(2*prev, maxChunk)
	}
	return chunks.Get(max(size, n))[:0]
}

// NewItems returns an empty run of items of style s.
func NewItems(s Style) *Items { return &Items{e: encoder{pretty: s == Pretty, stream: s == Stream}} }

// AddMatch encodes m as the next item.
func (it *Items) AddMatch(m *Match) {
	it.next(m.sizeHint())
	m.encode(&it.e)
	it.end()
}

// AddFinding encodes f as the next item.
func (it *Items) AddFinding(f *Finding) {
	it.next(f.sizeHint())
	f.encode(&it.e)
	it.end()
}

// next starts an item of about hint bytes, in a new chunk when the
// current one lacks the room: after the first item, with the separator
// of an array's items (a stream's items each end their line instead).
func (it *Items) next(hint int) {
	e := &it.e
	hint += 8 // the separator and line end
	if b := e.b.b; cap(b)-len(b) < hint {
		if len(b) > 0 {
			it.chunks = append(it.chunks, b)
			it.counts = append(it.counts, len(it.ends)-it.sealed)
			it.sealed = len(it.ends)
			it.held += cap(b)
		}
		e.b.b = getChunk(cap(b), hint)
	}
	switch {
	case len(it.ends) == 0 || e.stream:
	case e.pretty:
		e.b.add(",\n")
	default:
		e.b.addByte(',')
	}
	e.depth, e.empty = 0, false
}

func (it *Items) end() {
	if it.e.stream {
		it.e.b.addByte('\n')
	}
	it.ends = append(it.ends, len(it.e.b.b))
}

// Len returns the number of items.
func (it *Items) Len() int { return len(it.ends) }

// Size returns the bytes the items' buffers hold.
func (it *Items) Size() int { return it.held + cap(it.e.b.b) }

// Free gives the items' buffers back for other items to use; it must not
// be used afterwards.
func (it *Items) Free() {
	for _, b := range it.chunks {
		chunks.Put(b)
	}
	chunks.Put(it.e.b.b)
	*it = Items{}
}

// WriteItems writes the first n items of it, which must be of the
// writer's style, a chunk at a time.
func (p *Writer) WriteItems(it *Items, n int) {
	n = min(n, it.Len())
	if n == 0 {
		return
	}
	switch {
	case p.style == Stream:
	case p.style == Pretty && p.written:
		p.w.Write([]byte(",\n"))
	case p.style == Pretty:
		p.w.Write([]byte("\n"))
	case p.written:
		p.w.Write([]byte(","))
	}
	p.written = true
	first := 0 // the index of the chunk's first item
	for k, b := range it.chunks {
		if n <= first+it.counts[k] {
			p.w.Write(b[:it.ends[n-1]])
			return
		}
		p.w.Write(b)
		first += it.counts[k]
	}
	p.w.Write(it.e.b.b[:it.ends[n-1]])
}
