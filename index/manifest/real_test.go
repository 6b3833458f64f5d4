package manifest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// byName indexes packages by kind and name.
func byName(pkgs []Package) map[string]Package {
	m := map[string]Package{}
	for _, p := range pkgs {
		m[string(p.Kind)+" "+p.Name] = p
	}
	return m
}

// dep finds a dependency of p by name.
func dep(p Package, name string) (Dependency, bool) {
	for _, d := range p.Dependencies {
		if d.Name == name {
			return d, true
		}
	}
	return Dependency{}, false
}

// TestGoRoot reads the Go distribution's own modules: std at GOROOT/src
// and cmd at GOROOT/src/cmd, each with its golang.org/x requirements.
func TestGoRoot(t *testing.T) {
	dir := filepath.Join(runtime.GOROOT(), "src")
	res := Discover(os.DirFS(dir), "src", listFiles(t, dir))
	pkgs := byName(res.Packages)
	std, ok := pkgs["go std"]
	if !ok || std.Path != "." {
		t.Fatalf("std: %+v", std)
	}
	cmd, ok := pkgs["go cmd"]
	if !ok || cmd.Path != "cmd" {
		t.Fatalf("cmd: %+v", cmd)
	}
	if d, ok := dep(cmd, "golang.org/x/mod"); !ok || d.Kind != Runtime || !strings.HasPrefix(d.Version, "v0.") || d.Internal {
		t.Errorf("cmd's golang.org/x/mod: %+v", d)
	}
	if _, ok := dep(std, "golang.org/x/crypto"); !ok {
		t.Errorf("std does not require golang.org/x/crypto: %+v", std.Dependencies)
	}
	for _, p := range res.Problems {
		if !strings.Contains(p.File, "testdata") {
			t.Errorf("problem outside testdata: %v", p)
		}
	}
}

// moduleDir downloads a Go module through the module proxy (into the
// module cache) and returns its directory.
func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	if err != nil {
		t.Skipf("go mod download %s: %v (the module proxy is unreachable?)", mod, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download %s: %s", mod, out)
	}
	return m.Dir
}

// TestTreeSitterPython reads a real repository that is four packages at
// once, tree-sitter-python (the grammar loupe embeds, fetched as a Go
// module): its package.json (npm), go.mod, Cargo.toml and pyproject.toml.
func TestTreeSitterPython(t *testing.T) {
	dir := moduleDir(t, "github.com/tree-sitter/tree-sitter-python@v0.25.0")
	res := Discover(os.DirFS(dir), "tree-sitter-python", listFiles(t, dir))
	if len(res.Problems) > 0 {
		t.Errorf("problems: %v", res.Problems)
	}
	pkgs := byName(res.Packages)
	for _, want := range []struct {
		key, dep string
		kind     DepKind
	}{
		{"npm tree-sitter-python", "tree-sitter-cli", Dev},
		{"npm tree-sitter-python", "tree-sitter", Peer},
		{"go github.com/tree-sitter/tree-sitter-python", "github.com/tree-sitter/go-tree-sitter", Runtime},
		{"cargo tree-sitter-python", "cc", Build},
		{"python tree-sitter-python", "tree-sitter", Optional},
	} {
		p, ok := pkgs[want.key]
		if !ok {
			t.Errorf("no package %s among %v", want.key, res.Packages)
			continue
		}
		if p.Path != "." || p.Version == "" && p.Kind != Go {
			t.Errorf("%s: path %q version %q", want.key, p.Path, p.Version)
		}
		if d, ok := dep(p, want.dep); !ok || d.Kind != want.kind {
			t.Errorf("%s: dependency %s is %+v, want kind %s", want.key, want.dep, d, want.kind)
		}
	}
}

// TestRustSource reads the Rust compiler's source as Debian's rust-src
// ships it: a Cargo workspace of hundreds of crates (std depends on core
// and alloc, which are internal), whose root lists members Debian leaves
// out, each reported as missing while the rest is indexed.
func TestRustSource(t *testing.T) {
	dirs, _ := filepath.Glob("/usr/src/rustc-*")
	if len(dirs) == 0 {
		t.Skip("Debian's rust-src is not installed (scripts/test-deps.sh installs it as root)")
	}
	dir := dirs[0]
	res := Discover(os.DirFS(dir), filepath.Base(dir), listFiles(t, dir))
	pkgs := byName(res.Packages)
	std, ok := pkgs["cargo std"]
	if !ok || std.Path != "library/std" {
		t.Fatalf("std: %+v", std)
	}
	for _, name := range []string{"core", "alloc"} {
		if d, ok := dep(std, name); !ok || !d.Internal || d.Kind != Runtime {
			t.Errorf("std's %s: %+v", name, d)
		}
	}
	if len(res.Packages) < 100 {
		t.Errorf("only %d packages", len(res.Packages))
	}
	var missing int
	for _, p := range res.Problems {
		if p.File == "Cargo.toml" && strings.Contains(p.Err.Error(), "is missing") {
			missing++
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "src/bootstrap/Cargo.toml")); err != nil && missing == 0 {
		t.Errorf("the root workspace's missing members are not reported: %v", res.Problems)
	}
}
