package regexlimit

import (
	"errors"
	"regexp/syntax"
	"runtime"
	"strings"
	"testing"
)

// Sources over a bound are refused with one short line that names the
// bound, and refusing them allocates little (counted in bytes, not
// timed): a 10 MB source used to take over a gigabyte to compile.
func TestCompileRefusesLarge(t *testing.T) {
	cases := []struct {
		name, expr string
		tooLarge   bool   // ErrTooLarge, else a syntax error
		says       string // in the error
	}{
		{"10 MB source", strings.Repeat("a", 10<<20), true, "10485760 bytes, more than the 65536 allowed"},
		{"source one byte over", strings.Repeat("a", MaxSource+1), true, "65537 bytes"},
		{"nested repetition", "(a{1000}){1000}", false, "invalid repeat count"},
		{"repetitions in a row", strings.Repeat("a{1000}", 300), true, "more than the 20000 instructions allowed"},
		{"a long literal", strings.Repeat("a", MaxInsts+1), true, "more than the 20000 instructions allowed"},
		{"repetitions under the parser's limit", strings.Repeat("(a{10}){100}", 21), true, "more than the 20000 instructions allowed"},
		{"unicode classes", strings.Repeat(`\pL`, 2000), true, "2000 Unicode class escapes"},
		{"negated unicode classes", strings.Repeat(`\P{Greek}`, MaxClasses+1), true, "1025 Unicode class escapes"},
		{"a long syntax error", strings.Repeat("a", 1000) + "(", false, "missing closing )"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			re, err := Compile(c.expr)
			runtime.ReadMemStats(&after)
			if re != nil || err == nil {
				t.Fatal("compiled")
			}
			if got := errors.Is(err, ErrTooLarge); got != c.tooLarge {
				t.Errorf("ErrTooLarge: %v, want %v (%v)", got, c.tooLarge, err)
			}
			var se *syntax.Error
			if !c.tooLarge && !errors.As(err, &se) {
				t.Errorf("want a *syntax.Error, got %T", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.says) {
				t.Errorf("error %q does not say %q", msg, c.says)
			}
			if len(msg) > 200 || strings.Contains(msg, "\n") {
				t.Errorf("error is not one short line: %d bytes", len(msg))
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
				t.Errorf("refusing it allocated %d MB", alloc>>20)
			}
		})
	}
}

// Sources within the bounds compile as regexp.Compile compiles them, up
// to each bound.
func TestCompileKeepsOrdinary(t *testing.T) {
	cases := []struct{ expr, text string }{
		{`^foo\d+$`, "foo42"},
		{`(?i)todo|fixme`, "a FIXME here"},
		{`\pL{1000}`, strings.Repeat("é", 1000)},
		{`(a{10}){100}`, strings.Repeat("a", 1000)},
		{strings.Repeat("a", MaxInsts-2), ""}, // compiled only: its match is quadratic
		{strings.Repeat(`\pL`, MaxClasses), strings.Repeat("x", MaxClasses)},
		{`[\p{L}\p{M}\p{Nd}\p{Pc}]{100}`, strings.Repeat("w", 100)},
		{`\\p\\P`, `\p\P`},
	}
	for _, c := range cases {
		re, err := Compile(c.expr)
		if err != nil {
			t.Errorf("%.40q: %v", c.expr, err)
			continue
		}
		if re.String() != c.expr || c.text != "" && !re.MatchString(c.text) {
			t.Errorf("%.40q does not match %.40q", c.expr, c.text)
		}
	}
}
