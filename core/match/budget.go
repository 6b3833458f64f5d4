package match

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// Limits bound the work one search may do inside matching, where a rule
// written to be expensive (a utility that calls itself through `has`,
// relational rules nested fifty deep, a transform that doubles its input
// thirty times) would otherwise run for hours or take all memory. A zero
// field takes its default.
type Limits struct {
	// Steps bounds the work one node's match may take (default
	// DefaultSteps): every rule operator spends a step each time it runs
	// (pattern, kind, regex, nthChild, range, all, any, not, matches and
	// utility calls, each relational visit, sibling passed and rewriter
	// match, each transform and each match a replace finds), a regex and a
	// replace one more per 256 bytes of text they run over. A rule that
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

// stopped is what a budget that ran out has left of its run: so far
// below zero that every later Step and Spend takes the slow path.
const stopped = -1 << 62

// Budget is what one matching goroutine may still spend: steps for the
// node being matched, text for the search, and the context's deadline and
// cancellation, looked at every few steps so a stop is noticed inside one
// node's match (the deadline on the clock as well as through the
// context, whose timer may not run meanwhile). The first thing to run out is kept as Err, and from then
// on every Step and Produce fails, so matchers unwind at once. A nil
// *Budget has no limits. A Budget is not safe for concurrent use; the
// Total it draws from is.
//
// Steps are spent in runs of at most checkEvery: Spend only counts a run
// down, and settles the run (the node's step limit, a look at the
// context) when it is over.
type Budget struct {
	ctx      context.Context
	done     <-chan struct{}
	deadline time.Time // the context's, zero for none
	shared   *sharedTotal
	remain   int64 // steps the node being matched had left when the run began
	period   int64 // the length of the run
	run      int64 // steps left in the run, less one
	spent    int64 // steps spent before the run
	since    int64 // steps spent between the last look and the run
	err      error
}

// NewBudget returns a budget under the limits ctx carries (WithLimits),
// else under fresh default limits.
func NewBudget(ctx context.Context) *Budget {
	s, _ := ctx.Value(limitsKey{}).(*sharedTotal)
	if s == nil {
		s = &sharedTotal{limits: Limits{}.withDefaults()}
	}
	deadline, _ := ctx.Deadline()
	b := &Budget{ctx: ctx, done: ctx.Done(), deadline: deadline, shared: s, remain: s.limits.Steps}
	b.startRun()
	return b
}

// startRun begins a run that ends at the next look at the context, or
// just past the node's step limit if that comes first.
func (b *Budget) startRun() {
	b.period = min(b.remain, checkEvery-1-b.since) + 1
	b.run = b.period - 1
}

// endRun adds the steps of the run so far to spent and to what the node
// used, and starts no new run.
func (b *Budget) endRun() {
	used := b.period - 1 - b.run
	b.spent += used
	b.since += used
	b.remain -= used
}

// Begin starts the match of a new node: the step count starts again,
// the count to the next look at the context goes on.
func (b *Budget) Begin() {
	if b == nil || b.err != nil {
		return
	}
	b.endRun()
	b.remain = b.shared.limits.Steps
	b.startRun()
}

// Step spends one step and reports whether matching may go on. Every
// rule operator spends at least one step each time it runs, so the
// limit and the looks at the context bound any rule, however its
// operators and utilities nest.
func (b *Budget) Step() bool { return b.Spend(1) }

// Spend spends n steps at once (work whose cost grows with its input,
// such as a regex over a node's text) and reports whether matching may go
// on. The context is looked at once checkEvery steps passed since the
// last look, whether or not a node's match began in between.
func (b *Budget) Spend(n int64) bool {
	if b == nil {
		return true
	}
	b.run -= n
	return b.run >= 0 || b.settle()
}

// settle is the slow path of Spend, at the end of a run: it records the
// node's step limit running out, or looks at the context and starts the
// next run.
func (b *Budget) settle() bool {
	if b.err != nil {
		return false
	}
	b.endRun()
	if b.remain < 0 {
		b.stop(fmt.Errorf("%w: more than %d matching steps (the step limit) for one node; utilities that call each other many times over through matches, any, all or not, or relational rules nested inside each other with stopBy: end, grow exponentially", ErrBudget, b.shared.limits.Steps))
		return false
	}
	if b.done != nil {
		select {
		case <-b.done:
			b.stop(b.ctx.Err())
			return false
		default:
		}
	}
	// The deadline is read from the clock too: where Go runs on one
	// thread with no preemption (GOOS=js), the timer that would close
	// done cannot fire while a match keeps the thread busy.
	if !b.deadline.IsZero() && !time.Now().Before(b.deadline) {
		b.stop(context.DeadlineExceeded)
		return false
	}
	b.since = 0
	b.startRun()
	return true
}

// Spent returns the steps spent since the budget was made, across every
// node's match.
func (b *Budget) Spent() int64 {
	if b == nil {
		return 0
	}
	if b.err != nil {
		return b.spent
	}
	return b.spent + b.period - 1 - b.run
}

// stop records err as what ran out.
func (b *Budget) stop(err error) {
	b.err = err
	b.run = stopped
}

// Exceed records that a match went over a bound of its own, which what
// says, as what ran out: from then on every Step and Produce fails.
func (b *Budget) Exceed(what string) {
	if b != nil && b.err == nil {
		b.stop(fmt.Errorf("%w: %s", ErrBudget, what))
	}
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
		b.stop(fmt.Errorf("%w: a transform, rewrite or fix produced more than %d bytes of text for one match", ErrBudget, b.shared.limits.Text))
		return false
	}
	if b.shared.used.Add(int64(n)) > b.shared.limits.Total {
		b.stop(fmt.Errorf("%w: transforms, rewrites and fixes produced more than %d bytes of text in all", ErrBudget, b.shared.limits.Total))
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
