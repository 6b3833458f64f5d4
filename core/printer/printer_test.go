package printer

import (
	"reflect"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
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
		if got := Lines(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Lines(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPaint(t *testing.T) {
	tests := []struct {
		s    Style
		want string
	}{
		{Style{}, "x"},
		{Style{Fg: Green}, "\x1b[32mx\x1b[0m"},
		{Style{Bold: true, Dimmed: true, Italic: true, Fg: Fixed(161)}, "\x1b[1;2;3;38;5;161mx\x1b[0m"},
	}
	for _, tt := range tests {
		if got := tt.s.Paint("x"); got != tt.want {
			t.Errorf("%+v.Paint = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestMetaVarDisplay(t *testing.T) {
	tests := []struct {
		text  string
		sigil rune
		want  string // "" for not a metavariable
	}{
		{"$A", '$', "$A"},
		{"$$A", '$', "$A"},
		{"$$$ARGS", '$', "$$$ARGS"},
		{"$$$", '$', "$$$"},
		{"$$$_", '$', "$$$"},
		{"$_X", '$', "$_"},
		{"$1", '$', ""},
		{"$a", '$', ""},
		{"foo", '$', ""},
		{"µX", 'µ', "$X"},
		{"µµµL", 'µ', "$$$L"},
	}
	for _, tt := range tests {
		got, ok := metaVarDisplay(tt.text, tt.sigil)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("metaVarDisplay(%q, %q) = %q, %v; want %q", tt.text, tt.sigil, got, ok, tt.want)
		}
	}
}

// TestPlainMarkdown renders notes as ast-grep 0.51.1 prints them without
// colours (each want was read from its output).
func TestPlainMarkdown(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"markers", "Use **`errors.Is`** here.\n*Why*: a * b", "Use errors.Is here.\nWhy: a  b\n"},
		{"final line break", "a\nb\n", "a\nb\n"},
		{"escapes", `x\*y and \` + "`" + ` and \\ and \q`, "x*y and ` and \\ and \\q\n"},
		{"code keeps stars", "`a*b` 2*3*4 ~x~ ***both*** end*", "a*b 234 ~x~ both end*\n"},
		{"star tilde", "*~odd~*", "odd~\n"},
		{"strikeout", "Para **bold** *it* `code` ~~strike~~ end", "Para bold it code strike end\n"},
		{"lists", "- dash item\n* star item\n  - nested two\n1. first\n2) second", "• dash item\n• star item\n  • nested two\n1. first\n2. second\n"},
		{"renumbered", "7. seven\n8. eight\n- x\n3. three", "7. seven\n8. eight\n• x\n3. three\n"},
		{"code block", "    code four\n    longer code line\nafter\n\ttab code\n```go\nfenced\n  fenced indented\n```",
			"code four       \nlonger code line\nafter\ntab code         \nfenced           \n  fenced indented\n"},
		{"headers quotes rules", "# Header one\n## Header two\n> quote\n>\n---\n-----\n- - -\n#notheader\ntrailing   ",
			"Header one\nHeader two\n▐ quote\n▐ \n\n\n• - -\n#notheader\ntrailing   \n"},
	}
	for _, c := range cases {
		if got := plainMarkdown(c.in); got != c.want {
			t.Errorf("%s: plainMarkdown(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// TestDiffAlignment diffs a rewrite where several edits are equally short
// and pairs the lines as ast-grep (the similar crate) pairs them: its
// output for the same rewrite, read from `ast-grep run`.
func TestDiffAlignment(t *testing.T) {
	old := "x = `\n}\nc\n}\nd\na\n}\na\nc\nd\n`\n"
	updated := "x = `\n  }\n  }\n}\nd\nb\nb\n  }\nb\na\nb\n`\n"
	want := "@@ -0,11 +0,12 @@\n" +
		"1  1 │ x = `\n" +
		"2    │-}\n" +
		"3    │-c\n" +
		"   2 │+  }\n" +
		"   3 │+  }\n" +
		"4  4 │ }\n" +
		"5  5 │ d\n" +
		"   6 │+b\n" +
		"   7 │+b\n" +
		"   8 │+  }\n" +
		"   9 │+b\n" +
		"6  10│ a\n" +
		"7    │-}\n" +
		"8    │-a\n" +
		"9    │-c\n" +
		"10   │-d\n" +
		"   11│+b\n" +
		"11 12│ `\n"
	var b strings.Builder
	Diff(&b, old, updated, 3, Palette{})
	if b.String() != want {
		t.Errorf("got\n%s\nwant (ast-grep)\n%s", b.String(), want)
	}
}
