package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/grammars/recipe"
)

// TestCheckReportsToolchain: when a rebuilt module's bytes differ from the
// manifest's (here, a manifest whose json sha256 was altered), -check
// fails naming the module and both sums, then the toolchain found against
// the pinned one and the flags used.
func TestCheckReportsToolchain(t *testing.T) {
	if err := recipe.CheckToolchain(false); err != nil {
		t.Skip(err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum string
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.Contains(line, `"name": "json"`) {
			_, after, _ := strings.Cut(line, `"sha256": "`)
			sum, _, _ = strings.Cut(after, `"`)
		}
	}
	if len(sum) != 64 {
		t.Fatalf("no sha256 for json in the manifest")
	}
	root := t.TempDir()
	wrong := strings.Repeat("0", 64)
	if err := os.WriteFile(filepath.Join(root, "manifest.json"), []byte(strings.Replace(string(raw), sum, wrong, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	glue, err := filepath.Abs(filepath.Join("..", "..", "glue"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(glue, filepath.Join(root, "glue")); err != nil {
		t.Fatal(err)
	}
	err = run(root, defaultCache(), true, 1, []string{"json"})
	if err == nil {
		t.Fatal("check passed against a wrong sha256")
	}
	for _, want := range []string{
		"json: rebuilt module has sha256 " + sum + ", manifest says " + wrong,
		"the toolchain here", recipe.Clang, "wasm-ld-19", "wasm-opt", "compile: ", "link:    ",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the check's error lacks %q:\n%v", want, err)
		}
	}
}
