package treecache

import (
	"context"
	"go/build"
	"os"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

// BenchmarkTree compares the two ways to a tree of GOROOT's
// net/http/server.go: parsing it, and loading its entry (read, check,
// decode) and building the tree over the nodes. The entry's size is
// reported against the node records' and the source's.
func BenchmarkTree(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(build.Default.GOROOT, "src", "net", "http", "server.go"))
	if err != nil {
		b.Skipf("no GOROOT source: %v", err)
	}
	l, err := language.Lookup("go")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	tr, err := l.Parse(ctx, src)
	if err != nil {
		b.Fatal(err)
	}
	s, err := Open(b.TempDir(), 1<<30)
	if err != nil {
		b.Fatal(err)
	}
	names, err := l.Names(ctx)
	if err != nil {
		b.Fatal(err)
	}
	key := KeyOf(l.Info().SHA256, src)
	if err := s.Save(key, len(src), tr.Nodes()); err != nil {
		b.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		b.Fatal(err)
	}
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if _, err := l.Parse(ctx, src); err != nil {
				b.Fatal(err)
			}
		}
	})
	// load loads the entry and builds its tree, and links it when link is
	// set: what the first walk between nodes adds to a load (a pattern's
	// match; a `kind` rule's does without).
	load := func(link bool) func(*testing.B) {
		return func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				t, ok := s.Load(key, src, names)
				if !ok {
					b.Fatal("no entry")
				}
				if link {
					t.Linked()
				}
				t.Release()
			}
		}
	}
	b.Run("load", func(b *testing.B) {
		load(false)(b)
		e, _, ok := s.read(key)
		if !ok {
			b.Fatal("no entry")
		}
		b.ReportMetric(float64(len(e))/float64(len(src)), "entry/src")
		b.ReportMetric(float64(len(e))/float64(tr.Len()), "B/node")
	})
	b.Run("load+link", load(true))
	b.Run("key", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			KeyOf(l.Info().SHA256, src)
		}
	})
}
