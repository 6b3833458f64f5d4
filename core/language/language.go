// Package language ties an embedded grammar (package grammars) to a host
// engine and turns source bytes into a tree.Tree. Each language's module is
// loaded on first use, once per process.
package language

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/host"
)

// Language is one supported language. Values are shared and safe for
// concurrent use.
type Language struct {
	info    grammars.Language
	expando rune
	custom  *customModule // nil for a built-in language

	state atomic.Pointer[loaded] // set once the grammar is loaded
	mu    sync.Mutex
	err   error // a permanent load failure
}

// loaded is a language's grammar and the indexes built from its names,
// or the indexes alone when the names came from the name store (see
// SetNameStore) and the module was not needed yet.
type loaded struct {
	grammar host.Grammar // nil: the names alone
	names   *host.Names
	kinds   map[string][]uint16 // kind name -> symbol ids (named ones first)
	fields  map[string]uint16
}

var (
	regOnce  sync.Once
	registry []*Language
	regErr   error

	engineMu sync.Mutex
	engine   host.Engine
)

func loadRegistry() {
	m, err := grammars.All()
	if err != nil {
		regErr = err
		return
	}
	for _, info := range m.Languages {
		r, _ := utf8.DecodeRuneInString(info.Expando)
		registry = append(registry, &Language{info: info, expando: r})
	}
}

// All returns every supported language: the built-in ones sorted by
// name, then the registered custom ones (RegisterCustom).
func All() []*Language {
	regOnce.Do(loadRegistry)
	if cs := customLanguages(); len(cs) > 0 {
		return append(append([]*Language(nil), registry...), cs...)
	}
	return registry
}

// Names returns the canonical names of every supported language.
func Names() []string {
	var out []string
	for _, l := range All() {
		out = append(out, l.info.Name)
	}
	sort.Strings(out)
	return out
}

// Lookup finds a language by name or alias, ignoring case: a registered
// custom language, else a built-in one. The error lists the supported
// names.
func Lookup(name string) (*Language, error) {
	regOnce.Do(loadRegistry)
	if regErr != nil {
		return nil, regErr
	}
	if l := lookupCustom(strings.TrimSpace(name)); l != nil {
		return l, nil
	}
	info, ok := grammars.Lookup(strings.TrimSpace(name))
	if ok {
		for _, l := range registry {
			if l.info.Name == info.Name {
				return l, nil
			}
		}
	}
	return nil, fmt.Errorf("unsupported language %q (supported: %s)", name, strings.Join(Names(), ", "))
}

// ForPath returns the language of a file by its extension: a registered
// custom language's, else a built-in one's.
func ForPath(path string) (*Language, bool) {
	if l := customForPath(path); l != nil {
		return l, true
	}
	info, ok := grammars.ForPath(path)
	if !ok {
		return nil, false
	}
	l, err := Lookup(info.Name)
	return l, err == nil
}

// SetEngine replaces the host engine used to load grammar modules. It must
// be called before any language is used; by default the platform's engine
// (wazero natively, the JS engine under GOOS=js) is created on first use.
func SetEngine(e host.Engine) {
	engineMu.Lock()
	defer engineMu.Unlock()
	engine = e
}

func currentEngine(ctx context.Context) (host.Engine, error) {
	engineMu.Lock()
	defer engineMu.Unlock()
	if engine == nil {
		e, err := defaultEngine(ctx)
		if err != nil {
			return nil, err
		}
		engine = e
	}
	return engine, nil
}

// Name returns the canonical lower-case name, e.g. "typescript".
func (l *Language) Name() string { return l.info.Name }

// Display returns ast-grep's name for the language, e.g. "TypeScript".
func (l *Language) Display() string { return l.info.Display }

// Extensions returns the file extensions (without dot) of the language.
func (l *Language) Extensions() []string { return l.info.Extensions }

// Expando returns the character that replaces $ in patterns before parsing
// ('$' itself where the grammar accepts $ in identifiers).
func (l *Language) Expando() rune { return l.expando }

// Info returns the manifest entry of the language.
func (l *Language) Info() grammars.Language { return l.info }

// load loads the grammar module on first use. A failure caused by ctx
// (cancellation, deadline) is returned but not remembered, so the next
// caller tries again; any other failure is permanent.
func (l *Language) load(ctx context.Context) (*loaded, error) {
	if s := l.state.Load(); s != nil && s.grammar != nil {
		return s, nil
	}
	l.mu.Lock()
	err := l.err
	l.mu.Unlock()
	if err != nil {
		return nil, err
	}
	g, err := l.loadModule(ctx)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, err
		}
		l.mu.Lock()
		l.err = err
		l.mu.Unlock()
		return nil, err
	}
	s := indexNames(g.Names())
	s.grammar = g
	if ns := currentNameStore(); ns != nil && l.custom == nil {
		// For the processes after this one; a table that cannot be saved
		// costs them a module load, not this one anything.
		if _, ok := ns.LoadNames(l.info.SHA256); !ok {
			_ = ns.SaveNames(l.info.SHA256, s.names)
		}
	}
	// Concurrent first callers may all get here; the engine hands them the
	// same grammar, so whichever index is kept is equivalent. A state of
	// names alone is replaced.
	for {
		old := l.state.Load()
		if old != nil && old.grammar != nil {
			return old, nil
		}
		if l.state.CompareAndSwap(old, s) {
			return s, nil
		}
	}
}

// index returns the language's names and their indexes: the loaded
// grammar's, else a built-in language's from the name store, else those
// of the grammar it loads.
func (l *Language) index(ctx context.Context) (*loaded, error) {
	if s := l.state.Load(); s != nil {
		return s, nil
	}
	if ns := currentNameStore(); ns != nil && l.custom == nil {
		if names, ok := ns.LoadNames(l.info.SHA256); ok {
			l.state.CompareAndSwap(nil, indexNames(names))
			return l.state.Load(), nil
		}
	}
	return l.load(ctx)
}

// indexNames returns the indexes of a grammar's names.
func indexNames(names *host.Names) *loaded {
	s := &loaded{names: names, kinds: map[string][]uint16{}, fields: map[string]uint16{}}
	for id, name := range names.Symbols {
		if !names.Visible[id] {
			continue
		}
		if names.Named[id] {
			s.kinds[name] = append([]uint16{uint16(id)}, s.kinds[name]...)
		} else {
			s.kinds[name] = append(s.kinds[name], uint16(id))
		}
	}
	for id, f := range names.Fields {
		if id > 0 {
			s.fields[f] = uint16(id)
		}
	}
	return s
}

// loadModule loads the language's module on its engine: a built-in one
// on the engine, a custom one on the sandbox.
func (l *Language) loadModule(ctx context.Context) (host.Grammar, error) {
	if l.custom != nil {
		return l.loadCustom(ctx)
	}
	e, err := currentEngine(ctx)
	if err != nil {
		return nil, err
	}
	wasm, err := l.info.Wasm()
	if err != nil {
		return nil, err
	}
	g, err := e.Load(ctx, l.info.Name, wasm)
	if err != nil {
		return nil, fmt.Errorf("language %s: %w", l.info.Name, err)
	}
	return g, nil
}

// label names the language in errors: a custom language with its
// module's file.
func (l *Language) label() string {
	if l.custom != nil {
		return l.info.Name + " (" + l.custom.path + ")"
	}
	return l.info.Name
}

// Parse parses src into a tree. ctx cancels a parse in progress. A
// source reckoned to need more memory than a grammar module can use
// (MaxParseMemory) is refused at once with an error wrapping
// host.ErrTooLarge, and a parse waits while those in progress hold
// ParseMemory.
func (l *Language) Parse(ctx context.Context, src []byte) (*tree.Tree, error) {
	nodes, names, err := l.parseNodes(ctx, src)
	if err != nil {
		return nil, err
	}
	t, err := tree.New(src, nodes, names)
	if err != nil {
		return nil, fmt.Errorf("language %s: %w", l.info.Name, err)
	}
	return t, nil
}

// HasKind reports whether kind is a node type of the language's grammar.
func (l *Language) HasKind(ctx context.Context, kind string) (bool, error) {
	s, err := l.index(ctx)
	if err != nil {
		return false, err
	}
	_, ok := s.kinds[kind]
	return ok, nil
}

// KindIDs returns the symbol ids that carry the given node type name.
func (l *Language) KindIDs(ctx context.Context, kind string) ([]uint16, error) {
	s, err := l.index(ctx)
	if err != nil {
		return nil, err
	}
	return s.kinds[kind], nil
}

// HasField reports whether field is a field name of the language's grammar.
func (l *Language) HasField(ctx context.Context, field string) (bool, error) {
	s, err := l.index(ctx)
	if err != nil {
		return false, err
	}
	_, ok := s.fields[field]
	return ok, nil
}
