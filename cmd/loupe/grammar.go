package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/grammars/recipe"
)

func init() {
	register(&command{
		name:        "grammar",
		summary:     "Build a tree-sitter grammar into a loupe grammar module",
		run:         runGrammar,
		subcommands: []subcommand{{"build", "Compile a grammar's src/parser.c (and scanner) into a .wasm module"}},
	})
}

const grammarHelp = `Build a tree-sitter grammar into a loupe grammar module

build compiles a tree-sitter grammar's generated src/parser.c (and src/scanner.c
or src/scanner.cc when present) with tree-sitter's runtime and loupe's glue into
a WebAssembly module, with the pinned recipe and toolchain the built-in grammars
are built with (Debian's clang 19 and wasi-libc): the same sources give the same
bytes. Name the module as libraryPath of a customLanguages entry in sgconfig.yml
to search files of the language with run, scan and test.

Usage: loupe grammar build [OPTIONS] [DIR]

DIR is the grammar's repository or package (holding src/parser.c) or its src
folder (default: the current folder).

Options:
`

func runGrammar(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("grammar")
	out := fs.String('o', "output", "FILE", "Where to write the module (default: NAME.wasm in the current folder)")
	symbol := fs.String(0, "language-symbol", "SYMBOL", "The grammar's entry point (default: tree_sitter_NAME, NAME from src/grammar.json)")
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return e.errorf("%v", err)
	}
	if help.set {
		var b strings.Builder
		b.WriteString(grammarHelp)
		fs.usage(&b)
		fmt.Fprint(e.stdout, b.String())
		return exitMatch
	}
	if len(fs.args) < 1 || len(fs.args) > 2 || fs.args[0] != "build" {
		return e.errorf("usage: loupe grammar build [OPTIONS] [DIR]")
	}
	dir := "."
	if len(fs.args) == 2 {
		dir = fs.args[1]
	}
	res, err := buildGrammar(ctx, dir, symbol.value, out.value, e.getenv)
	if err != nil {
		return e.errorf("%v", err)
	}
	fmt.Fprintf(e.stdout, "Built %s: %s, %d bytes, sha256 %s\n", res.path, res.function, res.size, res.sha256)
	return exitMatch
}

// builtGrammar is what buildGrammar wrote.
type builtGrammar struct {
	path, function, sha256 string
	size                   int
}

// buildGrammar compiles the grammar in dir into a module written to out
// (default: NAME.wasm), with package recipe's BuildGrammar.
func buildGrammar(ctx context.Context, dir, symbol, out string, getenv func(string) string) (*builtGrammar, error) {
	src, err := grammarSrc(dir)
	if err != nil {
		return nil, err
	}
	if symbol == "" {
		if symbol, err = grammarSymbol(src); err != nil {
			return nil, err
		}
	}
	if out == "" {
		out = strings.TrimPrefix(symbol, "tree_sitter_") + ".wasm"
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	data, err := recipe.BuildGrammar(grammarCache(getenv), src, symbol)
	if err != nil {
		return nil, fmt.Errorf("loupe grammar build: %w", err)
	}
	if err := os.WriteFile(out+".tmp", data, 0o644); err != nil {
		return nil, fmt.Errorf("write the module: %w", err)
	}
	if err := os.Rename(out+".tmp", out); err != nil {
		return nil, fmt.Errorf("write the module: %w", err)
	}
	sum := sha256.Sum256(data)
	return &builtGrammar{path: out, function: symbol, sha256: hex.EncodeToString(sum[:]), size: len(data)}, nil
}

// grammarSrc finds the folder holding parser.c: dir/src or dir itself,
// made absolute.
func grammarSrc(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for _, d := range []string{filepath.Join(abs, "src"), abs} {
		if _, err := os.Stat(filepath.Join(d, "parser.c")); err == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("%s holds no src/parser.c (run `tree-sitter generate` in the grammar first)", dir)
}

// grammarSymbol reads the grammar's name from src/grammar.json, the
// generator's copy of the grammar, and returns its entry point.
func grammarSymbol(src string) (string, error) {
	data, err := os.ReadFile(filepath.Join(src, "grammar.json"))
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("%s has no grammar.json to read the grammar's name from: pass --language-symbol tree_sitter_NAME", src)
	}
	if err != nil {
		return "", err
	}
	var g struct{ Name string }
	if err := json.Unmarshal(data, &g); err != nil || g.Name == "" {
		return "", fmt.Errorf("%s: no grammar name (%v): pass --language-symbol tree_sitter_NAME", filepath.Join(src, "grammar.json"), err)
	}
	return "tree_sitter_" + g.Name, nil
}

// grammarCache is the folder fetched sources are kept in, as the
// built-in modules' build keeps them: $LOUPE_CACHE/grammar-src, else
// loupe/grammar-src in the user cache folder.
func grammarCache(getenv func(string) string) string {
	if d := getenv("LOUPE_CACHE"); d != "" {
		return filepath.Join(d, "grammar-src")
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "loupe-grammar-src")
	}
	return filepath.Join(d, "loupe", "grammar-src")
}
