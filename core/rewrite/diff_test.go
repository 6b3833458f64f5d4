package rewrite

import (
	"reflect"
	"strings"
	"testing"
)

func TestHunks(t *testing.T) {
	var a, b []string
	for i := range 20 {
		l := strings.Repeat("x", i) + "\n"
		a = append(a, l)
		if i == 2 || i == 15 {
			l = "changed\n"
		}
		b = append(b, l)
	}
	groups := Hunks(DiffLines(a, b), 3)
	if len(groups) != 2 {
		t.Fatalf("%d hunks, want 2: %+v", len(groups), groups)
	}
	if g := groups[0]; g[0].OldStart != 0 || g[len(g)-1].OldStart+g[len(g)-1].OldLen != 6 {
		t.Errorf("first hunk %+v", g)
	}
	if g := groups[1]; g[0].OldStart != 12 || g[len(g)-1].OldStart+g[len(g)-1].OldLen != 19 {
		t.Errorf("second hunk %+v", g)
	}
	// Insertions and deletions in the middle of equal runs.
	ops := DiffLines([]string{"a", "b", "c", "d"}, []string{"a", "x", "c", "d", "e"})
	want := []DiffOp{{0, 1, 0, 1, true}, {1, 1, 1, 1, false}, {2, 2, 2, 2, true}, {4, 0, 4, 1, false}}
	if !reflect.DeepEqual(ops, want) {
		t.Errorf("ops %+v, want %+v", ops, want)
	}
}
