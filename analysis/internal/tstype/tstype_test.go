package tstype

import (
	"context"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// TestExpr parses `let x: TYPE;` with the TypeScript grammar and checks
// the compact form of the annotation.
func TestExpr(t *testing.T) {
	lang, err := language.Lookup("typescript")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ typ, want string }{
		{"Store", "Store"},
		{"Map<string, Store>", "Map<String,Store>"},
		{"Store | undefined | null", "Store"},
		{"Store | Cache", "|<Store,Cache>"},
		{"undefined | null | Map<K, V>", "Map<K,V>"},
		{"Store | Cache | Store", "|<Store,Cache>"},
		{"Store | any", ""},
		{"Store[]", "Array<Store>"},
		{"readonly Store[]", "Array<Store>"},
		{"[Store, Cache]", "Array"},
		{"ns.Store<T>", "ns.Store<T>"},
		{"(x: number) => void", "Function"},
		{"{ get(): void }", Anonymous},
		{`"a" | "b"`, "String"},
		{"number", "Number"},
		{"any", ""},
		{"this", "this"},
		{"(Store)", "Store"},
	}
	for _, c := range cases {
		if got := Expr(annotation(t, lang, c.typ)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.typ, got, c.want)
		}
	}
}

// TestParams parses `let x: TYPE;` and checks the parameter types of the
// function type the annotation writes.
func TestParams(t *testing.T) {
	lang, err := language.Lookup("typescript")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		typ  string
		want []string
	}{
		{"(a: Observable<T>, b: Subscriber<R>) => void", []string{"Observable<T>", "Subscriber<R>"}},
		{"((this: Foo, v: Bar) => void) | undefined", []string{"Bar"}},
		{"(x, y: any) => void", []string{"", ""}},
		{"() => void", []string{}},
		{"((a: A) => void) | ((b: B) => void)", nil},
		{"Store", nil},
	}
	for _, c := range cases {
		got := Params(annotation(t, lang, c.typ))
		if (got == nil) != (c.want == nil) || strings.Join(got, ";") != strings.Join(c.want, ";") {
			t.Errorf("%s: got %q, want %q", c.typ, got, c.want)
		}
	}
}

// annotation parses `let x: typ;` and returns its type annotation.
func annotation(t *testing.T, lang *language.Language, typ string) tree.Node {
	t.Helper()
	tr, err := search.Parse(context.Background(), lang, []byte("let x: "+typ+";"))
	if err != nil {
		t.Fatal(err)
	}
	var ann tree.Node
	tr.Root().Descendants(func(n tree.Node) bool {
		if ann.IsZero() && n.Kind() == "type_annotation" {
			ann = n
		}
		return ann.IsZero()
	})
	return ann
}
