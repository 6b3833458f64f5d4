package language

import (
	"context"
	"fmt"
	"sync"

	"github.com/loupe-dev/loupe/host"
)

// A grammar module parses inside a 32-bit address space, and a parse
// needs memory in proportion to the tokens of its input, not to its
// bytes: measured with the JavaScript module, ~216 bytes of process
// memory per token on a dense one-line file (`[1,1,1,…]`, 10 M tokens:
// 2.1 GiB; 20 M tokens: out of the module's 4 GiB after 40 s) and ~177 on
// typescript.js (9.1 MB, 1.65 M tokens: 291 MB). So the pipeline
// estimates a parse's memory from its tokens before starting it: a file
// that cannot fit is refused at once, and concurrent parses together stay
// under ParseMemory.
const (
	// BytesPerToken is the memory a parse is reckoned to need per token.
	BytesPerToken = 220
	// MaxParseMemory is the most one parse may be reckoned to need: a
	// file over it is refused with host.ErrTooLarge without parsing
	// (about 14.6 M tokens: a 14 MB file of dense tokens, ~80 MB of
	// ordinary code).
	MaxParseMemory = 3 << 30
	// ParseMemory bounds the reckoned memory of the parses running at
	// once in the process; one that would go over it waits (a parse
	// reckoned over ParseMemory runs alone).
	ParseMemory = 2 << 30
)

// Tokens counts src's tokens the way the reckoning needs them: each run
// of letters, digits, '_' and non-ASCII bytes is one, each other
// non-space byte is one.
func Tokens(src []byte) int {
	n := 0
	word := false
	for _, c := range src {
		switch {
		case c == '_' || c >= 0x80 || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z':
			if !word {
				n++
				word = true
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			word = false
		default:
			n++
			word = false
		}
	}
	return n
}

// parseCost reckons the memory parsing src takes, refusing src when it
// cannot fit a module.
func parseCost(name string, src []byte) (int64, error) {
	cost := int64(Tokens(src)) * BytesPerToken
	if cost > MaxParseMemory {
		return 0, fmt.Errorf("language %s: %d bytes of %d tokens would need ~%d MiB to parse, over the %d MiB a grammar module can use: %w",
			name, len(src), cost/BytesPerToken, cost>>20, MaxParseMemory>>20, host.ErrTooLarge)
	}
	return cost, nil
}

// memoryGate holds back parses while the reckoned memory of those running
// would go over its capacity.
type memoryGate struct {
	mu   sync.Mutex
	free int64
	wake chan struct{} // closed, and replaced, when memory is released
}

var parses = &memoryGate{free: ParseMemory, wake: make(chan struct{})}

// acquire takes n (at most ParseMemory) or waits until it can, or until
// ctx is done.
func (g *memoryGate) acquire(ctx context.Context, n int64) error {
	n = min(n, ParseMemory)
	for {
		g.mu.Lock()
		if g.free >= n {
			g.free -= n
			g.mu.Unlock()
			return nil
		}
		wake := g.wake
		g.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return fmt.Errorf("waiting for memory to parse: %w", ctx.Err())
		}
	}
}

// release returns what acquire(n) took.
func (g *memoryGate) release(n int64) {
	n = min(n, ParseMemory)
	g.mu.Lock()
	g.free += n
	close(g.wake)
	g.wake = make(chan struct{})
	g.mu.Unlock()
}
