package wazhost

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/host"
	"github.com/loupe-dev/loupe/host/hostile"
)

// hangTime is the time limit of the engine the finite hostile modules
// run on: it only bounds a hang, so how fast the machine is cannot
// change what they do (growing to the memory limit, trapping).
const hangTime = 10 * time.Minute

// loopTime is the time limit of the engine the endless modules run on:
// they loop until it, however fast the machine is, and what they do
// before looping (a tiny module's start) takes microseconds.
const loopTime = time.Second

// sandbox is a sandboxed engine with a 4 MiB memory limit and a time
// limit that only bounds a hang.
func sandbox(t *testing.T) *Engine {
	return newEngine(t, Config{Sandbox: true, MemoryLimit: 4 << 20, ParseTime: hangTime})
}

// loopbox is sandbox with a time limit that endless modules reach soon.
func loopbox(t *testing.T) *Engine {
	return newEngine(t, Config{Sandbox: true, MemoryLimit: 4 << 20, ParseTime: loopTime})
}

// TestSandboxParse: a module that loops, traps, reads out of bounds or
// grows its memory without end while parsing is stopped, with an error
// saying why, and the engine goes on: a real grammar parses on it next.
func TestSandboxParse(t *testing.T) {
	e, loops := sandbox(t), loopbox(t)
	ctx := context.Background()
	cases := []struct {
		name  string
		b     hostile.Behaviour
		check func(t *testing.T, nodes []host.Node, err error)
	}{
		{"loop", hostile.Loop, func(t *testing.T, _ []host.Node, err error) {
			if !errors.Is(err, host.ErrTimeLimit) || !strings.Contains(err.Error(), "stopped after "+loopTime.String()) {
				t.Fatalf("err = %v, want the time limit", err)
			}
		}},
		{"trap", hostile.Trap, func(t *testing.T, _ []host.Node, err error) {
			if err == nil || !strings.Contains(err.Error(), "unreachable") {
				t.Fatalf("err = %v, want the trap", err)
			}
		}},
		{"out-of-bounds", hostile.OutOfBounds, func(t *testing.T, _ []host.Node, err error) {
			if err == nil || !strings.Contains(err.Error(), "out of bounds") {
				t.Fatalf("err = %v, want an out-of-bounds access", err)
			}
		}},
		{"grow", hostile.GrowForever, func(t *testing.T, nodes []host.Node, err error) {
			// The module returns its memory's size in pages as a node
			// count: growth stopped at the 4 MiB limit.
			if err != nil || len(nodes) != 64 {
				t.Fatalf("grew to %d pages (err %v), want 64 (4 MiB)", len(nodes), err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := e
			if c.b == hostile.Loop {
				e = loops
			}
			g, err := e.Load(ctx, "hostile-"+c.name, hostile.Module(hostile.Spec{Parse: c.b}))
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			for range 2 { // an instance is replaced after a failure, and fails again
				nodes, err := g.Parse(ctx, []byte("x = 1"))
				c.check(t, nodes, err)
			}
		})
	}
	g, err := e.Load(ctx, "json", wasmOf(t, "json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := g.Parse(ctx, []byte(`{"a": [1, 2]}`))
	if err != nil {
		t.Fatal(err)
	}
	want, err := load(t, newEngine(t, Config{}), "json").Parse(ctx, []byte(`{"a": [1, 2]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("json in the sandbox: %d nodes, %d unsandboxed, or they differ", len(got), len(want))
	}
}

// TestSandboxRefused: a module with the wrong ABI, or that misbehaves
// while starting, is refused at load with an error saying why.
func TestSandboxRefused(t *testing.T) {
	e, loops := sandbox(t), loopbox(t)
	within := "within " + loopTime.String()
	cases := []struct {
		name string
		spec hostile.Spec
		want string
		is   error
	}{
		{"import", hostile.Spec{Import: true}, "imports function wasi_snapshot_preview1.fd_write", host.ErrBadModule},
		{"no-parse", hostile.Spec{Omit: "loupe_parse"}, "lacks export loupe_parse", host.ErrBadModule},
		{"no-memory", hostile.Spec{Omit: "memory"}, "exports no memory", host.ErrBadModule},
		{"signature", hostile.Spec{WrongParse: true}, "export loupe_parse has the wrong signature", host.ErrBadModule},
		{"start-loop", hostile.Spec{Start: hostile.Loop}, "did not start " + within, host.ErrTimeLimit},
		{"start-trap", hostile.Spec{Start: hostile.Trap}, "unreachable", nil},
		{"start-grow", hostile.Spec{Start: hostile.GrowForever, Init: hostile.Trap}, "loupe_init", host.ErrBadModule},
		{"init-loop", hostile.Spec{Init: hostile.Loop}, "did not return " + within, host.ErrTimeLimit},
		{"names-loop", hostile.Spec{Names: hostile.Loop}, "loupe_names did not return " + within, host.ErrTimeLimit},
		{"names-oob", hostile.Spec{Names: hostile.OutOfBounds}, "name table", host.ErrBadModule},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := e
			if c.is == host.ErrTimeLimit {
				e = loops
			}
			_, err := e.Load(context.Background(), "refused-"+c.name, hostile.Module(c.spec))
			if err == nil || !strings.Contains(err.Error(), c.want) || c.is != nil && !errors.Is(err, c.is) {
				t.Fatalf("err = %v, want %q (%v)", err, c.want, c.is)
			}
		})
	}
}

// TestHonestHostileModule: the assembled module itself is valid, so the
// refusals above are the sandbox's doing.
func TestHonestHostileModule(t *testing.T) {
	g, err := sandbox(t).Load(context.Background(), "honest", hostile.Module(hostile.Spec{}))
	if err != nil {
		t.Fatal(err)
	}
	if nodes, err := g.Parse(context.Background(), []byte("x")); err != nil || len(nodes) != 0 {
		t.Fatalf("parse: %d nodes, %v", len(nodes), err)
	}
}

// BenchmarkSandboxParse measures what the sandbox costs a parse: the same
// module (the built-in json) on the default engine and on a sandboxed
// one, which checks its deadline at every loop and call.
func BenchmarkSandboxParse(b *testing.B) {
	src := bigJSON(1 << 20)
	for _, c := range []struct {
		name string
		cfg  Config
	}{{"default", Config{}}, {"sandbox", Config{Sandbox: true}}} {
		b.Run(c.name, func(b *testing.B) {
			g := load(b, newEngine(b, c.cfg), "json")
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := g.Parse(context.Background(), src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
