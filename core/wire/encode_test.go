package wire

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEncoderStrings(t *testing.T) {
	e := newEncoder(Compact)
	e.open('{')
	e.key("s")
	e.str("q\" b\\ \b\f\n\r\t \x01\x1f \x7f é \u2028 <&> \xff")
	e.key("n")
	e.int(-3)
	e.key("e")
	e.open('{')
	e.close('}')
	e.key("a")
	e.open('[')
	e.close(']')
	e.key("l")
	e.open('[')
	e.item()
	e.int(1)
	e.item()
	e.open('{')
	e.key("k")
	e.str("v")
	e.close('}')
	e.close(']')
	e.close('}')
	want := `{"s":"q\" b\\ \b\f\n\r\t \u0001\u001f ` + "\x7f é \u2028 <&> \ufffd" + `","n":-3,"e":{},"a":[],"l":[1,{"k":"v"}]}`
	if got := e.b.String(); got != want {
		t.Errorf("compact:\n got %s\nwant %s", got, want)
	}
}

func TestEncoderPretty(t *testing.T) {
	e := newEncoder(Pretty)
	e.open('{')
	e.key("n")
	e.int(1)
	e.key("o")
	e.open('{')
	e.key("a")
	e.open('[')
	e.item()
	e.int(2)
	e.close(']')
	e.key("m")
	e.any(map[string]any{"f": 1.0, "i": int64(2), "l": []any{"x", true, nil}})
	e.close('}')
	e.close('}')
	want := "{\n  \"n\": 1,\n  \"o\": {\n    \"a\": [\n      2\n    ],\n    \"m\": {\n      \"f\": 1.0,\n      \"i\": 2,\n      \"l\": [\n        \"x\",\n        true,\n        null\n      ]\n    }\n  }\n}"
	if got := e.b.String(); got != want {
		t.Errorf("pretty:\n%s\nwant\n%s", got, want)
	}
}

// TestEncoderStringRuns: valid and invalid UTF-8, escapes at the ends and
// side by side, are encoded as serde_json encodes them.
func TestEncoderStringRuns(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{"\"", `"\""`},
		{"\n\n", `"\n\n"`},
		{"é\tè", "\"é\\tè\""},
		{"\x00é", "\"\\u0000é\""},
		{"a\xffb\xc3", "\"a\ufffdb\ufffd\""},
		{"日本\\語", "\"日本\\\\語\""},
	}
	for _, tt := range tests {
		e := newEncoder(Stream)
		e.str(tt.in)
		if got := e.b.String(); got != tt.want {
			t.Errorf("str(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestEncoderStringWords checks the eight-byte fast path against a byte
// by byte encoding, with each special byte at each offset of a word.
func TestEncoderStringWords(t *testing.T) {
	ref := func(s string) string {
		var b strings.Builder
		b.WriteByte('"')
		for _, r := range s {
			switch {
			case r == '"':
				b.WriteString(`\"`)
			case r == '\\':
				b.WriteString(`\\`)
			case r == '\n':
				b.WriteString(`\n`)
			case r == '\t':
				b.WriteString(`\t`)
			case r < 0x20:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte('"')
		return b.String()
	}
	for _, special := range []string{`"`, `\`, "\n", "\x01", "\x1f", "\t"} {
		for off := range 17 {
			for _, filler := range []string{"abcdefghijklmnopqrstuvwxyz", "é日本語 ü x y z"} {
				s := filler[:min(off, len(filler))] + special + filler
				e := newEncoder(Stream)
				e.str(s)
				if got, want := e.b.String(), ref(s); got != want {
					t.Errorf("str(%q) = %s, want %s", s, got, want)
				}
			}
		}
	}
}

// BenchmarkEncoderString encodes source code (tabs, newlines, quotes).
func BenchmarkEncoderString(b *testing.B) {
	line := "\tif (x === \"a\\b\") { return f(x, 'y'); } // é\n"
	s := strings.Repeat(line, 1<<20/len(line))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		e := newEncoder(Stream)
		e.str(s)
	}
}

// refStr is the JSON string of s, byte by byte as serde_json writes it:
// the reference str is checked against.
func refStr(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// TestEncoderStringRandom encodes random strings of escapes, multi-byte
// characters, bytes that are not UTF-8 and runs of plain ASCII, short and
// long, after other output: each comes out as refStr writes it.
func TestEncoderStringRandom(t *testing.T) {
	pieces := []string{"a", " ", "abcdefgh", "\"", "\\", "\n", "\t", "\r", "\b", "\f", "\x01", "\x1f", "\x7f",
		"é", "日", "😀", "\u2028", "<&>", "\xff", "\xc3", "\xe6\x97", "\xf0\x9f\x98"}
	rnd := rand.New(rand.NewPCG(3, 4))
	for n := range 20000 {
		var s strings.Builder
		for range rnd.IntN(40) {
			s.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		in := s.String()
		if n%100 == 0 {
			in = strings.Repeat(in, 200) // past the room reserved at first
		}
		e := newEncoder(Stream)
		e.str("x")
		e.str(in)
		if got, want := e.b.String(), refStr("x")+refStr(in); got != want {
			t.Fatalf("str(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestLinesAroundText: a match's lines that hold its text (a view of the
// same bytes, as NewMatch makes them) are written with the text's escaped
// bytes copied, and come out as when they are escaped whole, in every
// style and wherever escapes fall: before, inside, across and after the
// text, and a text that only equals a part of the lines, elsewhere in
// memory, is escaped anew.
func TestLinesAroundText(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "b", " ", "\"", "\\", "\n", "\t", "\x01", "é", "\u2028", "\xff", "<", "x"}
	for i := range 500 {
		var sb strings.Builder
		for range 1 + rnd.IntN(60) {
			sb.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		lines := sb.String()
		lo := rnd.IntN(len(lines))
		hi := lo + 1 + rnd.IntN(len(lines)-lo)
		// Cut at character boundaries, as a node's bytes are.
		for lo > 0 && !utf8.RuneStart(lines[lo]) {
			lo--
		}
		for hi < len(lines) && !utf8.RuneStart(lines[hi]) {
			hi++
		}
		view := lines[lo:hi]
		apart := strings.Clone(view)
		if _, ok := within(lines, view); !ok {
			t.Fatalf("%q is not found in %q, whose bytes it is", view, lines)
		}
		if _, ok := within(lines, apart); ok && len(apart) > 0 {
			t.Fatalf("a copy of %q is taken for a part of %q", apart, lines)
		}
		for _, s := range []Style{Compact, Pretty, Stream} {
			shared := Match{Text: view, File: "f", Lines: lines, Language: "L"}
			copied := Match{Text: apart, File: "f", Lines: lines, Language: "L"}
			if a, b := shared.Encode(s), copied.Encode(s); a != b {
				t.Fatalf("case %d, style %v: lines around the text\n%s\nescaped whole\n%s", i, s, a, b)
			}
		}
	}
}

// TestLabelOfText: a label over the match's own range and text is written
// with the match text's escaped bytes copied; it decodes to the same
// string as the text, in every style, as a label over other text does to
// its own.
func TestLabelOfText(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", " ", "\"", "\\", "\n", "\t", "\x01", "é", "\u2028", "\xff", "<"}
	word := func() string {
		var sb strings.Builder
		for range 1 + rnd.IntN(40) {
			sb.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		return sb.String()
	}
	for i := range 300 {
		text, other := word(), word()
		r := Range{ByteOffset: ByteRange{Start: 3, End: 3 + len(text)}}
		f := Finding{
			Match:  Match{Text: text, Range: r, File: "f", Lines: text, Language: "L"},
			RuleID: "r", Severity: "hint", Message: "m",
			Labels: []Label{{Text: text, Range: r, Style: "primary"}, {Text: other, Range: Range{}, Style: "secondary"}},
		}
		for _, s := range []Style{Compact, Pretty, Stream} {
			var got struct {
				Text   string `json:"text"`
				Labels []struct {
					Text string `json:"text"`
				} `json:"labels"`
			}
			out := f.Encode(s)
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("case %d, style %v: %v\n%s", i, s, err, out)
			}
			want := string([]rune(other)) // each invalid byte as U+FFFD
			if got.Labels[0].Text != got.Text || got.Labels[1].Text != want {
				t.Fatalf("case %d, style %v: text %q, labels %q and %q; want the text's, then %q", i, s, got.Text, got.Labels[0].Text, got.Labels[1].Text, want)
			}
		}
	}
}
