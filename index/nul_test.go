//go:build !js

package index

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A NUL in a full-text query is refused with a clear error, not passed to
// FTS5 (whose syntax error names neither the NUL nor the query).
func TestNULInQuery(t *testing.T) {
	root, _ := buildShop(t)
	db := open(t, root)
	ctx := context.Background()
	for _, q := range []string{"cart\x00", "\x00", "ca\x00rt OR x"} {
		_, err := db.SearchSymbols(ctx, q, "", "")
		if !errors.Is(err, ErrNULQuery) || !strings.Contains(err.Error(), "NUL") {
			t.Errorf("search symbols %q: %v", q, err)
		}
		_, err = db.SearchPackages(ctx, q)
		if !errors.Is(err, ErrNULQuery) {
			t.Errorf("search packages %q: %v", q, err)
		}
	}
	if got, err := db.SearchSymbols(ctx, "cart", "", ""); err != nil || len(got) == 0 {
		t.Errorf("cart: %v, %v", got, err)
	}
}
