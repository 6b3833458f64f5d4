package rule

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestYAMLEscapes reads every escape YAML 1.2 defines in a double-quoted
// message, as ast-grep does (tests/difftest's TestYAMLEscapes compares
// them with the real binary), and `\/` and `\'` in every scalar style.
func TestYAMLEscapes(t *testing.T) {
	cases := []struct {
		name, scalar string // the message's YAML text
		want         string // the message read; "" when the file is refused
	}{
		{"null", `"m\0m"`, "m\x00m"},
		{"bell", `"m\am"`, "m\am"},
		{"backspace", `"m\bm"`, "m\bm"},
		{"tab", `"m\tm"`, "m\tm"},
		{"tab character", "\"m\\\tm\"", "m\tm"},
		{"line feed", `"m\nm"`, "m\nm"},
		{"vertical tab", `"m\vm"`, "m\vm"},
		{"form feed", `"m\fm"`, "m\fm"},
		{"carriage return", `"m\rm"`, "m\rm"},
		{"escape", `"m\em"`, "m\x1bm"},
		{"space", `"m\ m"`, "m m"},
		{"double quote", `"m\"m"`, `m"m`},
		{"solidus", `"m\/m"`, "m/m"},
		{"backslash", `"m\\m"`, `m\m`},
		{"next line", `"m\Nm"`, "m\u0085m"},
		{"non-breaking space", `"m\_m"`, "m\u00a0m"},
		{"line separator", `"m\Lm"`, "m\u2028m"},
		{"paragraph separator", `"m\Pm"`, "m\u2029m"},
		{"8-bit", `"m\x41m"`, "mAm"},
		{"16-bit", `"m\u00e9m"`, "mém"},
		{"32-bit", `"m\U0001F600m"`, "m\U0001F600m"},
		{"line continuation", "\"a\\\n   b \\\n c\"", "ab c"},
		{"solidus twice, backslash pair", `"\/a\\/b\/"`, `/a\/b/`},
		{"solidus beside a sentinel", `"\x2F\/"`, "//"},
		{"plain solidus", `\/a`, `\/a`},
		{"single-quoted solidus", `'\/a'`, `\/a`},
		{"single-quoted backslash at end", `'a\'`, `a\`},
		{"single-quoted quote escape", `'\'`, `\`},
		{"block solidus", "|\n  \\/a\n  b\\/", "\\/a\nb\\/\n"},
		{"apostrophe", `"m\'m"`, ""},
		{"unknown", `"m\qm"`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "id: t\nlanguage: ts\nrule: {kind: number}\nmessage: " + c.scalar + "\n"
			cfgs, err := ParseConfigs(context.Background(), []byte(src), Options{})
			if c.want == "" {
				if err == nil || !strings.Contains(err.Error(), "unknown escape character") {
					t.Fatalf("want the unknown escape refused, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfgs[0].Message != c.want {
				t.Errorf("message %q, want %q", cfgs[0].Message, c.want)
			}
		})
	}
}

// TestYAMLEscapePositions checks that the positions of values after a
// `\/` on the same line are those of the file as written.
func TestYAMLEscapePositions(t *testing.T) {
	cases := []struct {
		name, src string
		line, col int
	}{
		{"after one solidus", `rule: {regex: "\/a", kind: 1}`, 4, 28},
		{"after two", `rule: {regex: "\/\/é", kind: 1}`, 4, 30},
		{"before", `rule: {kind: 1, regex: "\/a"}`, 4, 14},
		{"next line", "rule: {regex: \"\\/a\",\n  kind: 1}", 5, 9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "id: t\nlanguage: ts\nmessage: m\n" + c.src + "\n"
			_, err := ParseConfigs(context.Background(), []byte(src), Options{})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want a rule error, got %v", err)
			}
			if e.Line != c.line || e.Column != c.col {
				t.Errorf("error at %d:%d, want %d:%d (%v)", e.Line, e.Column, c.line, c.col, err)
			}
		})
	}
}
