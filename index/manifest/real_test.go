package manifest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/internal/difftest"
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

// npmPackage fetches an npm package into the test cache (skipping the
// test when the registry cannot be reached) and returns its folder.
func npmPackage(t *testing.T, name, version string) string {
	t.Helper()
	dir, err := difftest.NpmPackage(context.Background(), name, version)
	if err != nil {
		t.Skipf("%v (the npm registry is unreachable?)", err)
	}
	return dir
}

// TestThrift reads Apache Thrift (fetched as a Go module): a repository
// of every kind at once. A Gradle build whose settings include two
// projects, a Maven plugin with a parent, Cargo crates that depend on
// the library by path, npm packages and the Go module itself.
func TestThrift(t *testing.T) {
	dir := moduleDir(t, "github.com/apache/thrift@v0.21.0")
	res := Discover(os.DirFS(dir), "thrift", listFiles(t, dir))
	if len(res.Problems) > 0 {
		t.Errorf("problems: %v", res.Problems)
	}
	pkgs := byName(res.Packages)
	kotlin, ok := pkgs["gradle libthrift-kotlin"]
	if !ok || kotlin.Path != "lib/kotlin" {
		t.Fatalf("the Kotlin build: %+v", kotlin)
	}
	if got := fmt.Sprint(kotlin.Metadata["workspace_members"]); got != "[lib/kotlin/cross-test-client lib/kotlin/cross-test-server]" {
		t.Errorf("the Kotlin build's members: %s", got)
	}
	client := pkgs["gradle cross-test-client"]
	if client.Metadata["gradle_path"] != ":cross-test-client" || client.Metadata["workspace"] != "lib/kotlin/settings.gradle.kts" {
		t.Errorf("cross-test-client: %+v", client)
	}
	if d, ok := dep(client, "org.apache.thrift:libthrift"); !ok || d.Kind != Runtime {
		t.Errorf("cross-test-client's libthrift: %+v", d)
	}
	plugin := pkgs["maven org.apache.thrift:thrift-maven-plugin"]
	if plugin.Version != "0.21.0" || plugin.Metadata["parent"] != "org.apache:apache" {
		t.Errorf("the Maven plugin: %+v", plugin)
	}
	if d, ok := dep(plugin, "junit:junit"); !ok || d.Kind != Dev {
		t.Errorf("the Maven plugin's junit: %+v", d)
	}
	for _, key := range []string{"cargo kitchen-sink", "cargo thrift-test", "cargo thrift-tutorial"} {
		if d, ok := dep(pkgs[key], "thrift"); !ok || !d.Internal {
			t.Errorf("%s's thrift: %+v", key, d)
		}
	}
	if d, ok := dep(pkgs["cargo thrift"], "log"); !ok || d.Kind != Optional {
		t.Errorf("the thrift crate's log: %+v", d)
	}
	if _, ok := pkgs["go github.com/apache/thrift"]; !ok {
		t.Errorf("no Go module among %v", res.Packages)
	}
}

// TestReactNativeGradlePlugin reads React Native's Gradle plugin from
// the npm registry: a Kotlin settings script whose include spans lines
// and ends with a comma, projects that depend on each other through
// project(":shared"), and a version catalog.
func TestReactNativeGradlePlugin(t *testing.T) {
	dir := npmPackage(t, "@react-native/gradle-plugin", "0.86.3")
	res := Discover(os.DirFS(dir), "package", listFiles(t, dir))
	if len(res.Problems) > 0 {
		t.Errorf("problems: %v", res.Problems)
	}
	pkgs := byName(res.Packages)
	root := pkgs["gradle gradle-plugin-root"]
	if got := fmt.Sprint(root.Metadata["workspace_members"]); got != "[react-native-gradle-plugin settings-plugin shared shared-testutil]" {
		t.Errorf("the root's members: %s", got)
	}
	plugin := pkgs["gradle react-native-gradle-plugin"]
	if d, ok := dep(plugin, "shared"); !ok || !d.Internal || d.Kind != Runtime {
		t.Errorf("the plugin's shared: %+v", d)
	}
	if d, ok := dep(plugin, "shared-testutil"); !ok || !d.Internal || d.Kind != Dev {
		t.Errorf("the plugin's shared-testutil: %+v", d)
	}
	if d, ok := dep(plugin, "libs.gson"); !ok || d.Version != "catalog" {
		t.Errorf("the plugin's libs.gson: %+v", d)
	}
	if _, ok := pkgs["npm @react-native/gradle-plugin"]; !ok {
		t.Errorf("no npm package among %v", res.Packages)
	}
}

// TestNpmCLI reads the npm CLI's published package: a root package.json
// whose workspaces (four folders and a glob) are not published, each
// reported on its own while the rest is indexed, among it gyp-next's
// PEP 621 pyproject.toml inside the bundled node-gyp.
func TestNpmCLI(t *testing.T) {
	dir := npmPackage(t, "npm", "11.21.2")
	res := Discover(os.DirFS(dir), "package", listFiles(t, dir))
	var missing []string
	for _, p := range res.Problems {
		if p.File == "package.json" {
			missing = append(missing, p.Err.Error())
		}
	}
	if len(missing) != 5 || !strings.Contains(strings.Join(missing, "\n"), `"workspaces/*" matches no npm package`) {
		t.Errorf("the missing workspaces: %q", missing)
	}
	pkgs := byName(res.Packages)
	npm := pkgs["npm npm"]
	if npm.Path != "." || npm.Version != "11.21.2" {
		t.Errorf("npm: %+v", npm)
	}
	if d, ok := dep(npm, "@npmcli/arborist"); !ok || d.Kind != Runtime {
		t.Errorf("npm's @npmcli/arborist: %+v", d)
	}
	gyp, ok := pkgs["python gyp-next"]
	if !ok || gyp.Path != "node_modules/node-gyp/gyp" || gyp.Metadata["requires-python"] == nil {
		t.Fatalf("gyp-next: %+v", gyp)
	}
	if d, ok := dep(gyp, "setuptools"); !ok {
		t.Errorf("gyp-next's setuptools: %+v", d)
	}
	if d, ok := dep(gyp, "pytest"); !ok || d.Kind != Optional {
		t.Errorf("gyp-next's pytest: %+v", d)
	}
}

// TestGitea reads Gitea (fetched as a Go module): an unnamed private npm
// root under a pnpm-workspace.yaml that holds settings but no packages
// (the root is the workspace's only package), a PEP 621 pyproject whose
// dev tools are PEP 735 dependency groups, and a Go module with
// indirect requirements.
func TestGitea(t *testing.T) {
	dir := moduleDir(t, "code.gitea.io/gitea@v1.27.3")
	res := Discover(os.DirFS(dir), "gitea", listFiles(t, dir))
	if len(res.Problems) > 0 {
		t.Errorf("problems: %v", res.Problems)
	}
	pkgs := byName(res.Packages)
	web, ok := pkgs["npm gitea"]
	if !ok || web.Path != "." || len(web.Dependencies) < 50 {
		t.Fatalf("the npm root, named after its folder: %+v", web)
	}
	if d, ok := dep(web, "@citation-js/core"); !ok || d.Kind != Runtime {
		t.Errorf("the npm root's @citation-js/core: %+v", d)
	}
	py := pkgs["python gitea"]
	if py.Version != "0.0.0" || py.Metadata["requires-python"] != ">=3.10" {
		t.Errorf("the pyproject: %+v", py)
	}
	for _, name := range []string{"djlint", "yamllint", "zizmor"} {
		if d, ok := dep(py, name); !ok || d.Kind != Dev || !strings.HasPrefix(d.Version, "==") {
			t.Errorf("the pyproject's %s: %+v", name, d)
		}
	}
	if g, ok := pkgs["go gitea.dev"]; !ok || g.Metadata["indirect"] == nil {
		t.Errorf("the Go module: %+v", g)
	}
}

// TestMavenModules reads Maven's own multi-module build as Debian ships
// its poms (libmaven3-core-java, in /usr/share/maven-repo), laid out as
// the source tree has them: the aggregator's pom.xml at the root and each
// module's pom.xml in its folder. Modules inherit their groupId from the
// parent, depend on each other (internal), and the one module Debian does
// not ship (apache-maven, the distribution) is reported as missing.
func TestMavenModules(t *testing.T) {
	const repo = "/usr/share/maven-repo/org/apache/maven"
	parent := filepath.Join(repo, "maven", "3.8.7", "maven-3.8.7.pom")
	src, err := os.ReadFile(parent)
	if err != nil {
		t.Skip("Debian's libmaven3-core-java is not installed (apt-get install -y libmaven3-core-java)")
	}
	dir := t.TempDir()
	write := func(rel string, b []byte) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pom.xml", src)
	var shipped int
	for _, m := range regexp.MustCompile(`<module>([^<]+)</module>`).FindAllStringSubmatch(string(src), -1) {
		b, err := os.ReadFile(filepath.Join(repo, m[1], "3.8.7", m[1]+"-3.8.7.pom"))
		if err != nil {
			continue
		}
		write(filepath.Join(m[1], "pom.xml"), b)
		shipped++
	}
	if shipped < 10 {
		t.Fatalf("only %d module poms in %s", shipped, repo)
	}
	res := Discover(os.DirFS(dir), "maven", listFiles(t, dir))
	pkgs := byName(res.Packages)
	root, ok := pkgs["maven org.apache.maven:maven"]
	if !ok || root.Path != "." {
		t.Fatalf("the aggregator: %v", res.Packages)
	}
	if n := len(res.Packages); n != shipped+1 {
		t.Errorf("%d packages, want the aggregator and %d modules", n, shipped)
	}
	core, ok := pkgs["maven org.apache.maven:maven-core"]
	if !ok || core.Path != "maven-core" || core.Metadata["parent"] != "org.apache.maven:maven" {
		t.Fatalf("maven-core: %+v", core)
	}
	for _, name := range []string{"org.apache.maven:maven-model", "org.apache.maven:maven-settings", "org.apache.maven:maven-artifact"} {
		if d, ok := dep(core, name); !ok || !d.Internal {
			t.Errorf("maven-core's %s: %+v", name, d)
		}
	}
	if d, ok := dep(core, "org.slf4j:slf4j-api"); !ok || d.Internal {
		t.Errorf("maven-core's slf4j-api: %+v", d)
	}
	var missing []string
	for _, p := range res.Problems {
		missing = append(missing, p.File+": "+p.Err.Error())
	}
	if len(missing) != 1 || !strings.Contains(missing[0], "apache-maven") {
		t.Errorf("problems: %q, want apache-maven reported missing", missing)
	}
}
