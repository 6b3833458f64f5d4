package filetools

import (
	"errors"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/internal/regexlimit"
)

// The file tools compile an agent's pattern under regexlimit's bounds: a
// 10 MB pattern, which took over a gigabyte to compile, is one line of
// error.
func TestRegexBounded(t *testing.T) {
	cases := map[string]string{
		"10 MB pattern": strings.Repeat("a", 10<<20),
		"repetitions":   strings.Repeat("(x{1000})", 30),
	}
	for name, pattern := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := compileRegex("grep", pattern, "(?m)")
			var fe *Error
			if !errors.As(err, &fe) || !errors.Is(err, regexlimit.ErrTooLarge) {
				t.Fatalf("want a tool error wrapping the size error, got %.200v", err)
			}
			if msg := fe.Msg; len(msg) > 200 || !strings.Contains(msg, "too large") {
				t.Errorf("message %.300q", msg)
			}
		})
	}
}
