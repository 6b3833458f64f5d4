package match

import (
	"context"
	"slices"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
)

// kindMatcher matches nodes of one kind and binds them to K; it counts its
// calls to show that FindAll skips kinds outside Kinds().
type kindMatcher struct {
	kind  uint16
	calls int
	any   bool // report nil Kinds
}

func (k *kindMatcher) Match(n tree.Node, env *Env) bool {
	k.calls++
	if n.KindID() != k.kind {
		return false
	}
	env.BindSingle("K", n)
	return true
}

func (k *kindMatcher) Kinds() KindSet {
	if k.any {
		return nil
	}
	return NewKindSet(k.kind)
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
		m := &kindMatcher{kind: call, any: any}
		var got []string
		FindAll(tr.Root(), m, func(n tree.Node, env *Env) bool {
			bound, ok := env.Single("K")
			if !ok || !bound.Equal(n) {
				t.Errorf("env does not hold this match's binding")
			}
			got = append(got, n.Text())
			return true
		})
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
	m := &kindMatcher{kind: call}
	n := 0
	FindAll(tr.Root(), m, func(tree.Node, *Env) bool { n++; return false })
	if n != 1 {
		t.Errorf("FindAll went on after yield returned false: %d matches", n)
	}
	FindAll(tree.Node{}, m, func(tree.Node, *Env) bool { t.Error("a match under no node"); return true })
}
