//go:build parity

package parity

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/grammars"
	"github.com/loupe-dev/loupe/grammars/recipe"
)

// TestCustomParity: a grammar from the npm registry that is not built in
// (@tree-sitter-grammars/tree-sitter-toml 0.7.0, with an external
// scanner), built by `loupe grammar build`'s recipe and run as a custom
// language in the sandbox, builds exactly the trees native tree-sitter
// builds from the same sources, on every document of toml-test (valid and
// invalid, so error recovery too; pinned in go.sum with BurntSushi/toml).
func TestCustomParity(t *testing.T) {
	ctx := context.Background()
	if err := recipe.CheckToolchain(false); err != nil {
		t.Skip(err)
	}
	cache, err := cacheDir()
	if err != nil {
		t.Fatal(err)
	}
	info := grammars.Language{
		Name: "toml", Function: "tree_sitter_toml",
		Source: grammars.Source{Kind: "npm", Package: "@tree-sitter-grammars/tree-sitter-toml", Version: "0.7.0", Dir: "src"},
	}
	src, err := sourceDir(ctx, cache, info.Source)
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := recipe.BuildGrammar(filepath.Join(cache, "grammar-src"), src, info.Function)
	if err != nil {
		t.Fatal(err)
	}
	module := filepath.Join(t.TempDir(), "toml.wasm")
	if err := os.WriteFile(module, wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := language.RegisterCustom(language.Custom{Name: "toml", Path: module, Extensions: []string{"toml"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { language.UnregisterCustom("toml") })
	nat, err := loadNative(ctx, cache, info)
	if err != nil {
		t.Fatal(err)
	}
	p, err := nat.parser()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	out, err := exec.CommandContext(ctx, "go", "mod", "download", "-json", "github.com/BurntSushi/toml@v1.6.0").Output()
	if err != nil {
		t.Fatalf("go mod download: %v", err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	var r langResult
	err = filepath.WalkDir(filepath.Join(mod.Dir, "internal", "toml-test", "tests"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".toml" {
			return err
		}
		in, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lt, err := l.Parse(ctx, in)
		if err != nil {
			t.Errorf("%s: loupe: %v", path, err)
			return nil
		}
		nt := p.Parse(in, nil)
		if nt == nil {
			t.Errorf("%s: native tree-sitter returned no tree", path)
			return nil
		}
		cmp := compareTrees(nt, lt)
		nt.Close()
		r.inputs++
		r.bytes += len(in)
		r.nodes += cmp.nodes
		if cmp.known != "" {
			r.known++
		}
		if len(cmp.diffs) > 0 || cmp.sexp != "" {
			r.mismatched++
			if r.mismatched <= maxReported {
				t.Errorf("%s: trees differ:\n  %v\n  %s", path, cmp.diffs, cmp.sexp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.inputs == 0 {
		t.Fatal("no toml-test documents")
	}
	t.Logf("%d documents, %d bytes, %d nodes compared, %d differ, %d S-expressions differ only in hidden MISSING nodes or error-leaf characters",
		r.inputs, r.bytes, r.nodes, r.mismatched, r.known)
}
