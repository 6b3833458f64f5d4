package tree

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/host"
)

// The hand-built trees below model `f(a,b) /*c*/` so each test can state
// exactly which records it feeds New.
var testNames = &host.Names{
	Symbols: []string{"end", "program", "call", "identifier", "(", ")", ",", "comment", "_hidden"},
	Named:   []bool{false, true, true, true, false, false, false, true, true},
	Visible: []bool{false, true, true, true, true, true, true, true, false},
	Fields:  []string{"", "function", "argument"},
}

const testSource = "f(a,b) /*c*/"

const (
	named = host.FlagNamed
	extra = host.FlagExtra
)

func leaf(sym, field uint16, flags uint32, start, end uint32) host.Node {
	return host.Node{Symbol: sym, Field: field, Flags: flags, StartByte: start, EndByte: end, SubtreeSize: 1}
}

// callNodes returns the flat tree of testSource; its records can be edited
// to make broken variants.
func callNodes() []host.Node {
	return []host.Node{
		{Symbol: 1, Flags: named, EndByte: 12, ChildCount: 2, SubtreeSize: 9},
		{Symbol: 2, Flags: named, EndByte: 6, ChildCount: 6, SubtreeSize: 7},
		leaf(3, 1, named, 0, 1),
		leaf(4, 0, 0, 1, 2),
		leaf(3, 2, named, 2, 3),
		leaf(6, 0, 0, 3, 4),
		leaf(3, 2, named, 4, 5),
		leaf(5, 0, 0, 5, 6),
		leaf(7, 2, named|extra, 7, 12), // a field on an extra is never printed
	}
}

func mustNew(t *testing.T, nodes []host.Node) *Tree {
	t.Helper()
	tr, err := New([]byte(testSource), nodes, testNames)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestNewRejectsMalformed(t *testing.T) {
	tests := []struct {
		name  string
		edit  func([]host.Node) []host.Node
		names *host.Names
	}{
		{"no nodes", func([]host.Node) []host.Node { return nil }, testNames},
		{"no names", func(n []host.Node) []host.Node { return n }, nil},
		{"root size short", func(n []host.Node) []host.Node { n[0].SubtreeSize = 8; return n }, testNames},
		{"root size long", func(n []host.Node) []host.Node { n[0].SubtreeSize = 10; return n }, testNames},
		{"zero subtree", func(n []host.Node) []host.Node { n[3].SubtreeSize = 0; return n }, testNames},
		{"child overruns parent", func(n []host.Node) []host.Node { n[7].SubtreeSize = 2; return n }, testNames},
		{"subtree past the array", func(n []host.Node) []host.Node { n[8].SubtreeSize = 5; return n }, testNames},
		{"too few children counted", func(n []host.Node) []host.Node { n[1].ChildCount = 5; return n }, testNames},
		{"too many children counted", func(n []host.Node) []host.Node { n[1].ChildCount = 7; return n }, testNames},
		{"leaf claims children", func(n []host.Node) []host.Node { n[2].ChildCount = 1; return n }, testNames},
		{"range reversed", func(n []host.Node) []host.Node { n[4].StartByte = 4; return n }, testNames},
		{"range past source", func(n []host.Node) []host.Node { n[0].EndByte = 99; return n }, testNames},
		{"unknown symbol", func(n []host.Node) []host.Node { n[2].Symbol = 42; return n }, testNames},
		{"unknown field", func(n []host.Node) []host.Node { n[2].Field = 9; return n }, testNames},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := New([]byte(testSource), tt.edit(callNodes()), tt.names)
			if err == nil {
				t.Fatalf("New accepted a malformed array: %v", tr.Root().SExp())
			}
		})
	}
}

func TestNavigation(t *testing.T) {
	tr := mustNew(t, callNodes())
	root := tr.Root()
	call := root.FirstChild()
	comment := root.LastChild()
	kids := call.Children()
	kinds := func(ns []Node) string {
		var s []string
		for _, n := range ns {
			s = append(s, n.Kind())
		}
		return strings.Join(s, " ")
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"root kind", root.Kind(), "program"},
		{"root parent", root.Parent().IsZero(), true},
		{"root siblings", root.NextSibling().IsZero() && root.PrevSibling().IsZero(), true},
		{"call kind", call.Kind(), "call"},
		{"comment", comment.Kind(), "comment"},
		{"comment extra", comment.IsExtra(), true},
		{"comment field", comment.Field(), "argument"},
		{"children", kinds(kids), "identifier ( identifier , identifier )"},
		{"named children", kinds(call.NamedChildren()), "identifier identifier identifier"},
		{"child count", call.ChildCount(), 6},
		{"named child count", call.NamedChildCount(), 3},
		{"child 3", call.Child(3).Kind(), ","},
		{"child -1", call.Child(-1).IsZero(), true},
		{"child 6", call.Child(6).IsZero(), true},
		{"last child", call.LastChild().Kind(), ")"},
		{"leaf first child", kids[0].FirstChild().IsZero(), true},
		{"leaf last child", kids[0].LastChild().IsZero(), true},
		{"field function", call.ChildByField("function").Text(), "f"},
		{"field argument", call.ChildByField("argument").Text(), "a"},
		{"fields argument", len(call.ChildrenByField("argument")), 2},
		{"no such field", call.ChildByField("body").IsZero(), true},
		{"next sibling", kids[1].NextSibling().Text(), "a"},
		{"prev sibling", kids[1].PrevSibling().Text(), "f"},
		{"first has no prev", kids[0].PrevSibling().IsZero(), true},
		{"last has no next", kids[5].NextSibling().IsZero(), true},
		{"next named", kids[1].NextNamedSibling().Text(), "a"},
		{"prev named", kids[3].PrevNamedSibling().Text(), "a"},
		{"no next named", kids[5].NextNamedSibling().IsZero(), true},
		{"no prev named", kids[0].PrevNamedSibling().IsZero(), true},
		{"parent", kids[4].Parent().Equal(call), true},
		{"grandparent", kids[4].Parent().Parent().Equal(root), true},
		{"call next", call.NextSibling().Equal(comment), true},
		{"comment prev", comment.PrevSibling().Equal(call), true},
		{"contains child", call.Contains(kids[2]), true},
		{"contains self", call.Contains(call), true},
		{"not contains parent", call.Contains(root), false},
		{"not contains sibling", call.Contains(comment), false},
		{"text", call.Text(), "f(a,b)"},
		{"bytes", string(comment.Bytes()), "/*c*/"},
		{"range", [2]int{kids[4].StartByte(), kids[4].EndByte()}, [2]int{4, 5}},
		{"points", [2]Point{kids[4].StartPoint(), kids[4].EndPoint()}, [2]Point{{0, 4}, {0, 5}}},
		{"index", kids[2].Index(), 4},
		{"node by index", tr.Node(4).Equal(kids[2]), true},
		{"node out of range", tr.Node(9).IsZero() && tr.Node(-1).IsZero(), true},
		{"len", tr.Len(), 9},
		{"kind id", kids[0].KindID(), uint16(3)},
		{"named", [2]bool{kids[0].IsNamed(), kids[1].IsNamed()}, [2]bool{true, false}},
		{"source", string(tr.Source()), testSource},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}

	var order []int
	call.Descendants(func(n Node) bool {
		order = append(order, n.Index())
		return true
	})
	if len(order) != 7 || order[0] != 1 || order[6] != 7 {
		t.Errorf("Descendants visited %v", order)
	}
	var first []string
	root.Descendants(func(n Node) bool {
		first = append(first, n.Kind())
		return len(first) < 3
	})
	if strings.Join(first, " ") != "program call identifier" {
		t.Errorf("Descendants did not stop: %v", first)
	}
}

// TestZeroNode checks every method is safe on the zero Node.
func TestZeroNode(t *testing.T) {
	var z Node
	tr := mustNew(t, callNodes())
	if !z.IsZero() || z.Kind() != "" || z.Field() != "" || z.Text() != "" || z.Bytes() != nil ||
		z.IsNamed() || z.IsExtra() || z.IsMissing() || z.IsError() || z.HasError() ||
		z.ChildCount() != 0 || z.NamedChildCount() != 0 || len(z.Children()) != 0 || len(z.NamedChildren()) != 0 ||
		z.StartByte() != 0 || z.EndByte() != 0 || z.StartPoint() != (Point{}) || z.EndPoint() != (Point{}) ||
		z.SExp() != "" || z.Tree() != nil {
		t.Error("zero Node reports something")
	}
	for _, n := range []Node{z.Parent(), z.FirstChild(), z.LastChild(), z.NextSibling(), z.PrevSibling(),
		z.NextNamedSibling(), z.PrevNamedSibling(), z.Child(0), z.ChildByField("function"),
		tr.Root().Parent().Parent().NextSibling().FirstChild()} {
		if !n.IsZero() {
			t.Errorf("navigation from the zero Node reached %v", n.Kind())
		}
	}
	z.Descendants(func(Node) bool { t.Error("zero Node has descendants"); return true })
	if z.Contains(tr.Root()) || tr.Root().Contains(z) {
		t.Error("containment with the zero Node")
	}
}

func TestSExp(t *testing.T) {
	const errID = ErrorKindID
	tests := []struct {
		name string
		src  string // testSource when empty
		edit func([]host.Node) []host.Node
		want string
	}{
		{"plain", "", nil,
			"(program (call function: (identifier) argument: (identifier) argument: (identifier)) (comment))"},
		{"missing anonymous", "", func(n []host.Node) []host.Node {
			n[7] = leaf(5, 0, host.FlagMissing, 6, 6)
			return n
		}, `(program (call function: (identifier) argument: (identifier) argument: (identifier) (MISSING ")")) (comment))`},
		{"missing named", "", func(n []host.Node) []host.Node {
			n[6] = leaf(3, 2, named|host.FlagMissing, 4, 4)
			return n
		}, `(program (call function: (identifier) argument: (identifier) argument: (MISSING identifier)) (comment))`},
		{"unexpected leaf", "", func(n []host.Node) []host.Node {
			n[5] = leaf(errID, 0, named|host.FlagError, 3, 4)
			return n
		}, `(program (call function: (identifier) argument: (identifier) (UNEXPECTED ',') argument: (identifier)) (comment))`},
		{"unexpected non-ASCII", "f(a,b) ü/*c", func(n []host.Node) []host.Node {
			n[8] = leaf(errID, 0, named|host.FlagError, 7, 12)
			return n
		}, `(program (call function: (identifier) argument: (identifier) argument: (identifier)) (UNEXPECTED 252))`},
		{"empty error", "", func(n []host.Node) []host.Node {
			n[8] = leaf(errID, 0, named|host.FlagError, 12, 12)
			return n
		}, `(program (call function: (identifier) argument: (identifier) argument: (identifier)) (ERROR))`},
		{"error with children", "", func(n []host.Node) []host.Node {
			n[1].Symbol, n[1].Flags = errID, named|host.FlagError|host.FlagHasError
			return n
		}, "(program (ERROR function: (identifier) argument: (identifier) argument: (identifier)) (comment))"},
		{"anonymous subtree", "", func(n []host.Node) []host.Node { return n[3:4] }, `("(")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := callNodes()
			src := testSource
			if tt.src != "" {
				src = tt.src
			}
			if tt.edit != nil {
				nodes = tt.edit(nodes)
			}
			tr, err := New([]byte(src), nodes, testNames)
			if err != nil {
				t.Fatal(err)
			}
			if got := tr.Root().SExp(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestWriteChar(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"x", "'x'"},
		{" ", "' '"},
		{"\x00", `'\0'`},
		{"\n", `'\n'`},
		{"\t", `'\t'`},
		{"\r", `'\r'`},
		{"\x01", "1"},
		{"\x7f", "127"},
		{"é", "233"},
		{"\uFFFD", "65533"},
		{"\xff", "INVALID"},
		{"\xed\xa0\x80", "INVALID"}, // a UTF-16 surrogate is not UTF-8
	}
	for _, tt := range tests {
		var b strings.Builder
		writeChar(&b, []byte(tt.in))
		if b.String() != tt.want {
			t.Errorf("writeChar(%q) = %s, want %s", tt.in, b.String(), tt.want)
		}
	}
}

// TestPoints checks rows and byte columns derived from offsets, counted as
// tree-sitter counts them: a row per '\n' only, columns in bytes.
func TestPoints(t *testing.T) {
	tests := []struct {
		name   string
		source string
		off    uint32
		want   Point
	}{
		{"start", "ab\ncd", 0, Point{0, 0}},
		{"on the newline", "ab\ncd", 2, Point{0, 2}},
		{"after the newline", "ab\ncd", 3, Point{1, 0}},
		{"end of source", "ab\ncd", 5, Point{1, 2}},
		{"end after a final newline", "ab\n", 3, Point{1, 0}},
		{"crlf ends a row at the lf", "a\r\nb", 1, Point{0, 1}},
		{"crlf: cr is a column", "a\r\nb", 2, Point{0, 2}},
		{"crlf: next row", "a\r\nb", 3, Point{1, 0}},
		{"lone cr is no row", "a\rb", 2, Point{0, 2}},
		{"empty rows", "\n\n\nx", 3, Point{3, 0}},
		{"multibyte columns in bytes", "é\nπx", 5, Point{1, 2}},
		{"empty source", "", 0, Point{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := uint32(len(tt.source))
			tr, err := New([]byte(tt.source), []host.Node{{Symbol: 1, Flags: named, EndByte: n, SubtreeSize: 1}}, testNames)
			if err != nil {
				t.Fatal(err)
			}
			if got := tr.point(tt.off); got != tt.want {
				t.Errorf("point(%d) = %v, want %v", tt.off, got, tt.want)
			}
			if got, want := tr.Root().EndPoint(), tr.point(n); got != want {
				t.Errorf("root end %v, want %v", got, want)
			}
			start := int(tt.off) - tt.want.Column
			row, col := tr.CharPosition(int(tt.off))
			if want := utf8.RuneCountInString(tt.source[start:tt.off]); row != tt.want.Row || col != want || tr.CharColumn(int(tt.off)) != want {
				t.Errorf("CharPosition(%d) = %d, %d; want %d, %d", tt.off, row, col, tt.want.Row, want)
			}
		})
	}
}

// TestCharRange: CharRange agrees with CharPosition at both ends for every
// pair of offsets of sources with long ASCII runs, characters of several
// bytes, invalid bytes, empty rows and CRLF; charCount with
// utf8.RuneCount on every slice.
func TestCharRange(t *testing.T) {
	sources := []string{
		"",
		"abcdefghijklmnopqrstuvwxyz",
		"abcdefghij\nklmnopqrstuvwxyz0123\n\n\nx",
		"déjà vu, déjà vu\nπ is 3.14159265358979\r\n\tend",
		"ascii then \xff\xfe invalid\nand \xe2\x82 a cut rune",
		"\n\n\n",
		"12345678é12345678\n12345678",
	}
	for _, src := range sources {
		n := uint32(len(src))
		tr, err := New([]byte(src), []host.Node{{Symbol: 1, Flags: named, EndByte: n, SubtreeSize: 1}}, testNames)
		if err != nil {
			t.Fatal(err)
		}
		for start := 0; start <= len(src); start++ {
			for end := start; end <= len(src); end++ {
				if got, want := charCount([]byte(src[start:end])), utf8.RuneCountInString(src[start:end]); got != want {
					t.Fatalf("%q: charCount of [%d, %d) = %d, want %d", src, start, end, got, want)
				}
				sr, sc, er, ec := tr.CharRange(start, end)
				wsr, wsc := tr.CharPosition(start)
				wer, wec := tr.CharPosition(end)
				if sr != wsr || sc != wsc || er != wer || ec != wec {
					t.Fatalf("%q: CharRange(%d, %d) = %d:%d-%d:%d, want %d:%d-%d:%d", src, start, end, sr, sc, er, ec, wsr, wsc, wer, wec)
				}
			}
		}
	}
}

// A tree over another's source (code injected in it) reports the outer
// file's positions and shares its row index: the trees of many regions
// of one big file index its rows once.
func TestNewOver(t *testing.T) {
	src := []byte("<p>\nx</p>\n<script>f(a)</script>\n")
	outer, err := New(src, []host.Node{{Symbol: 1, Flags: named, EndByte: uint32(len(src)), SubtreeSize: 1}}, testNames)
	if err != nil {
		t.Fatal(err)
	}
	off := uint32(strings.Index(string(src), "f(a)"))
	inner, err := NewOver(outer, []host.Node{
		{Symbol: 1, Flags: named, StartByte: off, EndByte: off + 4, ChildCount: 1, SubtreeSize: 2},
		leaf(3, 0, named, off, off+1),
	}, testNames)
	if err != nil {
		t.Fatal(err)
	}
	if p := inner.Node(1).StartPoint(); p != (Point{Row: 2, Column: 8}) {
		t.Errorf("start %+v, want row 2, column 8", p)
	}
	if row, col := inner.CharPosition(int(off + 4)); row != 2 || col != 12 {
		t.Errorf("end at %d:%d, want 2:12", row, col)
	}
	if &inner.rows()[0] != &outer.rows()[0] {
		t.Error("the inner tree made a row index of its own")
	}
}
