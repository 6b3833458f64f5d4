package search_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"testing/fstest"

	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// Search a workspace for a pattern, as `loupe run` and the ast_grep tool
// do: the pattern is compiled for each language met (here JavaScript and
// TypeScript), node_modules, hidden and binary files are passed over, and
// the files are delivered in path order, each with its matches.
func ExampleSearch() {
	dir, err := os.MkdirTemp("", "search")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, fstest.MapFS{
		"src/app.ts":              {Data: []byte("console.log('start');\nrun(() => console.log(1, 2));\n")},
		"src/util.js":             {Data: []byte("export const log = (x) => console.log(x);\n")},
		"src/blob.js":             {Data: []byte("console.log(\x00);\n")},
		"src/notes.txt":           {Data: []byte("console.log(1)\n")}, // no language: not searched
		"node_modules/lib/lib.js": {Data: []byte("console.log('vendored');\n")},
		"src/.cache/c.js":         {Data: []byte("console.log('hidden');\n")},
	}); err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	query := search.NewPatterns("console.log($$$ARGS)", pattern.Options{}, false)
	opts := search.Options{Root: dir, Prefilter: query.Prefilter, Cache: search.NewCache(64 << 20)}
	stats, err := search.Search(ctx, opts, query.MatcherFor(ctx), func(fm search.FileMatches) error {
		for _, m := range fm.Matches {
			fmt.Printf("%s:%d: %s\n", fm.File.Path, m.Node.StartPoint().Row+1, m.Node.Text())
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d matches in %d of %d files; skipped: %v\n", stats.Matches, stats.MatchedFiles, stats.Files, stats.Skipped)
	// Output:
	// src/app.ts:1: console.log('start')
	// src/app.ts:2: console.log(1, 2)
	// src/util.js:1: console.log(x)
	// 3 matches in 2 of 3 files; skipped: [src/blob.js: binary]
}

// Run the pipeline with a job of one's own: here counting each file's
// function declarations. Visit runs on worker goroutines, Deliver on the
// caller's, in path order.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "run")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, fstest.MapFS{
		"b/b.go":    {Data: []byte("package b\n\nfunc B1() {}\nfunc B2() {}\n")},
		"a.go":      {Data: []byte("package a\n\nfunc A() {}\n")},
		"c.py":      {Data: []byte("def c():\n    pass\n")},
		"notes.txt": {Data: []byte("func not code\n")}, // no language: not searched
	}); err != nil {
		log.Fatal(err)
	}
	job := search.Job[int]{
		Visit: func(ctx context.Context, f search.File, t *tree.Tree) (int, int64, error) {
			n := 0
			for node := range t.Root().Descendants {
				if k := node.Kind(); k == "function_declaration" || k == "function_definition" {
					n++
				}
			}
			return n, 8, nil
		},
		Deliver: func(f search.File, n int) error {
			fmt.Printf("%s (%s): functions: %d\n", f.Path, f.Lang.Name(), n)
			return nil
		},
	}
	stats, err := search.Run(context.Background(), search.Options{Root: dir, Recycle: true}, job)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d files searched\n", stats.Searched)
	// Output:
	// a.go (go): functions: 1
	// b/b.go (go): functions: 2
	// c.py (python): functions: 1
	// 3 files searched
}
