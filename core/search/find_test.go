package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// countingMatcher matches nodes of one kind and binds them to K; it
// counts its calls to show that FindAll skips kinds outside Kinds().
type countingMatcher struct {
	kind  uint16
	calls int
	any   bool // report nil Kinds
}

func (k *countingMatcher) Match(n tree.Node, env *match.Env) bool {
	k.calls++
	if n.KindID() != k.kind {
		return false
	}
	env.BindSingle("K", n)
	return true
}

func (k *countingMatcher) Kinds() match.KindSet {
	if k.any {
		return nil
	}
	return match.NewKindSet(k.kind)
}

func TestFindAll(t *testing.T) {
	ctx := context.Background()
	lang, err := language.Lookup("javascript")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := lang.Parse(ctx, []byte("f(g(1), h(2)); k()"))
	if err != nil {
		t.Fatal(err)
	}
	var call uint16
	tr.Root().Descendants(func(n tree.Node) bool {
		if n.Kind() == "call_expression" {
			call = n.KindID()
			return false
		}
		return true
	})
	for _, any := range []bool{false, true} {
		m := &countingMatcher{kind: call, any: any}
		found, err := FindAll(ctx, tr, m)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range found {
			bound, ok := f.Env.Single("K")
			if !ok || !bound.Equal(f.Node) {
				t.Errorf("the env does not hold this match's binding")
			}
			got = append(got, f.Node.Text())
		}
		// Pre-order, outer matches before the ones nested in them.
		if want := []string{"f(g(1), h(2))", "g(1)", "h(2)", "k()"}; !slices.Equal(got, want) {
			t.Errorf("any=%v: got %q, want %q", any, got, want)
		}
		if !any && m.calls != 4 {
			t.Errorf("Match called %d times, want 4 (other kinds skipped)", m.calls)
		}
		if any && m.calls != tr.Len() {
			t.Errorf("Match called %d times, want every node (%d)", m.calls, tr.Len())
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	big, err := lang.Parse(ctx, []byte(strings.Repeat("f(1);\n", 2000)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FindAll(cancelled, big, &countingMatcher{kind: call}); err == nil {
		t.Error("FindAll went on with a cancelled context")
	}
}
