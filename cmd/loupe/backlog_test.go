package main

import (
	"context"
	"testing"
	"time"
)

func TestBacklog(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b, stop := newBacklog(ctx, 100)
	defer stop()
	b.add(100)
	if !b.wait() {
		t.Fatal("wait at the budget reported a stop")
	}
	b.add(1)
	woke := make(chan bool)
	go func() { woke <- b.wait() }()
	select {
	case <-woke:
		t.Fatal("wait returned while over budget")
	case <-time.After(50 * time.Millisecond):
	}
	b.add(-1)
	if ok := <-woke; !ok {
		t.Fatal("wait after draining reported a stop")
	}
	b.add(500)
	go func() { woke <- b.wait() }()
	cancel()
	if ok := <-woke; ok {
		t.Fatal("wait after the context ended reported no stop")
	}
}
