package search

import (
	"context"
	"testing"

	"github.com/loupe-dev/loupe/core/pattern"
)

// TestRequireWords: an identifier must stand as a whole word somewhere;
// its other occurrences, and literals that are not words, are as before.
func TestRequireWords(t *testing.T) {
	tests := []struct {
		name   string
		words  []string
		src    string
		passes bool
	}{
		{"whole word", []string{"err"}, "if err != nil {}", true},
		{"only inside words", []string{"err"}, "stderr, error, errs, _err, err2", false},
		{"a later occurrence is whole", []string{"err"}, "error; err", true},
		{"at the start and end", []string{"err"}, "err", true},
		{"after a non-ASCII letter", []string{"err"}, "éerr", true},
		{"dotted", []string{"Sprintf"}, "fmt.Sprintf(x)", true},
		{"prefix only", []string{"Map"}, "new WeakMap()", false},
		{"a punctuation end is not checked", []string{"->x"}, "b->x;", true},
		{"a word end is", []string{"->x"}, "b->xy", false},
		{"every word must stand", []string{"fmt", "Sprintf"}, "fmtx.Sprintf", false},
		{"a missing literal fails first", nil, "nothing", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lits := append([]string{}, tt.words...)
			if tt.words == nil {
				lits = []string{"absent"}
			}
			if got := RequireWords(lits, tt.words)(nil, []byte(tt.src)); got != tt.passes {
				t.Errorf("RequireWords(%q) on %q = %v, want %v", tt.words, tt.src, got, tt.passes)
			}
		})
	}
}

// TestPatternsPrefilterWords: a pattern's identifiers must stand as
// words, its other literals need only occur; Template strictness and
// non-identifier leaves (strings, numbers) fall back to occurring.
func TestPatternsPrefilterWords(t *testing.T) {
	tests := []struct {
		lang, pattern string
		strictness    pattern.Strictness
		src           string
		passes        bool
	}{
		{"go", "if err != nil { return $$$R }", pattern.Smart, "if error != nil { return }", false},
		{"go", "if err != nil { return $$$R }", pattern.Smart, "if err != nil { return }", true},
		{"go", "if err != nil { return $$$R }", pattern.Template, "if error != nil { return }", true},
		{"js", "new Map($$$A)", pattern.Smart, "new WeakMap()", false},
		{"js", "f('err')", pattern.Smart, "f('errors'); f('err')", true},
		{"js", "f(12)", pattern.Smart, "f(123)", true},
		{"python", "self.assertEqual($A, $B)", pattern.Smart, "myself.assertEqualX(a, b)", false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"/"+tt.strictness.String()+"/"+tt.src, func(t *testing.T) {
			l := mustLang(t, tt.lang)
			ps := NewPatterns(tt.pattern, pattern.Options{Strictness: tt.strictness}, false)
			if _, err := ps.Compile(context.Background(), l); err != nil {
				t.Fatal(err)
			}
			if got := ps.Prefilter(l, []byte(tt.src)); got != tt.passes {
				t.Errorf("Prefilter(%q) = %v, want %v", tt.src, got, tt.passes)
			}
		})
	}
}
