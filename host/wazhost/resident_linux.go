package wazhost

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident returns how many bytes of the committed memory are in RAM: the
// pages the module touched, not the heap it reserved ahead. When the
// kernel cannot tell, it is the committed size.
func (m *mmapMemory) resident() uint64 {
	committed := m.committed.Load()
	if committed == 0 {
		return 0
	}
	vec := make([]byte, (committed+m.page-1)/m.page)
	_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m.buf[0])), uintptr(committed), uintptr(unsafe.Pointer(&vec[0])))
	if errno != 0 {
		return committed
	}
	n := uint64(0)
	for _, v := range vec {
		n += uint64(v & 1)
	}
	return n * m.page
}
