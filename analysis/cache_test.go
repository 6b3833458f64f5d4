package analysis

import (
	"fmt"
	"testing"
)

func TestFactsCache(t *testing.T) {
	mk := func(rel, src string) *fileFacts {
		return &fileFacts{rel: rel, src: []byte(src), defs: []def{{Name: "f"}}}
	}
	one := mk("a.ts", "function f() {}")
	limit := factsCost(one) * 3
	c := newFactsCache(limit)
	c.put("typescript", one)
	if got := c.get("typescript", "a.ts", []byte("function f() {}")); got != one {
		t.Errorf("same path: %+v", got)
	}
	moved := c.get("typescript", "b/a.ts", []byte("function f() {}"))
	if moved == nil || moved.rel != "b/a.ts" || one.rel != "a.ts" || len(moved.defs) != 1 {
		t.Errorf("another path with the same content: %+v (cached %s)", moved, one.rel)
	}
	if c.get("javascript", "a.ts", []byte("function f() {}")) != nil || c.get("typescript", "a.ts", []byte("x")) != nil {
		t.Error("a hit for another language or content")
	}
	// The least recently used entries leave when the budget is passed.
	for i := range 5 {
		c.put("typescript", mk(fmt.Sprint(i), fmt.Sprintf("function f%d() {}", i)))
	}
	if c.size > limit || c.lru.Len() > 3 {
		t.Errorf("over budget: %d bytes, %d entries", c.size, c.lru.Len())
	}
	if c.get("typescript", "a.ts", []byte("function f() {}")) != nil {
		t.Error("the oldest entry was not evicted")
	}
	if c.get("typescript", "4", []byte("function f4() {}")) == nil {
		t.Error("the newest entry was evicted")
	}
	c.clear()
	if c.lru.Len() != 0 || c.size != 0 {
		t.Error("clear left entries")
	}
}
