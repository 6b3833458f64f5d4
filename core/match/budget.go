package match

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
)

// Limits bound the work one search may do inside matching, where a rule
// written to be expensive (a utility that calls itself through `has`,
// relational rules nested fifty deep, a transform that doubles its input
// thirty times) would otherwise run for hours or take all memory. A zero
// field takes its default.
type Limits struct {
	// Steps bounds the relational visits, rule evaluations and utility
	// calls one node's match may take (default DefaultSteps). A rule that
	// needs more fails the search with ErrBudget.
	Steps int64
	// Text bounds one piece of text a match produces: a transformed
	// variable, a rewriter's output, an expanded fix or message (default
	// DefaultText).
	Text int64
	// Total bounds all the text the matches of one search produce together
	// (default DefaultTotal); the budgets of every file share it.
	Total int64
}

// Defaults of Limits. One node's match rarely takes more than a few
// thousand steps; DefaultSteps is a few seconds of matching.
const (
	DefaultSteps int64 = 50_000_000
	DefaultText  int64 = 16 << 20
	DefaultTotal int64 = 512 << 20
)

// ErrBudget is the error (wrapped with what ran out) of a search whose
// rule went over its Limits.
var ErrBudget = errors.New("rule exceeded its budget")

type limitsKey struct{}

// sharedTotal is the text produced by every budget of one search.
type sharedTotal struct {
	limits Limits
	used   atomic.Int64
}

// WithLimits returns a context whose searches (see NewBudget) run under
// limits, sharing one Total between them.
func WithLimits(ctx context.Context, limits Limits) context.Context {
	return context.WithValue(ctx, limitsKey{}, &sharedTotal{limits: limits.withDefaults()})
}

func (l Limits) withDefaults() Limits {
	if l.Steps <= 0 {
		l.Steps = DefaultSteps
	}
	if l.Text <= 0 {
		l.Text = DefaultText
	}
	if l.Total <= 0 {
		l.Total = DefaultTotal
	}
	return l
}

// checkEvery is how many steps pass between looks at the context.
const checkEvery = 1024

// Budget is what one matching goroutine may still spend: steps for the
// node being matched, text for the search, and the context's deadline and
// cancellation, looked at every few steps so a stop is noticed inside one
// node's match. The first thing to run out is kept as Err, and from then
// on every Step and Produce fails, so matchers unwind at once. A nil
// *Budget has no limits. A Budget is not safe for concurrent use; the
// Total it draws from is.
type Budget struct {
	ctx    context.Context
	done   <-chan struct{}
	shared *sharedTotal
	steps  int64
	err    error
}

// NewBudget returns a budget under the limits ctx carries (WithLimits),
// else under fresh default limits.
func NewBudget(ctx context.Context) *Budget {
	s, _ := ctx.Value(limitsKey{}).(*sharedTotal)
	if s == nil {
		s = &sharedTotal{limits: Limits{}.withDefaults()}
	}
	return &Budget{ctx: ctx, done: ctx.Done(), shared: s}
}

// Begin starts the match of a new node: the step count starts again.
func (b *Budget) Begin() {
	if b != nil {
		b.steps = 0
	}
}

// Step spends one step and reports whether matching may go on.
func (b *Budget) Step() bool {
	if b == nil {
		return true
	}
	if b.err != nil {
		return false
	}
	b.steps++
	if b.steps > b.shared.limits.Steps {
		b.err = fmt.Errorf("%w: more than %d matching steps for one node; a utility that calls itself through has/inside, or relational rules nested inside each other with stopBy: end, grow exponentially with the tree", ErrBudget, b.shared.limits.Steps)
		return false
	}
	if b.steps%checkEvery == 0 && b.done != nil {
		select {
		case <-b.done:
			b.err = b.ctx.Err()
			return false
		default:
		}
	}
	return true
}

// Produce accounts for n bytes of produced text and reports whether they
// fit the budget.
func (b *Budget) Produce(n int) bool {
	if b == nil {
		return true
	}
	if b.err != nil {
		return false
	}
	if int64(n) > b.shared.limits.Text {
		b.err = fmt.Errorf("%w: a transform, rewrite or fix produced more than %d bytes of text for one match", ErrBudget, b.shared.limits.Text)
		return false
	}
	if b.shared.used.Add(int64(n)) > b.shared.limits.Total {
		b.err = fmt.Errorf("%w: transforms, rewrites and fixes produced more than %d bytes of text in all", ErrBudget, b.shared.limits.Total)
		return false
	}
	return true
}

// MaxText is the most bytes one produced text may have (no limit for a
// nil budget).
func (b *Budget) MaxText() int64 {
	if b == nil {
		return 1<<63 - 1
	}
	return b.shared.limits.Text
}

// Err returns what ran out first: an error wrapping ErrBudget, or the
// context's error; nil while the budget holds.
func (b *Budget) Err() error {
	if b == nil {
		return nil
	}
	return b.err
}
