package printer_test

import (
	"context"
	"log"
	"os"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/printer"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// A rewrite as ast-grep prints it: the hunk header, then each line
// numbered in the old and the new text.
func ExampleDiff() {
	old := "a := 1\nif a == nil {\n\treturn\n}\n"
	fixed := "a := 1\nif a != nil {\n\treturn\n}\n"
	printer.Diff(os.Stdout, old, fixed, 1, printer.Palette{})
	// Output:
	// @@ -0,3 +0,3 @@
	// 1 1│ a := 1
	// 2  │-if a == nil {
	//   2│+if a != nil {
	// 3 3│ 	return
}

// Matches found with a pattern, printed as `loupe run --heading always`
// prints them.
func ExampleMatches() {
	ctx := context.Background()
	lang, err := language.Lookup("typescript")
	if err != nil {
		log.Fatal(err)
	}
	p, err := pattern.Compile(ctx, lang, "console.log($$$A)", pattern.Options{})
	if err != nil {
		log.Fatal(err)
	}
	src := "function greet(name: string) {\n  console.log('hello', name);\n  return name;\n}\nconsole.log(greet('you'));\n"
	t, err := lang.Parse(ctx, []byte(src))
	if err != nil {
		log.Fatal(err)
	}
	ms, err := search.FindAll(ctx, t, p)
	if err != nil {
		log.Fatal(err)
	}
	var nodes []tree.Node
	for _, m := range ms {
		nodes = append(nodes, m.Node)
	}
	printer.Matches{Heading: true}.Print(os.Stdout, "app.ts", nodes)
	// Output:
	// app.ts
	// 2│  console.log('hello', name);
	// 5│console.log(greet('you'));
}
