// Package language ties an embedded grammar (package grammars) to a host
// engine and turns source bytes into a tree.Tree. Each language's module is
// loaded on first use, once per process.
package language

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
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

	once    sync.Once
	grammar host.Grammar
	kinds   map[string][]uint16 // kind name -> symbol ids (named ones first)
	fields  map[string]uint16
	err     error
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

// All returns every supported language, sorted by name.
func All() []*Language {
	regOnce.Do(loadRegistry)
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

// Lookup finds a language by name or alias, ignoring case. The error lists
// the supported names.
func Lookup(name string) (*Language, error) {
	regOnce.Do(loadRegistry)
	if regErr != nil {
		return nil, regErr
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

// ForPath returns the language of a file by its extension.
func ForPath(path string) (*Language, bool) {
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

func (l *Language) load(ctx context.Context) error {
	l.once.Do(func() {
		e, err := currentEngine(ctx)
		if err != nil {
			l.err = err
			return
		}
		wasm, err := l.info.Wasm()
		if err != nil {
			l.err = err
			return
		}
		g, err := e.Load(ctx, l.info.Name, wasm)
		if err != nil {
			l.err = fmt.Errorf("language %s: %w", l.info.Name, err)
			return
		}
		names := g.Names()
		l.kinds = map[string][]uint16{}
		for id, s := range names.Symbols {
			if !names.Visible[id] {
				continue
			}
			if names.Named[id] {
				l.kinds[s] = append([]uint16{uint16(id)}, l.kinds[s]...)
			} else {
				l.kinds[s] = append(l.kinds[s], uint16(id))
			}
		}
		l.fields = map[string]uint16{}
		for id, f := range names.Fields {
			if id > 0 {
				l.fields[f] = uint16(id)
			}
		}
		l.grammar = g
	})
	return l.err
}

// Parse parses src into a tree. ctx cancels a parse in progress.
func (l *Language) Parse(ctx context.Context, src []byte) (*tree.Tree, error) {
	if err := l.load(ctx); err != nil {
		return nil, err
	}
	nodes, err := l.grammar.Parse(ctx, src)
	if err != nil {
		return nil, err
	}
	return tree.New(src, nodes, l.grammar.Names())
}

// HasKind reports whether kind is a node type of the language's grammar.
func (l *Language) HasKind(ctx context.Context, kind string) (bool, error) {
	if err := l.load(ctx); err != nil {
		return false, err
	}
	_, ok := l.kinds[kind]
	return ok, nil
}

// KindIDs returns the symbol ids that carry the given node type name.
func (l *Language) KindIDs(ctx context.Context, kind string) ([]uint16, error) {
	if err := l.load(ctx); err != nil {
		return nil, err
	}
	return l.kinds[kind], nil
}

// HasField reports whether field is a field name of the language's grammar.
func (l *Language) HasField(ctx context.Context, field string) (bool, error) {
	if err := l.load(ctx); err != nil {
		return false, err
	}
	_, ok := l.fields[field]
	return ok, nil
}
