package paging

import (
	"strings"
	"testing"
)

func TestPage(t *testing.T) {
	tests := []struct {
		p             Page
		next          int
		more, pastEnd string
	}{
		{Page{Offset: 0, Count: 50, Total: 120}, 50, "70 more of 120: call again with offset=50", ""},
		{Page{Offset: 100, Count: 20, Total: 120}, 0, "", ""},
		{Page{Offset: 0, Count: 0, Total: 0}, 0, "", ""},
		{Page{Offset: 130, Count: 0, Total: 120}, 0, "", "offset 130 is past the end: there are 120"},
		{Page{Offset: 120, Count: 0, Total: 120}, 0, "", "offset 120 is past the end: there are 120"},
	}
	for _, tc := range tests {
		if got := tc.p.Next(); got != tc.next {
			t.Errorf("%+v.Next() = %d, want %d", tc.p, got, tc.next)
		}
		if got := tc.p.More(); got != tc.more {
			t.Errorf("%+v.More() = %q, want %q", tc.p, got, tc.more)
		}
		if got := tc.p.PastEnd(); got != tc.pastEnd {
			t.Errorf("%+v.PastEnd() = %q, want %q", tc.p, got, tc.pastEnd)
		}
	}
}

func TestFit(t *testing.T) {
	size := func(s string) int { return len(s) }
	tests := []struct {
		items         []string
		limit, budget int
		want          int
	}{
		{nil, 10, 100, 0},
		{[]string{"aaaa", "bbbb", "cccc"}, 10, 100, 3},
		{[]string{"aaaa", "bbbb", "cccc"}, 2, 100, 2},
		{[]string{"aaaa", "bbbb", "cccc"}, 10, 8, 2},
		{[]string{"aaaa", "bbbb", "cccc"}, 10, 7, 1},
		{[]string{strings.Repeat("x", 50), "b"}, 10, 8, 1}, // one item over the budget still makes progress
	}
	for _, tc := range tests {
		if got := Fit(tc.items, tc.limit, tc.budget, size); got != tc.want {
			t.Errorf("Fit(%q, %d, %d) = %d, want %d", tc.items, tc.limit, tc.budget, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	if err := Check(0); err != nil {
		t.Errorf("offset 0: %v", err)
	}
	if err := Check(-1); err == nil || err.Error() != "offset must be 0 or more, got -1" {
		t.Errorf("offset -1: %v", err)
	}
}
