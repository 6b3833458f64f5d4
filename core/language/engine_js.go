//go:build js

package language

import (
	"context"
	"errors"

	"github.com/loupe-dev/loupe/host"
)

// defaultEngine fails under js: the entry point (package wasm) must call
// SetEngine with a host/jshost engine wired to the JavaScript loader.
func defaultEngine(ctx context.Context) (host.Engine, error) {
	return nil, errors.New("language: no grammar engine: the JavaScript loader was not installed")
}
