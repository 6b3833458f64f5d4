package scan

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/rule"
)

func TestApplied(t *testing.T) {
	cfgs, err := rule.ParseConfigs(context.Background(), []byte(`
id: everywhere
language: typescript
rule: {kind: number}
---
id: src-only
language: typescript
files: ["src/**"]
rule: {kind: string}
---
id: js
language: javascript
rule: {kind: number}
`), rule.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rs := NewRules(cfgs, dir, "")
	ts, err := language.Lookup("ts")
	if err != nil {
		t.Fatal(err)
	}
	py, err := language.Lookup("python")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lang *language.Language
		path string
		want int
	}{
		{ts, "src/a.ts", 2},
		{ts, "b.ts", 1},
		{py, "src/c.py", 0},
	}
	for _, tt := range tests {
		abs := filepath.Join(dir, filepath.FromSlash(tt.path))
		if got := rs.Applied(tt.lang, abs, tt.path); got != tt.want {
			t.Errorf("Applied(%s, %s) = %d, want %d", tt.lang.Name(), tt.path, got, tt.want)
		}
		if s := rs.ForFile(tt.lang, abs, tt.path); (s != nil) != (tt.want > 0) {
			t.Errorf("ForFile(%s, %s) = %v with %d rules applying", tt.lang.Name(), tt.path, s, tt.want)
		}
	}
}
