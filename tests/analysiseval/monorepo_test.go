package analysiseval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tests/difftest"
)

// monorepo is the workspace monorepo measured: tldraw and the workspace
// packages it depends on, at the versions its package.json pins, each
// fetched with npm pack and laid out as tldraw's repository lays them out
// (packages/<name>, each with its package.json and sources, no build
// output), under a root package.json declaring the workspaces.
var monorepo = struct {
	name, version string
	packages      []string
}{"tldraw", "5.1.1", []string{"tldraw", "@tldraw/driver", "@tldraw/editor", "@tldraw/store", "@tldraw/tlschema",
	"@tldraw/utils", "@tldraw/state", "@tldraw/state-react", "@tldraw/validate"}}

// monorepoSample is how many shared-name symbols the monorepo measures:
// all of them would take the best part of an hour.
const monorepoSample = 200

// TestEvalMonorepo measures structural_analysis on the tldraw workspace,
// the truth resolving each package by name to its sources through tsconfig
// paths (its package.json's exports name build output, absent from a
// repository). It is heavy (970 files), so it runs in the full eval only
// (LOUPE_ANALYSIS_EVAL=full, make analysis-eval), on a seeded sample.
func TestEvalMonorepo(t *testing.T) {
	if os.Getenv("LOUPE_ANALYSIS_EVAL") != "full" {
		t.Skip("analysiseval: the monorepo runs in the full eval only (LOUPE_ANALYSIS_EVAL=full)")
	}
	paths := map[string][]string{}
	for _, p := range monorepo.packages {
		dir := "packages/" + shortName(p)
		paths[p] = []string{dir + "/src/index.ts"}
		paths[p+"/*"] = []string{dir + "/src/*"}
	}
	fetch := func() (string, error) { return layMonorepo(context.Background()) }
	measureAt(t, fetch, monorepo.name+"-workspace", monorepo.version, "packages", map[string]any{"paths": paths, "sample": monorepoSample})
}

// shortName is a package's folder in the workspace: its name without the
// scope.
func shortName(pkg string) string {
	return pkg[strings.LastIndexByte(pkg, '/')+1:]
}

// layMonorepo assembles the workspace in the corpus cache once and returns
// its folder.
func layMonorepo(ctx context.Context) (string, error) {
	cache, err := difftest.CacheDir()
	if err != nil {
		return "", err
	}
	dest := filepath.Join(cache, "corpora", fmt.Sprintf("%s-workspace-%s", monorepo.name, monorepo.version))
	if _, err := os.Stat(filepath.Join(dest, "package.json")); err == nil {
		return dest, nil
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dest), ".lay-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	root := map[string]any{"name": monorepo.name + "-workspace", "private": true, "workspaces": []string{"packages/*"}}
	data, _ := json.MarshalIndent(root, "", "  ")
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), append(data, '\n'), 0o644); err != nil {
		return "", err
	}
	for _, p := range monorepo.packages {
		src, err := difftest.NpmPackage(ctx, p, monorepo.version)
		if err != nil {
			return "", err
		}
		dir := filepath.Join(tmp, "packages", shortName(p))
		if err := copyTree(filepath.Join(src, "package.json"), filepath.Join(dir, "package.json")); err != nil {
			return "", fmt.Errorf("laying out %s: %w", p, err)
		}
		if err := copyTree(filepath.Join(src, "src"), filepath.Join(dir, "src")); err != nil {
			return "", fmt.Errorf("laying out %s: %w", p, err)
		}
	}
	if err := os.Rename(tmp, dest); err != nil && !errors.Is(err, fs.ErrExist) {
		if _, statErr := os.Stat(filepath.Join(dest, "package.json")); statErr != nil {
			return "", err
		}
	}
	return dest, nil
}

// copyTree copies the regular files of a file or folder from to the same
// place under to.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		out := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
}
