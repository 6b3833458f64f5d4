package main

import (
	"runtime"
	"sync"

	"github.com/loupe-dev/loupe/core/wire"
)

// heldItems bounds the bytes of items rendered but not yet written, which
// wait for the files before them in path order. While one large file is
// parsed, the other workers go on with the files after it only as far as
// this lets them: at 2 MiB, the other worker of typescript's lib/*.d.ts
// query stopped after a few files behind lib.dom.d.ts (a cold
// `kind: interface_declaration` scan took 0.37 s against 0.28 s with
// 8 MiB, for 7 MB more peak memory), and a cold scan of every Go function
// in GOROOT/src took 16.2 s against 14.4-15.3 s (peak memory 143-146 MB
// against 164-168; ast-grep's is 111-119). All of it is used only while
// the file first in order is still in work (search.OrderedLimits.Held):
// when its output is what the others wait for, a quarter is.
const heldItems = 8 << 20

// partItems is the fewest items one goroutine encodes when a file's items
// are encoded on several.
const partItems = 256

// encodeItems encodes the n items of one file into runs of JSON items of
// style s, add(it, i) encoding item i into it: one run, or for many items
// consecutive parts encoded on several goroutines at once, since a file
// with thousands of matches would otherwise be encoded by its worker alone
// while the others may have nothing left to do. add is called from several
// goroutines, for different items, so it must only read what they share.
func encodeItems(s wire.Style, n int, add func(it *wire.Items, i int)) []*wire.Items {
	parts := min(runtime.GOMAXPROCS(0), n/partItems)
	if parts <= 1 {
		it := wire.NewItems(s)
		for i := range n {
			add(it, i)
		}
		return []*wire.Items{it}
	}
	out := make([]*wire.Items, parts)
	var wg sync.WaitGroup
	for p := range out {
		lo, hi := p*n/parts, (p+1)*n/parts
		it := wire.NewItems(s)
		out[p] = it
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				add(it, i)
			}
		})
	}
	wg.Wait()
	return out
}

// itemsSize returns the bytes runs of items take.
func itemsSize(runs []*wire.Items) int64 {
	var n int64
	for _, it := range runs {
		n += int64(it.Size())
	}
	return n
}
