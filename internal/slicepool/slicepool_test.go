package slicepool

import "testing"

// TestPool: Get returns the length asked for, the smallest slice given
// back that holds it, else a new one of that capacity; the pool keeps no
// more than its bounds, dropping its smallest slices, and nothing larger
// than its bound for one slice or smaller than minCap.
func TestPool(t *testing.T) {
	p := Pool[int32]{Bytes: 4 * 10000, Slices: 3, Max: 4 * 8192}
	for _, n := range []int{0, 1, minCap, 3000} {
		if s := p.Get(n); len(s) != n || cap(s) != n {
			t.Fatalf("Get(%d) from an empty pool: length %d, capacity %d", n, len(s), cap(s))
		}
	}
	p.Put(make([]int32, 10, 4000))
	p.Put(make([]int32, 10, 2000))
	if got := p.Get(1500); cap(got) != 2000 {
		t.Errorf("Get(1500) has capacity %d, want the 2000 given back", cap(got))
	}
	if got := p.Get(1500); cap(got) != 4000 || len(got) != 1500 {
		t.Errorf("Get(1500): length %d, capacity %d; want the 4000 given back", len(got), cap(got))
	}
	if got := p.Get(1500); cap(got) != 1500 {
		t.Errorf("Get(1500) from an empty pool has capacity %d", cap(got))
	}
	p.Put(make([]int32, 10, 100))   // too small to keep
	p.Put(make([]int32, 10, 1<<14)) // over the bound of one slice
	for _, c := range []int{1024, 2048, 4096, 8192} {
		p.Put(make([]int32, 0, c))
	}
	if len(p.free) != 1 || cap(p.free[0]) != 8192 || p.bytes != 4*8192 {
		t.Errorf("the pool keeps %d slices, %d bytes; want the 8192 alone", len(p.free), p.bytes)
	}
}
