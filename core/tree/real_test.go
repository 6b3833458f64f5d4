package tree_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
)

func parse(t *testing.T, lang, src string) *tree.Tree {
	t.Helper()
	l, err := language.Lookup(lang)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := l.Parse(context.Background(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestSExpErrors compares SExp with the S-expressions native tree-sitter
// prints (ts_node_string) for trees with MISSING, ERROR and UNEXPECTED
// nodes; tests/parity checks the same on whole corpora.
func TestSExpErrors(t *testing.T) {
	tests := []struct {
		lang, src, want string
	}{
		{"json", "[1, 2", `(document (array (number) (number) (MISSING "]")))`},
		{"json", `{"a": @}`, `(document (object (ERROR (string (string_content)) (UNEXPECTED '@'))))`},
		{"json", "\xff\xfe", `(document (ERROR (UNEXPECTED INVALID)))`},
		{"json", "[1 \uFFFD]", `(document (array (number) (ERROR (UNEXPECTED 65533))))`},
		{"json", "   ", `(document)`},
		{"javascript", "", `(program)`},
		{"javascript", "let x = ;", `(program (lexical_declaration (variable_declarator name: (identifier)) (ERROR)))`},
		{"javascript", "a(b, c", `(program (ERROR (identifier) (identifier) (identifier)))`},
		{"javascript", "if (a) { b(", `(program (ERROR (parenthesized_expression (identifier)) (property_identifier)))`},
		{"go", "package p\nfunc f() { g(1, }\n",
			`(source_file (package_clause (package_identifier)) (function_declaration name: (identifier) parameters: (parameter_list) body: (block (statement_list (expression_statement (call_expression function: (identifier) arguments: (argument_list (int_literal) (MISSING ")"))))))))`},
		{"go", "package p\nvar x = 1 \x01 2\n",
			`(source_file (package_clause (package_identifier)) (var_declaration (var_spec name: (identifier) (ERROR (int_literal) (UNEXPECTED 1)) value: (expression_list (int_literal)))))`},
		{"python", "def f(:\n  pass\n",
			`(module (function_definition name: (identifier) parameters: (parameters (MISSING ")")) body: (block (pass_statement))))`},
	}
	for _, tt := range tests {
		if got := parse(t, tt.lang, tt.src).Root().SExp(); got != tt.want {
			t.Errorf("%s %q:\ngot  %s\nwant %s", tt.lang, tt.src, got, tt.want)
		}
	}
}

func TestGoNavigation(t *testing.T) {
	src := "package p\n\n// f adds.\nfunc f(a int, b string) int { return g(a, \"ü\") + 1 }\n"
	tr := parse(t, "go", src)
	root := tr.Root()
	var fn tree.Node
	root.Descendants(func(n tree.Node) bool {
		if n.Kind() == "function_declaration" {
			fn = n
			return false
		}
		return true
	})
	if fn.IsZero() {
		t.Fatalf("no function_declaration in %s", root.SExp())
	}
	params := fn.ChildByField("parameters")
	var str tree.Node
	fn.Descendants(func(n tree.Node) bool {
		if n.Kind() == "interpreted_string_literal" {
			str = n
		}
		return str.IsZero()
	})
	checks := []struct {
		name      string
		got, want any
	}{
		{"name", fn.ChildByField("name").Text(), "f"},
		{"name field", fn.ChildByField("name").Field(), "name"},
		{"parameters", params.NamedChildCount(), 2},
		{"first parameter", params.NamedChildren()[0].Text(), "a int"},
		{"result", fn.ChildByField("result").Text(), "int"},
		{"comment before", fn.PrevNamedSibling().Kind(), "comment"},
		{"comment is extra", fn.PrevNamedSibling().IsExtra(), true},
		{"parent", fn.Parent().Equal(root), true},
		{"string text", str.Text(), `"ü"`},
		{"string start", str.StartPoint(), tree.Point{Row: 3, Column: 42}},
		{"string end (byte columns)", str.EndPoint(), tree.Point{Row: 3, Column: 46}},
		{"string bytes", str.EndByte() - str.StartByte(), 4},
		{"no errors", root.HasError(), false},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestInvariants checks navigation against the pre-order array on every
// node of every sample file: children, siblings, parents, named children,
// fields, containment and descendants agree with each other.
func TestInvariants(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "parse", "*", "*"))
	if err != nil || len(files) < 28 {
		t.Fatalf("samples: %v, %d files", err, len(files))
	}
	for _, f := range files {
		l, ok := language.ForPath(f)
		if !ok {
			t.Fatalf("%s: no language", f)
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := l.Parse(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		if root := tr.Root(); root.StartByte() != 0 && !root.IsExtra() || root.EndByte() > len(src) {
			t.Errorf("%s: root spans [%d,%d) of %d bytes", f, root.StartByte(), root.EndByte(), len(src))
		}
		for i := 0; i < tr.Len(); i++ {
			if msg := checkNode(tr.Node(i)); msg != "" {
				t.Errorf("%s: node %d (%s): %s", f, i, tr.Node(i).Kind(), msg)
				break
			}
		}
	}
}

func checkNode(n tree.Node) string {
	kids := n.Children()
	if len(kids) != n.ChildCount() {
		return "Children and ChildCount disagree"
	}
	named := 0
	for i, c := range kids {
		switch {
		case !c.Parent().Equal(n):
			return "a child's parent is not the node"
		case !n.Child(i).Equal(c):
			return "Child(i) differs from Children()[i]"
		case i > 0 && !c.PrevSibling().Equal(kids[i-1]):
			return "PrevSibling is not the previous child"
		case i+1 < len(kids) && !c.NextSibling().Equal(kids[i+1]):
			return "NextSibling is not the next child"
		case c.StartByte() < n.StartByte() || c.EndByte() > n.EndByte():
			return "a child lies outside the node's range"
		case !n.Contains(c) || c.Contains(n):
			return "Contains is wrong for a child"
		case c.Field() != "" && n.ChildByField(c.Field()).IsZero():
			return "ChildByField misses a child's field"
		}
		if c.IsNamed() {
			named++
		}
	}
	if len(kids) > 0 && (!n.FirstChild().Equal(kids[0]) || !n.LastChild().Equal(kids[len(kids)-1])) {
		return "FirstChild/LastChild disagree with Children"
	}
	if named != n.NamedChildCount() || named != len(n.NamedChildren()) {
		return "named child counts disagree"
	}
	if s := n.NextNamedSibling(); !s.IsZero() && (!s.IsNamed() || !s.PrevNamedSibling().Equal(n) && n.IsNamed()) {
		return "NextNamedSibling and PrevNamedSibling disagree"
	}
	count := 0
	n.Descendants(func(d tree.Node) bool {
		count++
		return d.Index() >= n.Index() && n.Contains(d)
	})
	size := 1
	for _, c := range kids {
		c.Descendants(func(tree.Node) bool { size++; return true })
	}
	if count != size {
		return "Descendants does not cover the children's subtrees"
	}
	if n.IsMissing() && n.StartByte() != n.EndByte() {
		return "a MISSING node has width"
	}
	return ""
}

func TestCharColumn(t *testing.T) {
	tr := parse(t, "javascript", "ab\néé x\n")
	for off, want := range map[int]int{0: 0, 2: 2, 3: 0, 5: 1, 7: 2, 8: 3, 9: 4, 10: 0, 99: 0} {
		if got := tr.CharColumn(off); got != want {
			t.Errorf("charColumn(%d) = %d, want %d", off, got, want)
		}
	}
}
