package main

import (
	"context"
	"sync"
)

// scanBacklogBytes bounds the memory that scanned but not yet printed
// files may hold (their trees, when they have findings). Output is in
// path order, so while one big file parses, the files after it are
// scanned and kept; without a bound, a slow file made the others' trees
// pile up.
const scanBacklogBytes = 12 << 20

// backlog counts the bytes that finished, unprinted results hold, and
// holds back new work while they pass a budget.
type backlog struct {
	mu     sync.Mutex
	cond   *sync.Cond
	held   int64
	budget int64
	done   bool
}

// newBacklog returns a backlog with the given budget; ctx ending wakes
// every waiter.
func newBacklog(ctx context.Context, budget int64) (*backlog, func() bool) {
	b := &backlog{budget: budget}
	b.cond = sync.NewCond(&b.mu)
	stop := context.AfterFunc(ctx, func() {
		b.mu.Lock()
		b.done = true
		b.cond.Broadcast()
		b.mu.Unlock()
	})
	return b, stop
}

// wait blocks while the held bytes are over budget; false means ctx ended.
func (b *backlog) wait() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.held > b.budget && !b.done {
		b.cond.Wait()
	}
	return !b.done
}

// add records n more bytes held (negative when a result is printed).
func (b *backlog) add(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.held += n
	if b.held <= b.budget {
		b.cond.Broadcast()
	}
	b.mu.Unlock()
}
