// Package parity proves that loupe's grammar modules, run by wazero, build
// exactly the trees native tree-sitter builds from the same pinned C
// sources, and measures both.
//
// Everything lives behind the `parity` build tag because the native side
// needs cgo and a C compiler: `go test -tags parity ./tests/parity/`.
// Without the tag the package is empty, so the default build stays cgo-free.
//
// The native side is github.com/tree-sitter/go-tree-sitter (the runtime at
// the version loupe's modules embed) plus each grammar's parser.c and
// scanner, fetched from the package pinned in grammars/manifest.json and
// compiled by gcc into a shared library that the test loads with dlopen.
// The native build uses the sources as published, even where the module
// build patches them for wasm32 (grammars/internal/build), since native
// 64-bit tree-sitter is what ast-grep runs. Sources, libraries and corpora
// are cached under $LOUPE_CACHE (default: the repository's .cache folder).
//
// TestParity compares every node (kind, symbol, flags, field, byte range,
// positions, child count, parent) and the S-expressions of each input: the
// samples in testdata/parse, the cases of each grammar's test corpus, and
// real files of pinned packages (typescript, expo-modules-core, the grammar
// packages themselves, the Go and Python standard libraries), a bounded
// selection by default and all of them with LOUPE_PARITY_FULL=1.
// BenchmarkParse measures both sides on the same inputs.
package parity
