package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

// TestLanguageInjections loads projects with languageInjections: good
// entries are registered with core/language (and replaced by the next
// project's), a bad one refuses the configuration, as ast-grep refuses it.
func TestLanguageInjections(t *testing.T) {
	defer language.SetInjectors(nil)
	js, _ := language.Lookup("javascript")
	css, _ := language.Lookup("css")
	cases := []struct {
		name, config string
		injects      bool   // JavaScript then injects CSS
		err          string // the error Find gives
	}{
		{"candidates", "languageInjections:\n- hostLanguage: js\n  rule: {pattern: 'styled.$LANG`$CONTENT`'}\n  injected: [css]\n", true, ""},
		{"none", "ruleDirs: [rules]\n", false, ""},
		{"static", "languageInjections:\n- hostLanguage: javascript\n  rule: {pattern: 'css`$CONTENT`'}\n  injected: css\n", true, ""},
		{"bad rule", "languageInjections:\n- hostLanguage: js\n  rule: {kind: not_a_kind}\n  injected: css\n", false, "languageInjections[0]: "},
		{"bad host", "languageInjections:\n- hostLanguage: klingon\n  rule: {kind: number}\n  injected: css\n", false, `unsupported language "klingon"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "sgconfig.yml")
			if err := os.WriteFile(cfg, []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Find(cfg, "")
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("error %v, want one with %q", err, c.err)
			}
			if got := js.Injects(css); got != c.injects {
				t.Errorf("JavaScript injects CSS: %v, want %v", got, c.injects)
			}
		})
	}
}
