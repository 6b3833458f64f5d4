package match

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
)

// A rule that binds one variable to one node a thousand times (all:
// [{pattern: $A}] × 1000) keeps one binding, not a thousand copied into
// every match.
func TestRebindKeepsOneBinding(t *testing.T) {
	lang, err := language.Lookup("javascript")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := lang.Parse(context.Background(), []byte("a + b;"))
	if err != nil {
		t.Fatal(err)
	}
	a, b := tr.Node(3), tr.Node(4)
	env := &Env{}
	for range 1000 {
		env.BindSingle("A", a)
		env.BindMulti("M", []tree.Node{a, b})
	}
	if m := env.Mark(); m.singles != 1 || m.multis != 1 {
		t.Fatalf("bindings: %+v", m)
	}
	env.BindSingle("A", b)
	if n, _ := env.Single("A"); !n.Equal(b) {
		t.Error("a binding to another node is the newest")
	}
}

// A nil budget has no limits; a budget whose context is done stops at its
// next look.
func TestBudget(t *testing.T) {
	var none *Budget
	if !none.Step() || !none.Produce(1<<40) || none.Err() != nil {
		t.Error("nil budget limits something")
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := NewBudget(WithLimits(ctx, Limits{Steps: 10 * checkEvery}))
	cancel()
	steps := 0
	for b.Step() {
		steps++
	}
	if steps != checkEvery-1 || b.Err() != context.Canceled {
		t.Errorf("stopped after %d steps with %v", steps, b.Err())
	}
}

// stalledDeadline is a context past its deadline whose timer never
// fired, as under GOOS=js while a match keeps the only thread busy: Done
// stays open and Err nil.
type stalledDeadline struct{ context.Context }

func (stalledDeadline) Deadline() (time.Time, bool) { return time.Unix(1, 0), true }

// A deadline is seen within checkEvery steps of it from the clock, even
// when the context's timer has not closed Done; a context without one
// runs to its step limit.
func TestBudgetSeesDeadlineOnTheClock(t *testing.T) {
	cases := []struct {
		name string
		ctx  context.Context
		want error
	}{
		{"deadline passed, timer stalled", stalledDeadline{context.Background()}, context.DeadlineExceeded},
		{"no deadline", context.Background(), ErrBudget},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBudget(WithLimits(c.ctx, Limits{Steps: 10 * checkEvery}))
			steps := 0
			for b.Step() {
				steps++
			}
			if !errors.Is(b.Err(), c.want) {
				t.Fatalf("stopped after %d steps with %v, want %v", steps, b.Err(), c.want)
			}
			if c.want == context.DeadlineExceeded && steps != checkEvery-1 {
				t.Errorf("deadline seen after %d steps, want %d", steps, checkEvery-1)
			}
		})
	}
}

// A node may take exactly its step limit, in steps or charges of any
// size; Begin gives the next node the limit again, and once a node went
// over, every later step fails with the budget's error.
func TestBudgetStepLimit(t *testing.T) {
	cases := []struct {
		name    string
		limit   int64
		charges []int64 // per node, separated by 0 (Begin)
		ok      int     // charges that succeed
	}{
		{"exactly the limit", 5, []int64{1, 1, 1, 1, 1, 1}, 5},
		{"one large charge", 5, []int64{6}, 0},
		{"a charge to the limit", 5, []int64{5, 1}, 1},
		{"begin gives the limit again", 3, []int64{3, 0, 3, 0, 2, 2}, 3},
		{"over a look at the context", 3000, []int64{1000, 1000, 1000, 1}, 3},
		{"the largest limit", 1<<63 - 1, []int64{1 << 62, 1 << 61, 0, 1 << 62}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBudget(WithLimits(context.Background(), Limits{Steps: c.limit}))
			ok, charges := 0, 0
			for _, n := range c.charges {
				if n == 0 {
					b.Begin()
					continue
				}
				charges++
				if b.Spend(n) {
					ok++
				}
			}
			if ok != c.ok {
				t.Errorf("%d charges succeeded, want %d", ok, c.ok)
			}
			over := c.ok < charges
			if got := errors.Is(b.Err(), ErrBudget); got != over {
				t.Errorf("budget error %v, want one: %v", b.Err(), over)
			}
			if over && (b.Step() || !strings.Contains(b.Err().Error(), "step limit")) {
				t.Errorf("a step after the limit went on, or the error does not name the limit: %v", b.Err())
			}
		})
	}
}

// A cancel is seen within checkEvery steps of it, however the steps are
// spread over nodes (each Begin starts a node's count again) and however
// many each Spend takes at once.
func TestBudgetSeesCancelAcrossNodes(t *testing.T) {
	cases := []struct {
		name           string
		stepsPerNode   int
		stepsPerCharge int64
	}{
		{"one step per node", 1, 1},
		{"ten steps per node", 10, 1},
		{"a node just under the look", checkEvery - 1, 1},
		{"large charges", 3, 700},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			b := NewBudget(WithLimits(ctx, Limits{Steps: 1 << 62}))
			for range 5000 {
				b.Spend(1)
			}
			cancel()
			at := b.Spent()
			for b.Err() == nil && b.Spent()-at <= 100*checkEvery {
				b.Begin()
				for range c.stepsPerNode {
					if !b.Spend(c.stepsPerCharge) {
						break
					}
				}
			}
			if b.Err() != context.Canceled {
				t.Fatalf("cancel not seen after %d steps: %v", b.Spent()-at, b.Err())
			}
			if after := b.Spent() - at; after > checkEvery+c.stepsPerCharge {
				t.Errorf("cancel seen %d steps after it, want at most %d", after, checkEvery+c.stepsPerCharge)
			}
		})
	}
}
