//go:build parity

package parity

import (
	"context"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

// benchBytes bounds each language's benchmark input: its samples and the
// first real files of its bounded corpus (test corpus cases are too small
// to measure throughput).
const benchBytes = 512 << 10

// BenchmarkParse parses the same inputs per language with loupe (wazero,
// through language.Parse, so including the flat-tree copy and tree.New)
// and with native tree-sitter (ts_parser_parse_string from C, the same
// grammar sources compiled by gcc -O2).
func BenchmarkParse(b *testing.B) {
	ctx := context.Background()
	cache, m, c := setup(b, defaultLimits)
	for _, info := range m.Languages {
		all, err := c.inputs(info.Name)
		if err != nil {
			b.Fatal(err)
		}
		var inputs [][]byte
		total := 0
		for _, in := range all {
			if len(in.src) < 1024 || total >= benchBytes {
				continue
			}
			inputs = append(inputs, in.src)
			total += len(in.src)
		}
		l, err := language.Lookup(info.Name)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.Parse(ctx, nil); err != nil { // compile outside the timing
			b.Fatal(err)
		}
		nat, err := loadNative(ctx, cache, info)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(info.Name+"/wazero", func(b *testing.B) {
			b.SetBytes(int64(total))
			for b.Loop() {
				for _, src := range inputs {
					if _, err := l.Parse(ctx, src); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(info.Name+"/cgo", func(b *testing.B) {
			p, err := nat.rawParser()
			if err != nil {
				b.Fatal(err)
			}
			defer p.close()
			b.SetBytes(int64(total))
			for b.Loop() {
				for _, src := range inputs {
					if err := p.parse(src); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
