// Package slicepool recycles slices, for memory that one file's
// processing takes and gives back when the file is done (its source, its
// tree's records): reused, it is neither allocated and zeroed again nor
// collected.
package slicepool

import (
	"sync"
	"unsafe"
)

// Pool keeps a few slices of T given back, up to Bytes bytes and Slices
// slices, and hands out the smallest that holds the length asked for. Its
// bound is what it adds to a process's memory, whatever the sizes asked
// for (a sync.Pool per size would keep some of every size, twice over
// across garbage collections). It is safe for concurrent use.
type Pool[T any] struct {
	// Bytes and Slices bound what the pool keeps, and Max the bytes of
	// one slice: a slice for a rare large file is left to the garbage
	// collector rather than kept.
	Bytes, Slices, Max int

	mu    sync.Mutex
	free  [][]T
	bytes int
}

// minCap is the smallest capacity kept, in elements: smaller slices are
// not worth keeping.
const minCap = 1 << 10

// Get returns a slice of length n: one given back, whose elements hold
// anything, or a new one of capacity n. The slices a pool keeps are soon
// the largest given back, which serve every smaller length after.
func (p *Pool[T]) Get(n int) []T {
	p.mu.Lock()
	best := -1
	for i, s := range p.free {
		if c := cap(s); c >= n && (best < 0 || c < cap(p.free[best])) {
			best = i
		}
	}
	if best < 0 {
		p.mu.Unlock()
		return make([]T, max(n, 0))
	}
	s := p.free[best]
	last := len(p.free) - 1
	p.free[best], p.free[last] = p.free[last], nil
	p.free = p.free[:last]
	p.bytes -= p.size(cap(s))
	p.mu.Unlock()
	return s[:n]
}

// Put gives s back for a later Get; nothing may use it afterwards. When
// the pool is full, the smallest slice it keeps (s included) is dropped.
func (p *Pool[T]) Put(s []T) {
	if c := cap(s); c < minCap || p.size(c) > min(p.Bytes, p.Max) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free = append(p.free, s[:0])
	p.bytes += p.size(cap(s))
	for len(p.free) > p.Slices || p.bytes > p.Bytes {
		small := 0
		for i, f := range p.free {
			if cap(f) < cap(p.free[small]) {
				small = i
			}
		}
		p.bytes -= p.size(cap(p.free[small]))
		last := len(p.free) - 1
		p.free[small], p.free[last] = p.free[last], nil
		p.free = p.free[:last]
	}
}

// size returns the bytes of n elements.
func (p *Pool[T]) size(n int) int {
	var zero T
	return n * int(unsafe.Sizeof(zero))
}
