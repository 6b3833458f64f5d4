package language

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/host"
)

// Custom describes a language whose grammar is a WebAssembly module in a
// file, built with loupe's recipe (`loupe grammar build`): an entry of a
// project's customLanguages. Its module runs sandboxed (see SetSandbox):
// it can reach nothing outside its own memory, which is bounded, and
// each parse has a time limit (under js counted in fuel: see
// host.MeterModule).
type Custom struct {
	// Name is the language's name, as rules and --lang give it.
	Name string
	// Path is the module's file.
	Path string
	// Extensions are the file extensions (without dot) of the language.
	Extensions []string
	// Expando is the character that replaces $ in patterns; 0 means '$'.
	Expando rune
}

var (
	customMu sync.RWMutex
	customs  []*Language // registered custom languages, in registration order

	sandboxMu sync.Mutex
	sandbox   host.Engine
)

// ErrCustom marks an error about a custom language's module.
var ErrCustom = errors.New("custom language")

// RegisterCustom reads c's module and makes c a language: Lookup finds it
// by name, ForPath by extension (before the built-in languages, as
// ast-grep prefers custom languages), All and Names list it. A name of a
// built-in language is refused; registering a name again replaces the
// earlier definition (Language values already handed out keep theirs).
// The module is checked when first used (its exports, its name table),
// or at once by Check.
func RegisterCustom(c Custom) (*Language, error) {
	name := strings.TrimSpace(c.Name)
	if name == "" {
		return nil, fmt.Errorf("%w: a custom language needs a name", ErrCustom)
	}
	if _, ok := grammars.Lookup(name); ok {
		return nil, fmt.Errorf("%w %s: %q is a built-in language", ErrCustom, name, name)
	}
	expando := c.Expando
	if expando == 0 {
		expando = '$'
	}
	wasm, err := os.ReadFile(c.Path)
	if err != nil {
		return nil, fmt.Errorf("%w %s: read its module: %w", ErrCustom, name, err)
	}
	sum := sha256.Sum256(wasm)
	var exts []string
	for _, e := range c.Extensions {
		exts = append(exts, strings.TrimPrefix(e, "."))
	}
	l := &Language{
		info: grammars.Language{
			Name: name, Display: name, Extensions: exts, Expando: string(expando),
			Function: "tree_sitter_" + name, SHA256: hex.EncodeToString(sum[:]), Size: len(wasm),
		},
		expando: expando,
		custom:  &customModule{path: c.Path, wasm: wasm},
	}
	customMu.Lock()
	defer customMu.Unlock()
	for i, old := range customs {
		if strings.EqualFold(old.info.Name, name) {
			customs[i] = l
			return l, nil
		}
	}
	customs = append(customs, l)
	return l, nil
}

// UnregisterCustom removes the registered custom language of that name,
// if any (Language values already handed out stay usable).
func UnregisterCustom(name string) {
	customMu.Lock()
	defer customMu.Unlock()
	customs = slices.DeleteFunc(customs, func(l *Language) bool { return strings.EqualFold(l.info.Name, name) })
}

// customModule is a custom language's module file.
type customModule struct {
	path string // the file, as registered
	wasm []byte
}

// Custom reports whether the language is a custom one, and its module's
// file.
func (l *Language) Custom() (path string, ok bool) {
	if l.custom == nil {
		return "", false
	}
	return l.custom.path, true
}

// Check loads the language's grammar module now, reporting what would
// make every parse of it fail: for a custom language, a module that is
// not a loupe grammar module, traps, loops or runs out of memory while
// starting.
func (l *Language) Check(ctx context.Context) error {
	_, err := l.load(ctx)
	return err
}

// lookupCustom finds a registered custom language by name, ignoring case.
func lookupCustom(name string) *Language {
	customMu.RLock()
	defer customMu.RUnlock()
	for _, l := range customs {
		if strings.EqualFold(l.info.Name, name) {
			return l
		}
	}
	return nil
}

// customForPath finds the registered custom language of a file by its
// extension.
func customForPath(p string) *Language {
	ext := strings.TrimPrefix(path.Ext(strings.ReplaceAll(p, "\\", "/")), ".")
	if ext == "" {
		return nil
	}
	customMu.RLock()
	defer customMu.RUnlock()
	for _, l := range customs {
		for _, e := range l.info.Extensions {
			if e == ext {
				return l
			}
		}
	}
	return nil
}

// customLanguages returns the registered custom languages.
func customLanguages() []*Language {
	customMu.RLock()
	defer customMu.RUnlock()
	return append([]*Language(nil), customs...)
}

// SetSandbox replaces the engine custom languages' modules run on. By
// default it is created on first use: natively a wazero runtime that
// gives a module no imports, at most SandboxMemory of memory and
// SandboxParseTime per parse (host/wazhost's Sandbox).
func SetSandbox(e host.Engine) {
	sandboxMu.Lock()
	defer sandboxMu.Unlock()
	sandbox = e
}

func currentSandbox(ctx context.Context) (host.Engine, error) {
	sandboxMu.Lock()
	defer sandboxMu.Unlock()
	if sandbox == nil {
		e, err := defaultSandbox(ctx)
		if err != nil {
			return nil, err
		}
		sandbox = e
	}
	return sandbox, nil
}

// loadCustom loads a custom language's module on the sandbox engine,
// under a name of its own (the language's and its module's hash), so
// that two registrations of one name with different modules never share
// one.
func (l *Language) loadCustom(ctx context.Context) (host.Grammar, error) {
	e, err := currentSandbox(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w %s (%s): %w", ErrCustom, l.info.Name, l.custom.path, err)
	}
	g, err := e.Load(ctx, l.info.Name+"@"+l.info.SHA256[:12], l.custom.wasm)
	if err != nil {
		return nil, fmt.Errorf("%w %s: module %s refused: %w", ErrCustom, l.info.Name, l.custom.path, err)
	}
	return g, nil
}

// ParseExpando reads an expandoChar setting: "" is 0 (the default, '$'),
// otherwise it must be exactly one character.
func ParseExpando(s string) (rune, error) {
	if s == "" {
		return 0, nil
	}
	r, n := utf8.DecodeRuneInString(s)
	if n != len(s) || r == utf8.RuneError {
		return 0, fmt.Errorf("expandoChar must be one character, got %q", s)
	}
	return r, nil
}
