package wazhost

import (
	"context"
	"testing"

	"github.com/loupe-dev/loupe/grammars"
)

// BenchmarkLoad measures making a language ready to parse: "cold" compiles
// the module from scratch (no compilation cache), "cached" loads it from a
// warm on-disk cache, as every process after the first does.
func BenchmarkLoad(b *testing.B) {
	m, err := grammars.All()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	loadOnce := func(b *testing.B, cfg Config, name string, wasm []byte) {
		e, err := New(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.Load(ctx, name, wasm); err != nil {
			b.Fatal(err)
		}
		if err := e.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
	for _, l := range m.Languages {
		wasm, err := l.Wasm()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(l.Name+"/cold", func(b *testing.B) {
			for b.Loop() {
				loadOnce(b, Config{NoCache: true}, l.Name, wasm)
			}
		})
		b.Run(l.Name+"/cached", func(b *testing.B) {
			cfg := Config{CacheDir: b.TempDir()}
			loadOnce(b, cfg, l.Name, wasm)
			for b.Loop() {
				loadOnce(b, cfg, l.Name, wasm)
			}
		})
	}
}
