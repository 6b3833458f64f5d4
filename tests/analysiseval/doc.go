// Package analysiseval measures structural_analysis against the TypeScript
// compiler: on a real TypeScript project fetched from the npm registry (into
// .cache/, never committed), the LanguageService's call hierarchy,
// references and definitions (truth.mjs) are the truth for a seeded sample
// of the symbols whose names several declarations share, and the test
// reports the precision and recall of callers, references and definitions
// three ways: by the bare name (what name matching gives), by the
// qualified name with every result, and by the qualified name with the
// resolved results only.
//
// The same is measured for Go against go/types on the standard library's
// go/... packages (gotypes_test.go).
//
// `go test ./tests/analysiseval` measures a bounded TypeScript sample;
// with LOUPE_ANALYSIS_EVAL=full (make analysis-eval) every shared-name
// symbol, and a sample of Go's.
// Without node, the typescript package (scripts/test-deps.sh installs it)
// or the registry, the test skips with one line.
package analysiseval
