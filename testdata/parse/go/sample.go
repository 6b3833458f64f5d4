// Package inventory keeps track of items in a small warehouse.
//
// It exists to exercise the Go grammar: generics, methods, closures,
// goroutines, select, labels, raw strings and non-ASCII identifiers.
package inventory

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// ErrNotFound is returned when an item does not exist.
var ErrNotFound = errors.New("inventory: item not found")

const (
	maxItems   = 1 << 10
	greeting   = "Grüße aus München 🏭"
	rawPattern = `^[a-z]+\d*$`
)

// Item is one kind of thing on a shelf.
type Item struct {
	SKU      string            `json:"sku"`
	Name     string            `json:"name"`
	Quantity int               `json:"quantity,omitempty"`
	Tags     map[string]string `json:"tags"`
	größe    float64
}

// Store is a concurrency-safe collection of items.
type Store[K comparable, V any] struct {
	mu    sync.RWMutex
	items map[K]V
}

// Number is satisfied by the numeric types a total can be computed over.
type Number interface {
	~int | ~int64 | ~float64
}

// NewStore returns an empty store.
func NewStore[K comparable, V any]() *Store[K, V] {
	return &Store[K, V]{items: make(map[K]V)}
}

// Get returns the value stored under k.
func (s *Store[K, V]) Get(k K) (V, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.items[k]
	if !ok {
		var zero V
		return zero, fmt.Errorf("get %v: %w", k, ErrNotFound)
	}
	return v, nil
}

// Put stores v under k.
func (s *Store[K, V]) Put(k K, v V) {
	s.mu.Lock()
	s.items[k] = v
	s.mu.Unlock()
}

// Sum adds up the values of xs.
func Sum[T Number](xs ...T) (total T) {
	for _, x := range xs {
		total += x
	}
	return
}

// Watch polls fn until ctx is done and reports every change on the
// returned channel.
func Watch(ctx context.Context, every time.Duration, fn func() int) <-chan int {
	out := make(chan int, 1)
	go func() {
		defer close(out)
		ticker := time.NewTicker(every)
		defer ticker.Stop()
		last := -1
	loop:
		for {
			select {
			case <-ctx.Done():
				break loop
			case <-ticker.C:
				if v := fn(); v != last {
					last = v
					out <- v
				}
			}
		}
	}()
	return out
}

// Describe renders items sorted by name, one per line.
func Describe(items []Item) string {
	sorted := append([]Item(nil), items...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var b strings.Builder
	for i, it := range sorted {
		switch {
		case it.Quantity == 0:
			fmt.Fprintf(&b, "%d. %s (out of stock)\n", i+1, it.Name)
		case it.Quantity > maxItems:
			fmt.Fprintf(&b, "%d. %s (overflow!)\n", i+1, it.Name)
		default:
			fmt.Fprintf(&b, "%d. %s × %d\n", i+1, it.Name, it.Quantity)
		}
	}
	return b.String()
}

func classify(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int, int64:
		return fmt.Sprint("integer ", x)
	case string:
		return "string " + strings.ToUpper(x)
	default:
		return fmt.Sprintf("%T", x)
	}
}

func init() {
	_ = classify(greeting)
	_ = Sum(1.5, 2.5, 'x')
	var matrix [2][3]int
	matrix[1][2] = 0x1F &^ 0b101
	_ = matrix
}
