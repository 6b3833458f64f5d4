package pattern

import (
	"context"
	"testing"
)

// The expected dumps are ast-grep 0.51.1's --debug-query=pattern output.
func TestDump(t *testing.T) {
	const src = `foo($A, $$$B, "x", $$C, $_, $$$_D) // hi`
	want := map[Strictness]string{
		Smart: `expression_statement
  call_expression
    identifier foo
    arguments
      (
      MetaVar $A
      ,
      MetaVar $$$B
      ,
      string
        "
        string_fragment x
        "
      ,
      MetaVar $C
      ,
      MetaVar $_
      ,
      MetaVar $$$
      )
  comment // hi
`,
		Signature: `expression_statement
  call_expression
    identifier
    arguments
      MetaVar $A
      MetaVar $$$B
      string
        string_fragment
      MetaVar $C
      MetaVar $_
      MetaVar $$$
  comment
`,
		Template: `(node)
  (node)
    foo
    (node)
      (
      MetaVar $A
      ,
      MetaVar $$$B
      ,
      (node)
        "
        x
        "
      ,
      MetaVar $C
      ,
      MetaVar $_
      ,
      MetaVar $$$
      )
  // hi
`,
		Cst: `expression_statement
  call_expression
    identifier foo
    arguments
      (
      MetaVar $A
      ,
      MetaVar $$$B
      ,
      string
        "
        string_fragment x
        "
      ,
      MetaVar $C
      ,
      MetaVar $_
      ,
      MetaVar $$$
      )
  comment // hi
`,
		Ast: `expression_statement
  call_expression
    identifier foo
    arguments
      MetaVar $A
      MetaVar $$$B
      string
        string_fragment x
      MetaVar $C
      MetaVar $_
      MetaVar $$$
  comment // hi
`,
		Relaxed: `expression_statement
  call_expression
    identifier foo
    arguments
      MetaVar $A
      MetaVar $$$B
      string
        string_fragment x
      MetaVar $C
      MetaVar $_
      MetaVar $$$
  comment // hi
`,
	}
	for s, w := range want {
		p, err := Compile(context.Background(), mustLang(t, "ts"), src, Options{Strictness: s})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Dump().String(); got != w {
			t.Errorf("%s dump:\n%s\nwant:\n%s", s, got, w)
		}
	}
}
