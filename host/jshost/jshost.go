//go:build js

// Package jshost runs loupe's grammar modules on the JavaScript engine's own
// WebAssembly when loupe itself is built with GOOS=js. (wazero could only
// interpret there, tens of times slower.) The JavaScript side supplies a
// loader object with one method:
//
//	instantiate(name: string): WebAssembly.Instance
//
// returning a fresh instance of the named grammar module (the same .wasm
// files the native build embeds). Go is single-threaded under js, so one
// instance per language serves every parse.
package jshost

import (
	"context"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/loupe-dev/loupe/host"
)

// Engine is a host.Engine that instantiates modules through a JS loader.
type Engine struct {
	loader js.Value

	mu       sync.Mutex
	grammars map[string]*grammar
}

var _ host.Engine = (*Engine)(nil)

// New returns an Engine using loader.instantiate(name).
func New(loader js.Value) *Engine {
	return &Engine{loader: loader, grammars: map[string]*grammar{}}
}

// Load instantiates the module for name. wasm is ignored: under js the
// modules live beside the Go module and the loader reads them.
func (e *Engine) Load(ctx context.Context, name string, wasm []byte) (host.Grammar, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if g := e.grammars[name]; g != nil {
		return g, nil
	}
	g, err := e.instantiate(name)
	if err != nil {
		return nil, err
	}
	e.grammars[name] = g
	return g, nil
}

// Close drops every instance; the JS garbage collector frees them.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	clear(e.grammars)
	return nil
}

func (e *Engine) instantiate(name string) (g *grammar, err error) {
	defer func() {
		if r := recover(); r != nil { // a JS exception surfaces as a panic of js.Error
			g, err = nil, fmt.Errorf("jshost: instantiate %s: %v", name, r)
		}
	}()
	inst := e.loader.Call("instantiate", name)
	exports := inst.Get("exports")
	for _, fn := range append([]string{"memory"}, host.Exports...) {
		if exports.Get(fn).IsUndefined() {
			return nil, fmt.Errorf("jshost: %s lacks export %s: %w", name, fn, host.ErrBadModule)
		}
	}
	if init := exports.Get("_initialize"); !init.IsUndefined() {
		init.Invoke()
	}
	g = &grammar{name: name, exports: exports, mem: exports.Get("memory")}
	if rc := exports.Call("loupe_init").Int(); rc != 0 {
		return nil, fmt.Errorf("jshost: %s: loupe_init: %w", name, host.ErrBadModule)
	}
	ptr := exports.Call("loupe_names").Int()
	if ptr == 0 {
		return nil, host.ErrOutOfMemory
	}
	buf := g.bytes(ptr, g.mem.Get("buffer").Get("byteLength").Int()-ptr)
	if g.names, err = host.DecodeNames(buf); err != nil {
		return nil, fmt.Errorf("jshost: %s: %w", name, err)
	}
	return g, nil
}

type grammar struct {
	name    string
	exports js.Value
	mem     js.Value
	names   *host.Names
	mu      sync.Mutex
}

func (g *grammar) Names() *host.Names { return g.names }

var uint8Array = js.Global().Get("Uint8Array")

// bytes copies n bytes of module memory at ptr into Go.
func (g *grammar) bytes(ptr, n int) []byte {
	out := make([]byte, n)
	js.CopyBytesToGo(out, uint8Array.New(g.mem.Get("buffer"), ptr, n))
	return out
}

// Parse copies src into the module, parses, and copies the flat tree out:
// two copies and four calls per file, none per node.
func (g *grammar) Parse(ctx context.Context, src []byte) (nodes []host.Node, err error) {
	if len(src) > host.MaxInput {
		return nil, fmt.Errorf("jshost: %s: %d bytes: %w", g.name, len(src), host.ErrTooLarge)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			nodes, err = nil, fmt.Errorf("jshost: %s: parse: %v", g.name, r)
		}
	}()
	ptr := g.exports.Call("loupe_input", len(src)).Int()
	if ptr == 0 {
		return nil, host.ErrOutOfMemory
	}
	if len(src) > 0 {
		// Read the buffer after loupe_input: growing memory replaces it.
		js.CopyBytesToJS(uint8Array.New(g.mem.Get("buffer"), ptr, len(src)), src)
	}
	count := g.exports.Call("loupe_parse", len(src)).Int()
	if count < 0 {
		return nil, host.CodeError(int32(count))
	}
	optr := g.exports.Call("loupe_output").Int()
	return host.DecodeNodes(g.bytes(optr, count*host.NodeSize), count)
}
