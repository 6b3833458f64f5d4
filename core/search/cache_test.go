package search

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestEnterParse: one large source is parsed at a time; small ones never
// wait; a large one waiting gives up when its context ends.
func TestEnterParse(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a guard: nothing here should wait
	defer cancel()
	leave, err := enterParse(ctx, largeSource)
	if err != nil {
		t.Fatal(err)
	}
	small, err := enterParse(ctx, largeSource-1)
	if err != nil {
		t.Fatalf("a small source waited for the large one: %v", err)
	}
	small()
	waiting, stop := context.WithCancel(context.Background())
	got := make(chan error, 1)
	go func() {
		l, err := enterParse(waiting, 2*largeSource)
		if err == nil {
			l()
		}
		got <- err
	}()
	stop()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Errorf("a second large parse, cancelled while the first runs: %v, want context.Canceled", err)
	}
	leave()
	again, err := enterParse(ctx, largeSource)
	if err != nil {
		t.Fatalf("a large parse after the first ended: %v", err)
	}
	again()
}
