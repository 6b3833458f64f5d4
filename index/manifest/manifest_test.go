package manifest

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// listFiles lists the files under dir, slash-separated and relative to
// it.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// golden is a Result as its golden file holds it.
type golden struct {
	Packages []Package `json:"packages"`
	Problems []string  `json:"problems"`
}

// TestDiscover reads each fixture, a small repository laid out as real
// ones are (an npm workspace, a pnpm workspace, a go.work, a Cargo
// workspace, PEP 621 and Poetry projects, a Maven multi-module build, a
// Gradle multi-project build, and broken manifests), and compares what
// Discover finds with testdata/<fixture>.golden.json.
func TestDiscover(t *testing.T) {
	for _, name := range []string{"npm", "pnpm", "go", "cargo", "python", "maven", "gradle", "bad"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", name)
			res := Discover(os.DirFS(dir), name, listFiles(t, dir))
			g := golden{Packages: res.Packages, Problems: []string{}}
			for _, p := range res.Problems {
				g.Problems = append(g.Problems, p.Error())
			}
			got, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			file := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Discover differs from %s (go test -run TestDiscover -update to rewrite):\n%s", file, got)
			}
		})
	}
}

// TestBadManifestsReportedPerFile: each broken manifest is a problem of
// its own file, and the valid packages beside them are still found.
func TestBadManifestsReportedPerFile(t *testing.T) {
	dir := filepath.Join("testdata", "bad")
	res := Discover(os.DirFS(dir), "bad", listFiles(t, dir))
	want := map[string]string{
		"broken-json/package.json": "invalid JSON",
		"broken-toml/Cargo.toml":   "invalid TOML",
		"broken-xml/pom.xml":       "invalid XML",
		"cycle/a/pom.xml":          "workspace cycle: cycle/a → cycle/b → cycle/a",
		"gradle/settings.gradle":   `included build "gone" is missing`,
		"package.json":             "missing",
	}
	got := map[string]string{}
	for _, p := range res.Problems {
		got[p.File] += p.Err.Error() + "\n"
	}
	for file, frag := range want {
		if !strings.Contains(got[file], frag) {
			t.Errorf("%s: problems %q, want one containing %q", file, got[file], frag)
		}
	}
	found := map[string]bool{}
	for _, p := range res.Packages {
		found[p.Name] = true
	}
	for _, n := range []string{"bad-root", "still-indexed", "cyc:a", "cyc:b"} {
		if !found[n] {
			t.Errorf("package %s not found beside the broken manifests", n)
		}
	}
}
