//go:build !unix

package wazhost

import "github.com/tetratelabs/wazero/experimental"

// memoryInModule is false off unix: memory is a Go slice that moves as it
// grows, so parses are cancelled by closing the module instead.
const memoryInModule = false

// mmapMemory is never created off unix.
type mmapMemory struct{}

// allocatorInto returns a slice-backed allocator; *dst stays nil.
func allocatorInto(**mmapMemory) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(cap, max uint64) experimental.LinearMemory {
		m := &sliceMemory{max: max}
		m.Reallocate(cap)
		return m
	})
}

func (*mmapMemory) setWord(uint32, uint32) bool { return false }

func (*mmapMemory) resident() uint64 { return 0 }

func (*mmapMemory) releaseExcept(uint64, uint64) {}
