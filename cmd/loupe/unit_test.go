package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestJSONEncoding(t *testing.T) {
	v := obj(
		"s", jsonString("q\" b\\ \b\f\n\r\t \x01\x1f \x7f é \u2028 <&> \xff"),
		"n", jsonInt(-3),
		"b", jsonBool(true),
		"e", jsonObject{},
		"a", jsonArray{},
		"l", jsonArray{jsonInt(1), obj("k", jsonString("v"))},
	)
	compact := `{"s":"q\" b\\ \b\f\n\r\t \u0001\u001f ` + "\x7f é \u2028 <&> \ufffd" + `","n":-3,"b":true,"e":{},"a":[],"l":[1,{"k":"v"}]}`
	if got := encodeJSON(v, false); got != compact {
		t.Errorf("compact:\n got %s\nwant %s", got, compact)
	}
	pretty := "{\n  \"n\": 1,\n  \"o\": {\n    \"a\": [\n      2\n    ]\n  }\n}"
	if got := encodeJSON(obj("n", jsonInt(1), "o", obj("a", jsonArray{jsonInt(2)})), true); got != pretty {
		t.Errorf("pretty:\n%s\nwant\n%s", got, pretty)
	}
}

func TestFlagSet(t *testing.T) {
	fs := newFlagSet("t")
	p := fs.String('p', "pattern", "P", "")
	u := fs.Bool('U', "update-all", "")
	i := fs.Bool('i', "interactive", "")
	j := fs.Optional("json", "STYLE", "pretty", "")
	g := fs.List(0, "globs", "G", "")
	n := fs.String('j', "threads", "N", "")
	err := fs.Parse([]string{"-Ui", "-pfoo($A)", "a", "--json", "--globs", "*.ts", "--globs=!x", "-j", "3", "b", "--", "--c"})
	if err != nil {
		t.Fatal(err)
	}
	if p.value != "foo($A)" || !u.set || !i.set || j.value != "pretty" || n.value != "3" {
		t.Errorf("values: p=%q U=%v i=%v json=%q j=%q", p.value, u.set, i.set, j.value, n.value)
	}
	if !reflect.DeepEqual(g.values, []string{"*.ts", "!x"}) || !reflect.DeepEqual(fs.args, []string{"a", "b", "--c"}) {
		t.Errorf("globs %q args %q", g.values, fs.args)
	}
	fs2 := newFlagSet("t")
	j2 := fs2.Optional("json", "STYLE", "pretty", "")
	p2 := fs2.String('p', "pattern", "P", "")
	if err := fs2.Parse([]string{"--json=stream", "--pattern=x=y", "-p=z"}); err != nil {
		t.Fatal(err)
	}
	if j2.value != "stream" || p2.value != "z" {
		t.Errorf("json=%q pattern=%q", j2.value, p2.value)
	}
	for _, bad := range [][]string{{"--nope"}, {"-x"}, {"-p"}, {"--update-all=1"}} {
		fs := newFlagSet("t")
		fs.String('p', "pattern", "P", "")
		fs.Bool('U', "update-all", "")
		if err := fs.Parse(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
	fs3 := newFlagSet("t")
	c := fs3.String(0, "color", "WHEN", "")
	if err := fs3.Parse([]string{"--color", "purple"}); err != nil {
		t.Fatal(err)
	}
	if err := c.oneOf("auto", "never"); err == nil {
		t.Error("oneOf must refuse purple")
	}
}

func TestRustLines(t *testing.T) {
	tests := map[string][]string{
		"":          nil,
		"a":         {"a"},
		"a\n":       {"a"},
		"\n":        {""},
		"a\r\nb":    {"a", "b"},
		"a\n\nb\n":  {"a", "", "b"},
		"a\r":       {"a\r"},
		"a\r\n\r\n": {"a", ""},
	}
	for in, want := range tests {
		if got := rustLines(in); !reflect.DeepEqual(got, want) {
			t.Errorf("rustLines(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCharColumn(t *testing.T) {
	src := []byte("ab\néé x\n")
	for off, want := range map[int]int{0: 0, 2: 2, 3: 0, 5: 1, 7: 2, 8: 3, 9: 4, 10: 0} {
		if got := charColumn(src, off); got != want {
			t.Errorf("charColumn(%d) = %d, want %d", off, got, want)
		}
	}
}

func TestGroupOps(t *testing.T) {
	var a, b []string
	for i := range 20 {
		l := strings.Repeat("x", i) + "\n"
		a = append(a, l)
		if i == 2 || i == 15 {
			l = "changed\n"
		}
		b = append(b, l)
	}
	groups := groupOps(diffLines(a, b), 3)
	if len(groups) != 2 {
		t.Fatalf("%d hunks, want 2: %+v", len(groups), groups)
	}
	if g := groups[0]; g[0].oldStart != 0 || g[len(g)-1].oldStart+g[len(g)-1].oldLen != 6 {
		t.Errorf("first hunk %+v", g)
	}
	if g := groups[1]; g[0].oldStart != 12 || g[len(g)-1].oldStart+g[len(g)-1].oldLen != 19 {
		t.Errorf("second hunk %+v", g)
	}
	// Insertions and deletions in the middle of equal runs.
	ops := diffLines([]string{"a", "b", "c", "d"}, []string{"a", "x", "c", "d", "e"})
	want := []diffOp{{0, 1, 0, 1, true}, {1, 1, 1, 1, false}, {2, 2, 2, 2, true}, {4, 0, 4, 1, false}}
	if !reflect.DeepEqual(ops, want) {
		t.Errorf("ops %+v, want %+v", ops, want)
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t.ts")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l.ts")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(target)
	if err != nil || string(got) != "new" {
		t.Fatalf("target holds %q (%v)", got, err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink must stay a symlink")
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode not kept: %v %v", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary file left behind: %d entries", len(entries))
	}
	if err := writeAtomic(filepath.Join(dir, "missing.ts"), nil); err == nil {
		t.Error("a missing file must be an error")
	}
}
