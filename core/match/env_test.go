package match

import (
	"context"
	"testing"

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
