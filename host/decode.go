package host

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"
)

// littleEndian reports whether Node's in-memory layout equals the module's
// encoding, so a flat tree can be copied in one move.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// DecodeNodes copies n encoded records out of b into a new slice.
func DecodeNodes(b []byte, n int) ([]Node, error) {
	if n < 0 || len(b) < n*NodeSize {
		return nil, fmt.Errorf("host: flat tree of %d nodes needs %d bytes, module memory has %d", n, n*NodeSize, len(b))
	}
	nodes := make([]Node, n)
	if n == 0 {
		return nodes, nil
	}
	if littleEndian && unsafe.Sizeof(Node{}) == NodeSize {
		dst := unsafe.Slice((*byte)(unsafe.Pointer(&nodes[0])), n*NodeSize)
		copy(dst, b[:n*NodeSize])
		return nodes, nil
	}
	decodePortable(b, nodes)
	return nodes, nil
}

// decodePortable decodes len(nodes) records field by field, for hosts
// whose memory layout differs from the module's.
func decodePortable(b []byte, nodes []Node) {
	le := binary.LittleEndian
	for i := range nodes {
		r := b[i*NodeSize:]
		nodes[i] = Node{
			Symbol: le.Uint16(r[0:]), Field: le.Uint16(r[2:]), Flags: le.Uint32(r[4:]),
			StartByte: le.Uint32(r[8:]), EndByte: le.Uint32(r[12:]),
			ChildCount: le.Uint32(r[16:]), SubtreeSize: le.Uint32(r[20:]),
		}
	}
}

var errNames = errors.New("host: malformed name table")

// DecodeNames reads the name table that loupe_names builds. b may extend
// past the table's end (it is read straight from module memory).
func DecodeNames(b []byte) (*Names, error) {
	le := binary.LittleEndian
	if len(b) < 8 {
		return nil, errNames
	}
	nsym, nfield := int(le.Uint32(b)), int(le.Uint32(b[4:]))
	if nsym > 1<<16 || nfield >= 1<<16 {
		return nil, errNames
	}
	b = b[8:]
	n := &Names{
		Symbols: make([]string, nsym),
		Named:   make([]bool, nsym),
		Visible: make([]bool, nsym),
		Fields:  make([]string, nfield+1),
	}
	for i := range nsym {
		if len(b) < 3 {
			return nil, errNames
		}
		flags, l := b[0], int(le.Uint16(b[1:]))
		if len(b) < 3+l {
			return nil, errNames
		}
		n.Symbols[i] = string(b[3 : 3+l])
		n.Named[i] = flags&1 != 0
		n.Visible[i] = flags&2 != 0
		b = b[3+l:]
	}
	for i := 1; i <= nfield; i++ {
		if len(b) < 2 {
			return nil, errNames
		}
		l := int(le.Uint16(b))
		if len(b) < 2+l {
			return nil, errNames
		}
		n.Fields[i] = string(b[2 : 2+l])
		b = b[2+l:]
	}
	return n, nil
}
