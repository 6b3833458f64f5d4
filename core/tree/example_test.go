package tree_test

import (
	"context"
	"fmt"
	"log"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
)

// Navigate a parsed tree: its S-expression (what `loupe parse --format
// sexp` prints), children by field name, a node's ancestors, and its
// position in bytes (tree-sitter's columns) and in characters (ast-grep's).
func ExampleNode() {
	ctx := context.Background()
	lang, err := language.Lookup("python")
	if err != nil {
		log.Fatal(err)
	}
	t, err := lang.Parse(ctx, []byte("café = price(x, rate=0.2)\n"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Root().SExp())

	var call tree.Node
	for n := range t.Root().Descendants {
		if n.Kind() == "call" {
			call = n
			break
		}
	}
	fmt.Println("function:", call.ChildByField("function").Text())
	for _, arg := range call.ChildByField("arguments").NamedChildren() {
		fmt.Printf("argument %s: %s\n", arg.Kind(), arg.Text())
	}
	for a := call.Parent(); !a.IsZero(); a = a.Parent() {
		fmt.Println("inside", a.Kind())
	}
	row, col := t.CharPosition(call.StartByte())
	fmt.Printf("call at byte column %d, character column %d of line %d\n", call.StartPoint().Column, col, row+1)
	// Output:
	// (module (expression_statement (assignment left: (identifier) right: (call function: (identifier) arguments: (argument_list (identifier) (keyword_argument name: (identifier) value: (float)))))))
	// function: price
	// argument identifier: x
	// argument keyword_argument: rate=0.2
	// inside assignment
	// inside expression_statement
	// inside module
	// call at byte column 8, character column 7 of line 1
}
