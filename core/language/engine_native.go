//go:build !js

package language

import (
	"context"

	"github.com/loupe-dev/loupe/host"
	"github.com/loupe-dev/loupe/host/wazhost"
)

// defaultEngine runs grammar modules with wazero. An instance whose
// memory holds more than recycleBytes after a parse is retired: on the
// Python standard library, 2 MiB instead of wazhost's 8 MiB took the
// parse-all floor's peak memory from 49 to 42 MB at the same CPU time
// (starting an instance costs little next to the parse that grew it).
func defaultEngine(ctx context.Context) (host.Engine, error) {
	return wazhost.New(ctx, wazhost.Config{RecycleBytes: recycleBytes})
}

// recycleBytes is the memory an idle instance may keep (see defaultEngine).
const recycleBytes = 2 << 20

// defaultSandbox runs custom languages' modules on a wazero runtime of
// their own that treats them as untrusted (wazhost.Config.Sandbox).
func defaultSandbox(ctx context.Context) (host.Engine, error) {
	return wazhost.New(ctx, wazhost.Config{Sandbox: true})
}
