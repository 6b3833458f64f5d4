package analysis_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/core/language"
)

// The outline of a Go file: its module-level definitions with their
// signatures, parameters and results.
func ExampleFileSymbols() {
	src := []byte(`package shop

// Cart holds items.
type Cart struct{ items []string }

// Add puts an item in the cart.
func (c *Cart) Add(item string, n int) error {
	local := item
	_ = local
	return nil
}

const Limit = 10
`)
	lang, err := language.Lookup("go")
	if err != nil {
		panic(err)
	}
	t, err := lang.Parse(context.Background(), src)
	if err != nil {
		panic(err)
	}
	syms, err := analysis.FileSymbols(context.Background(), "go", t)
	if err != nil {
		panic(err)
	}
	for _, s := range syms {
		fmt.Printf("%d %s %s %q params=%q returns=%q\n", s.Line, s.Kind, s.Name, s.Signature, s.Parameters, s.ReturnType)
	}
	// Output:
	// 4 struct Cart "Cart struct{ items []string }" params="" returns=""
	// 7 method Add "func (c *Cart) Add(item string, n int) error" params="(item string, n int)" returns="error"
	// 13 constant Limit "Limit = 10" params="" returns=""
}

func TestFileSymbols(t *testing.T) {
	cases := []struct {
		lang, src string
		want      []analysis.Symbol
	}{
		{"typescript", "export class Shop extends Base {\n  open(day: string): boolean { const x = 1; return true }\n}\nexport function total(items: Item[]): number { return 0 }\n",
			[]analysis.Symbol{
				{Name: "Shop", Kind: "class", Signature: "class Shop extends Base", Line: 1},
				{Name: "open", Kind: "method", Container: "Shop", Signature: "open(day: string): boolean", Parameters: "(day: string)", ReturnType: "boolean", Line: 2},
				{Name: "total", Kind: "function", Signature: "function total(items: Item[]): number", Parameters: "(items: Item[])", ReturnType: "number", Line: 4},
			}},
		{"python", "class Shop(Base):\n    def open(self, day: str) -> bool:\n        x = 1\n        return True\n\nLIMIT = 3\n",
			[]analysis.Symbol{
				{Name: "Shop", Kind: "class", Signature: "class Shop(Base)", Line: 1},
				{Name: "open", Kind: "method", Container: "Shop", Signature: "def open(self, day: str) -> bool", Parameters: "(self, day: str)", ReturnType: "bool", Line: 2},
				{Name: "LIMIT", Kind: "variable", Signature: "LIMIT = 3", Line: 6},
			}},
		{"rust", "pub struct Shop { open: bool }\nimpl Shop {\n    pub fn open(&self, day: u8) -> bool { let x = 1; true }\n}\n",
			[]analysis.Symbol{
				{Name: "Shop", Kind: "struct", Signature: "pub struct Shop", Line: 1},
				{Name: "Shop", Kind: "impl", Signature: "impl Shop", Line: 2},
				{Name: "open", Kind: "method", Container: "Shop", Signature: "pub fn open(&self, day: u8) -> bool", Parameters: "(&self, day: u8)", ReturnType: "bool", Line: 3},
			}},
		{"c", "int add(int a, int b) { int c = a; return c + b; }\n",
			[]analysis.Symbol{
				{Name: "add", Kind: "function", Signature: "int add(int a, int b)", Parameters: "(int a, int b)", ReturnType: "int", Line: 1},
			}},
		{"java", "class Shop {\n  boolean open(String day) { int x = 1; return true; }\n}\n",
			[]analysis.Symbol{
				{Name: "Shop", Kind: "class", Signature: "class Shop", Line: 1},
				{Name: "open", Kind: "method", Container: "Shop", Signature: "boolean open(String day)", Parameters: "(String day)", ReturnType: "boolean", Line: 2},
			}},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			lang, err := language.Lookup(c.lang)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := lang.Parse(context.Background(), []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			got, err := analysis.FileSymbols(context.Background(), c.lang, tr)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", c.want) {
				t.Errorf("got\n%+v\nwant\n%+v", got, c.want)
			}
		})
	}
	// Every supported language has a table FileSymbols can use.
	for _, name := range analysis.SupportedLanguages() {
		lang, err := language.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := lang.Parse(context.Background(), []byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := analysis.FileSymbols(context.Background(), name, tr); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
