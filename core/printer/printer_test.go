package printer

import (
	"reflect"
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

func TestPlainMarkdown(t *testing.T) {
	in := "Use **`errors.Is`** here.\n*Why*: a * b"
	want := "Use errors.Is here.\nWhy: a * b\n"
	if got := plainMarkdown(in); got != want {
		t.Errorf("plainMarkdown = %q, want %q", got, want)
	}
}
