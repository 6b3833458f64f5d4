package outline

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

// summary renders items as "type name [flags]" lines, members indented.
func summary(items []Item) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it.SymbolType + " " + it.Name)
		if it.IsImport {
			b.WriteString(" import")
		}
		if it.IsExported {
			b.WriteString(" exported")
		}
		b.WriteByte('\n')
		for _, m := range it.Members {
			b.WriteString("  " + m.SymbolType + " " + m.Name)
			if m.IsPublic {
				b.WriteString(" public")
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func extract(t *testing.T, lang, src string, opts Options) []Item {
	t.Helper()
	ctx := context.Background()
	l, err := language.Lookup(lang)
	if err != nil {
		t.Fatal(err)
	}
	x, err := Compile(ctx, l, opts)
	if err != nil {
		t.Fatalf("compile %s extractors: %v", lang, err)
	}
	if x == nil {
		t.Fatalf("no extractors for %s", lang)
	}
	tr, err := l.Parse(ctx, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	items, err := x.Extract(ctx, tr)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

var all = Options{ItemSignatures: true, Members: true, MemberSignatures: true}

func TestExtract(t *testing.T) {
	cases := []struct {
		lang, src, want string
	}{
		{"go", "package p\nimport \"fmt\"\ntype T struct{ A int; b string }\nfunc (T) M() {}\nvar v = fmt.Sprint()\n",
			"module fmt import\nstruct T exported\n  field A public\n  field b\nmethod M exported\nvariable v exported\n"},
		{"python", "import os\nclass C:\n    x = 1\n    def m(self): pass\nLIMIT = 3\ndef f(): pass\n",
			"module os import\nclass C exported\n  field x public\n  method m public\nconstant LIMIT exported\nfunction f exported\n"},
		{"typescript", "export interface I { a: number }\nclass K { private p = 1; m() {} }\nconst f = () => 1;\n",
			"interface I exported\n  field a public\nclass K\n  field p\n  method m public\nfunction f\n"},
		{"javascript", "import x from 'y';\nexport function f() {}\nlet n;\n",
			"module 'y' import\nfunction f exported\nvariable n\n"},
		{"rust", "pub struct S { pub a: u8, b: u8 }\nimpl S { fn new() -> Self { todo!() } }\n",
			"struct S exported\n  field a public\n  field b\nobject S\n  method new\n"},
		{"java", "import a.b.*;\npublic class C { public void m() {} private int f; }\n",
			"module a.b.* import\nclass C exported\n  method m public\n  field f\n"},
		{"c", "#include <stdio.h>\nstruct s { int *p; };\nint g[3];\n",
			"module <stdio.h> import\nstruct s exported\n  field p public\nvariable g exported\n"},
		{"markdown", "# Title #\n\nSub\n---\n", "module Title # exported\nmodule Sub exported\n"},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			if got := summary(extract(t, c.lang, c.src, all)); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	src := "package p\nimport \"fmt\"\ntype T struct{ A int; b string }\nfunc F() {}\nfunc g() { fmt.Println() }\n"
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"imports", Options{Imports: Yes}, "module fmt import\n"},
		{"structure", Options{Imports: No}, "struct T exported\nfunction F exported\nfunction g exported\n"},
		{"types", Options{Types: []string{"function"}}, "function F exported\nfunction g exported\n"},
		{"match", Options{Match: regexp.MustCompile(`^func F`)}, "function F exported\n"},
		{"public members", Options{Types: []string{"struct"}, Members: true, Public: Yes}, "struct T exported\n  field A public\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := summary(extract(t, "go", src, c.opts)); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestSignatureFromNameLine: a default signature starts at the line of the
// name, as ast-grep 0.51.1 has it (the Go group `type (` gives the spec's
// line, not "type (").
func TestSignatureFromNameLine(t *testing.T) {
	items := extract(t, "go", "package p\ntype (\n\tA int\n)\nfunc\nF() {}\n", all)
	var sigs []string
	for _, it := range items {
		sigs = append(sigs, it.Signature)
	}
	if got, want := strings.Join(sigs, "|"), "A int|F() {}"; got != want {
		t.Errorf("signatures %q, want %q", got, want)
	}
}

func TestPrinter(t *testing.T) {
	f := &File{Path: "a.go", Language: "Go", Items: []Item{{
		Entry:      Entry{Role: "item", SymbolType: "function", Name: "F", Signature: "func F() <T> \"\t\x01é", ASTKind: "function_declaration"},
		IsExported: true,
	}}}
	cases := []struct {
		json string
		view View
		want string
	}{
		{"", Signatures, "a.go\n1: func F() <T> \"\t\x01é\n"},
		{"", Names, "a.go\nfunction: F\n"},
		{"compact", Names, `[{"path":"a.go","language":"Go","items":[{"role":"item","symbolType":"function","name":"F","range":{"byteOffset":{"start":0,"end":0},"start":{"line":0,"column":0},"end":{"line":0,"column":0}},"signature":"func F() <T> \"\t\u0001é","astKind":"function_declaration","isImport":false,"isExported":true}]}]` + "\n"},
		{"pretty", Names, "[\n  {\n    \"path\": \"a.go\",\n    \"language\": \"Go\",\n    \"items\": [\n      {\n        \"role\": \"item\",\n        \"symbolType\": \"function\",\n        \"name\": \"F\",\n        \"range\": {\n          \"byteOffset\": {\n            \"start\": 0,\n            \"end\": 0\n          },\n          \"start\": {\n            \"line\": 0,\n            \"column\": 0\n          },\n          \"end\": {\n            \"line\": 0,\n            \"column\": 0\n          }\n        },\n        \"signature\": \"func F() <T> \\\"\\t\\u0001é\",\n        \"astKind\": \"function_declaration\",\n        \"isImport\": false,\n        \"isExported\": true\n      }\n    ]\n  }\n]\n"},
	}
	for _, c := range cases {
		var b strings.Builder
		p := NewPrinter(&b, c.json, c.view)
		if err := p.File(f); err != nil {
			t.Fatal(err)
		}
		if err := p.Finish(); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("json %q view %d:\ngot  %q\nwant %q", c.json, c.view, b.String(), c.want)
		}
	}
	var cb strings.Builder
	cp := NewPrinter(&cb, "", Expanded)
	cp.SetStyle(Style{Colour: true, EmphasizeImports: true, EmphasizeExports: true})
	cf := &File{Path: "a.go", Items: []Item{{Entry: Entry{SymbolType: "struct", Name: "T", Signature: "type T struct {"}, IsExported: true,
		Members: []Member{{Entry: Entry{SymbolType: "field", Name: "x", Signature: "x int"}}}}}}
	if err := cp.File(cf); err != nil {
		t.Fatal(err)
	}
	if want := "\x1b[4ma.go\x1b[0m\n\x1b[2m1\x1b[0m: type \x1b[1;34mT\x1b[0m struct {\n\x1b[2m1\x1b[0m:   \x1b[2m\x1b[0m\x1b[2;33mx\x1b[0m\x1b[2m int\x1b[0m\n"; cb.String() != want {
		t.Errorf("colour:\ngot  %q\nwant %q", cb.String(), want)
	}
	var b strings.Builder
	p := NewPrinter(&b, "", Digest)
	if err := p.Finish(); err != nil || b.String() != "nothing found\n" {
		t.Errorf("no file: %q, %v", b.String(), err)
	}
}

func TestRuleFiles(t *testing.T) {
	cases := []struct{ src, err string }{
		{"id: a\nlanguage: go\nrole: item\nsymbolType: function\nrule: {kind: function_declaration}\nname: x\n", ""},
		{"id: a\nlanguage: go\nrole: item\nsymbolType: func\nrule: {kind: function_declaration}\nname: x\n", `unknown symbolType "func"`},
		{"id: a\nlanguage: nosuch\nrole: item\nsymbolType: function\nrule: {kind: x}\nname: x\n", "unsupported language"},
		{"id: a\nlanguage: go\nrole: thing\nsymbolType: function\nrule: {kind: x}\nname: x\n", "role must be item or member"},
		{"id: m\nlanguage: go\nrole: member\nparentRuleIds: [nope]\nsymbolType: field\nrule: {kind: x}\nname: x\n", `references "nope"`},
		{"id: a\nlanguage: go\nrole: item\nsymbolType: function\nrule: {kind: x}\nname: x\nextra: 1\n", `unknown key "extra"`},
		{"id: a\nlanguage: go\nrole: item\nsymbolType: function\nrule: {kind: x}\nname: x\nisExported: maybe\n", "must be a boolean or a rule"},
	}
	for _, c := range cases {
		err := Empty().Add([]byte(c.src))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.src, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want %q", c.src, err, c.err)
		}
	}
}
