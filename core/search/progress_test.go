package search

import (
	"context"
	"reflect"
	"testing"
)

func TestProgress(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.ts": "foo(1);\n", "b.ts": "x;\n", "c.ts": "foo(2);\n"})
	var got [][2]int
	ctx := WithProgress(context.Background(), func(done, total int) { got = append(got, [2]int{done, total}) })
	if _, err := Search(ctx, Options{Root: dir}, kindOf("call_expression"), func(FileMatches) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if want := [][2]int{{0, 3}, {1, 3}, {2, 3}, {3, 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("progress %v, want %v", got, want)
	}
	// Without a ProgressFunc nothing is reported and nothing breaks.
	if n := Ordered(context.Background(), 2, OrderedLimits{}, func(context.Context, int) (int, int64) { return 0, 0 }, func(int, int) bool { return true }); n != 2 {
		t.Errorf("delivered %d", n)
	}
}
