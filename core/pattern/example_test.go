package pattern_test

import (
	"context"
	"fmt"
	"log"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/search"
)

// Compile a pattern, parse source with the language's grammar, and find
// every match with its captured metavariables.
func ExampleCompile() {
	ctx := context.Background()
	lang, err := language.Lookup("go")
	if err != nil {
		log.Fatal(err)
	}
	p, err := pattern.Compile(ctx, lang, "fmt.Errorf($FORMAT, $$$ARGS)", pattern.Options{})
	if err != nil {
		log.Fatal(err)
	}
	src := `package main

import "fmt"

func check(n int) error {
	if n < 0 {
		return fmt.Errorf("negative: %d", n)
	}
	return fmt.Errorf("too big: %d > %d", n, 10)
}
`
	t, err := lang.Parse(ctx, []byte(src))
	if err != nil {
		log.Fatal(err)
	}
	matches, err := search.FindAll(ctx, t, p)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range matches {
		format, _ := m.Env.Single("FORMAT")
		args, _ := m.Env.Multi("ARGS")
		fmt.Printf("line %d: FORMAT=%s ARGS=", m.Node.StartPoint().Row+1, format.Text())
		for _, a := range args {
			if a.IsNamed() { // the multi capture also holds the commas
				fmt.Printf("[%s]", a.Text())
			}
		}
		fmt.Println()
	}
	// Output:
	// line 7: FORMAT="negative: %d" ARGS=[n]
	// line 9: FORMAT="too big: %d > %d" ARGS=[n][10]
}
