package host_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/host"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// TestMeterModuleGrammars: every built-in grammar module, metered,
// parses its language's samples (testdata/parse, broken ones too) into
// the same flat tree as unmetered, within the fuel a parse gets by
// default (host.ParseFuel with the 30 s limit). wazero's interpreter
// runs them: the fuel spent is the same on every engine, and it compiles
// in no time.
func TestMeterModuleGrammars(t *testing.T) {
	m, err := grammars.All()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	for _, l := range m.Languages {
		t.Run(l.Name, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join("..", "testdata", "parse", l.Name, "*"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no samples: %v", err)
			}
			wasm, err := l.Wasm()
			if err != nil {
				t.Fatal(err)
			}
			metered, err := host.MeterModule(wasm, host.FuelBase)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := instantiate(ctx, rt, wasm)
			if err != nil {
				t.Fatal(err)
			}
			counted, err := instantiate(ctx, rt, metered)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				want, err := plain.parse(ctx, src)
				if err != nil {
					t.Fatal(err)
				}
				got, err := counted.parse(ctx, src)
				if err != nil {
					t.Fatalf("%s: metered: %v", f, err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s: metered, the tree differs", f)
				}
			}
		})
	}
}

// glue is an instance of a grammar module, driven through its glue's
// exports.
type glue struct {
	m    api.Module
	fuel api.MutableGlobal // nil unless metered
}

func instantiate(ctx context.Context, rt wazero.Runtime, wasm []byte) (*glue, error) {
	m, err := rt.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize"))
	if err != nil {
		return nil, err
	}
	g := &glue{m: m}
	if f, ok := m.ExportedGlobal(host.FuelExport).(api.MutableGlobal); ok {
		g.fuel = f
	}
	if rc, err := g.call(ctx, "loupe_init"); err != nil || rc != 0 {
		return nil, fmt.Errorf("loupe_init: %d, %v", rc, err)
	}
	return g, nil
}

func (g *glue) call(ctx context.Context, fn string, args ...uint64) (uint32, error) {
	res, err := g.m.ExportedFunction(fn).Call(ctx, args...)
	if err != nil {
		return 0, err
	}
	return uint32(res[0]), nil
}

// parse parses src with the fuel host.ParseFuel gives it by default and
// returns the flat tree's bytes.
func (g *glue) parse(ctx context.Context, src []byte) ([]byte, error) {
	if g.fuel != nil {
		g.fuel.Set(uint64(host.ParseFuel(30*time.Second, len(src))))
	}
	ptr, err := g.call(ctx, "loupe_input", uint64(len(src)))
	if err != nil {
		return nil, err
	}
	g.m.Memory().Write(ptr, src)
	n, err := g.call(ctx, "loupe_parse", uint64(len(src)))
	if err != nil {
		return nil, err
	}
	out, err := g.call(ctx, "loupe_output")
	if err != nil {
		return nil, err
	}
	b, ok := g.m.Memory().Read(out, n*host.NodeSize)
	if !ok {
		return nil, fmt.Errorf("%d nodes at %d: out of memory bounds", n, out)
	}
	return append([]byte(nil), b...), nil
}
