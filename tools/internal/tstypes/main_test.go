package main

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tools"
)

// TestFresh fails when js/src/tooltypes.ts is not what the registry gives:
// a tool's parameters or structured output changed without
// `make js-types`.
func TestFresh(t *testing.T) {
	if err := run(true); err != nil {
		t.Fatal(err)
	}
}

func TestGenerate(t *testing.T) {
	ts := tools.Types()
	if len(ts) == 0 {
		t.Fatal("no tools")
	}
	got := string(Generate(ts))
	for _, want := range []string{
		"export type AstGrepParams = {",
		"  rule?: Record<string, unknown> | string;",
		`  mode: "callers" | "callees" | "definitions" | "hierarchy" | "references" | "dependencies" | "exports";`,
		"  captures?: Record<string, string>;",
		"  ast_grep: { params: AstGrepParams; result: AstGrepResult };",
		"export type ToolName = keyof ToolTypes;",
		"  search_symbols: { params: SearchSymbolsParams; result: SearchSymbolsResult };",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("generated types lack %q", want)
		}
	}
}
