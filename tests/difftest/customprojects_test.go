package difftest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/grammars/recipe"
)

// The custom-project suite runs real projects whose own sgconfig.yml
// declares custom languages through ast-grep and loupe as command-line
// programs. Each custom language's grammar sources are built twice: by
// gcc into the native library ast-grep loads (where the project's
// libraryPath names it on Linux x86-64, replacing any library the project
// ships) and by `loupe grammar build` into the module loupe loads (named
// in a copy of the configuration, loupe-sgconfig.yml). Then, on a copy of
// the checkout:
//
//   - files either tool parses with an ERROR node are left out and
//     counted: tree-sitter's error recovery differs between ast-grep's
//     runtime and the one the modules are built with (docs/differences.md);
//   - `scan --json=stream` of the project: every finding, field for field;
//   - `run -p` of each pattern in the project's rules, by --lang and by
//     extension: every match, field for field;
//   - the same scan and patterns over the rule tests' cases and the
//     examples of the grammar's tree-sitter corpus (test/corpus), written
//     as files of the language;
//   - `test` as committed, with --skip-snapshot-tests, without snapshots,
//     and with the snapshots each tool writes: the verdict, the summary
//     and which cases pass or fail;
//   - over the project and over the cases and examples, each rule of the
//     custom languages through the npm package's ast_grep tool
//     (js/scripts/customproject.mjs: in Node with workers: 0 and with the
//     worker pool, and in headless Chromium over the files in memory),
//     with loupe's configuration as the copy's sgconfig.yml: each rule's
//     matches (file, start and end line and column) against ast-grep's
//     findings of the rule. Without node or js/dist (make js) this is
//     skipped, and without Chromium (or playwright-core) Chromium is; the
//     test says so once.
//
// The projects are not fetched by the suite: LOUPE_CUSTOM_PROJECTS names
// checkouts (separated by the list separator, ":" on Unix), as `make
// difftest-custom-projects` does; without it the suite is skipped. A
// grammar is looked for in the folder of its libraryPath, that folder's
// parent, the project's root and its tree-sitter-NAME folder (a
// submodule, say); LOUPE_CUSTOM_GRAMMARS=NAME=DIR,... names the folder of
// a grammar the project builds from elsewhere (relative to the checkout).

// TestCustomProjects compares loupe with ast-grep on real projects with
// custom languages.
func TestCustomProjects(t *testing.T) {
	list := os.Getenv("LOUPE_CUSTOM_PROJECTS")
	if list == "" {
		t.Skip("LOUPE_CUSTOM_PROJECTS is not set: name checkouts of projects whose sgconfig.yml declares custom languages (make difftest-custom-projects)")
	}
	sg := needAstGrep(t)
	if err := recipe.CheckToolchain(false); err != nil {
		t.Skipf("loupe grammar build: %v", err)
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("the native libraries for ast-grep need gcc: apt-get install -y gcc")
	}
	overrides, err := grammarOverrides(os.Getenv("LOUPE_CUSTOM_GRAMMARS"))
	if err != nil {
		t.Fatal(err)
	}
	bin := buildLoupe(t)
	npm := findNPM(t)
	for _, dir := range filepath.SplitList(list) {
		dir, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			compareCustomProject(t, sg, bin, dir, overrides, npm)
		})
	}
}

// grammarOverrides reads LOUPE_CUSTOM_GRAMMARS: NAME=DIR pairs separated
// by commas.
func grammarOverrides(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		if pair = strings.TrimSpace(pair); pair == "" {
			continue
		}
		name, dir, ok := strings.Cut(pair, "=")
		if !ok || name == "" || dir == "" {
			return nil, fmt.Errorf("LOUPE_CUSTOM_GRAMMARS: %q is not NAME=DIR", pair)
		}
		out[name] = dir
	}
	return out, nil
}

// nativeTarget is the key of ast-grep's per-platform libraryPath map
// that this machine's ast-grep reads.
const nativeTarget = "x86_64-unknown-linux-gnu"

// customLang is a custom language of the project under comparison.
type customLang struct {
	name       string
	extensions []string
	globs      []string // the project's languageGlobs for it
	grammar    string   // folder holding src/parser.c
	native     string   // project-relative path of the .so ast-grep loads
	module     string   // project-relative path of loupe's module
	symbol     string   // languageSymbol, when set
}

// customProject is a copy of a checkout being compared.
type customProject struct {
	t          *testing.T
	ctx        context.Context
	sg, loupe  string
	dir        string
	checkout   string   // the checkout dir is a copy of
	native     []string // ast-grep's configuration arguments
	loupeArgs  []string // loupe's
	langs      []*customLang
	proj       *project.Project
	patterns   []langPattern
	ruleTests  map[string][]collectionTest
	ruleLangs  map[string]string // rule id → custom language
	errorFiles int               // files left out for an ERROR node
	errorDiffs int               // of them, those whose ERROR nodes differ between the tools
	rules      []ruleDoc         // the rules of its custom languages, for the npm package
	scan       []string          // ast-grep's findings in the last compareFiles
	npm        *npmRun           // nil when the npm package cannot run here
}

type langPattern struct{ lang, pattern string }

func compareCustomProject(t *testing.T, sg, loupe, checkout string, overrides map[string]string, npm *npmRun) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "project")
	if err := copyCheckout(checkout, dir); err != nil {
		t.Fatal(err)
	}
	p := &customProject{t: t, ctx: ctx, sg: sg, loupe: loupe, dir: dir, checkout: checkout, npm: npm}
	p.configure(overrides)
	for _, l := range p.langs {
		p.buildGrammar(l)
	}
	p.readRules()

	// The project's own files.
	files, findings, matches := p.compareFiles(".")
	t.Logf("project: %d files of its custom languages, %d of them left out for an ERROR node (%d where the tools' ERROR nodes differ); scan: %d findings compared; run: %d matches over %d patterns of its rules, by --lang and by extension",
		files, p.errorFiles, p.errorDiffs, findings, matches, len(p.patterns))
	p.compareNPM(".")

	// The rule tests' cases and the grammars' corpus examples.
	cases, examples := p.writeExtra("difftest-extra")
	if cases+examples > 0 {
		p.errorFiles, p.errorDiffs = 0, 0
		files, findings, matches := p.compareFiles("difftest-extra")
		t.Logf("rule-test cases (%d) and grammar corpus examples (%d): %d files, %d left out for an ERROR node (%d where the tools' ERROR nodes differ); scan: %d findings compared; run: %d matches compared",
			cases, examples, files, p.errorFiles, p.errorDiffs, findings, matches)
		p.compareNPM("difftest-extra")
		if err := os.RemoveAll(filepath.Join(dir, "difftest-extra")); err != nil {
			t.Fatal(err)
		}
	}

	p.compareTests()
}

// copyCheckout copies a checkout's files (not its .git) into dst;
// symbolic links are copied as links.
func copyCheckout(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, 0o644)
		}
		return nil // sockets, fifos
	})
}

// configure reads the project's sgconfig.yml, finds each custom
// language's grammar and writes loupe's configuration: a copy whose
// libraryPath entries name the modules. ast-grep reads the project's own
// file, unless a libraryPath names no library for this platform.
func (p *customProject) configure(overrides map[string]string) {
	t := p.t
	cfgPath := filepath.Join(p.dir, "sgconfig.yml")
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	proj, err := project.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	proj.Dir, proj.Config = p.dir, cfgPath
	p.proj = proj
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	root := doc.Content[0]
	langs := mapValue(root, "customLanguages")
	if langs == nil || langs.Kind != yaml.MappingNode || len(langs.Content) == 0 {
		t.Fatal("sgconfig.yml declares no customLanguages")
	}
	globs := map[string][]string{}
	if lg := mapValue(root, "languageGlobs"); lg != nil {
		if err := lg.Decode(&globs); err != nil {
			t.Fatal(err)
		}
	}
	nativeCfg := false
	loupeDoc, nativeDoc := cloneNode(&doc), cloneNode(&doc)
	for i := 0; i+1 < len(langs.Content); i += 2 {
		name, entry := langs.Content[i].Value, langs.Content[i+1]
		l := &customLang{name: name, globs: globs[name]}
		if err := mapValue(entry, "extensions").Decode(&l.extensions); err != nil {
			t.Fatalf("customLanguages %s: extensions: %v", name, err)
		}
		if sym := mapValue(entry, "languageSymbol"); sym != nil {
			l.symbol = sym.Value
		}
		lib := mapValue(entry, "libraryPath")
		switch {
		case lib == nil:
			t.Fatalf("customLanguages %s has no libraryPath", name)
		case lib.Kind == yaml.ScalarNode:
			l.native = lib.Value
		case lib.Kind == yaml.MappingNode:
			if v := mapValue(lib, nativeTarget); v != nil {
				l.native = v.Value
			}
		}
		if l.native == "" || filepath.IsAbs(l.native) || strings.HasPrefix(filepath.Clean(l.native), "..") {
			// A path outside the project, or no library for this
			// platform: ast-grep gets a configuration of its own.
			l.native = filepath.Join(".difftest-native", name+".so")
			nativeCfg = true
		}
		l.module = strings.TrimSuffix(l.native, filepath.Ext(l.native)) + ".wasm"
		setLibraryPath(langsOf(loupeDoc), name, l.module)
		setLibraryPath(langsOf(nativeDoc), name, l.native)

		l.grammar = findGrammar(p.dir, p.checkout, name, l.native, overrides[name])
		if l.grammar == "" {
			t.Fatalf("customLanguages %s: no grammar sources (src/parser.c) by %s, its parent, the project's root or its tree-sitter-%s folder; name them in LOUPE_CUSTOM_GRAMMARS=%s=DIR", name, filepath.Dir(l.native), name, name)
		}
		p.langs = append(p.langs, l)
	}
	p.loupeArgs = []string{"-c", writeNode(t, loupeDoc, filepath.Join(p.dir, "loupe-sgconfig.yml"))}
	p.native = []string{"--custom-languages", "allow"}
	if nativeCfg {
		p.native = append(p.native, "-c", writeNode(t, nativeDoc, filepath.Join(p.dir, "native-sgconfig.yml")))
	}
}

// findGrammar returns the folder holding a language's src/parser.c.
func findGrammar(dir, base, name, native, override string) string {
	var candidates []string
	if override != "" {
		if !filepath.IsAbs(override) {
			override = filepath.Join(base, override)
		}
		candidates = []string{override}
	} else {
		lib := filepath.Join(dir, filepath.Dir(native))
		candidates = []string{lib, filepath.Dir(lib), dir, filepath.Join(dir, "tree-sitter-"+name)}
	}
	for _, c := range candidates {
		if fi, err := os.Stat(filepath.Join(c, "src", "parser.c")); err == nil && fi.Mode().IsRegular() {
			return c
		}
	}
	return ""
}

func langsOf(doc *yaml.Node) *yaml.Node { return mapValue(doc.Content[0], "customLanguages") }

// setLibraryPath makes a language's libraryPath the scalar path.
func setLibraryPath(langs *yaml.Node, name, path string) {
	entry := mapValue(langs, name)
	for i := 0; i+1 < len(entry.Content); i += 2 {
		if entry.Content[i].Value == "libraryPath" {
			entry.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: path}
		}
	}
}

// mapValue returns the value of key in a YAML mapping node, nil when n is
// not a mapping or lacks key.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func cloneNode(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = cloneNode(k)
	}
	return &c
}

func writeNode(t *testing.T, doc *yaml.Node, path string) string {
	t.Helper()
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Base(path)
}

// buildGrammar compiles a language's grammar with gcc into the native
// library (over any the project ships: it is never loaded) and with
// `loupe grammar build` into the module.
func (p *customProject) buildGrammar(l *customLang) {
	t := p.t
	src := filepath.Join(l.grammar, "src")
	native := filepath.Join(p.dir, l.native)
	if err := os.MkdirAll(filepath.Dir(native), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(native); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	objDir := t.TempDir()
	objs := []string{}
	link := "gcc"
	for _, f := range []string{"parser.c", "scanner.c", "scanner.cc"} {
		if _, err := os.Stat(filepath.Join(src, f)); err != nil {
			continue
		}
		cc, std := "gcc", "-std=c11"
		if strings.HasSuffix(f, ".cc") {
			cc, std, link = "g++", "-std=c++14", "g++"
		}
		obj := filepath.Join(objDir, f+".o")
		cmd := exec.CommandContext(p.ctx, cc, "-c", "-fPIC", "-O2", std, "-I", src, filepath.Join(src, f), "-o", obj)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", cc, f, err, b)
		}
		objs = append(objs, obj)
	}
	cmd := exec.CommandContext(p.ctx, link, append(append([]string{"-shared"}, objs...), "-o", native)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s -shared: %v\n%s", link, err, b)
	}
	args := []string{"grammar", "build", "-o", filepath.Join(p.dir, l.module)}
	if l.symbol != "" {
		args = append(args, "--language-symbol", l.symbol)
	}
	cmd = exec.CommandContext(p.ctx, p.loupe, append(args, l.grammar)...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("loupe grammar build: %v\n%s", err, b)
	}
	t.Logf("%s: grammar %s built by gcc into %s and by loupe: %s", l.name, l.grammar, l.native, strings.TrimSpace(string(b)))
}

// readRules reads the project's rule files: the patterns of the rules of
// its custom languages, and the rule tests of those rules.
func (p *customProject) readRules() {
	t := p.t
	p.ruleLangs = map[string]string{}
	seen := map[langPattern]bool{}
	for _, rd := range p.proj.RuleDirs {
		eachYAMLFile(t, p.proj.Path(rd), func(f string, data []byte) {
			dec := yaml.NewDecoder(bytes.NewReader(data))
			var nodes []*yaml.Node
			for {
				var node yaml.Node
				if err := dec.Decode(&node); err != nil {
					if !errors.Is(err, io.EOF) {
						t.Logf("%s: %v", p.proj.Rel(f), err)
					}
					break
				}
				nodes = append(nodes, &node)
			}
			for _, node := range nodes {
				var doc map[string]any
				if err := node.Decode(&doc); err != nil {
					t.Logf("%s: %v", p.proj.Rel(f), err)
					continue
				}
				lang := p.lang(fmt.Sprint(doc["language"]))
				if lang == nil {
					continue
				}
				if id, ok := doc["id"].(string); ok {
					p.ruleLangs[id] = lang.name
					p.addRuleDoc(id, f, data, node, nodes, doc)
				}
				for _, pat := range rulePatterns(doc["rule"]) {
					lp := langPattern{lang.name, pat}
					if !seen[lp] {
						seen[lp] = true
						p.patterns = append(p.patterns, lp)
					}
				}
			}
		})
	}
	p.ruleTests = ruleTests(t, p.proj)
}

// lang returns the custom language of a rule's language name.
func (p *customProject) lang(name string) *customLang {
	for _, l := range p.langs {
		if strings.EqualFold(l.name, name) {
			return l
		}
	}
	return nil
}

// rulePatterns returns the string patterns anywhere in a rule (under
// pattern keys of its atomic, relational and composite rules).
func rulePatterns(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s, ok := v[k].(string); ok && k == "pattern" {
				out = append(out, s)
				continue
			}
			out = append(out, rulePatterns(v[k])...)
		}
	case []any:
		for _, x := range v {
			out = append(out, rulePatterns(x)...)
		}
	}
	return out
}

// compareFiles compares ERROR nodes, scan and run -p over path (a folder
// of the project); files either tool parses with an ERROR node are
// removed first. It returns how many files of the custom languages path
// held and how many findings and matches were compared.
func (p *customProject) compareFiles(path string) (files, findings, matches int) {
	t := p.t
	files = p.countFiles(path)
	dropped := map[string]bool{}
	for _, l := range p.langs {
		rule := []string{"scan", "--inline-rules", "id: e\nlanguage: " + l.name + "\nrule: {kind: ERROR}", "--json=stream"}
		want, _ := p.sgLines(append(rule, path)...)
		got, _ := p.loupeLines(append(rule, path)...)
		// A file's ERROR nodes, as each tool reports them.
		errs := map[string][2][]string{}
		for i, lines := range [][]string{want, got} {
			for _, line := range lines {
				var m struct{ File string }
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Fatal(err)
				}
				e := errs[m.File]
				e[i] = append(e[i], line)
				errs[m.File] = e
			}
		}
		for file, e := range errs {
			if !slices.Equal(e[0], e[1]) {
				p.errorDiffs++
				t.Logf("%s: ERROR nodes differ: ast-grep %d, loupe %d; first difference:\n%s", file, len(e[0]), len(e[1]), firstDifference(e[0], e[1]))
			}
			dropped[file] = true
			if err := os.Remove(filepath.Join(p.dir, file)); err != nil {
				t.Fatal(err)
			}
		}
	}
	p.errorFiles += len(dropped)

	want, wantCode := p.sgLines("scan", "--json=stream", path)
	got, gotCode := p.loupeLines("scan", "--json=stream", path)
	findings = compareLines(t, "scan "+path, want, got, wantCode, gotCode)
	p.scan = want

	for _, lp := range p.patterns {
		for _, byLang := range []bool{true, false} {
			args := []string{"run", "-p", lp.pattern, "--json=stream"}
			what := fmt.Sprintf("run -p %q %s", lp.pattern, path)
			if byLang {
				args = append(args, "-l", lp.lang)
				what += " -l " + lp.lang
			}
			args = append(args, path)
			want, wantCode := p.sgLines(args...)
			got, gotCode := p.loupeLines(args...)
			matches += compareLines(t, what, want, got, wantCode, gotCode)
		}
	}
	return files, findings, matches
}

// countFiles counts the files under path of the custom languages (by
// extension and languageGlobs' base names), hidden folders left out.
func (p *customProject) countFiles(path string) int {
	n := 0
	root := filepath.Join(p.dir, path)
	_ = filepath.WalkDir(root, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if f != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		for _, l := range p.langs {
			if l.owns(d.Name()) {
				n++
				break
			}
		}
		return nil
	})
	return n
}

func (l *customLang) owns(name string) bool {
	for _, e := range l.extensions {
		if strings.HasSuffix(name, "."+strings.TrimPrefix(e, ".")) {
			return true
		}
	}
	for _, g := range l.globs {
		if ok, _ := filepath.Match(strings.TrimPrefix(g, "**/"), name); ok {
			return true
		}
	}
	return false
}

func (p *customProject) sgLines(args ...string) ([]string, int) {
	p.t.Helper()
	return jsonLines(p.t, p.ctx, p.dir, p.sg, append(args[:len(args):len(args)], p.native...)...)
}

func (p *customProject) loupeLines(args ...string) ([]string, int) {
	p.t.Helper()
	return jsonLines(p.t, p.ctx, p.dir, p.loupe, append(args[:len(args):len(args)], p.loupeArgs...)...)
}

// writeExtra writes into the folder extra of the project the cases of the
// rule tests of custom-language rules and the examples of the grammars'
// tree-sitter corpora, each a file of its language, and returns how many
// of each.
func (p *customProject) writeExtra(extra string) (cases, examples int) {
	t := p.t
	write := func(rel, code string) {
		path := filepath.Join(p.dir, extra, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ids := make([]string, 0, len(p.ruleTests))
	for id := range p.ruleTests {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		l := p.lang(p.ruleLangs[id])
		if l == nil {
			continue
		}
		for i, ct := range p.ruleTests[id] {
			for j, code := range append(slices.Clone(ct.Valid), ct.Invalid...) {
				write(filepath.Join("cases", id, fmt.Sprintf("%d-%d.%s", i, j, l.ext())), code)
				cases++
			}
		}
	}
	for _, l := range p.langs {
		corpus := filepath.Join(l.grammar, "test", "corpus")
		_ = filepath.WalkDir(corpus, func(f string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(f) != ".txt" {
				return nil
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(corpus, f)
			for k, code := range corpusExamples(data) {
				write(filepath.Join("corpus", l.name, fmt.Sprintf("%s-%d.%s", strings.TrimSuffix(rel, ".txt"), k, l.ext())), code)
				examples++
			}
			return nil
		})
	}
	return cases, examples
}

func (l *customLang) ext() string { return strings.TrimPrefix(l.extensions[0], ".") }

var (
	corpusHeader = regexp.MustCompile(`^={3,}\S*$`)
	corpusRule   = regexp.MustCompile(`^-{3,}\S*$`)
)

// corpusExamples returns the source of each example of a tree-sitter
// corpus file (a title between two lines of =, the source, a line of -,
// the expected tree).
func corpusExamples(data []byte) []string {
	var out []string
	var code []string
	state := 0 // 0: looking for a header, 1: in the title, 2: in the source
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case state == 0 && corpusHeader.MatchString(line):
			state = 1
		case state == 1 && corpusHeader.MatchString(line):
			state, code = 2, nil
		case state == 2 && corpusRule.MatchString(line):
			if src := strings.Trim(strings.Join(code, "\n"), "\n"); src != "" {
				out = append(out, src+"\n")
			}
			state = 0
		case state == 2:
			code = append(code, line)
		}
	}
	return out
}

// compareTests compares `test` over the project: as committed, with
// --skip-snapshot-tests, without snapshots, with the snapshots ast-grep
// writes and with those loupe writes.
func (p *customProject) compareTests() {
	t := p.t
	verdicts := 0
	compare := func(what, wantClass string, args ...string) {
		t.Helper()
		want := runTest(p.ctx, p.sg, p.dir, append(args[:len(args):len(args)], p.native...)...)
		got := runTest(p.ctx, p.loupe, p.dir, append(args[:len(args):len(args)], p.loupeArgs...)...)
		switch {
		case !want.same(got):
			t.Errorf("test %s: loupe %s %q %v, ast-grep %s %q %v\nloupe:\n%s\nast-grep:\n%s", what, got.Class, got.Summary, got.Cases, want.Class, want.Summary, want.Cases, got.Output, want.Output)
		case wantClass != "" && want.Class != wantClass:
			t.Errorf("test %s: both %s %q, not %s\n%s", what, want.Class, want.Summary, wantClass, want.Output)
		default:
			verdicts += len(want.Cases)
			t.Logf("test %s: both %s %q, the verdicts of %d rules alike", what, want.Class, want.Summary, len(want.Cases))
		}
	}
	removeSnapshots := func() {
		t.Helper()
		for _, tc := range p.proj.TestConfigs {
			dir := tc.SnapshotDir
			if dir == "" {
				dir = "__snapshots__"
			}
			if err := os.RemoveAll(filepath.Join(p.proj.Path(tc.TestDir), dir)); err != nil {
				t.Fatal(err)
			}
		}
	}
	update := func(bin string, args []string) {
		t.Helper()
		cmd := exec.CommandContext(p.ctx, bin, append([]string{"test", "-U"}, args...)...)
		cmd.Dir = p.dir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s test -U: %v\n%s", bin, err, b)
		}
	}
	cases := 0
	for _, tests := range p.ruleTests {
		for _, ct := range tests {
			cases += len(ct.Valid) + len(ct.Invalid)
		}
	}
	compare("as committed", "")
	compare("--skip-snapshot-tests", "", "--skip-snapshot-tests")
	if len(p.proj.TestConfigs) == 0 {
		t.Logf("test: %d rule verdicts compared (the project has no testConfigs)", verdicts)
		return
	}
	removeSnapshots()
	compare("without snapshots", "")
	// The snapshots either tool writes pass in both.
	update(p.sg, p.native)
	compare("with ast-grep's snapshots", "ok")
	removeSnapshots()
	update(p.loupe, p.loupeArgs)
	compare("with loupe's snapshots", "ok")
	t.Logf("test: %d rule verdicts compared over 5 runs (%d rule tests, %d cases)", verdicts, len(p.ruleTests), cases)
}

// ruleDoc is a rule of a custom language as the npm package is given it.
type ruleDoc struct {
	ID    string   `json:"id"`
	Rule  string   `json:"rule"`            // the rule file's body, YAML
	Globs []string `json:"globs,omitempty"` // its files and ignores (as !GLOB)
	file  string
}

// addRuleDoc keeps a rule document for the npm package: the text of its
// file (of the document alone, when the file holds several), and its
// files and ignores as the tool's globs, which have no keys of their own
// in a rule. A rule whose severity is off reports nothing in a scan and
// is left out.
func (p *customProject) addRuleDoc(id, file string, data []byte, node *yaml.Node, nodes []*yaml.Node, doc map[string]any) {
	t := p.t
	if doc["severity"] == "off" {
		return
	}
	r := ruleDoc{ID: id, Rule: string(data), file: p.proj.Rel(file)}
	if len(nodes) > 1 {
		b, err := yaml.Marshal(node)
		if err != nil {
			t.Fatal(err)
		}
		r.Rule = string(b)
	}
	for _, key := range []string{"files", "ignores"} {
		list, ok := doc[key].([]any)
		if doc[key] != nil && !ok {
			t.Fatalf("%s: rule %s: %s is not a list", r.file, id, key)
		}
		for _, g := range list {
			s, ok := g.(string)
			if !ok {
				t.Fatalf("%s: rule %s: %s holds %v, not a glob", r.file, id, key, g)
			}
			if key == "ignores" {
				s = "!" + s
			}
			r.Globs = append(r.Globs, s)
		}
	}
	if len(r.Globs) > 0 {
		t.Logf("%s: rule %s: its files and ignores passed to the npm package's ast_grep as globs %q", r.file, id, r.Globs)
	}
	p.rules = append(p.rules, r)
}

// npmRun is how the npm package is run: node, js/scripts/customproject.mjs
// and the modes it can run here.
type npmRun struct {
	node, script string
	modes        []string
}

// npmModes are the script's modes: Node with workers: 0, Node with the
// worker pool, headless Chromium over the files in memory.
var npmModes = []string{"node", "node-pool", "chromium"}

// findNPM returns how to run the npm package, or nil (saying why, once)
// when node or the built package (make js) is missing; without Chromium
// (or playwright-core) it runs in Node only.
func findNPM(t *testing.T) *npmRun {
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Log("npm package: not compared: no node in PATH")
		return nil
	}
	for _, f := range []string{"index.js", "browser.js", "loupe.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(root, "js", "dist", f)); err != nil {
			t.Logf("npm package: not compared: no js/dist/%s (make js builds the package)", f)
			return nil
		}
	}
	n := &npmRun{node: node, script: filepath.Join(root, "js", "scripts", "customproject.mjs"), modes: npmModes}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Logf("npm package: Chromium not compared: no Chromium at %s (apt-get install -y chromium, or set CHROMIUM)", chromium)
		n.modes = npmModes[:2]
	} else if _, err := os.Stat(filepath.Join(root, "js", "node_modules", "playwright-core")); err != nil {
		t.Log("npm package: Chromium not compared: no js/node_modules/playwright-core (make js-deps)")
		n.modes = npmModes[:2]
	}
	return n
}

// npmLine is a line of js/scripts/customproject.mjs's output.
type npmLine struct {
	Mode, Rule, File                     string
	StartLine, StartCol, EndLine, EndCol int
	Total, Calls                         *int
	Error, Skip, Note                    string
}

// compareNPM runs the project's custom-language rules through the npm
// package's ast_grep tool over path (js/scripts/customproject.mjs), in each
// mode, with loupe's configuration as the workspace's sgconfig.yml (the
// one the package reads) for the while, and compares each rule's matches
// (file, start and end line and column) with ast-grep's findings of the
// rule in the last compareFiles' scan of path.
func (p *customProject) compareNPM(path string) {
	t := p.t
	if p.npm == nil {
		return
	}
	if len(p.rules) == 0 {
		t.Logf("npm package over %s: the project has no rules of its custom languages", path)
		return
	}
	// ast-grep's findings, by rule, as the tool's 1-based positions.
	want := map[string][]string{}
	for _, line := range p.scan {
		var f struct {
			RuleID string
			File   string
			Range  struct{ Start, End struct{ Line, Column int } }
		}
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatal(err)
		}
		want[f.RuleID] = append(want[f.RuleID], fmt.Sprintf("%s:%d:%d-%d:%d", f.File,
			f.Range.Start.Line+1, f.Range.Start.Column+1, f.Range.End.Line+1, f.Range.End.Column+1))
	}

	cfg := filepath.Join(p.dir, "sgconfig.yml")
	own, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	loupeCfg, err := os.ReadFile(filepath.Join(p.dir, "loupe-sgconfig.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, loupeCfg, 0o644); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.WriteFile(cfg, own, 0o644); err != nil {
			t.Fatal(err)
		}
	}()
	manifest, err := json.Marshal(map[string]any{"root": p.dir, "path": path, "rules": p.rules, "modes": p.npm.modes})
	if err != nil {
		t.Fatal(err)
	}
	mf := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(mf, manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.npm.node, p.npm.script, mf)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", filepath.Base(p.npm.script), err, stderr.Bytes())
	}

	got := map[string]map[string][]string{} // mode → rule → matches
	calls := map[string]int{}
	done := map[string]map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var l npmLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("node %s: %q: %v", filepath.Base(p.npm.script), line, err)
		}
		switch {
		case l.Skip != "":
			t.Errorf("npm package over %s, %s: not run: %s", path, l.Mode, l.Skip)
		case l.Note != "":
			t.Logf("npm package over %s, %s: %s", path, l.Mode, l.Note)
		case l.Error != "":
			t.Errorf("npm package over %s, %s, rule %q: %s", path, l.Mode, l.Rule, l.Error)
		case l.Total != nil:
			if done[l.Mode] == nil {
				done[l.Mode] = map[string]bool{}
			}
			done[l.Mode][l.Rule] = true
			calls[l.Mode] += *l.Calls
		default:
			if got[l.Mode] == nil {
				got[l.Mode] = map[string][]string{}
			}
			got[l.Mode][l.Rule] = append(got[l.Mode][l.Rule], fmt.Sprintf("%s:%d:%d-%d:%d", l.File, l.StartLine, l.StartCol, l.EndLine, l.EndCol))
		}
	}

	var counts []string
	for _, mode := range p.npm.modes {
		compared, rules := 0, 0
		for _, r := range p.rules {
			if !done[mode][r.ID] {
				continue // its error is reported
			}
			w, g := slices.Sorted(slices.Values(want[r.ID])), slices.Sorted(slices.Values(got[mode][r.ID]))
			if !slices.Equal(w, g) {
				t.Errorf("npm package over %s, %s, rule %s (%s): %d matches, ast-grep %d; first difference:\n%s",
					path, mode, r.ID, r.file, len(g), len(w), firstDifference(w, g))
				continue
			}
			compared += len(w)
			rules++
		}
		counts = append(counts, fmt.Sprintf("%s %d matches of %d rules alike (%d calls)", mode, compared, rules, calls[mode]))
	}
	t.Logf("npm package's ast_grep over %s, %d rules of its custom languages: %s", path, len(p.rules), strings.Join(counts, "; "))
}
