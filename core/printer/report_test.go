package printer_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/loupe-dev/loupe/core/printer"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/scan"
)

// TestReportLayout prints findings as Rich diagnostics and compares them
// byte for byte with what ast-grep 0.51.1 printed for the same rule and
// file (`ast-grep scan --color never -r rule.yml a.EXT`).
func TestReportLayout(t *testing.T) {
	cases := []struct{ name, src, rule, want string }{
		{
			name: "tabs expand to 4-column stops",
			src:  "package main\n\nfunc f() {\n\tif x > 0 {\n\t\tfmt.Println(\"a\tb\", x)\n\t}\n}\n",
			rule: "id: r\nlanguage: go\nseverity: warning\nmessage: tabs\nlabels:\n  A: {style: primary, message: the argument}\n  B: {style: secondary, message: the string}\n  C: {style: secondary, message: the block}\nrule:\n  kind: if_statement\n  has:\n    field: consequence\n    pattern: $C\n    has: {stopBy: end, pattern: \"fmt.Println($B, $A)\"}\n",
			want: "warning[r]: tabs\n  ┌─ a.go:5:22\n  │  \n4 │       if x > 0 {\n  │ ╭──────────────'\n5 │ │         fmt.Println(\"a  b\", x)\n  │ │                     ------  ^ the argument\n  │ │                     │        \n  │ │                     the string\n6 │ │     }\n  │ ╰─────' the block\n\n",
		},
		{
			name: "a note ending in a line break",
			src:  "package main\n\nvar x = f()\n",
			rule: "id: r\nlanguage: go\nseverity: error\nmessage: note\nnote: |\n  first **line**\n  second `code`\nrule: {pattern: f()}\n",
			want: "error[r]: note\n  ┌─ a.go:3:9\n  │\n3 │ var x = f()\n  │         ^^^\n  │\n  = first line\n    second code\n\n",
		},
		{
			name: "multi-line label ending at column 0",
			src:  "#include <stdio.h>\n#include \"x.h\"\n",
			rule: "id: r\nlanguage: c\nseverity: error\nmessage: include\nrule: {kind: preproc_include}\n",
			want: "error[r]: include\n  ┌─ a.c:1:1\n  │  \n1 │ ╭ #include <stdio.h>\n2 │ │ #include \"x.h\"\n  │ ╰^\n\nerror[r]: include\n  ┌─ a.c:2:1\n  │  \n2 │ ╭ #include \"x.h\"\n3 │ │ \n  │ ╰^\n\n",
		},
		{
			name: "two multi-line labels on one line",
			src:  "package main\n\nfunc f() {\n\tfoo(func() {\n\t\ty()\n\t}, func() {\n\t\tz()\n\t})\n}\n",
			rule: "id: r\nlanguage: go\nseverity: hint\nmessage: two\nlabels:\n  A: {style: secondary, message: first}\n  B: {style: primary, message: second}\nrule: {pattern: \"foo($A, $B)\"}\n",
			want: "help[r]: two\n  ┌─ a.go:6:5\n  │    \n4 │         foo(func() {\n  │ ╭───────────'\n5 │ │           y()\n6 │ │       }, func() {\n  │ ╰───────' first\n  │   ╭────────^\n7 │   │         z()\n8 │   │     })\n  │   ╰─────^ second\n\n",
		},
		{
			name: "wide characters",
			src:  "package main\n\nvar s = \"日本語\" + x\n",
			rule: "id: r\nlanguage: go\nseverity: info\nmessage: wide\nlabels:\n  X: {style: primary, message: this}\nrule: {pattern: \"$S + $X\"}\n",
			want: "note[r]: wide\n  ┌─ a.go:3:17\n  │\n3 │ var s = \"日本語\" + x\n  │                    ^ this\n\n",
		},
		{
			name: "hanging messages",
			src:  "package main\n\nvar v = a + b + c\n",
			rule: "id: r\nlanguage: go\nseverity: warning\nmessage: hanging\nlabels:\n  A: {style: secondary, message: left}\n  B: {style: secondary, message: middle}\n  C: {style: primary, message: right}\nrule: {pattern: \"$A + $B + $C\"}\n",
			want: "warning[r]: hanging\n  ┌─ a.go:3:17\n  │\n3 │ var v = a + b + c\n  │         -   -   ^ right\n  │         │   │    \n  │         │   middle\n  │         left\n\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			cfgs, err := rule.ParseConfigs(ctx, []byte(c.rule), rule.Options{})
			if err != nil {
				t.Fatal(err)
			}
			f, err := scan.Source(ctx, scan.NewRules(cfgs, ".", ""), cfgs[0].Language, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			path := "a.go"
			if cfgs[0].Language.Name() == "c" {
				path = "a.c"
			}
			var out bytes.Buffer
			printer.Report{}.Print(&out, path, []byte(c.src), f.Findings)
			if got := out.String(); got != c.want {
				t.Errorf("got\n%s\nwant (ast-grep)\n%s", got, c.want)
			}
		})
	}
}
