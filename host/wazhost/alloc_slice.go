package wazhost

import "github.com/tetratelabs/wazero/experimental"

// sliceMemory is a linear memory over a Go slice, for platforms without
// mmap. Unlike wazero's default it keeps no spare capacity beyond what the
// module asked for, and Free drops the slice at once.
type sliceMemory struct {
	buf []byte
	max uint64
}

// Reallocate grows the memory to size bytes, copying; new bytes are zero.
func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if size > uint64(len(m.buf)) {
		grown := make([]byte, size)
		copy(grown, m.buf)
		m.buf = grown
	}
	return m.buf[:size]
}

// Free releases the memory.
func (m *sliceMemory) Free() { m.buf = nil }

var _ experimental.LinearMemory = (*sliceMemory)(nil)
