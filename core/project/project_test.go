package project

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestAbsoluteDirs loads a project whose sgconfig.yml names its folders by
// absolute paths, as ast-grep's `new project` writes them.
func TestAbsoluteDirs(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"rules/r.yml": "id: r\nlanguage: ts\nrule: {kind: number}\n",
		"utils/u.yml": "id: u\nlanguage: ts\nrule: {kind: string}\n",
		"sgconfig.yml": "ruleDirs:\n- " + filepath.Join(dir, "rules") + "\nutilDirs:\n- " + filepath.Join(dir, "utils") +
			"\ntestConfigs:\n- testDir: " + filepath.Join(dir, "tests") + "\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Find(filepath.Join(dir, "sgconfig.yml"), "")
	if err != nil {
		t.Fatal(err)
	}
	cfgs, err := p.LoadRules(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(cfgs) != 1 || cfgs[0].ID != "r" {
		t.Errorf("rules %v, want r", cfgs)
	}
	for in, want := range map[string]string{filepath.Join(dir, "tests"): filepath.Join(dir, "tests"), "rel": filepath.Join(dir, "rel")} {
		if got := p.Path(in); got != want {
			t.Errorf("Path(%q) = %q, want %q", in, got, want)
		}
	}
}
