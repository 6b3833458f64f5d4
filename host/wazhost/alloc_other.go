//go:build !unix

package wazhost

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator returns nil off unix: wazero's own allocator is used.
func memoryAllocator() experimental.MemoryAllocator { return nil }
