package manifest_test

import (
	"fmt"
	"testing/fstest"

	"github.com/loupe-dev/loupe/index/manifest"
)

// An npm workspace with two members, one depending on the other: that
// dependency is internal, the test runner external and dev; a broken
// manifest is a problem of its file, and the rest is found.
func ExampleDiscover() {
	repo := fstest.MapFS{
		"package.json":               {Data: []byte(`{"name": "shop", "private": true, "workspaces": ["packages/*"]}`)},
		"packages/api/package.json":  {Data: []byte(`{"name": "@shop/api", "version": "1.2.0", "dependencies": {"@shop/db": "workspace:*"}, "devDependencies": {"vitest": "^3.0.0"}}`)},
		"packages/db/package.json":   {Data: []byte(`{"name": "@shop/db", "version": "0.4.0", "description": "Storage"}`)},
		"packages/db/pyproject.toml": {Data: []byte("[project\nname = 'broken'\n")},
	}
	res := manifest.Discover(repo, "shop", []string{"package.json", "packages/api/package.json", "packages/db/package.json", "packages/db/pyproject.toml"})
	for _, p := range res.Packages {
		fmt.Printf("%s %s %s %q\n", p.Kind, p.Path, p.Name, p.Version)
		for _, d := range p.Dependencies {
			fmt.Printf("  -> %s %s %s internal=%v\n", d.Name, d.Version, d.Kind, d.Internal)
		}
	}
	for _, pr := range res.Problems {
		fmt.Println("problem:", pr.File)
	}
	// Output:
	// npm . shop ""
	// npm packages/api @shop/api "1.2.0"
	//   -> @shop/db workspace:* runtime internal=true
	//   -> vitest ^3.0.0 dev internal=false
	// npm packages/db @shop/db "0.4.0"
	// problem: packages/db/pyproject.toml
}
