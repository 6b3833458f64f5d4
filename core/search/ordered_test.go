package search

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestOrdered(t *testing.T) {
	tests := []struct {
		name      string
		n         int
		lim       OrderedLimits
		cost      int64
		slowEvery int // work on every k-th item sleeps, so later items finish first
		stopAt    int // deliver returns false at this item (-1: never)
		cancelAt  int // the caller's context is cancelled when this item is delivered (-1: never)
		// what must hold
		wantAll  bool  // every item delivered
		maxCount int   // at most this many delivered (0: no bound)
		maxHeld  int64 // bytes finished and undelivered never exceed this (0: not checked)
	}{
		{name: "order with slow items", n: 300, lim: OrderedLimits{Threads: 4}, slowEvery: 7, stopAt: -1, cancelAt: -1, wantAll: true},
		{name: "more threads than items", n: 3, lim: OrderedLimits{Threads: 16}, slowEvery: 2, stopAt: -1, cancelAt: -1, wantAll: true},
		{name: "no items", n: 0, lim: OrderedLimits{Threads: 2}, stopAt: -1, cancelAt: -1, wantAll: true},
		{name: "window", n: 200, lim: OrderedLimits{Threads: 3, Ahead: 5}, slowEvery: 10, stopAt: -1, cancelAt: -1, wantAll: true},
		// Delivery is slow, so without the budget work would run 200 items ahead.
		{name: "held budget", n: 200, lim: OrderedLimits{Threads: 2, Ahead: 1000, Held: 25}, cost: 10, stopAt: -1, cancelAt: -1, wantAll: true, maxHeld: 25 + 2*10},
		{name: "deliver stops", n: 1000, lim: OrderedLimits{Threads: 2, Ahead: 4}, stopAt: 10, cancelAt: -1, maxCount: 10 + 1 + 4 + 2},
		{name: "context cancelled", n: 1000, lim: OrderedLimits{Threads: 2, Ahead: 4}, stopAt: -1, cancelAt: 20, maxCount: 20 + 1 + 4 + 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var (
				delivered atomic.Int64 // items delivered, as the test sees it
				held      atomic.Int64 // cost of results returned but not delivered
				maxHeld   atomic.Int64
				behind    atomic.Int64 // most items taken past the first undelivered one
				got       []int
			)
			work := func(ctx context.Context, i int) (int, int64) {
				if d := int64(i) - delivered.Load(); d > behind.Load() {
					behind.Store(d)
				}
				if tc.slowEvery > 0 && i%tc.slowEvery == 0 {
					select {
					case <-time.After(2 * time.Millisecond):
					case <-ctx.Done():
					}
				}
				if h := held.Add(tc.cost); h > maxHeld.Load() {
					maxHeld.Store(h)
				}
				return i * 10, tc.cost
			}
			deliver := func(i, v int) bool {
				held.Add(-tc.cost)
				if tc.maxHeld > 0 {
					time.Sleep(100 * time.Microsecond)
				}
				if v != i*10 {
					t.Errorf("item %d delivered with value %d, want %d", i, v, i*10)
				}
				got = append(got, i)
				delivered.Add(1)
				if i == tc.cancelAt {
					cancel()
				}
				return i != tc.stopAt
			}
			count := Ordered(ctx, tc.n, tc.lim, work, deliver)
			if count != len(got) {
				t.Fatalf("Ordered returned %d, deliver was called %d times", count, len(got))
			}
			for k, i := range got {
				if i != k {
					t.Fatalf("delivery %d was item %d: out of order", k, i)
				}
			}
			if tc.wantAll && count != tc.n {
				t.Errorf("delivered %d of %d items", count, tc.n)
			}
			if tc.maxCount > 0 && count > tc.maxCount {
				t.Errorf("delivered %d items after the stop, want at most %d", count, tc.maxCount)
			}
			if tc.lim.Ahead > 0 && behind.Load() >= int64(tc.lim.Ahead) {
				t.Errorf("an item %d ahead of delivery was taken, window is %d", behind.Load(), tc.lim.Ahead)
			}
			if tc.maxHeld > 0 && maxHeld.Load() > tc.maxHeld {
				t.Errorf("finished results held %d bytes, want at most %d", maxHeld.Load(), tc.maxHeld)
			}
		})
	}
}

// TestOrderedHeldWhileWorking: while the first undelivered item is still
// in work, the others run ahead of it up to the whole Held budget; once
// it is done and delivery is what they wait for, to a quarter of it.
//
// Nothing here is paced by time: each delivery waits until every goroutine
// has stopped to wait after seeing it (orderedIdle), so the work has run
// as far ahead as Ordered lets it, whatever the machine's speed.
func TestOrderedHeldWhileWorking(t *testing.T) {
	const threads, cost, budget, n = 2, 10, 80, 200
	var (
		mu    sync.Mutex
		cond  = sync.NewCond(&mu)
		held  int64 // cost of the results work returned and deliver has not had
		taken int   // items work was given
		far   bool  // work ran the budget ahead while item 0 was in work
		stuck bool  // a goroutine stopped to wait before that
		// seen[w] is the delivered count goroutine w last stopped to wait
		// at (n once it left).
		seen = []int{-1, -1}
	)
	hook := func(worker, delivered int) {
		mu.Lock()
		defer mu.Unlock()
		if delivered < 0 {
			delivered = n
		} else if !far {
			stuck = true
		}
		seen[worker] = delivered
		cond.Broadcast()
	}
	orderedIdle.Store(&hook)
	defer orderedIdle.Store(nil)

	work := func(ctx context.Context, i int) (int, int64) {
		mu.Lock()
		defer mu.Unlock()
		if i == 0 {
			for !far && !stuck {
				cond.Wait()
			}
			if !far {
				t.Errorf("while the first item was in work, the others stopped %d bytes ahead of it, want %d", held, budget)
			}
		}
		taken++
		held += cost
		if held >= budget && !far {
			far = true
			cond.Broadcast()
		}
		return i, cost
	}
	drained := false // held fell to a quarter of the budget while items were left
	deliver := func(i, v int) bool {
		mu.Lock()
		defer mu.Unlock()
		held -= cost
		for min(seen[0], seen[1]) < i {
			cond.Wait()
		}
		switch {
		case taken == n:
			// The last items: nothing is left to run ahead with.
		case held <= budget/4+2*cost:
			drained = true
		case drained:
			t.Errorf("delivering item %d with the first undelivered one done, finished results held %d bytes, want at most %d", i, held, budget/4+2*cost)
		}
		return true
	}
	if got := Ordered(context.Background(), n, OrderedLimits{Threads: threads, Ahead: 1000, Held: budget}, work, deliver); got != n {
		t.Fatalf("delivered %d of %d", got, n)
	}
	if !drained {
		t.Errorf("with the first item done and items left, finished results never fell to a quarter of the budget")
	}
}
