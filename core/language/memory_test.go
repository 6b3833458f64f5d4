package language

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/host"
)

func TestTokens(t *testing.T) {
	for src, want := range map[string]int{
		"":                   0,
		"foo.bar(baz, 1);":   9,
		"  x_1 = 'é';\n":     6,
		"[1,1,1]":            7,
		"\t\r\n\f\v":         0,
		"a+b-c*d/e%f":        11,
		"naïve_var2 += 0x1F": 4,
	} {
		if got := Tokens([]byte(src)); got != want {
			t.Errorf("Tokens(%q) = %d, want %d", src, got, want)
		}
	}
}

// A source reckoned too large for a grammar module is refused at once
// with host.ErrTooLarge, without parsing; one just under the bound is not
// refused by the reckoning.
func TestParseRefusesWhatCannotFit(t *testing.T) {
	lang, err := Lookup("javascript")
	if err != nil {
		t.Fatal(err)
	}
	tokens := MaxParseMemory/BytesPerToken + 2
	src := []byte("x=[" + strings.Repeat("1,", tokens/2) + "];")
	_, err = lang.Parse(context.Background(), src)
	if !errors.Is(err, host.ErrTooLarge) {
		t.Fatalf("want ErrTooLarge, got %v", err)
	}
	if _, err := parseCost("javascript", src[:len(src)/2]); err != nil {
		t.Errorf("half of it is refused: %v", err)
	}
}

// Parses wait while others hold the memory, and a waiting parse gives up
// when its context ends.
func TestMemoryGate(t *testing.T) {
	g := &memoryGate{free: ParseMemory, wake: make(chan struct{})}
	if err := g.acquire(context.Background(), ParseMemory*2); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- g.acquire(ctx, 1) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("a waiting acquire returned %v", err)
	}
	got := make(chan error)
	go func() { got <- g.acquire(context.Background(), ParseMemory/2) }()
	g.release(ParseMemory * 2)
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if g.free != ParseMemory/2 {
		t.Errorf("free = %d", g.free)
	}
}
