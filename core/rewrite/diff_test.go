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

// TestDiffLines checks that DiffLines's ops rebuild the new lines from the
// old, on inputs small and past the step budget (two disjoint 5,000-line
// texts: one deletion and one insertion).
func TestDiffLines(t *testing.T) {
	big := func(prefix string) []string {
		out := make([]string, 5000)
		for i := range out {
			out[i] = prefix + strings.Repeat("x", i%7) + "\n"
		}
		return out
	}
	cases := []struct {
		name string
		a, b []string
	}{
		{"empty", nil, nil},
		{"insert", nil, []string{"a\n"}},
		{"delete", []string{"a\n", "b\n"}, nil},
		{"repeated", []string{"}\n", "c\n", "}\n", "}\n"}, []string{"}\n", "}\n", "d\n", "}\n"}},
		{"disjoint past the budget", big("a"), big("b")},
	}
	for _, c := range cases {
		ops := DiffLines(c.a, c.b)
		var rebuilt []string
		oldAt, newAt := 0, 0
		for _, op := range ops {
			if op.OldStart != oldAt || op.NewStart != newAt {
				t.Fatalf("%s: op %+v does not follow %d,%d", c.name, op, oldAt, newAt)
			}
			if op.Equal {
				for i := range op.OldLen {
					if c.a[op.OldStart+i] != c.b[op.NewStart+i] {
						t.Fatalf("%s: op %+v pairs unequal lines", c.name, op)
					}
				}
			}
			rebuilt = append(rebuilt, c.b[op.NewStart:op.NewStart+op.NewLen]...)
			oldAt, newAt = op.OldStart+op.OldLen, op.NewStart+op.NewLen
		}
		if oldAt != len(c.a) || !reflect.DeepEqual(rebuilt, c.b) && len(c.b) > 0 {
			t.Errorf("%s: ops %+v do not rebuild the new text", c.name, ops)
		}
	}
}
