// Package wazhost runs loupe's grammar modules natively with wazero, without
// cgo. Each language is compiled once per process (optionally through an
// on-disk compilation cache), and parses run on pooled instances, one per
// concurrent caller.
package wazhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/loupe-dev/loupe/host"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// Config tunes an Engine. The zero value is ready to use.
type Config struct {
	// CacheDir holds compiled modules across processes. Empty means the user
	// cache dir (os.UserCacheDir()/loupe/wazero); set NoCache to disable.
	CacheDir string
	// NoCache turns the on-disk compilation cache off.
	NoCache bool
	// MaxIdle bounds the idle instances kept per language (default GOMAXPROCS).
	MaxIdle int
	// RecycleBytes retires an instance whose linear memory grew past this
	// after a parse, since wasm memory never shrinks (default 256 MiB).
	RecycleBytes uint64
}

// Engine is a host.Engine backed by one wazero runtime.
type Engine struct {
	cfg   Config
	rt    wazero.Runtime
	cache wazero.CompilationCache

	mu       sync.Mutex
	grammars map[string]*loading
}

type loading struct {
	once sync.Once
	g    *grammar
	err  error
}

var _ host.Engine = (*Engine)(nil)

// New creates an Engine. It compiles nothing until a language is loaded.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	if cfg.MaxIdle <= 0 {
		cfg.MaxIdle = runtime.GOMAXPROCS(0)
	}
	if cfg.RecycleBytes == 0 {
		cfg.RecycleBytes = 256 << 20
	}
	rc := wazero.NewRuntimeConfigCompiler().
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(65536)
	e := &Engine{cfg: cfg, grammars: map[string]*loading{}}
	if !cfg.NoCache {
		dir := cfg.CacheDir
		if dir == "" {
			if base, err := os.UserCacheDir(); err == nil {
				dir = filepath.Join(base, "loupe", "wazero")
			}
		}
		if dir != "" {
			if c, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
				e.cache = c
				rc = rc.WithCompilationCache(c)
			}
			// An unusable cache dir only costs compile time; parsing still works.
		}
	}
	e.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	return e, nil
}

// Close releases the runtime, every compiled module and every instance.
func (e *Engine) Close(ctx context.Context) error {
	err := e.rt.Close(ctx)
	if e.cache != nil {
		err = errors.Join(err, e.cache.Close(ctx))
	}
	return err
}

// Load compiles wasm once under name and returns its Grammar.
func (e *Engine) Load(ctx context.Context, name string, wasm []byte) (host.Grammar, error) {
	e.mu.Lock()
	l := e.grammars[name]
	if l == nil {
		l = &loading{}
		e.grammars[name] = l
	}
	e.mu.Unlock()
	l.once.Do(func() { l.g, l.err = e.compile(ctx, name, wasm) })
	if l.err != nil {
		return nil, l.err
	}
	return l.g, nil
}

func (e *Engine) compile(ctx context.Context, name string, wasm []byte) (*grammar, error) {
	mod, err := e.rt.CompileModule(ctx, wasm)
	if err != nil {
		return nil, fmt.Errorf("wazhost: compile %s: %w", name, err)
	}
	for _, fn := range []string{"loupe_init", "loupe_names", "loupe_input", "loupe_parse", "loupe_output", "loupe_reset"} {
		if _, ok := mod.ExportedFunctions()[fn]; !ok {
			return nil, fmt.Errorf("wazhost: %s lacks export %s: %w", name, fn, host.ErrBadModule)
		}
	}
	g := &grammar{engine: e, name: name, mod: mod}
	inst, err := g.instantiate(ctx)
	if err != nil {
		return nil, err
	}
	defer g.put(ctx, inst)
	if g.names, err = inst.readNames(ctx); err != nil {
		return nil, fmt.Errorf("wazhost: %s: %w", name, err)
	}
	return g, nil
}

// grammar is one compiled language and its pool of idle instances.
type grammar struct {
	engine *Engine
	name   string
	mod    wazero.CompiledModule
	names  *host.Names

	mu   sync.Mutex
	idle []*instance
}

func (g *grammar) Names() *host.Names { return g.names }

// Parse runs one parse on an idle (or new) instance.
func (g *grammar) Parse(ctx context.Context, src []byte) ([]host.Node, error) {
	if len(src) > host.MaxInput {
		return nil, fmt.Errorf("wazhost: %s: %d bytes: %w", g.name, len(src), host.ErrTooLarge)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inst, err := g.get(ctx)
	if err != nil {
		return nil, err
	}
	nodes, err := inst.parse(ctx, src)
	if err != nil {
		// The instance may be closed (cancellation) or its state unknown.
		inst.close(context.Background())
		if cerr := ctx.Err(); cerr != nil {
			return nil, fmt.Errorf("wazhost: %s: parse stopped: %w", g.name, cerr)
		}
		return nil, fmt.Errorf("wazhost: %s: %w", g.name, err)
	}
	g.put(ctx, inst)
	return nodes, nil
}

func (g *grammar) get(ctx context.Context) (*instance, error) {
	g.mu.Lock()
	if n := len(g.idle); n > 0 {
		inst := g.idle[n-1]
		g.idle = g.idle[:n-1]
		g.mu.Unlock()
		return inst, nil
	}
	g.mu.Unlock()
	return g.instantiate(ctx)
}

func (g *grammar) put(ctx context.Context, inst *instance) {
	if uint64(inst.mem.Size()) > g.engine.cfg.RecycleBytes {
		inst.close(ctx)
		return
	}
	g.mu.Lock()
	if len(g.idle) < g.engine.cfg.MaxIdle {
		g.idle = append(g.idle, inst)
		inst = nil
	}
	g.mu.Unlock()
	if inst != nil {
		inst.close(ctx)
	}
}

func (g *grammar) instantiate(ctx context.Context) (*instance, error) {
	// Instantiation must not be tied to a caller's deadline: the instance
	// outlives this call in the pool.
	ictx := withAllocator(context.WithoutCancel(ctx))
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize")
	m, err := g.engine.rt.InstantiateModule(ictx, g.mod, cfg)
	if err != nil {
		return nil, fmt.Errorf("wazhost: instantiate %s: %w", g.name, err)
	}
	inst := &instance{mod: m, mem: m.Memory()}
	inst.init = m.ExportedFunction("loupe_init")
	inst.names = m.ExportedFunction("loupe_names")
	inst.input = m.ExportedFunction("loupe_input")
	inst.parseFn = m.ExportedFunction("loupe_parse")
	inst.output = m.ExportedFunction("loupe_output")
	if inst.mem == nil {
		inst.close(ctx)
		return nil, fmt.Errorf("wazhost: %s exports no memory: %w", g.name, host.ErrBadModule)
	}
	if rc, err := inst.call(ctx, inst.init); err != nil || int32(rc) != 0 {
		inst.close(ctx)
		return nil, fmt.Errorf("wazhost: %s: loupe_init: %w", g.name, errors.Join(err, host.ErrBadModule))
	}
	return inst, nil
}

// instance is one instantiated module; it serves one parse at a time.
type instance struct {
	mod                                 api.Module
	mem                                 api.Memory
	init, names, input, parseFn, output api.Function
	stack                               [2]uint64
}

func (i *instance) call(ctx context.Context, fn api.Function, args ...uint64) (uint64, error) {
	copy(i.stack[:], args)
	if err := fn.CallWithStack(ctx, i.stack[:]); err != nil {
		return 0, err
	}
	return i.stack[0], nil
}

func (i *instance) readNames(ctx context.Context) (*host.Names, error) {
	ptr, err := i.call(ctx, i.names)
	if err != nil {
		return nil, err
	}
	if ptr == 0 {
		return nil, host.ErrOutOfMemory
	}
	buf, ok := i.mem.Read(uint32(ptr), i.mem.Size()-uint32(ptr))
	if !ok {
		return nil, host.ErrBadModule
	}
	return host.DecodeNames(buf)
}

func (i *instance) parse(ctx context.Context, src []byte) ([]host.Node, error) {
	n := uint64(len(src))
	ptr, err := i.call(ctx, i.input, n)
	if err != nil {
		return nil, err
	}
	if ptr == 0 {
		return nil, host.ErrOutOfMemory
	}
	if !i.mem.Write(uint32(ptr), src) {
		return nil, host.ErrOutOfMemory
	}
	rc, err := i.call(ctx, i.parseFn, n)
	if err != nil {
		return nil, err
	}
	count := int32(rc)
	if count < 0 {
		return nil, host.CodeError(count)
	}
	optr, err := i.call(ctx, i.output)
	if err != nil {
		return nil, err
	}
	buf, ok := i.mem.Read(uint32(optr), uint32(count)*host.NodeSize)
	if !ok {
		return nil, host.ErrBadModule
	}
	return host.DecodeNodes(buf, int(count))
}

func (i *instance) close(ctx context.Context) {
	_ = i.mod.Close(ctx) // closing a module only releases memory
}

// withAllocator installs the platform's linear-memory allocator, if any.
func withAllocator(ctx context.Context) context.Context {
	if a := memoryAllocator(); a != nil {
		return experimental.WithMemoryAllocator(ctx, a)
	}
	return ctx
}
