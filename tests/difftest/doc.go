// Package difftest compares loupe with the reference ast-grep on the same
// real code: it runs the ast-grep binary (a test-only npm dependency),
// reads its --json=stream output, runs loupe's matcher on the same files
// and reports every difference in files, ranges and metavariable texts.
//
// The helpers here are shared by the differential test suites; the suites
// themselves are the package's tests. Corpora are fetched at test time
// into the cache folder ($LOUPE_CACHE, else .cache at the module root) and
// are never committed.
package difftest
