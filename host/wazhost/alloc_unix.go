//go:build unix

package wazhost

import (
	"sync/atomic"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// memoryInModule reports whether instances' linear memory is ours (an
// mmap reservation whose address never changes), so the host can write a
// module's cancel flag while a parse runs.
const memoryInModule = true

// allocatorInto returns an allocator that backs each linear memory with one
// mmap reservation of its maximum size, committed as it grows, and stores
// the memory it creates in *dst. Growth never copies, and a closed
// instance's memory goes straight back to the OS instead of waiting for
// Go's GC.
func allocatorInto(dst **mmapMemory) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(cap, max uint64) experimental.LinearMemory {
		page := uint64(unix.Getpagesize())
		res := (max + page - 1) &^ (page - 1)
		if res == 0 {
			res = page
		}
		buf, err := unix.Mmap(-1, 0, int(res), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|mapNoReserve)
		if err != nil {
			return fallbackMemory(cap, max)
		}
		m := &mmapMemory{buf: buf, page: page}
		if m.Reallocate(cap) == nil {
			m.Free()
			return fallbackMemory(cap, max)
		}
		*dst = m
		return m
	})
}

// fallbackMemory is a Go slice for when the reservation fails (a tight
// address-space limit): wazero cannot take a nil memory. Its instance has
// no cancel flag (*dst stays nil), so a parse on it runs to its end.
func fallbackMemory(cap, max uint64) experimental.LinearMemory {
	m := &sliceMemory{max: max}
	m.Reallocate(cap)
	return m
}

type mmapMemory struct {
	buf []byte // the whole reservation
	// committed is the bytes readable and writable from the start of buf;
	// atomic, since setWord reads it while the module may be growing.
	committed atomic.Uint64
	page      uint64
}

// Reallocate commits memory up to size bytes; the address never changes.
func (m *mmapMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	if committed := m.committed.Load(); size > committed {
		// Commit ahead geometrically so many small memory.grow calls do
		// not each pay for an mprotect.
		want := max(size, min(committed+committed/4, uint64(len(m.buf))))
		want = min((want+m.page-1)&^(m.page-1), uint64(len(m.buf)))
		if err := unix.Mprotect(m.buf[committed:want], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return nil
		}
		m.committed.Store(want)
	}
	return m.buf[:size:size]
}

// Free returns the reservation to the OS.
func (m *mmapMemory) Free() {
	if m.buf != nil {
		_ = unix.Munmap(m.buf)
		m.buf = nil
	}
}

// setWord atomically stores v at offset off of the memory, if that word is
// committed; it may run while the module executes on another goroutine.
func (m *mmapMemory) setWord(off uint32, v uint32) bool {
	if uint64(off)+4 > m.committed.Load() || off%4 != 0 {
		return false
	}
	atomic.StoreUint32((*uint32)(unsafe.Pointer(&m.buf[off])), v)
	return true
}

// releaseExcept gives every committed page outside [from, to) back to the
// OS, for an instance that will not run again: the pages stay mapped and
// read as zeros (or their old contents, where the OS frees lazily).
func (m *mmapMemory) releaseExcept(from, to uint64) {
	lo := from &^ (m.page - 1)
	committed := m.committed.Load()
	hi := min((to+m.page-1)&^(m.page-1), committed)
	if lo > 0 {
		_ = unix.Madvise(m.buf[:lo], unix.MADV_DONTNEED)
	}
	if hi < committed {
		_ = unix.Madvise(m.buf[hi:committed], unix.MADV_DONTNEED)
	}
}
