// Package parity proves that loupe's grammar modules, run by wazero, build
// exactly the trees native tree-sitter builds from the same pinned C
// sources, and measures both.
//
// Everything lives behind the `parity` build tag because the native side
// needs cgo and a C compiler: `go test -tags parity ./internal/parity/`.
// Without the tag the package is empty, so the default build stays cgo-free.
//
// The native side is github.com/tree-sitter/go-tree-sitter (the runtime at
// the version loupe's modules embed) plus each grammar's parser.c and
// scanner.c, fetched from the package pinned in grammars/manifest.json and
// compiled by gcc into a shared library that the test loads with dlopen.
// Sources, libraries and corpora are cached under $LOUPE_CACHE (default:
// the repository's .cache folder).
package parity
