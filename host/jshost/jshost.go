//go:build js

// Package jshost runs loupe's grammar modules on the JavaScript engine's own
// WebAssembly when loupe itself is built with GOOS=js. (wazero could only
// interpret there, tens of times slower.) The JavaScript side supplies a
// loader object with these methods:
//
//	load(name: string): Promise<void>
//	loadBytes(name: string, bytes: Uint8Array): Promise<void>
//	instantiate(name: string): WebAssembly.Instance
//
// returning a fresh instance of the named grammar module (the same .wasm
// files the native build embeds), after load(name) or, for a custom
// language's module, loadBytes(name, bytes) prepared it. Go is single-threaded under js, so one
// instance per language serves every parse but those of large files (see
// below).
//
// Memory is what decides speed here. In V8 every memory.grow allocates a
// new ArrayBuffer and counts the whole memory again as external memory, so
// past a few hundred megabytes each grow sets off a full garbage
// collection; a module whose allocator grows its heap 64 KiB at a time
// then spends most of a large parse collecting (a 9 MB file: 14 s instead
// of 2.5 s). So an instance is given its heap up front: its memory is
// grown, in one step, before the module's allocator starts, and the
// allocator takes all of it as its first heap (memory the module never
// touches costs address space, not RAM). A file that needs more than the
// instance has gets a new instance sized for it, and an instance larger
// than heapBytes is dropped after its parse (wasm memory never shrinks), as
// host/wazhost does.
//
// A custom language's module arrives metered (host.MeterModule): it counts
// its work in an exported fuel global and traps when the count runs out,
// since nothing else can stop a WebAssembly call on the JavaScript engine
// (a browser page has no other thread to do it from). Before each call
// into such a module the fuel is set to what the call may spend
// (host.ParseFuel, from the Engine's parse time), and a call that trapped
// with its fuel spent is reported as stopped at its limit
// (host.ErrTimeLimit). The built-in modules are not metered.
package jshost

import (
	"context"
	"fmt"
	"sync"
	"syscall/js"
	"time"
	"unsafe"

	"github.com/loupe-dev/loupe/host"
)

// The flat tree is copied straight into a []host.Node, so Node's layout
// must be the module's record (wasm is little-endian, like the modules).
// Both lines fail to compile if the sizes differ.
var (
	_ [host.NodeSize - unsafe.Sizeof(host.Node{})]byte
	_ [unsafe.Sizeof(host.Node{}) - host.NodeSize]byte
)

const (
	// heapBytes is the memory an instance starts with, enough for files
	// up to 1 MiB. An instance that ends a parse larger than this (it was
	// made for a larger file, or grew) is dropped, so that one large file
	// does not pin its memory.
	heapBytes = 64 << 20
	// heapPerByte is the memory given per byte of source: parsing takes
	// 34-58 bytes per source byte (tree-sitter's subtrees and the flat
	// output), measured on TypeScript, JavaScript, Go and Python files.
	heapPerByte = 64
	// maxPages is the most a 32-bit wasm memory can have.
	maxPages = 65536
	pageSize = 65536
)

// DefaultParseTime is a metered module's limit per call when New is
// given none, as natively (wazhost.SandboxParseTime).
const DefaultParseTime = 30 * time.Second

// Engine is a host.Engine that instantiates modules through a JS loader.
type Engine struct {
	loader    js.Value
	parseTime time.Duration

	mu       sync.Mutex
	grammars map[string]*grammar
}

var _ host.Engine = (*Engine)(nil)

// New returns an Engine using loader.instantiate(name). parseTime is the
// limit of each call into a metered module (a custom language's), counted
// in fuel (host.ParseFuel); 0 means DefaultParseTime.
func New(loader js.Value, parseTime time.Duration) *Engine {
	if parseTime <= 0 {
		parseTime = DefaultParseTime
	}
	return &Engine{loader: loader, parseTime: parseTime, grammars: map[string]*grammar{}}
}

// Load instantiates the module for name. For a built-in language wasm is
// nil: the modules live beside the Go module and the loader reads them
// (load). A custom language's module, which only Go has, is handed over
// as wasm (loadBytes), already sandboxed and metered (host.SandboxModule,
// host.MeterModule).
func (e *Engine) Load(ctx context.Context, name string, wasm []byte) (host.Grammar, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if g := e.grammars[name]; g != nil {
		return g, nil
	}
	var loading js.Value
	if wasm == nil {
		loading = e.loader.Call("load", name)
	} else {
		bytes := uint8Array.New(len(wasm))
		js.CopyBytesToJS(bytes, wasm)
		loading = e.loader.Call("loadBytes", name, bytes)
	}
	if err := await(ctx, loading); err != nil {
		return nil, fmt.Errorf("jshost: load %s: %w", name, err)
	}
	g := &grammar{name: name, loader: e.loader, parseTime: e.parseTime}
	// The name table is read from an instance of its own, left at the
	// module's initial size so that the rest of its memory, copied along
	// with the table (whose length is known only once decoded), is small.
	// The first parse makes the instance that parses.
	inst, err := g.instantiate(0)
	if err != nil {
		return nil, err
	}
	names, err := g.call(inst, "loupe_names")
	if err != nil {
		return nil, fmt.Errorf("jshost: %s: loupe_names %w", name, err)
	}
	ptr := names.Int()
	if ptr == 0 {
		return nil, host.ErrOutOfMemory
	}
	size := inst.size()
	buf := make([]byte, size-ptr)
	js.CopyBytesToGo(buf, uint8Array.New(inst.mem.Get("buffer"), ptr, size-ptr))
	if g.names, err = host.DecodeNames(buf); err != nil {
		return nil, fmt.Errorf("jshost: %s: %w", name, err)
	}
	e.grammars[name] = g
	return g, nil
}

// await blocks until the promise p settles and returns its rejection as
// an error, or ctx's error if ctx ends first (the promise's callbacks then
// release themselves when it settles).
func await(ctx context.Context, p js.Value) error {
	done := make(chan error, 1)
	var onResolve, onReject js.Func
	settle := func(err error) {
		onResolve.Release()
		onReject.Release()
		done <- err
	}
	onResolve = js.FuncOf(func(js.Value, []js.Value) any {
		settle(nil)
		return nil
	})
	onReject = js.FuncOf(func(_ js.Value, args []js.Value) any {
		reason := "rejected"
		if len(args) > 0 {
			reason = js.Global().Get("String").Invoke(args[0]).String()
		}
		settle(fmt.Errorf("%s", reason))
		return nil
	})
	js.Global().Get("Promise").Call("resolve", p).Call("then", onResolve, onReject)
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close drops every instance; the JS garbage collector frees them.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	clear(e.grammars)
	return nil
}

type grammar struct {
	name      string
	loader    js.Value
	parseTime time.Duration
	names     *host.Names

	mu   sync.Mutex
	inst *instance // nil once dropped; the next parse makes another
}

// instance is one instantiation of a grammar module.
type instance struct {
	exports js.Value
	mem     js.Value
	fuel    js.Value // a metered module's fuel global, else undefined
}

// size is the instance's memory size in bytes.
func (in *instance) size() int { return in.mem.Get("buffer").Get("byteLength").Int() }

// refuel gives a metered instance the fuel of a call that parses size
// bytes (0 for any other call) within limit.
func (in *instance) refuel(limit time.Duration, size int) {
	if !in.fuel.IsUndefined() {
		in.fuel.Set("value", bigInt.Invoke(host.ParseFuel(limit, size)))
	}
}

// outOfFuel reports whether a metered instance spent its fuel: its last
// call trapped there.
func (in *instance) outOfFuel() bool {
	return !in.fuel.IsUndefined() && number.Invoke(in.fuel.Get("value")).Float() < 0
}

// call calls an export of a module's instance with the fuel of a call
// that parses nothing, turning a trap into an error: one over the fuel's
// limit wraps host.ErrTimeLimit.
func (g *grammar) call(in *instance, fn string) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil { // a JS exception surfaces as a panic of js.Error
			if in.outOfFuel() {
				err = fmt.Errorf("did not return within its limit of %d units of fuel (the work of at most %v): %w", host.ParseFuel(g.parseTime, 0), g.parseTime, host.ErrTimeLimit)
			} else {
				err = fmt.Errorf("failed: %v", r)
			}
		}
	}()
	in.refuel(g.parseTime, 0)
	return in.exports.Call(fn), nil
}

func (g *grammar) Names() *host.Names { return g.names }

var (
	uint8Array = js.Global().Get("Uint8Array")
	bigInt     = js.Global().Get("BigInt")
	number     = js.Global().Get("Number")
)

// instantiate makes an instance whose allocator starts with about heap
// bytes of memory. The memory is grown before the module's start function
// runs; if the engine refuses (a 32-bit browser, say), the instance starts
// small and grows as it goes, slower but the same.
func (g *grammar) instantiate(heap int) (in *instance, err error) {
	defer func() {
		if r := recover(); r != nil { // a JS exception surfaces as a panic of js.Error
			in, err = nil, fmt.Errorf("jshost: instantiate %s: %v", g.name, r)
		}
	}()
	exports := g.loader.Call("instantiate", g.name).Get("exports")
	for _, fn := range append([]string{"memory"}, host.Exports...) {
		if exports.Get(fn).IsUndefined() {
			return nil, fmt.Errorf("jshost: %s lacks export %s: %w", g.name, fn, host.ErrBadModule)
		}
	}
	in = &instance{exports: exports, mem: exports.Get("memory"), fuel: exports.Get(host.FuelExport)}
	if pages := min((heap+pageSize-1)/pageSize, maxPages) - in.size()/pageSize; pages > 0 {
		grow(in.mem, pages)
	}
	if !exports.Get("_initialize").IsUndefined() {
		if _, err := g.call(in, "_initialize"); err != nil {
			return nil, fmt.Errorf("jshost: %s: _initialize %w", g.name, err)
		}
	}
	rc, err := g.call(in, "loupe_init")
	if err != nil {
		return nil, fmt.Errorf("jshost: %s: loupe_init %w", g.name, err)
	}
	if rc.Int() != 0 {
		return nil, fmt.Errorf("jshost: %s: loupe_init: %w", g.name, host.ErrBadModule)
	}
	return in, nil
}

// grow grows mem by pages, leaving it as it was if the engine refuses.
func grow(mem js.Value, pages int) {
	defer func() { _ = recover() }() // a RangeError: no memory that large here
	mem.Call("grow", pages)
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
	heap := max(heapBytes, heapPerByte*len(src))
	if g.inst != nil && g.inst.size() < heap {
		g.inst = nil
	}
	if g.inst == nil {
		if g.inst, err = g.instantiate(heap); err != nil {
			return nil, err
		}
	}
	in := g.inst
	defer func() {
		if r := recover(); r != nil {
			nodes, err = nil, fmt.Errorf("jshost: %s: parse: %v", g.name, r)
			if in.outOfFuel() { // the trap was the fuel's
				err = fmt.Errorf("jshost: %s: parse stopped at its limit of %d units of fuel (for a %d-byte source, the work of at most %v): %w",
					g.name, host.ParseFuel(g.parseTime, len(src)), len(src), g.parseTime, host.ErrTimeLimit)
			}
		}
		// A failed instance may be in any state, and a grown one holds
		// its memory for good: the next parse gets a new one.
		if g.inst != nil && (err != nil || g.inst.size() > heapBytes) {
			g.inst = nil
		}
	}()
	in.refuel(g.parseTime, len(src)) // for loupe_input, loupe_parse and loupe_output
	ptr := in.exports.Call("loupe_input", len(src)).Int()
	if ptr == 0 {
		return nil, host.ErrOutOfMemory
	}
	if len(src) > 0 {
		// Read the buffer after loupe_input: growing memory replaces it.
		js.CopyBytesToJS(uint8Array.New(in.mem.Get("buffer"), ptr, len(src)), src)
	}
	count := in.exports.Call("loupe_parse", len(src)).Int()
	if count < 0 {
		return nil, host.CodeError(int32(count))
	}
	optr := in.exports.Call("loupe_output").Int()
	nodes = make([]host.Node, count)
	if count > 0 {
		dst := unsafe.Slice((*byte)(unsafe.Pointer(&nodes[0])), count*host.NodeSize)
		js.CopyBytesToGo(dst, uint8Array.New(in.mem.Get("buffer"), optr, count*host.NodeSize))
	}
	return nodes, nil
}
