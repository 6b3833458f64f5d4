package search

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// OrderedLimits bound how far Ordered's work runs ahead of its delivery.
type OrderedLimits struct {
	// Threads is the number of goroutines running work (default
	// GOMAXPROCS).
	Threads int
	// Ahead is how many items past the first undelivered one may be taken
	// (default 64 per thread), so that one slow item does not idle the
	// other goroutines while the items after it pile up without bound.
	Ahead int
	// Held bounds the bytes that finished, undelivered results hold (as
	// work reports them); past it, work waits for delivery to catch up
	// (default 32 MiB). It may be passed by the items in flight. The
	// whole of it is used only while the first undelivered item is still
	// in work, which the others then work past; once that item is done,
	// delivery sets the pace, and work waits past a quarter of it, since
	// holding more would take memory and gain no time.
	Held int64
}

// defaultHeld is OrderedLimits.Held's default.
const defaultHeld = 32 << 20

// orderedIdle, when set (by tests only), is called with Ordered's lock
// held each time its goroutine number worker stops to wait, with how many
// items were delivered then, and when it leaves, with delivered = -1: the
// moments a test can tell that work cannot run further ahead.
var orderedIdle atomic.Pointer[func(worker, delivered int)]

// idle calls the orderedIdle hook, if a test set one. The hook is read
// atomically: a goroutine of an earlier Ordered may still be leaving when
// the next test sets it.
func idle(worker, delivered int) {
	if f := orderedIdle.Load(); f != nil {
		(*f)(worker, delivered)
	}
}

// Ordered calls work for the items 0..n-1 on several goroutines, taking
// them in order, and deliver, from the calling goroutine, with each
// result in item order, whatever the scheduling. work returns its result
// and the bytes the result holds until it is delivered.
//
// When ctx is done or deliver returns false, no further item is taken
// and the ctx work was given is cancelled, so the items in flight should
// return promptly; every item taken is still delivered, and Ordered
// returns how many were. work must return for every item it is given.
// A ProgressFunc in ctx (WithProgress) hears of each delivery.
func Ordered[T any](ctx context.Context, n int, lim OrderedLimits, work func(ctx context.Context, i int) (T, int64), deliver func(i int, v T) bool) int {
	threads := lim.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	ahead := lim.Ahead
	if ahead <= 0 {
		ahead = 64 * threads
	}
	budget := lim.Held
	if budget <= 0 {
		budget = defaultHeld
	}
	progress := progressOf(ctx)
	progress(0, n)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type slot struct {
		v    T
		cost int64
		done bool
	}
	var (
		mu        sync.Mutex
		cond      = sync.NewCond(&mu)
		slots     = make([]slot, n)
		next      int // next item to take
		delivered int // items delivered so far
		held      int64
		active    int // goroutines still running work
		stopped   bool
		// delivering is true while deliver has the first undelivered item.
		delivering bool
	)
	// limit is the bytes results may hold before work waits (see
	// OrderedLimits.Held); mu is held.
	limit := func() int64 {
		if delivering || delivered < n && slots[delivered].done {
			return budget / 4
		}
		return budget
	}
	stopWatch := context.AfterFunc(ctx, func() {
		mu.Lock()
		stopped = true
		cond.Broadcast()
		mu.Unlock()
	})
	defer stopWatch()

	active = min(threads, n)
	for worker := range active {
		go func() {
			defer func() {
				mu.Lock()
				active--
				idle(worker, -1)
				cond.Broadcast()
				mu.Unlock()
			}()
			for {
				mu.Lock()
				for !stopped && next < n && (next >= delivered+ahead || held > limit()) {
					idle(worker, delivered)
					cond.Wait()
				}
				// ctx is checked here too: its watcher below runs
				// asynchronously, after items could have been taken.
				if stopped || next >= n || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				i := next
				next++
				mu.Unlock()

				v, cost := work(ctx, i)
				mu.Lock()
				slots[i] = slot{v: v, cost: cost, done: true}
				held += cost
				cond.Broadcast()
				mu.Unlock()
			}
		}()
	}

	mu.Lock()
	defer mu.Unlock()
	for delivered < n {
		s := &slots[delivered]
		if !s.done {
			// Not taken, and no goroutine left to take it: the run stopped.
			if delivered >= next && active == 0 {
				break
			}
			cond.Wait()
			continue
		}
		v := s.v
		held -= s.cost
		*s = slot{} // let the result go once delivered
		delivering = true
		mu.Unlock()
		more := deliver(delivered, v)
		if !more {
			cancel()
		}
		progress(delivered+1, n)
		mu.Lock()
		stopped = stopped || !more
		delivered++
		delivering = false
		cond.Broadcast()
	}
	if delivered == n {
		// Every item is done: the goroutines are only leaving, and none
		// outlives the call.
		for active > 0 {
			cond.Wait()
		}
	}
	return delivered
}
