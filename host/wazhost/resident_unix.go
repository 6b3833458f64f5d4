//go:build unix && !linux

package wazhost

// resident returns the committed size: off Linux the host does not ask
// the kernel which pages are in RAM.
func (m *mmapMemory) resident() uint64 { return m.committed.Load() }
