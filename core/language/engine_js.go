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

// defaultSandbox fails under js: the JavaScript loader ships the built-in
// modules only, and custom languages' modules are not loaded there.
func defaultSandbox(ctx context.Context) (host.Engine, error) {
	return nil, errors.New("custom languages are not supported under GOOS=js: the JavaScript engine loads only the built-in grammar modules")
}
