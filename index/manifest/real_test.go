package manifest

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tests/difftest"
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
// projects and the Java library's build (includeBuild, a composite build
// whose libthrift its projects depend on), a Maven plugin with a parent, Cargo crates that depend on
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
	// lib/kotlin's settings includeBuild("../java"), whose root project
	// is libthrift: Gradle substitutes the coordinates with it.
	if got := fmt.Sprint(kotlin.Metadata["included_builds"]); got != "[lib/java]" {
		t.Errorf("the Kotlin build's included builds: %s", got)
	}
	if java := pkgs["gradle libthrift"]; java.Path != "lib/java" {
		t.Errorf("the Java build: %+v", java)
	}
	for _, p := range []Package{kotlin, client, pkgs["gradle cross-test-server"]} {
		if d, ok := dep(p, "org.apache.thrift:libthrift"); !ok || d.Kind != Runtime || !d.Internal {
			t.Errorf("%s's libthrift: %+v", p.Name, d)
		}
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

// layout is a repository assembled from parts published apart, placed
// where its source tree has them: each key is a path in the tree ("."
// for the root), each value the folder or file on disk found there. A
// path belongs to the longest key holding it.
type layout map[string]string

// owner returns the key name belongs to and name relative to it.
func (l layout) owner(name string) (at, rel string, ok bool) {
	for p := range l {
		var r string
		switch {
		case p == ".":
			r = name
		case name == p:
			r = "."
		case strings.HasPrefix(name, p+"/"):
			r = name[len(p)+1:]
		default:
			continue
		}
		if !ok || at == "." || p != "." && len(p) > len(at) {
			at, rel, ok = p, r, true
		}
	}
	return at, rel, ok
}

// Open opens name in the part placed at its path.
func (l layout) Open(name string) (fs.File, error) {
	at, rel, ok := l.owner(name)
	if !ok || !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if rel == "." {
		return os.Open(l[at])
	}
	return os.DirFS(l[at]).Open(rel)
}

// files lists the layout's files, each part's where it is placed.
func (l layout) files(t *testing.T) []string {
	t.Helper()
	var out []string
	for at, src := range l {
		fi, err := os.Stat(src)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.IsDir() {
			out = append(out, at)
			continue
		}
		for _, f := range listFiles(t, src) {
			if at != "." {
				f = at + "/" + f
			}
			if owner, _, _ := l.owner(f); owner == at {
				out = append(out, f)
			}
		}
	}
	return out
}

// TestKubernetesGoWork reads Kubernetes (fetched as a Go module) with
// the real go.work at its root: a use (...) block of the root module and
// 33 staging modules. The module proxy serves each staging module on its
// own (a module's zip leaves out the modules nested in it), so three of
// them are placed back at staging/src/k8s.io/NAME as the source tree has
// them; they become workspace members and the root's and each other's
// requirements on them internal, and the 30 left out are reported
// missing, each on its own.
func TestKubernetesGoWork(t *testing.T) {
	l := layout{".": moduleDir(t, "k8s.io/kubernetes@v1.37.2")}
	staged := []string{"api", "apimachinery", "client-go"}
	for _, name := range staged {
		l["staging/src/k8s.io/"+name] = moduleDir(t, "k8s.io/"+name+"@v0.37.2")
	}
	res := Discover(l, "kubernetes", l.files(t))
	pkgs := byName(res.Packages)
	root, ok := pkgs["go k8s.io/kubernetes"]
	if !ok || root.Path != "." || root.Metadata["go"] != "1.26.0" {
		t.Fatalf("the root module: %+v", root)
	}
	if got := fmt.Sprint(root.Metadata["workspace_members"]); got != "[staging/src/k8s.io/api staging/src/k8s.io/apimachinery staging/src/k8s.io/client-go]" {
		t.Errorf("the workspace's members: %s", got)
	}
	for _, name := range staged {
		p := pkgs["go k8s.io/"+name]
		if p.Path != "staging/src/k8s.io/"+name || p.Metadata["workspace"] != "go.work" {
			t.Errorf("k8s.io/%s: %+v", name, p)
		}
		// The root requires each staging module at v0.0.0, replaced by
		// its folder.
		if d, ok := dep(root, "k8s.io/"+name); !ok || !d.Internal || d.Version != "v0.0.0" || d.Kind != Runtime {
			t.Errorf("the root's k8s.io/%s: %+v", name, d)
		}
	}
	if d, ok := dep(root, "k8s.io/kubectl"); !ok || d.Internal {
		t.Errorf("the root's k8s.io/kubectl (not placed back): %+v", d)
	}
	client := pkgs["go k8s.io/client-go"]
	if d, ok := dep(client, "k8s.io/api"); !ok || !d.Internal || d.Version != "v0.37.2" {
		t.Errorf("client-go's k8s.io/api: %+v", d)
	}
	if d, ok := dep(client, "golang.org/x/net"); !ok || d.Internal {
		t.Errorf("client-go's golang.org/x/net: %+v", d)
	}
	var missing int
	for _, p := range res.Problems {
		if p.File == "go.work" && strings.Contains(p.Err.Error(), "is missing: no go.mod in staging/src/k8s.io/") {
			missing++
			continue
		}
		t.Errorf("problem: %v", p)
	}
	if missing != 30 {
		t.Errorf("%d go.work members reported missing, want 30", missing)
	}
}

// TestLivekitPnpmWorkspace reads LiveKit's protocol (fetched as a Go
// module): a Go module and a pnpm workspace at one root, whose
// pnpm-workspace.yaml lists its packages (the JavaScript package's folder
// and the root itself) beside settings (overrides, allowBuilds).
func TestLivekitPnpmWorkspace(t *testing.T) {
	dir := moduleDir(t, "github.com/livekit/protocol@v1.54.0")
	res := Discover(os.DirFS(dir), "protocol", listFiles(t, dir))
	if len(res.Problems) > 0 {
		t.Errorf("problems: %v", res.Problems)
	}
	pkgs := byName(res.Packages)
	root, ok := pkgs["npm github.com/livekit/protocol"]
	if !ok || root.Path != "." || root.Version != "1.54.0" || root.Metadata["private"] != true {
		t.Fatalf("the npm root: %+v", root)
	}
	if got := fmt.Sprint(root.Metadata["workspace_members"]); got != "[packages/javascript]" {
		t.Errorf("the workspace's members: %s", got)
	}
	if d, ok := dep(root, "@changesets/cli"); !ok || d.Kind != Dev || d.Version != "^3.0.0" {
		t.Errorf("the root's @changesets/cli: %+v", d)
	}
	js, ok := pkgs["npm @livekit/protocol"]
	if !ok || js.Path != "packages/javascript" || js.Version != "1.54.0" || js.Metadata["workspace"] != "pnpm-workspace.yaml" {
		t.Fatalf("@livekit/protocol: %+v", js)
	}
	if d, ok := dep(js, "@bufbuild/protobuf"); !ok || d.Kind != Runtime || d.Internal {
		t.Errorf("@livekit/protocol's @bufbuild/protobuf: %+v", d)
	}
	if _, ok := pkgs["go github.com/livekit/protocol"]; !ok {
		t.Errorf("no Go module among %v", res.Packages)
	}
}

// TestRepoctlPnpmWorkspace reads the pnpm workspace of repoctl's
// repository as its npm package @icebreakers/monorepo-templates ships it
// (the root's files in assets/, the templates/ folder, the package's own
// package.json), placed back where the repository has them (the package
// lives in packages/monorepo-templates, as its repository.directory
// says). pnpm-workspace.yaml lists three globs and a negation: the
// templates and the package are members, the repository's apps are not
// shipped and reported.
func TestRepoctlPnpmWorkspace(t *testing.T) {
	dir := npmPackage(t, "@icebreakers/monorepo-templates", "2.0.1")
	l := layout{
		".":         filepath.Join(dir, "assets"),
		"templates": filepath.Join(dir, "templates"),
		"packages/monorepo-templates/package.json": filepath.Join(dir, "package.json"),
	}
	res := Discover(l, "repoctl", l.files(t))
	var problems []string
	for _, p := range res.Problems {
		problems = append(problems, p.Error())
	}
	if got := strings.Join(problems, "\n"); got != `pnpm-workspace.yaml: workspace member pattern "apps/*" matches no npm package` {
		t.Errorf("problems: %s", got)
	}
	pkgs := byName(res.Packages)
	root, ok := pkgs["npm repoctl-workspace"]
	if !ok || root.Path != "." || root.Metadata["private"] != true {
		t.Fatalf("the root: %+v", root)
	}
	want := "[packages/monorepo-templates templates/cli templates/client templates/server templates/tsdown templates/vitepress templates/vue-lib]"
	if got := fmt.Sprint(root.Metadata["workspace_members"]); got != want {
		t.Errorf("the workspace's members: %s, want %s", got, want)
	}
	if d, ok := dep(root, "repoctl"); !ok || d.Kind != Dev || d.Version != "workspace:*" {
		t.Errorf("the root's repoctl: %+v", d)
	}
	for key, path := range map[string]string{
		"npm @icebreakers/monorepo-templates": "packages/monorepo-templates",
		"npm @icebreakers/website":            "templates/vitepress",
		"npm @icebreakers/vue-lib-template":   "templates/vue-lib",
	} {
		if p := pkgs[key]; p.Path != path || p.Metadata["workspace"] != "pnpm-workspace.yaml" {
			t.Errorf("%s: %+v", key, p)
		}
	}
	// The VitePress site's example packages lie deeper than templates/*.
	if p := pkgs["npm usage-esm"]; p.Path == "" || p.Metadata["workspace"] != nil {
		t.Errorf("an example package of the site: %+v", p)
	}
}

// gitBundle clones the repository in a git bundle that an npm package
// ships into the folder dir beside the package (once: later runs reuse
// it), after checking that the bundle's HEAD is the commit want, and
// returns that folder, without its .git.
func gitBundle(t *testing.T, pkgDir, bundle, dir, want string) string {
	t.Helper()
	dest := filepath.Join(filepath.Dir(pkgDir), dir)
	if _, err := os.Stat(dest); err == nil {
		return dest
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install -y git)")
	}
	src := filepath.Join(pkgDir, bundle)
	heads, err := exec.Command("git", "bundle", "list-heads", src).Output()
	if err != nil {
		t.Fatalf("git bundle list-heads %s: %v", src, err)
	}
	if got := strings.Fields(string(heads)); len(got) < 2 || got[0] != want || got[1] != "HEAD" {
		t.Fatalf("%s holds %q, want HEAD at %s", src, heads, want)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dest), ".clone-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	clone := filepath.Join(tmp, "x")
	if out, err := exec.Command("git", "-c", "advice.detachedHead=false", "clone", "--quiet", src, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone %s: %v\n%s", src, err, out)
	}
	if err := os.RemoveAll(filepath.Join(clone, ".git")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(clone, dest); err != nil {
		if _, statErr := os.Stat(dest); statErr != nil { // not cloned by a concurrent run
			t.Fatal(err)
		}
	}
	return dest
}

// TestLlamaCppPoetry reads llama.cpp as node-llama-cpp ships it (a git
// bundle of the llama.cpp release it builds): Python scripts at the root
// and the gguf library in gguf-py, each a Poetry project, the scripts
// depending on gguf by path. Release b3995 (node-llama-cpp 3.2.0) has
// Poetry 1's form, everything in [tool.poetry] with dev-dependencies; a
// later one (3.22.1) Poetry 2's, PEP 621's [project] whose dependencies
// [tool.poetry.dependencies] only enriches (torch as a list of
// constraints, one per platform) and a dev group.
func TestLlamaCppPoetry(t *testing.T) {
	t.Run("poetry1", func(t *testing.T) {
		pkg := npmPackage(t, "node-llama-cpp", "3.2.0")
		dir := gitBundle(t, pkg, "llama/gitRelease.bundle", "llama.cpp", "fe74fb9acf9c84e2dd35dda8bb27e93394cba09c")
		res := Discover(os.DirFS(dir), "llama.cpp", listFiles(t, dir))
		if len(res.Problems) > 0 {
			t.Errorf("problems: %v", res.Problems)
		}
		pkgs := byName(res.Packages)
		scripts := pkgs["python llama-cpp-scripts"]
		if scripts.Path != "." || scripts.Version != "0.0.0" || scripts.Metadata["poetry"] != true || scripts.Metadata["python"] != ">=3.9" {
			t.Fatalf("the scripts: %+v", scripts)
		}
		for _, want := range []Dependency{
			{Name: "gguf", Version: "path:./gguf-py", Kind: Runtime, Internal: true},
			{Name: "torch", Version: "^2.2.0", Kind: Runtime},
			{Name: "numpy", Version: "^1.25.0", Kind: Runtime},
			{Name: "pytest", Version: "^5.2", Kind: Dev},
			{Name: "poetry-core", Version: ">=1.0.0", Kind: Build},
		} {
			if d, _ := dep(scripts, want.Name); d != want {
				t.Errorf("the scripts' %s: %+v, want %+v", want.Name, d, want)
			}
		}
		gguf := pkgs["python gguf"]
		if gguf.Path != "gguf-py" || gguf.Version != "0.10.0" || gguf.Metadata["python"] != ">=3.8" {
			t.Fatalf("gguf: %+v", gguf)
		}
		if d, _ := dep(gguf, "sentencepiece"); d.Version != ">=0.1.98,<=0.2.0" || d.Kind != Runtime || d.Internal {
			t.Errorf("gguf's sentencepiece: %+v", d)
		}
	})
	t.Run("poetry2", func(t *testing.T) {
		pkg := npmPackage(t, "node-llama-cpp", "3.22.1")
		dir := gitBundle(t, pkg, "llama/gitRelease.bundle", "llama.cpp", "de3ff815ea7d559ee917f063901b8986f038abc6")
		res := Discover(os.DirFS(dir), "llama.cpp", listFiles(t, dir))
		if len(res.Problems) > 0 {
			t.Errorf("problems: %v", res.Problems)
		}
		pkgs := byName(res.Packages)
		scripts := pkgs["python llama-cpp-scripts"]
		if scripts.Path != "." || scripts.Metadata["poetry"] != true || scripts.Metadata["requires-python"] != ">=3.10,<3.15" {
			t.Fatalf("the scripts: %+v", scripts)
		}
		var torch int
		for _, d := range scripts.Dependencies {
			if d.Name == "torch" {
				torch++
			}
		}
		if torch != 1 {
			t.Errorf("torch is listed %d times: %+v", torch, scripts.Dependencies)
		}
		for _, want := range []Dependency{
			{Name: "gguf", Version: "@ ./gguf-py", Kind: Runtime, Internal: true},
			{Name: "torch", Version: ">=2.6.0,<3.0.0", Kind: Runtime},
			{Name: "transformers", Version: "==4.57.6", Kind: Runtime},
			{Name: "pytest", Version: "~=8.3.3", Kind: Dev},
		} {
			if d, _ := dep(scripts, want.Name); d != want {
				t.Errorf("the scripts' %s: %+v, want %+v", want.Name, d, want)
			}
		}
		gguf := pkgs["python gguf"]
		if gguf.Path != "gguf-py" || gguf.Version != "0.19.0" || gguf.Metadata["python"] != ">=3.10" {
			t.Fatalf("gguf: %+v", gguf)
		}
		if d, _ := dep(gguf, "PySide6"); d.Kind != Optional || !strings.HasPrefix(d.Version, ">=6.9,<7.0 ;") {
			t.Errorf("gguf's PySide6: %+v", d)
		}
	})
}
