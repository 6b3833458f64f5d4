//go:build unix

package wazhost

import (
	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// memoryAllocator backs each linear memory with one mmap reservation of
// its maximum size, committed as it grows. Growth never copies, and freed
// memory goes straight back to the OS instead of waiting for Go's GC: the
// slice-backed default peaked at about 3x the RSS on a 9 MB input.
func memoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(cap, max uint64) experimental.LinearMemory {
		page := uint64(unix.Getpagesize())
		res := (max + page - 1) &^ (page - 1)
		if res == 0 {
			res = page
		}
		buf, err := unix.Mmap(-1, 0, int(res), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
		if err != nil {
			return nil
		}
		m := &mmapMemory{buf: buf, page: page}
		if m.Reallocate(cap) == nil {
			m.Free()
			return nil
		}
		return m
	})
}

type mmapMemory struct {
	buf       []byte // the whole reservation
	committed uint64 // bytes readable and writable from the start of buf
	page      uint64
}

// Reallocate commits memory up to size bytes; the address never changes.
func (m *mmapMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	if size > m.committed {
		// Commit ahead geometrically so many small memory.grow calls do
		// not each pay for an mprotect.
		want := max(size, min(m.committed+m.committed/4, uint64(len(m.buf))))
		want = min((want+m.page-1)&^(m.page-1), uint64(len(m.buf)))
		if err := unix.Mprotect(m.buf[m.committed:want], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return nil
		}
		m.committed = want
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
