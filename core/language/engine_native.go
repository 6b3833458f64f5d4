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
