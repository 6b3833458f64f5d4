package language_test

import (
	"context"
	"fmt"
	"log"

	"github.com/loupe-dev/loupe/core/language"
)

// Look a language up by name or alias, parse source with its grammar and
// walk the tree: here every function declared in a Go file.
func ExampleLanguage_Parse() {
	ctx := context.Background()
	lang, err := language.Lookup("golang") // an alias, any case
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(lang.Name(), lang.Display(), lang.Extensions())
	src := []byte(`package shop

func Total(prices []int) (sum int) {
	for _, p := range prices {
		sum += p
	}
	return sum
}

func (c *Cart) Add(item string) { c.items = append(c.items, item) }
`)
	t, err := lang.Parse(ctx, src)
	if err != nil {
		log.Fatal(err)
	}
	for n := range t.Root().Descendants {
		if n.Kind() == "function_declaration" || n.Kind() == "method_declaration" {
			fmt.Printf("line %d: %s %s\n", n.StartPoint().Row+1, n.Kind(), n.ChildByField("name").Text())
		}
	}
	fmt.Println("syntax errors:", t.Root().HasError())
	// Output:
	// go Go [go]
	// line 3: function_declaration Total
	// line 10: method_declaration Add
	// syntax errors: false
}

// Pick a file's language by its extension, as a search of a folder does;
// a file of no known language is reported as such.
func ExampleForPath() {
	for _, path := range []string{"src/app.tsx", "lib/util.mjs", "build.rs", "notes.txt"} {
		lang, ok := language.ForPath(path)
		if !ok {
			fmt.Printf("%s: no language\n", path)
			continue
		}
		fmt.Printf("%s: %s\n", path, lang.Name())
	}
	// Output:
	// src/app.tsx: tsx
	// lib/util.mjs: javascript
	// build.rs: rust
	// notes.txt: no language
}
