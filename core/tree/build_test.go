package tree

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/loupe-dev/loupe/host"
)

// buildInParts builds callNodes' tree with a Builder, the nodes filled
// without their subtree sizes and added cut every step nodes.
func buildInParts(t *testing.T, nodes []host.Node, step int) (*Tree, error) {
	t.Helper()
	b, err := NewBuilder([]byte(testSource), testNames, len(nodes))
	if err != nil {
		t.Fatal(err)
	}
	fill := b.Nodes()
	for lo := 0; lo < len(nodes); lo += step {
		hi := min(lo+step, len(nodes))
		for i := lo; i < hi; i++ {
			fill[i] = nodes[i]
			fill[i].SubtreeSize = 12345 // whatever it held
		}
		if err := b.Add(hi); err != nil {
			return nil, err
		}
	}
	return b.Tree()
}

// TestBuilder: a tree built from child counts, the nodes added whole or a
// few at a time, equals New's from the same records, subtree sizes and
// parents included; malformed arrays are refused as New refuses them.
func TestBuilder(t *testing.T) {
	want := mustNew(t, callNodes())
	for _, step := range []int{1, 2, 4, 9} {
		got, err := buildInParts(t, callNodes(), step)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if got.parent != nil || got.lines != nil {
			t.Errorf("step %d: links or rows made before they were asked for", step)
		}
		if !reflect.DeepEqual(got.Linked(), want.nodes) || !reflect.DeepEqual(got.parent, want.parent) ||
			!reflect.DeepEqual(got.rows(), want.rows()) {
			t.Errorf("step %d: built %v %v, want %v %v", step, got.nodes, got.parent, want.nodes, want.parent)
		}
	}
	tests := []struct {
		name string
		edit func([]host.Node) []host.Node
	}{
		{"too few children counted", func(n []host.Node) []host.Node { n[1].ChildCount = 5; return n }},
		{"too many children counted", func(n []host.Node) []host.Node { n[1].ChildCount = 7; return n }},
		{"root counts too many", func(n []host.Node) []host.Node { n[0].ChildCount = 3; return n }},
		{"huge count", func(n []host.Node) []host.Node { n[0].ChildCount = 1 << 31; return n }},
		{"range reversed", func(n []host.Node) []host.Node { n[4].StartByte = 4; return n }},
		{"range past source", func(n []host.Node) []host.Node { n[0].EndByte = 99; return n }},
		{"unknown symbol", func(n []host.Node) []host.Node { n[2].Symbol = 42; return n }},
		{"unknown field", func(n []host.Node) []host.Node { n[2].Field = 9; return n }},
	}
	for _, tt := range tests {
		for _, step := range []int{1, 3, 9} {
			if tr, err := buildInParts(t, tt.edit(callNodes()), step); err == nil {
				t.Errorf("%s, step %d: built %s", tt.name, step, tr.Root().SExp())
			}
		}
	}
	b, err := NewBuilder([]byte(testSource), testNames, 9)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Tree(); err == nil {
		t.Error("a tree of nodes not added was built")
	}
	if err := b.Add(10); err == nil {
		t.Error("nodes past the count were added")
	}
	if _, err := NewBuilder([]byte(testSource), testNames, 0); err == nil {
		t.Error("a builder of no nodes")
	}
}

// TestRelease: a released tree hands its source back, and a tree built
// next over the memory it gave back is whole and right.
func TestRelease(t *testing.T) {
	for range 3 {
		tr, err := buildInParts(t, callNodes(), 4)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.Root().SExp(); got != mustNew(t, callNodes()).Root().SExp() {
			t.Fatalf("built over released memory: %s", got)
		}
		if src := tr.Release(); string(src) != testSource {
			t.Fatalf("Release returned %q", src)
		}
	}
}

// TestLinkedAtOnce: a Builder's tree walked first by many goroutines at
// once links once, and every walk sees New's parents, siblings and
// subtrees (run under -race, the first walks race to link).
func TestLinkedAtOnce(t *testing.T) {
	want := mustNew(t, callNodes())
	for range 20 {
		got, err := buildInParts(t, callNodes(), 9)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for g := range 8 {
			wg.Go(func() {
				for i := range got.Len() {
					n, w := got.Node((i+g)%got.Len()), want.Node((i+g)%got.Len())
					if n.Parent().Index() != w.Parent().Index() || n.NextSibling().Index() != w.NextSibling().Index() ||
						n.StartPoint() != w.StartPoint() || n.Contains(got.Node(8)) != w.Contains(want.Node(8)) {
						errs <- fmt.Sprintf("node %d unlike New's", n.Index())
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	}
}
