// Package grammars embeds loupe's tree-sitter grammar modules (wasm32-wasi,
// built from pinned sources by `make grammars`) and their manifest: names,
// aliases, file extensions, the pattern expando character and the source
// package of each language.
package grammars

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"sync"
)

//go:embed manifest.json
var manifestJSON []byte

// Source names the pinned package a module's C sources come from.
type Source struct {
	Kind    string `json:"kind"`    // "gomod" (Go module proxy) or "npm"
	Package string `json:"package"` // module path or npm package name
	Version string `json:"version"`
	Dir     string `json:"dir"` // folder of parser.c inside the package
}

// Language describes one embedded grammar.
type Language struct {
	Name       string   `json:"name"`       // canonical lower-case name, e.g. "typescript"
	Display    string   `json:"display"`    // ast-grep's name, e.g. "TypeScript"
	Aliases    []string `json:"aliases"`    // names accepted for it, case-insensitive
	Extensions []string `json:"extensions"` // file extensions without the dot
	Expando    string   `json:"expando"`    // the character that stands for $ in patterns
	Function   string   `json:"function"`   // the grammar's tree_sitter_<name> entry point
	Source     Source   `json:"source"`
	SHA256     string   `json:"sha256"` // of the module
	Size       int      `json:"size"`   // of the module in bytes
}

// Manifest is the content of manifest.json.
type Manifest struct {
	Runtime   Source     `json:"runtime"` // tree-sitter's runtime package
	Languages []Language `json:"languages"`
}

var (
	loadOnce sync.Once
	manifest Manifest
	loadErr  error
)

func load() {
	if err := json.Unmarshal(manifestJSON, &manifest); err != nil {
		loadErr = fmt.Errorf("grammars: manifest: %w", err)
	}
}

// All returns the manifest: every embedded language, sorted by name.
func All() (Manifest, error) {
	loadOnce.Do(load)
	return manifest, loadErr
}

// Lookup finds a language by name or alias, ignoring case.
func Lookup(name string) (Language, bool) {
	m, err := All()
	if err != nil {
		return Language{}, false
	}
	for _, l := range m.Languages {
		if strings.EqualFold(l.Name, name) || strings.EqualFold(l.Display, name) {
			return l, true
		}
		for _, a := range l.Aliases {
			if strings.EqualFold(a, name) {
				return l, true
			}
		}
	}
	return Language{}, false
}

// ForPath finds the language of a file from its extension, as ast-grep's
// default table does (".ts" is TypeScript, never TSX).
func ForPath(p string) (Language, bool) {
	ext := strings.TrimPrefix(path.Ext(strings.ReplaceAll(p, "\\", "/")), ".")
	if ext == "" {
		return Language{}, false
	}
	m, err := All()
	if err != nil {
		return Language{}, false
	}
	for _, l := range m.Languages {
		for _, e := range l.Extensions {
			if e == ext {
				return l, true
			}
		}
	}
	return Language{}, false
}
