//go:build !js

package language

import (
	"context"

	"github.com/loupe-dev/loupe/host"
	"github.com/loupe-dev/loupe/host/wazhost"
)

// defaultEngine runs grammar modules with wazero.
func defaultEngine(ctx context.Context) (host.Engine, error) {
	return wazhost.New(ctx, wazhost.Config{})
}

// defaultSandbox runs custom languages' modules on a wazero runtime of
// their own that treats them as untrusted (wazhost.Config.Sandbox).
func defaultSandbox(ctx context.Context) (host.Engine, error) {
	return wazhost.New(ctx, wazhost.Config{Sandbox: true})
}
