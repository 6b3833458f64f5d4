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
	"time"

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
	// RecycleBytes retires an instance whose linear memory holds more than
	// this after a parse, since wasm memory never shrinks (default 8 MiB).
	// Where the memory is an mmap reservation on Linux, what counts is the
	// part actually in RAM (the module reserves heap it may never touch);
	// elsewhere it is the memory's size. A retired instance gives its
	// memory back to the OS, all but the parse's output, before that
	// output is copied out, so a big parse's peak is its module memory or
	// its output twice, not both.
	RecycleBytes uint64
	// Sandbox runs the modules as untrusted code, as custom languages'
	// modules run: a parse (and a module's start) is stopped when it
	// takes longer than ParseTime, even inside a loop of the module's own
	// (wazero checks the context at every call and loop, which makes
	// parsing slower), and a module's memory is at most MemoryLimit.
	// Every module, sandboxed or not, must import nothing and export the
	// glue's functions with their signatures (host.Exports).
	Sandbox bool
	// MemoryLimit bounds a module's linear memory in bytes, rounded down
	// to 64 KiB pages (default 4 GiB, all a wasm32 module can address;
	// under Sandbox, SandboxMemory).
	MemoryLimit uint64
	// ParseTime bounds each parse under Sandbox (default SandboxParseTime).
	ParseTime time.Duration
}

// Limits of a sandboxed module by default.
const (
	SandboxMemory    = 1 << 30
	SandboxParseTime = 30 * time.Second
)

// Engine is a host.Engine backed by one wazero runtime.
type Engine struct {
	cfg   Config
	rt    wazero.Runtime
	cache wazero.CompilationCache

	mu       sync.Mutex
	grammars map[string]*loading
}

// loading is one language's compilation, shared by every Load of it.
type loading struct {
	done chan struct{} // closed when g or err is set
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
		cfg.RecycleBytes = 8 << 20
	}
	if cfg.MemoryLimit == 0 {
		cfg.MemoryLimit = 1 << 32
		if cfg.Sandbox {
			cfg.MemoryLimit = SandboxMemory
		}
	}
	if cfg.ParseTime <= 0 {
		cfg.ParseTime = SandboxParseTime
	}
	pages := min(cfg.MemoryLimit>>16, 65536)
	if pages == 0 {
		return nil, fmt.Errorf("wazhost: a memory limit of %d bytes is less than one page", cfg.MemoryLimit)
	}
	// Closing a module when its context is done makes wazero check the
	// context at every call and loop, which made parsing 2-3x slower.
	// Where the module's memory is ours, a parse is stopped through its
	// cancel flag instead (see instance.parse); a sandboxed module, which
	// may ignore its flag, is closed.
	rc := wazero.NewRuntimeConfigCompiler().
		WithCloseOnContextDone(cfg.Sandbox || !memoryInModule).
		WithMemoryLimitPages(uint32(pages))
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

// Load compiles wasm once under name and returns its Grammar. The
// compilation runs to its end even when ctx is done first (Load then
// returns ctx's error promptly), so a cancelled caller never leaves the
// language broken for the next one. A module that is not a loupe grammar
// module fails with an error wrapping host.ErrBadModule.
func (e *Engine) Load(ctx context.Context, name string, wasm []byte) (host.Grammar, error) {
	e.mu.Lock()
	l := e.grammars[name]
	if l == nil {
		l = &loading{done: make(chan struct{})}
		e.grammars[name] = l
		go func() {
			defer close(l.done)
			l.g, l.err = e.compile(context.WithoutCancel(ctx), name, wasm)
		}()
	}
	e.mu.Unlock()
	select {
	case <-l.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("wazhost: load %s: %w", name, ctx.Err())
	}
	if l.err != nil {
		return nil, l.err
	}
	return l.g, nil
}

func (e *Engine) compile(ctx context.Context, name string, wasm []byte) (*grammar, error) {
	mod, err := e.rt.CompileModule(ctx, wasm)
	if err != nil {
		return nil, fmt.Errorf("wazhost: compile %s: %w: %w", name, host.ErrBadModule, err)
	}
	if err := checkABI(mod); err != nil {
		_ = mod.Close(ctx)
		return nil, fmt.Errorf("wazhost: %s: %w: %w", name, err, host.ErrBadModule)
	}
	g := &grammar{engine: e, name: name, mod: mod}
	inst, err := g.instantiate(ctx)
	if err != nil {
		_ = mod.Close(ctx)
		return nil, err
	}
	nctx := ctx
	if e.cfg.Sandbox {
		var cancel context.CancelFunc
		nctx, cancel = context.WithTimeoutCause(ctx, e.cfg.ParseTime, host.ErrTimeLimit)
		defer cancel()
	}
	if g.names, err = inst.readNames(nctx); err != nil {
		if errors.Is(context.Cause(nctx), host.ErrTimeLimit) {
			err = fmt.Errorf("loupe_names did not return within %v: %w", e.cfg.ParseTime, host.ErrTimeLimit)
		}
		inst.close(ctx)
		_ = mod.Close(ctx)
		return nil, fmt.Errorf("wazhost: %s: name table: %w: %w", name, host.ErrBadModule, err)
	}
	g.put(ctx, inst)
	return g, nil
}

// checkABI checks that a compiled module imports nothing (no file
// system, clock or network: nothing at all) and exports the glue's
// functions with their signatures.
func checkABI(mod wazero.CompiledModule) error {
	for _, f := range mod.ImportedFunctions() {
		mod, name, _ := f.Import()
		return fmt.Errorf("imports function %s.%s, and a grammar module may import nothing", mod, name)
	}
	for _, m := range mod.ImportedMemories() {
		mod, name, _ := m.Import()
		return fmt.Errorf("imports memory %s.%s, and a grammar module may import nothing", mod, name)
	}
	if len(mod.ExportedMemories()) == 0 {
		return errors.New("exports no memory")
	}
	fns := mod.ExportedFunctions()
	for _, fn := range host.Exports {
		d, ok := fns[fn]
		if !ok {
			return fmt.Errorf("lacks export %s", fn)
		}
		params := 0
		if fn == "loupe_input" || fn == "loupe_parse" {
			params = 1
		}
		if !allI32(d.ParamTypes(), params) || !allI32(d.ResultTypes(), 1) {
			return fmt.Errorf("export %s has the wrong signature (%d parameters, %d results)", fn, len(d.ParamTypes()), len(d.ResultTypes()))
		}
	}
	return nil
}

// allI32 reports whether ts is n i32s.
func allI32(ts []api.ValueType, n int) bool {
	if len(ts) != n {
		return false
	}
	for _, t := range ts {
		if t != api.ValueTypeI32 {
			return false
		}
	}
	return true
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
		return nil, fmt.Errorf("wazhost: %s: parse not started: %w", g.name, err)
	}
	inst, err := g.get(ctx)
	if err != nil {
		return nil, err
	}
	pctx := ctx
	if g.engine.cfg.Sandbox {
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeoutCause(ctx, g.engine.cfg.ParseTime, host.ErrTimeLimit)
		defer cancel()
	}
	nodes, err := inst.parse(pctx, src, g.engine.cfg.RecycleBytes)
	if err != nil {
		// The instance may be closed (cancellation) or its state unknown.
		inst.close(context.Background())
		if cerr := ctx.Err(); cerr != nil {
			return nil, fmt.Errorf("wazhost: %s: parse stopped: %w", g.name, cerr)
		}
		if errors.Is(context.Cause(pctx), host.ErrTimeLimit) {
			return nil, fmt.Errorf("wazhost: %s: parse stopped after %v: %w", g.name, g.engine.cfg.ParseTime, host.ErrTimeLimit)
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
	if inst.tainted || inst.retire || uint64(inst.mem.Size()) > g.engine.cfg.RecycleBytes && inst.lin == nil {
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
	ictx := context.WithoutCancel(ctx)
	var lin *mmapMemory
	if g.engine.cfg.Sandbox {
		// A sandboxed module's start must end in time too. Its memory
		// stays wazero's: it is stopped by closing, not by its flag.
		var cancel context.CancelFunc
		ictx, cancel = context.WithTimeoutCause(ictx, g.engine.cfg.ParseTime, host.ErrTimeLimit)
		defer cancel()
	} else if a := allocatorInto(&lin); a != nil {
		ictx = experimental.WithMemoryAllocator(ictx, a)
	}
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize")
	m, err := g.engine.rt.InstantiateModule(ictx, g.mod, cfg)
	if err != nil {
		if errors.Is(context.Cause(ictx), host.ErrTimeLimit) {
			err = fmt.Errorf("did not start within %v: %w", g.engine.cfg.ParseTime, host.ErrTimeLimit)
		}
		return nil, fmt.Errorf("wazhost: instantiate %s: %w", g.name, err)
	}
	inst := &instance{mod: m, mem: m.Memory(), lin: lin}
	inst.init = m.ExportedFunction("loupe_init")
	inst.names = m.ExportedFunction("loupe_names")
	inst.input = m.ExportedFunction("loupe_input")
	inst.parseFn = m.ExportedFunction("loupe_parse")
	inst.output = m.ExportedFunction("loupe_output")
	if inst.mem == nil {
		inst.close(ctx)
		return nil, fmt.Errorf("wazhost: %s exports no memory: %w", g.name, host.ErrBadModule)
	}
	if rc, err := inst.call(ictx, inst.init); err != nil || int32(rc) != 0 {
		inst.close(ctx)
		if errors.Is(context.Cause(ictx), host.ErrTimeLimit) {
			err = fmt.Errorf("did not return within %v: %w", g.engine.cfg.ParseTime, host.ErrTimeLimit)
		}
		return nil, fmt.Errorf("wazhost: %s: loupe_init: %w", g.name, errors.Join(err, host.ErrBadModule))
	}
	if lin != nil {
		ptr, err := inst.call(ictx, m.ExportedFunction("loupe_cancel_flag"))
		if err != nil || ptr == 0 || ptr%4 != 0 || !lin.setWord(uint32(ptr), 0) {
			inst.close(ctx)
			return nil, fmt.Errorf("wazhost: %s: loupe_cancel_flag: %w", g.name, errors.Join(err, host.ErrBadModule))
		}
		inst.flag = uint32(ptr)
	}
	return inst, nil
}

// instance is one instantiated module; it serves one parse at a time.
type instance struct {
	mod                                 api.Module
	mem                                 api.Memory
	init, names, input, parseFn, output api.Function
	stack                               [2]uint64
	// lin is the instance's linear memory when it is ours, and flag the
	// offset of the module's cancel flag in it.
	lin  *mmapMemory
	flag uint32
	// tainted marks an instance that must not be reused: a cancellation
	// may still be about to set its flag.
	tainted bool
	// retire marks an instance whose memory passed RecycleBytes and was
	// released (see instance.parse).
	retire bool
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

// parse parses src. When the instance's memory then holds more than
// recycle bytes, it is marked to retire and all of its memory but the
// output is released before the output is copied.
func (i *instance) parse(ctx context.Context, src []byte, recycle uint64) ([]host.Node, error) {
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
	if i.lin != nil {
		i.lin.setWord(i.flag, 0)
		flagged := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			defer close(flagged)
			i.lin.setWord(i.flag, 1)
		})
		defer func() {
			if !stop() {
				// The flag is being set: wait for the write to finish,
				// since the instance may be closed (its memory unmapped)
				// as soon as this returns.
				<-flagged
				i.tainted = true
			}
		}()
	}
	rc, err := i.call(ctx, i.parseFn, n)
	if err != nil {
		return nil, err
	}
	count := int32(rc)
	if count == host.CodeCancelled {
		return nil, ctx.Err()
	}
	if count < 0 {
		return nil, host.CodeError(count)
	}
	optr, err := i.call(ctx, i.output)
	if err != nil {
		return nil, err
	}
	size := uint64(count) * host.NodeSize
	if size > uint64(i.mem.Size()) {
		return nil, fmt.Errorf("%d nodes do not fit the module's memory: %w", count, host.ErrBadModule)
	}
	buf, ok := i.mem.Read(uint32(optr), uint32(size))
	if !ok {
		return nil, fmt.Errorf("node array out of the module's memory: %w", host.ErrBadModule)
	}
	if i.lin != nil && i.lin.resident() > recycle {
		// This instance will not parse again: drop the rest of its memory
		// (the parser's tree, the input) before copying the output.
		i.retire = true
		i.lin.releaseExcept(optr, optr+size)
	}
	return host.DecodeNodes(buf, int(count))
}

func (i *instance) close(ctx context.Context) {
	_ = i.mod.Close(ctx) // closing a module only releases memory
}
