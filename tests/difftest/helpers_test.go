package difftest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

func TestParseCases(t *testing.T) {
	src := `# comment
== python local
def $F():
    $$$B
%strictness=cst %none return $A
%selector=call %bounded def _():
    f($A)
%error a = 1
  b = 2
== go go-std
%differs $A
`
	got, err := ParseCases(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Case{
		{Line: 3, Lang: "python", Corpus: "local", Pattern: "def $F():\n  $$$B"},
		{Line: 5, Lang: "python", Corpus: "local", Pattern: "return $A", Strictness: "cst", Expect: ExpectNone},
		{Line: 6, Lang: "python", Corpus: "local", Pattern: "def _():\n  f($A)", Selector: "call", Bounded: true},
		{Line: 8, Lang: "python", Corpus: "local", Pattern: "a = 1\nb = 2", Expect: ExpectError},
		{Line: 11, Lang: "go", Corpus: "go-std", Pattern: "$A", Expect: ExpectDiffer},
	}
	if !slices.Equal(got, want) {
		t.Errorf("ParseCases:\n got  %+v\n want %+v", got, want)
	}
	for _, bad := range []string{"$A\n", "== go\n", "== go x\n%bogus $A\n", "== go x\n%none\n", "  cont\n"} {
		if _, err := ParseCases(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseCases(%q) accepted it", bad)
		}
	}
}

func TestCompareAnswers(t *testing.T) {
	m := func(file string, start int, a string) Match {
		return Match{File: file, Start: start, End: start + 1, Singles: map[string]Capture{"A": {a, start, start + 1}}}
	}
	for _, keep := range []int{100, 1} { // with keys, and past the limit with file digests only
		ref, got := NewAnswer(keep), NewAnswer(keep)
		for _, x := range []Match{m("a.go", 1, "x"), m("a.go", 5, "y"), m("b.go", 2, "z")} {
			ref.Add(x)
		}
		for _, x := range []Match{m("b.go", 2, "z"), m("a.go", 5, "y"), m("a.go", 1, "x")} {
			got.Add(x)
		}
		if d := Compare(ref, got); d != nil {
			t.Errorf("keep %d: equal answers differ: %q", keep, d)
		}
		got.Add(m("b.go", 9, "w"))
		other := NewAnswer(keep)
		for _, x := range []Match{m("a.go", 1, "x"), m("a.go", 5, "Y"), m("b.go", 2, "z")} {
			other.Add(x)
		}
		if d := Compare(ref, got); len(d) != 1 || !strings.Contains(d[0], "b.go") {
			t.Errorf("keep %d: an extra match: %q", keep, d)
		}
		if d := Compare(ref, other); len(d) == 0 || !strings.Contains(strings.Join(d, " "), "a.go") {
			t.Errorf("keep %d: another binding: %q", keep, d)
		}
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.go": "package a", "sub/b.go": "package b", "empty.go": "", ".hidden.go": "package h",
		".git/c.go": "package c", "d.txt": "x", "sub/.e/f.go": "package f",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lang, err := language.Lookup("go")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Files(dir, lang)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.go", "sub/b.go"}; !slices.Equal(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}
	if got, _ := Files(dir, lang, "sub"); !slices.Equal(got, []string{"sub/b.go"}) {
		t.Errorf("Files(sub) = %q", got)
	}
}
