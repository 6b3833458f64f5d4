package treecache

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/loupe-dev/loupe/host"
)

// Key names an entry: the SHA-256 of the format, the grammar module's
// hash and the source bytes (see KeyOf).
type Key [sha256.Size]byte

// formatTag is hashed into every key, so that entries of another format
// are never looked up.
const formatTag = "loupe tree cache 1\x00"

// KeyOf returns the key of src's tree as parsed by the grammar module whose
// hash is grammar (the SHA-256 hex the grammars manifest records).
func KeyOf(grammar string, src []byte) Key {
	h := sha256.New()
	h.Write([]byte(formatTag))
	h.Write([]byte(grammar))
	h.Write([]byte{0})
	h.Write(src)
	var k Key
	h.Sum(k[:0])
	return k
}

// An entry is a 64-byte header followed by the nodes, each as five
// unsigned varints in pre-order:
//
//	symbol, field<<5 | flags, zigzag(start - previous start), end - start, child count
//
// Subtree sizes follow from the child counts, and nothing of the source
// is kept. All header numbers are little-endian.
const (
	magic      = "LTC\x01"
	headerSize = 64
	offKey     = 4
	offSrcLen  = offKey + len(Key{})
	offNodes   = offSrcLen + 8
	offPayload = offNodes + 8
	offCRC     = offPayload + 8
	// minNodeBytes is the fewest bytes a node takes (five one-byte
	// varints), which bounds the node count an entry can claim.
	minNodeBytes = 5
	// flagBits is how many bits of Node.Flags an entry keeps: the five
	// host.Flag* bits. A node with others set is not stored.
	flagBits = 5
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errCorrupt is an entry that does not check out: torn, truncated,
// altered, or of another key.
var errCorrupt = errors.New("treecache: corrupt entry")

// encode appends the entry of nodes (the tree of a source of srcLen bytes
// under key) to buf. It reports false when the nodes cannot be stored
// (a flag outside the five known ones).
func encode(buf []byte, key Key, srcLen int, nodes []host.Node) ([]byte, bool) {
	// About six bytes a node (5.8 on Go's sources): one allocation mostly.
	buf = slices.Grow(buf[:0], headerSize+6*len(nodes))
	buf = append(buf, make([]byte, headerSize)...)
	var prev uint32
	for i := range nodes {
		n := &nodes[i]
		if n.Flags>>flagBits != 0 {
			return buf, false
		}
		buf = binary.AppendUvarint(buf, uint64(n.Symbol))
		buf = binary.AppendUvarint(buf, uint64(n.Field)<<flagBits|uint64(n.Flags))
		d := int64(n.StartByte) - int64(prev)
		buf = binary.AppendUvarint(buf, uint64(d<<1)^uint64(d>>63))
		buf = binary.AppendUvarint(buf, uint64(n.EndByte-n.StartByte))
		buf = binary.AppendUvarint(buf, uint64(n.ChildCount))
		prev = n.StartByte
	}
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

// checksum is the CRC-32C of an entry's bytes but its checksum field.
func checksum(b []byte) uint32 {
	c := crc32.Update(0, castagnoli, b[:offCRC])
	return crc32.Update(c, castagnoli, b[headerSize:])
}

// decode checks that b is a whole, unaltered entry of key for a source of
// srcLen bytes and returns its nodes. Whatever b holds, it returns an
// error rather than panicking; the tree built over the nodes checks their
// shape once more (tree.New).
func decode(b []byte, key Key, srcLen int) ([]host.Node, error) {
	if len(b) < headerSize || string(b[:len(magic)]) != magic || Key(b[offKey:offSrcLen]) != key {
		return nil, errCorrupt
	}
	le := binary.LittleEndian
	count, payload := le.Uint64(b[offNodes:]), le.Uint64(b[offPayload:])
	if le.Uint64(b[offSrcLen:]) != uint64(srcLen) || payload != uint64(len(b)-headerSize) ||
		count == 0 || count > payload/minNodeBytes || le.Uint32(b[offCRC:]) != checksum(b) {
		return nil, errCorrupt
	}
	nodes := make([]host.Node, count)
	if err := decodeNodes(b[headerSize:], nodes); err != nil {
		return nil, err
	}
	return nodes, nil
}

// uvarint reads the unsigned varint at p[off:] and returns it and the
// offset after it; an offset of -1 (given or returned) means the bytes ran
// out or are not a varint.
func uvarint(p []byte, off int) (uint64, int) {
	if uint(off) < uint(len(p)) && p[off] < 0x80 {
		return uint64(p[off]), off + 1
	}
	return uvarintLong(p, off)
}

// uvarintLong is uvarint's way for a varint of several bytes (kept apart
// so that uvarint is inlined).
func uvarintLong(p []byte, off int) (uint64, int) {
	if off < 0 || off > len(p) {
		return 0, -1
	}
	v, n := binary.Uvarint(p[off:])
	if n <= 0 {
		return 0, -1
	}
	return v, off + n
}

// decodeNodes fills nodes from the payload p, rebuilding subtree sizes
// from child counts with a stack of the nodes whose children are still
// being read.
func decodeNodes(p []byte, nodes []host.Node) error {
	type open struct {
		index int
		left  uint32 // children not yet complete
	}
	var (
		stack []open
		prev  int64
		off   int
	)
	for i := range nodes {
		if i > 0 && len(stack) == 0 {
			return fmt.Errorf("%w: node %d follows a complete tree", errCorrupt, i)
		}
		var sym, ff, d, length, children uint64
		if q := p[min(off, len(p)):]; len(q) >= 5 && (q[0]|q[1]|q[2]|q[3]|q[4])&0x80 == 0 {
			// Five one-byte varints, the commonest node.
			sym, ff, d, length, children = uint64(q[0]), uint64(q[1]), uint64(q[2]), uint64(q[3]), uint64(q[4])
			off += 5
		} else {
			sym, off = uvarint(p, off)
			ff, off = uvarint(p, off)
			d, off = uvarint(p, off)
			length, off = uvarint(p, off)
			children, off = uvarint(p, off)
		}
		if off < 0 {
			return fmt.Errorf("%w: node %d is cut short", errCorrupt, i)
		}
		start := prev + (int64(d>>1) ^ -int64(d&1))
		end := start + int64(length)
		if sym > 0xFFFF || ff>>flagBits > 0xFFFF || start < 0 || end > 0xFFFFFFFF || children > uint64(len(nodes)) {
			return fmt.Errorf("%w: node %d is out of range", errCorrupt, i)
		}
		prev = start
		nodes[i] = host.Node{
			Symbol: uint16(sym), Field: uint16(ff >> flagBits), Flags: uint32(ff & (1<<flagBits - 1)),
			StartByte: uint32(start), EndByte: uint32(end), ChildCount: uint32(children),
		}
		if children > 0 {
			stack = append(stack, open{index: i, left: uint32(children)})
			continue
		}
		nodes[i].SubtreeSize = 1
		// Node i completes its parent's child; parents whose last child
		// that was complete in turn.
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.left--; top.left > 0 {
				break
			}
			nodes[top.index].SubtreeSize = uint32(i - top.index + 1)
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 || off != len(p) {
		return fmt.Errorf("%w: the nodes do not close", errCorrupt)
	}
	return nil
}
