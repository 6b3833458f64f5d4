package rewrite

import (
	"testing"

	"github.com/loupe-dev/loupe/core/match"
)

func FuzzTemplate(f *testing.F) {
	for _, s := range []string{"$A", "$$$B + $T", "x\n  $A\n$$$$B$", "$", "$$", "$$$", "$_", "\n\n $A"} {
		f.Add(s)
	}
	tr := parse(f, "typescript", "function f() {\n  g(1,\n    2);\n}\n")
	call := find(f, tr, "call_expression", "g(")
	env := &match.Env{}
	env.BindSingle("A", call)
	env.BindMulti("B", call.ChildByField("arguments").NamedChildren())
	env.SetTransformed("T", "x\ny")
	f.Fuzz(func(t *testing.T, s string) {
		tmpl := Compile(s, []string{"T"})
		out := tmpl.Render(env, call)
		if tmpl.IsText() && len(out) < len(s) {
			t.Fatalf("text template %q shrank to %q", s, out)
		}
	})
}
