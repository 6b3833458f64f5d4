package glob_test

import (
	"fmt"
	"log"

	"github.com/loupe-dev/loupe/core/search/glob"
)

// Compile globs with ripgrep's globset semantics and match slash-separated
// paths: `*` stays inside one component, `**` spans whole ones, `{a,b}`
// alternates. (A glob without a slash matching at any depth, as in an
// ignore file or a search's Globs, is package ignore's doing.)
func ExampleCompile() {
	paths := []string{"main.go", "cmd/app/main.go", "src/app.ts", "src/ui/view.tsx", "src/ui/view.test.tsx"}
	for _, pattern := range []string{"*.go", "**/*.go", "src/*.{ts,tsx}", "src/**/*.tsx", "src/[a-m]*"} {
		g, err := glob.Compile(pattern)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-16s", g)
		for _, p := range paths {
			if g.Match(p) {
				fmt.Print(" ", p)
			}
		}
		fmt.Println()
	}
	if _, err := glob.Compile("src/{a,b"); err != nil {
		fmt.Println("error:", err)
	}
	// Output:
	// *.go             main.go
	// **/*.go          main.go cmd/app/main.go
	// src/*.{ts,tsx}   src/app.ts
	// src/**/*.tsx     src/ui/view.tsx src/ui/view.test.tsx
	// src/[a-m]*       src/app.ts
	// error: glob "src/{a,b": unclosed alternation
}
