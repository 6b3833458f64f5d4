package wazhost

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/host"
)

func newEngine(t testing.TB, cfg Config) *Engine {
	t.Helper()
	if cfg.CacheDir == "" {
		cfg.NoCache = true
	}
	e, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close(context.Background()) })
	return e
}

func wasmOf(t testing.TB, name string) []byte {
	t.Helper()
	l, ok := grammars.Lookup(name)
	if !ok {
		t.Fatalf("no grammar %s", name)
	}
	b, err := l.Wasm()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func load(t testing.TB, e *Engine, name string) *grammar {
	t.Helper()
	g, err := e.Load(context.Background(), name, wasmOf(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return g.(*grammar)
}

// bigJSON is n bytes of one JSON array of numbers, slow enough to parse
// that a cancellation lands mid-parse.
func bigJSON(n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for b.Len() < n-16 {
		b.WriteString("12345, 6.5e3, ")
	}
	b.WriteString("0]")
	return b.Bytes()
}

func TestParse(t *testing.T) {
	e := newEngine(t, Config{})
	g := load(t, e, "json")
	if again := load(t, e, "json"); again != g {
		t.Error("loading a language twice gave two grammars")
	}
	names := g.Names()
	if len(names.Symbols) < 10 || names.Fields[0] != "" {
		t.Fatalf("implausible name table: %d symbols, fields %q", len(names.Symbols), names.Fields)
	}
	nodes, err := g.Parse(context.Background(), []byte(`{"a": [1, true]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) == 0 || int(nodes[0].SubtreeSize) != len(nodes) || nodes[0].EndByte != 16 {
		t.Fatalf("bad root %+v of %d nodes", nodes[0], len(nodes))
	}
	var kinds []string
	for _, n := range nodes {
		if n.Flags&host.FlagNamed != 0 {
			kinds = append(kinds, names.Symbols[n.Symbol])
		}
	}
	want := "document object pair string string_content array number true"
	if got := join(kinds); got != want {
		t.Errorf("named nodes %q, want %q", got, want)
	}
	// The same instance serves the next parse, with no state carried over.
	for _, src := range []string{"", "[", "1"} {
		if _, err := g.Parse(context.Background(), []byte(src)); err != nil {
			t.Errorf("parse %q: %v", src, err)
		}
	}
	if len(g.idle) != 1 {
		t.Errorf("%d idle instances after sequential parses, want 1", len(g.idle))
	}
}

func join(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x)
	}
	return b.String()
}

// minimalModule encodes a wasm module exporting loupe's glue names and a
// memory, where every function returns ret: with 1, loupe_init fails; with
// 0, loupe_init succeeds but there is no cancel flag or name table.
func minimalModule(ret byte) []byte {
	names := host.Exports
	section := func(id byte, content []byte) []byte {
		return append([]byte{id, byte(len(content))}, content...)
	}
	m := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	m = append(m, section(1, []byte{1, 0x60, 0, 1, 0x7f})...)                                   // type: () -> i32
	m = append(m, section(3, append([]byte{byte(len(names))}, make([]byte, len(names))...))...) // one function of type 0 per name
	m = append(m, section(5, []byte{1, 0, 1})...)                                               // one page of memory
	exports := []byte{byte(len(names) + 1)}
	for i, n := range names {
		exports = append(append(append(exports, byte(len(n))), n...), 0, byte(i))
	}
	exports = append(append(append(exports, 6), "memory"...), 2, 0)
	m = append(m, section(7, exports)...)
	code := []byte{byte(len(names))}
	for range names {
		code = append(code, 4, 0, 0x41, ret, 0x0b) // i32.const ret; end
	}
	return append(m, section(10, code)...)
}

func TestBadModule(t *testing.T) {
	tests := []struct {
		name string
		wasm []byte
	}{
		{"nothing", nil},
		{"not wasm", []byte("#!/bin/sh\necho hello\n")},
		{"truncated", wasmOf(t, "json")[:1000]},
		{"empty module", []byte{0, 'a', 's', 'm', 1, 0, 0, 0}},
		{"init fails", minimalModule(1)},
		{"no cancel flag or names", minimalModule(0)},
	}
	e := newEngine(t, Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := e.Load(context.Background(), "bad-"+tt.name, tt.wasm)
			if !errors.Is(err, host.ErrBadModule) {
				t.Fatalf("Load = %v, %v; want an error wrapping ErrBadModule", g, err)
			}
		})
	}
}

func TestTooLarge(t *testing.T) {
	g := load(t, newEngine(t, Config{}), "json")
	// A zeroed allocation is not touched, so this costs no memory.
	if _, err := g.Parse(context.Background(), make([]byte, host.MaxInput+1)); !errors.Is(err, host.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

// TestLoadCancelled checks a Load whose context is done returns promptly
// and does not leave the language broken for later callers.
func TestLoadCancelled(t *testing.T) {
	e := newEngine(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Load(ctx, "css", wasmOf(t, "css")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Load with a cancelled context: %v", err)
	}
	g := load(t, e, "css")
	if _, err := g.Parse(context.Background(), []byte("a { color: red }")); err != nil {
		t.Fatal(err)
	}
}

// doneAfterCheck is a done context whose first look at Err says it is
// not done yet: it passes the check before a parse and stops the parse.
type doneAfterCheck struct {
	context.Context
	looked atomic.Bool
}

func (c *doneAfterCheck) Err() error {
	if !c.looked.Swap(true) {
		return nil
	}
	return c.Context.Err()
}

func TestParseCancelled(t *testing.T) {
	e := newEngine(t, Config{})
	g := load(t, e, "json")
	src := bigJSON(8 << 20)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Parse(ctx, src); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: err = %v", err)
	}

	// Cancelled, or past its deadline, while the module parses: the
	// context passes Parse's check before the parse and is done from then
	// on, so on any machine the stop lands inside the parse, where only the
	// cancel flag can stop the module; Parse must then return the
	// context's error, not a tree. Had the flag been ignored, the parse
	// would run to the end and return its nodes. "parse stopped" says the
	// stop came from inside the parse, not from the check before it.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	for _, c := range []struct {
		ctx  context.Context
		want error
	}{{cancelled, context.Canceled}, {expired, context.DeadlineExceeded}} {
		nodes, err := g.Parse(&doneAfterCheck{Context: c.ctx}, src)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), "parse stopped") {
			t.Fatalf("stopped during the parse: %d nodes, err = %v, want %v", len(nodes), err, c.want)
		}
	}

	// The pool recovers: the cancelled instances are gone, a new one parses.
	nodes, err := g.Parse(context.Background(), []byte("[1, 2]"))
	if err != nil || len(nodes) != 7 {
		t.Fatalf("after cancellation: %d nodes, %v", len(nodes), err)
	}
}

func TestPool(t *testing.T) {
	e := newEngine(t, Config{MaxIdle: 2})
	g := load(t, e, "json")
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				if _, err := g.Parse(context.Background(), bigJSON(4<<10)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(g.idle) > 2 {
		t.Errorf("%d idle instances, MaxIdle is 2", len(g.idle))
	}
}

// TestRecycle checks an instance whose memory grew past RecycleBytes is
// closed instead of pooled, and that the output of its last parse, copied
// after the rest of its memory was released, is intact.
func TestRecycle(t *testing.T) {
	e := newEngine(t, Config{})
	g := load(t, e, "json")
	if _, err := g.Parse(context.Background(), []byte("[1]")); err != nil {
		t.Fatal(err)
	}
	if len(g.idle) != 1 {
		t.Fatalf("%d idle instances after a small parse", len(g.idle))
	}
	// Retire whatever grows past the memory a small parse needs.
	e.cfg.RecycleBytes = uint64(g.idle[0].mem.Size())
	src := bigJSON(256 << 10)
	got, err := g.Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.idle) != 0 {
		t.Errorf("%d idle instances after a large parse, want the grown one retired", len(g.idle))
	}
	// The same parse on an engine that keeps its instances.
	want, err := load(t, newEngine(t, Config{RecycleBytes: 1 << 30}), "json").Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("retired parse gave %d nodes, kept one %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("node %d: retired parse %+v, kept one %+v", i, got[i], want[i])
		}
	}
}

func TestCacheDir(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 2; i++ {
		e := newEngine(t, Config{CacheDir: dir})
		g := load(t, e, "json")
		if _, err := g.Parse(context.Background(), []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Errorf("compilation cache dir is empty: %v", err)
	}
}

func TestSliceMemory(t *testing.T) {
	m := &sliceMemory{max: 3 << 16}
	a := m.Reallocate(1 << 16)
	a[100] = 7
	b := m.Reallocate(2 << 16)
	if len(b) != 2<<16 || b[100] != 7 || b[1<<16+5] != 0 {
		t.Fatalf("grown memory lost or dirty: len %d", len(b))
	}
	if m.Reallocate(4<<16) != nil {
		t.Error("grew past its maximum")
	}
	m.Free()
}
