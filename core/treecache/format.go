package treecache

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/host"
)

// Key names an entry: the SHA-256 of the format, the grammar module's
// hash and the source bytes (see KeyOf).
type Key [sha256.Size]byte

// formatTag is hashed into every key, so that entries of another format
// are never looked up.
const formatTag = "loupe tree cache 4\x00"

// KeyOf returns the key of src's tree as parsed by the grammar module whose
// hash is grammar (the SHA-256 hex the grammars manifest records).
func KeyOf(grammar string, src []byte) Key {
	prefix := make([]byte, 0, len(formatTag)+len(grammar)+1)
	prefix = append(append(append(prefix, formatTag...), grammar...), 0)
	if f := sum.Load(); f != nil {
		if k, ok := (*f)(prefix, src); ok {
			return k
		}
	}
	h := sha256.New()
	h.Write(prefix)
	h.Write(src)
	var k Key
	h.Sum(k[:0])
	return k
}

// sum is the SHA-256 function SetSum set, or nil for crypto/sha256's.
var sum atomic.Pointer[func(prefix, src []byte) (Key, bool)]

// SetSum makes keys computed by f, which must return the SHA-256 of prefix
// followed by src, instead of crypto/sha256 (nil puts that back; a key f
// reports false for is computed by crypto/sha256): for a platform whose
// own is faster. Go's runs at about 170 MB/s as wasm under
// Node, where Node's native one hashes at memory speed; a warm search of
// typescript's lib/*.d.ts spent 58 of 320 ms there.
func SetSum(f func(prefix, src []byte) (Key, bool)) {
	if f == nil {
		sum.Store(nil)
		return
	}
	sum.Store(&f)
}

// An entry is a 64-byte header, the nodes in pre-order, a table of
// checkpoints and padding bytes. A node is a little-endian 16-bit tag and
// up to five little-endian numbers whose widths the tag gives:
//
//	symbol, field, |start - previous start|, end - start, child count
//
// The tag's bits 0-4 are the node's flags, each following pair of bits
// the width of one number in that order (0, 1, 2 or 4 bytes: a number of
// width 0 is 0), and bit 15 the sign of the start's difference. Subtree
// sizes follow from the child counts, and nothing of the source is kept.
// The fixed widths let a node be read without a branch on its bytes, and
// the padding lets every number be read as 8 bytes. The table holds, for
// every checkpointEvery-th node after the first, where its bytes start
// (from the first node's) and the previous node's start, two 32-bit
// numbers, so that a large entry is decoded in parts at once; the node
// count says how many there are. All numbers are little-endian.
const (
	magic      = "LTC\x04"
	headerSize = 64
	offKey     = 4
	offSrcLen  = offKey + len(Key{})
	offNodes   = offSrcLen + 8
	offPayload = offNodes + 8
	offCRC     = offPayload + 8
	// minNodeBytes is the fewest bytes a node takes (its tag), which
	// bounds the node count an entry can claim.
	minNodeBytes = 2
	// nodeSpan is the most a node's reading spans: a tag, then a 4-byte
	// read at the fifth number, after four of at most 4 bytes, rounded up
	// so that its offsets into the span need no bounds check.
	nodeSpan = 32 + 4
	// padding is the zero bytes after the last node, so that its span
	// stays within the entry.
	padding = nodeSpan
	// flagBits is how many bits of Node.Flags an entry keeps: the five
	// host.Flag* bits. A node with others set is not stored.
	flagBits = 5
	signBit  = 1 << 15
	// checkpointEvery is how many nodes lie between two checkpoints.
	checkpointEvery = 1 << 14
	// checkpointSize is the bytes of one checkpoint in the table.
	checkpointSize = 8
	// parallelNodes is the fewest nodes of an entry decoded in parts on
	// several goroutines: a tree of a few megabytes of source, which
	// otherwise holds up a search on one core while the others are done.
	parallelNodes = 4 * checkpointEvery
)

// checkpoints returns how many checkpoints an entry of count nodes has.
func checkpoints(count int) int { return max(count-1, 0) / checkpointEvery }

// width returns the bytes of the number whose width code is in the low
// two bits of c: 0, 1, 2 or 4.
func width(c uint) int { return 1 << (c & 3) >> 1 }

// masks are the masks of a number read as 4 bytes by its width code.
var masks = [4]uint32{0, 0xff, 0xffff, 0xffffffff}

// layouts gives, for the ten width bits of a tag, where the node's
// numbers after the symbol start (5 bits each: field, start, length,
// child count) and, from bit 20, the node's size.
var layouts = func() (t [1 << 10]uint32) {
	for codes := range uint(len(t)) {
		at := 2 + width(codes)
		var e uint32
		for k := range 4 {
			e |= uint32(at) << (5 * k)
			at += width(codes >> (2 * (k + 1)))
		}
		t[codes] = e | uint32(at)<<20
	}
	return t
}()

// widthCode returns the width code of v: the fewest of 0, 1, 2 or 4 bytes
// that hold it.
func widthCode(v uint32) uint16 {
	switch {
	case v == 0:
		return 0
	case v <= 0xff:
		return 1
	case v <= 0xffff:
		return 2
	}
	return 3
}

// crcTable is the CRC-32 (IEEE) of entries and pack indexes. It is the
// polynomial whose table costs nothing to set up: CRC-32C's takes half a
// millisecond at start on amd64 (hash/crc32's SSE 4.2 tables), a tenth of
// a warm search that finds few files, and both run at memory speed.
var crcTable = crc32.IEEETable

// errCorrupt is an entry that does not check out: torn, truncated,
// altered, or of another key.
var errCorrupt = errors.New("treecache: corrupt entry")

// encode appends the entry of nodes (the tree of a source of srcLen bytes
// under key) to buf. It reports false when the nodes cannot be stored
// (a flag outside the five known ones).
func encode(buf []byte, key Key, srcLen int, nodes []host.Node) ([]byte, bool) {
	buf = slices.Grow(buf[:0], encodedSize(len(nodes)))
	buf = append(buf, make([]byte, headerSize)...)
	table := make([]byte, 0, checkpoints(len(nodes))*checkpointSize)
	var prev uint32
	for i := range nodes {
		if i > 0 && i%checkpointEvery == 0 {
			table = binary.LittleEndian.AppendUint32(table, uint32(len(buf)-headerSize))
			table = binary.LittleEndian.AppendUint32(table, prev)
		}
		n := &nodes[i]
		if n.Flags>>flagBits != 0 {
			return buf, false
		}
		delta, tag := n.StartByte-prev, uint16(0)
		if n.StartByte < prev {
			delta, tag = prev-n.StartByte, signBit
		}
		length := n.EndByte - n.StartByte
		sym, field, children := uint32(n.Symbol), uint32(n.Field), n.ChildCount
		tag |= uint16(n.Flags) | widthCode(sym)<<5 | widthCode(field)<<7 |
			widthCode(delta)<<9 | widthCode(length)<<11 | widthCode(children)<<13
		buf = binary.LittleEndian.AppendUint16(buf, tag)
		buf = appendWidth(buf, sym)
		buf = appendWidth(buf, field)
		buf = appendWidth(buf, delta)
		buf = appendWidth(buf, length)
		buf = appendWidth(buf, children)
		prev = n.StartByte
	}
	buf = append(buf, table...)
	buf = append(buf, make([]byte, padding)...)
	h := buf[:headerSize]
	copy(h, magic)
	copy(h[offKey:], key[:])
	le := binary.LittleEndian
	le.PutUint64(h[offSrcLen:], uint64(srcLen))
	le.PutUint64(h[offNodes:], uint64(len(nodes)))
	le.PutUint64(h[offPayload:], uint64(len(buf)-headerSize))
	le.PutUint32(h[offCRC:], checksum(buf))
	return buf, true
}

// encodedSize is about the size of the entry of n nodes (six bytes a node
// on Go's sources), a little more mostly, so that encoding allocates once.
func encodedSize(n int) int { return headerSize + 7*n + checkpoints(n)*checkpointSize + padding }

// appendWidth appends v in the width its code gives.
func appendWidth(buf []byte, v uint32) []byte {
	switch widthCode(v) {
	case 1:
		return append(buf, byte(v))
	case 2:
		return binary.LittleEndian.AppendUint16(buf, uint16(v))
	case 3:
		return binary.LittleEndian.AppendUint32(buf, v)
	}
	return buf
}

// checksum is the CRC-32 of an entry's bytes but its checksum field.
func checksum(b []byte) uint32 {
	c := crc32.Update(0, crcTable, b[:offCRC])
	return crc32.Update(c, crcTable, b[headerSize:])
}

// decode checks that b is a whole, unaltered entry of key for src and
// returns the tree it holds over src, built with names. Whatever b holds,
// it returns an error rather than panicking, and the tree is checked as a
// parse's is (tree.Builder).
func decode(b []byte, key Key, src []byte, names *host.Names) (*tree.Tree, error) {
	if len(b) < headerSize || string(b[:len(magic)]) != magic || Key(b[offKey:offSrcLen]) != key {
		return nil, errCorrupt
	}
	le := binary.LittleEndian
	count, payload := le.Uint64(b[offNodes:]), le.Uint64(b[offPayload:])
	if le.Uint64(b[offSrcLen:]) != uint64(len(src)) || payload != uint64(len(b)-headerSize) || payload < padding ||
		count == 0 || count > payload/minNodeBytes || le.Uint32(b[offCRC:]) != checksum(b) {
		return nil, errCorrupt
	}
	p := b[headerSize:]
	// The nodes end where the checkpoint table starts.
	end := int(payload) - padding - checkpoints(int(count))*checkpointSize
	if end < 0 {
		return nil, errCorrupt
	}
	bld, err := tree.NewBuilder(src, names, int(count))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errCorrupt, err)
	}
	nodes := bld.Nodes()
	if parts := min(runtime.GOMAXPROCS(0), checkpoints(len(nodes))+1); len(nodes) >= parallelNodes && parts > 1 {
		if err := decodeParts(p, end, nodes, parts); err != nil {
			return nil, err
		}
		if err := bld.Add(len(nodes)); err != nil {
			return nil, fmt.Errorf("%w: %w", errCorrupt, err)
		}
	} else {
		// The nodes are decoded and linked a part at a time, each part
		// linked while it is still in the processor's cache.
		const part = 512
		var (
			off  int
			prev uint32
		)
		for lo := 0; lo < len(nodes); lo += part {
			hi := min(lo+part, len(nodes))
			if off, prev, err = decodeNodes(p, end, off, prev, nodes[lo:hi]); err != nil {
				return nil, err
			}
			if err := bld.Add(hi); err != nil {
				return nil, fmt.Errorf("%w: %w", errCorrupt, err)
			}
		}
		if off != end {
			return nil, fmt.Errorf("%w: the nodes do not end where the entry does", errCorrupt)
		}
	}
	t, err := bld.Tree()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errCorrupt, err)
	}
	return t, nil
}

// decodeParts fills nodes, all but their subtree sizes, from the payload
// p whose nodes end at end, in parts that run from checkpoint to
// checkpoint, decoded on as many goroutines: each part must end where the
// next one's checkpoint says it starts, and the last where the nodes end.
func decodeParts(p []byte, end int, nodes []host.Node, parts int) error {
	le := binary.LittleEndian
	table := p[end:]
	spans := checkpoints(len(nodes)) + 1 // the runs between checkpoints
	// start returns where run r (> 0) starts and the start before it.
	start := func(r int) (int, uint32) {
		c := table[(r-1)*checkpointSize:]
		return int(le.Uint32(c)), le.Uint32(c[4:])
	}
	errs := make([]error, parts)
	var wg sync.WaitGroup
	decode := func(k int) {
		first, last := spans*k/parts, spans*(k+1)/parts // runs [first, last)
		var off int
		var prev uint32
		if first > 0 {
			off, prev = start(first)
		}
		lo, hi := first*checkpointEvery, min(last*checkpointEvery, len(nodes))
		off, prev, err := decodeNodes(p, end, off, prev, nodes[lo:hi])
		wantOff, wantPrev := end, prev
		if hi < len(nodes) {
			wantOff, wantPrev = start(last)
		}
		if err == nil && (off != wantOff || prev != wantPrev) {
			err = fmt.Errorf("%w: nodes %d to %d do not end where the next start", errCorrupt, lo, hi)
		}
		errs[k] = err
	}
	for k := 1; k < parts; k++ {
		wg.Go(func() { decode(k) })
	}
	decode(0)
	wg.Wait()
	return errors.Join(errs...)
}

// decodeNodes fills nodes, all but their subtree sizes, from the payload
// p (nodes, checkpoints and padding; the nodes end at end) at off, where
// the previous node started at prev, and returns the offset and start
// after them.
func decodeNodes(p []byte, end, off int, prev uint32, nodes []host.Node) (int, uint32, error) {
	le := binary.LittleEndian
	for i := range nodes {
		if off >= end {
			return off, prev, fmt.Errorf("%w: a node is past the nodes", errCorrupt)
		}
		// A node and the 4 bytes read past its last number lie within
		// its first nodeSpan bytes, which off < end keeps in p.
		q := p[off : off+nodeSpan]
		tag := uint(le.Uint16(q))
		// The offsets come from the tag alone, so that the next node's
		// waits on no other read.
		at := layouts[tag>>5&(1<<10-1)]
		sym := le.Uint32(q[2:]) & masks[tag>>5&3]
		field := le.Uint32(q[at&31:]) & masks[tag>>7&3]
		delta := le.Uint32(q[at>>5&31:]) & masks[tag>>9&3]
		length := le.Uint32(q[at>>10&31:]) & masks[tag>>11&3]
		children := le.Uint32(q[at>>15&31:]) & masks[tag>>13&3]
		off += int(at >> 20)
		start := prev + delta
		negative := tag&signBit != 0
		if negative {
			start = prev - delta
		}
		if (negative && delta > prev) || (!negative && start < prev) || start+length < start {
			return off, prev, fmt.Errorf("%w: a node is out of range", errCorrupt)
		}
		prev = start
		// Field by field: a struct literal is built on the stack and
		// copied, and that copy's wide reads of narrow writes stall.
		n := &nodes[i]
		n.Symbol, n.Field, n.Flags = uint16(sym), uint16(field), uint32(tag&(1<<flagBits-1))
		n.StartByte, n.EndByte, n.ChildCount, n.SubtreeSize = start, start+length, children, 0
	}
	return off, prev, nil
}
