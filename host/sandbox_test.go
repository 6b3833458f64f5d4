package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/host"
	"github.com/loupe-dev/loupe/host/hostile"
	"github.com/tetratelabs/wazero"
)

// TestSandboxModule: a module that imports is refused, naming the import;
// one that grows its memory without end, once sandboxed, stops at the cap
// on a runtime that has no limit of its own; one that starts with more
// memory than the cap, or that is not WebAssembly, is refused.
func TestSandboxModule(t *testing.T) {
	if _, err := host.SandboxModule(hostile.Module(hostile.Spec{Import: true}), 64); !errors.Is(err, host.ErrBadModule) ||
		!strings.Contains(err.Error(), "imports wasi_snapshot_preview1.fd_write") {
		t.Errorf("import: %v", err)
	}
	for _, bad := range [][]byte{nil, []byte("\x00asm\x02\x00\x00\x00"), append(hostile.Module(hostile.Spec{}), 5, 9)} {
		if _, err := host.SandboxModule(bad, 64); !errors.Is(err, host.ErrBadModule) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := host.SandboxModule(hostile.Module(hostile.Spec{}), 0); err == nil || !strings.Contains(err.Error(), "starts with 1 pages") {
		t.Errorf("cap under the initial memory: %v", err)
	}

	wasm, err := host.SandboxModule(hostile.Module(hostile.Spec{Parse: hostile.GrowForever}), 64)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	m, err := rt.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithStartFunctions("_initialize"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.ExportedFunction("loupe_parse").Call(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if pages := uint32(res[0]); pages != 64 {
		t.Fatalf("memory grew to %d pages, want the cap of 64", pages)
	}
}
