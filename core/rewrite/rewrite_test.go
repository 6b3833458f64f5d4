package rewrite

import (
	"context"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

func TestCompileVars(t *testing.T) {
	cases := []struct {
		src         string
		transformed []string
		want        string // name:kind list
	}{
		{"$A + $B", nil, "A:0 B:0"},
		{"$$$ARGS", nil, "ARGS:1"},
		{"$$A", nil, "A:0"},
		{"$$$$A", nil, "A:1"},
		{"$1 $a $ $$ $_X $A1_B", nil, "_X:0 A1_B:0"},
		{"$T and $$$T", []string{"T"}, "T:2 T:1"},
		{"cost: 5$", nil, ""},
	}
	for _, c := range cases {
		var got []string
		for _, v := range Compile(c.src, c.transformed).Vars() {
			got = append(got, v.Name+":"+string(rune('0'+v.Kind)))
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%q: vars %q, want %q", c.src, strings.Join(got, " "), c.want)
		}
	}
}

func TestIndentAt(t *testing.T) {
	cases := []struct {
		src  string
		want int
	}{
		{"", 0},
		{"abc", 0},
		{"   abc", 3},
		{"   ", 3},
		{"x\n    foo(", 4},
		{"x\n\tfoo(", 0},
		{"x\n  \t  foo", 2},
		{"x\n" + strings.Repeat(" ", 600), 0},
		{"x\n" + strings.Repeat(" ", 10) + strings.Repeat("a", 600), 0},
	}
	for _, c := range cases {
		if got := IndentAt([]byte(c.src), len(c.src)); got != c.want {
			t.Errorf("IndentAt(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}

func TestReindent(t *testing.T) {
	cases := []struct {
		text     string
		from, to int
		want     string
	}{
		{"a\n  b\n  c", 2, 2, "a\n  b\n  c"},
		{"a\n    b\n c", 2, 0, "a\n  b\n c"},
		{"  a\n  b", 2, 0, "a\nb"},
		{"a\nb", 0, 2, "a\n  b"},
		{"one line", 0, 4, "one line"},
	}
	for _, c := range cases {
		if got := string(Reindent([]byte(c.text), c.from, c.to)); got != c.want {
			t.Errorf("Reindent(%q, %d, %d) = %q, want %q", c.text, c.from, c.to, got, c.want)
		}
	}
}

func parse(t testing.TB, lang, src string) *tree.Tree {
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

// find returns the first node of the given kind and text prefix.
func find(t testing.TB, tr *tree.Tree, kind, prefix string) tree.Node {
	t.Helper()
	for i := 0; i < tr.Len(); i++ {
		n := tr.Node(i)
		if n.Kind() == kind && strings.HasPrefix(n.Text(), prefix) {
			return n
		}
	}
	t.Fatalf("no %s starting with %q", kind, prefix)
	return tree.Node{}
}

func TestRender(t *testing.T) {
	src := "function f() {\n  if (x) {\n    g(1,\n      2);\n  }\n  h(a, b, c);\n}\n"
	tr := parse(t, "typescript", src)
	ifStmt := find(t, tr, "if_statement", "if")
	body := find(t, tr, "statement_block", "{\n    g")
	call := find(t, tr, "call_expression", "h(")
	args := call.ChildByField("arguments").NamedChildren()

	env := &match.Env{}
	env.BindSingle("BODY", body)
	env.BindSingle("COND", find(t, tr, "identifier", "x"))
	env.BindMulti("ARGS", args)
	env.SetTransformed("T", "one\ntwo")

	cases := []struct {
		name, tmpl string
		node       tree.Node
		want       string
	}{
		{"single line", "while ($COND) {}", ifStmt, "while (x) {}"},
		{"multi-line var keeps its layout", "while ($COND) $BODY", ifStmt, "while (x) {\n    g(1,\n      2);\n  }"},
		{"var re-indented to its template line", "do {\n  run();\n  $BODY\n}", ifStmt,
			"do {\n    run();\n    {\n      g(1,\n        2);\n    }\n  }"},
		{"multi var spans the source between nodes", "k($$$ARGS)", call, "k(a, b, c)"},
		{"transformed var is indented", "x(\n    $T)", call, "x(\n      one\n      two)"},
		{"unbound vars are empty", "[$NOPE|$$$NOPE]", call, "[|]"},
		{"text only", "a\nb", call, "a\n  b"},
	}
	for _, c := range cases {
		tmpl := Compile(c.tmpl, []string{"T"})
		if got := tmpl.Render(env, c.node); got != c.want {
			t.Errorf("%s: Render(%q) =\n%q\nwant\n%q", c.name, c.tmpl, got, c.want)
		}
	}
}

func TestDeindent(t *testing.T) {
	src := []byte("x\n    foo(a,\n      b)")
	start := strings.Index(string(src), "foo")
	if got := string(Deindent(src, start, len(src))); got != "foo(a,\n  b)" {
		t.Errorf("Deindent = %q", got)
	}
	if got := string(DeindentText([]byte("p\n    q"), src, start)); got != "p\nq" {
		t.Errorf("DeindentText = %q", got)
	}
}

func TestApply(t *testing.T) {
	src := []byte("0123456789")
	cases := []struct {
		name  string
		edits []Edit
		want  string
	}{
		{"none", nil, "0123456789"},
		{"one", []Edit{{2, 4, []byte("x")}}, "01x456789"},
		{"unsorted", []Edit{{6, 7, []byte("b")}, {1, 2, []byte("a")}}, "0a2345b789"},
		{"overlap keeps the earlier start", []Edit{{2, 6, []byte("x")}, {4, 8, []byte("y")}}, "01x6789"},
		{"touching edits both apply", []Edit{{2, 4, []byte("x")}, {4, 6, []byte("y")}}, "01xy6789"},
		{"insertions at one point keep order", []Edit{{3, 3, []byte("a")}, {3, 3, []byte("b")}}, "012ab3456789"},
		{"nested edit dropped", []Edit{{1, 9, []byte("x")}, {3, 4, []byte("y")}}, "0x9"},
	}
	for _, c := range cases {
		got, err := Apply(src, c.edits)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if string(got) != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if _, err := Apply(src, []Edit{{5, 20, nil}}); err == nil {
		t.Error("an edit past the end must be an error")
	}
	if _, err := Apply(src, []Edit{{5, 4, nil}}); err == nil {
		t.Error("a reversed edit must be an error")
	}
	if got := Accepted([]Edit{{4, 8, nil}, {2, 6, nil}}); len(got) != 1 || got[0].Start != 2 {
		t.Errorf("Accepted = %v", got)
	}
}
