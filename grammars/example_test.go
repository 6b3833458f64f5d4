package grammars_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log"
	"strings"

	"github.com/loupe-dev/loupe/grammars"
)

// Look an embedded grammar up by alias and read its manifest entry: the
// names, extensions and pattern expando of the language, the pinned package
// its module was built from, and the module itself, checked against the
// manifest's hash.
func ExampleLookup() {
	l, ok := grammars.Lookup("ts")
	if !ok {
		log.Fatal("no grammar for ts")
	}
	fmt.Printf("%s (%s): aliases %v, extensions %v, expando %q\n", l.Name, l.Display, l.Aliases, l.Extensions, l.Expando)
	fmt.Printf("built from %s package %s, function %s\n", l.Source.Kind, l.Source.Package, l.Function)
	wasm, err := l.Wasm()
	if err != nil {
		log.Fatal(err)
	}
	sum := sha256.Sum256(wasm)
	fmt.Println("module matches manifest:", len(wasm) == l.Size && hex.EncodeToString(sum[:]) == l.SHA256)
	// Output:
	// typescript (TypeScript): aliases [ts typescript], extensions [ts cts mts], expando "$"
	// built from gomod package github.com/tree-sitter/tree-sitter-typescript, function tree_sitter_typescript
	// module matches manifest: true
}

// Go through every embedded language, here to list those whose grammar
// does not take $ in an identifier, so that a pattern's $ is replaced by a
// character it does take (the expando) before the pattern is parsed; and
// find a file's language by extension as ast-grep's default table does.
func ExampleAll() {
	m, err := grammars.All()
	if err != nil {
		log.Fatal(err)
	}
	var expando []string
	for _, l := range m.Languages { // sorted by name
		if l.Expando != "$" {
			expando = append(expando, l.Name+" "+l.Expando)
		}
	}
	fmt.Println(strings.Join(expando, ", "))
	for _, path := range []string{"a.ts", "b.tsx", "c.h", "d.yml"} {
		l, _ := grammars.ForPath(path)
		fmt.Printf("%s: %s\n", path, l.Name)
	}
	// Output:
	// c 𐀀, cpp 𐀀, csharp µ, css _, elixir µ, go µ, haskell µ, hcl µ, html z, kotlin µ, nix _, php µ, python µ, ruby µ, rust µ, svelte z, swift µ, vue z
	// a.ts: typescript
	// b.tsx: tsx
	// c.h: c
	// d.yml: yaml
}
