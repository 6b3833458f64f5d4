package difftest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/scan"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/wire"
)

// The rule suite: testdata/rules/<lang>.yml holds rules (YAML documents
// with ids) that are scanned by ast-grep and by loupe over the same files;
// every finding must agree field for field (range, metavariables,
// transformed variables, message, labels, fix replacement). The files are
// the language's bounded corpus (all of it with LOUPE_DIFFTEST_FULL=1) plus
// testdata/rules/<lang>/. testdata/rules/errors.yml holds rules both tools
// must reject.

// ruleCorpus is a part of a real corpus scanned for one language.
type ruleCorpus struct {
	root    func(ctx context.Context) (string, error)
	bounded []string // globs relative to the root; nil means all of it
	// optional corpora are skipped (with a log line) when not installed.
	optional bool
}

// rustLibrary is Debian's rust-src (apt-get install -y rust-src).
func rustLibrary(context.Context) (string, error) {
	dirs, _ := filepath.Glob("/usr/src/rustc-*/library")
	if len(dirs) == 0 {
		return "", errors.New("rust standard library sources missing (apt-get install -y rust-src)")
	}
	return dirs[len(dirs)-1], nil
}

var ruleCorpora = map[string][]ruleCorpus{
	"typescript": {{
		root:    func(ctx context.Context) (string, error) { return NpmPackage(ctx, "typescript", "5.9.3") },
		bounded: []string{"lib/lib.es5.d.ts", "lib/lib.es2015.*.d.ts", "lib/lib.dom.iterable.d.ts"},
	}},
	"javascript": {{
		root:    func(ctx context.Context) (string, error) { return NpmPackage(ctx, "typescript", "5.9.3") },
		bounded: []string{"lib/watchGuard.js", "lib/_typingsInstaller.js", "lib/_tsserver.js", "lib/tsserverlibrary.js"},
	}},
	"go": {{
		root:    GoRoot,
		bounded: []string{"errors", "strings", "sort", "bufio", "encoding/json", "text/tabwriter", "container"},
	}},
	"python": {{
		root:    func(context.Context) (string, error) { return PythonStdlib() },
		bounded: []string{"json", "argparse.py", "textwrap.py", "string.py", "csv.py", "functools.py"},
	}},
	"c": {{
		root:    func(ctx context.Context) (string, error) { return NpmPackage(ctx, "tree-sitter", "0.25.1") },
		bounded: []string{"vendor/tree-sitter/lib/src/node.c", "vendor/tree-sitter/lib/src/tree.c", "vendor/tree-sitter/lib/src/lexer.c", "vendor/tree-sitter/lib/src/stack.c"},
	}},
	"cpp": {{
		root:    func(ctx context.Context) (string, error) { return NpmPackage(ctx, "tree-sitter", "0.25.1") },
		bounded: []string{"src/node.cc", "src/parser.cc", "src/tree.cc", "src/query.cc"},
	}},
	"rust": {{
		root:     rustLibrary,
		bounded:  []string{"core/src/option.rs", "core/src/result.rs", "alloc/src/vec/mod.rs", "std/src/env.rs"},
		optional: true,
	}},
}

// ruleFinding is one finding in comparable form.
type ruleFinding struct {
	rule string
	key  string
}

func TestRules(t *testing.T) {
	if testing.Short() {
		t.Skip("differential suite against ast-grep: skipped with -short")
	}
	bin := needAstGrep(t)
	ruleFiles, err := filepath.Glob(filepath.Join("testdata", "rules", "*.yml"))
	if err != nil {
		t.Fatal(err)
	}
	filter := regexp.MustCompile(os.Getenv("LOUPE_DIFFTEST_RUN"))
	full := os.Getenv("LOUPE_DIFFTEST_FULL") == "1"
	ctx := context.Background()
	total, agree := 0, 0
	langs := map[string]bool{}
	for _, rf := range ruleFiles {
		name := strings.TrimSuffix(filepath.Base(rf), ".yml")
		if name == "errors" {
			continue
		}
		if !filter.MatchString(name) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			n, ok := runRuleSuite(ctx, t, bin, rf, name, full)
			total += n
			agree += ok
			if ok > 0 {
				langs[name] = true
			}
		})
	}
	if filter.MatchString("errors") {
		t.Run("errors", func(t *testing.T) {
			n, ok := runErrorSuite(ctx, t, bin, filepath.Join("testdata", "rules", "errors.yml"))
			total += n
			agree += ok
		})
	}
	names := make([]string, 0, len(langs))
	for l := range langs {
		names = append(names, l)
	}
	sort.Strings(names)
	t.Logf("rules difftest: %d of %d rules agree with ast-grep, over %d languages (%s)", agree, total, len(names), strings.Join(names, ", "))
}

// splitDocs splits a YAML stream at its "---" lines.
func splitDocs(src []byte) [][]byte {
	var docs [][]byte
	var cur []byte
	for _, line := range bytes.SplitAfter(src, []byte("\n")) {
		if bytes.Equal(bytes.TrimRight(line, "\r\n"), []byte("---")) {
			if len(bytes.TrimSpace(cur)) > 0 {
				docs = append(docs, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, line...)
	}
	if len(bytes.TrimSpace(cur)) > 0 {
		docs = append(docs, cur)
	}
	return docs
}

var idLine = regexp.MustCompile(`(?m)^id:\s*(\S+)`)

// runRuleSuite scans the corpora of one language with the rules of one
// file and returns how many rules there are and how many agree.
func runRuleSuite(ctx context.Context, t *testing.T, bin, ruleFile, langName string, full bool) (int, int) {
	lang, err := language.Lookup(langName)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(ruleFile)
	if err != nil {
		t.Fatal(err)
	}
	absRules, err := filepath.Abs(ruleFile)
	if err != nil {
		t.Fatal(err)
	}
	cfgs, err := project.ReadRuleFile(ctx, ruleFile, ruleFile, nil)
	if err != nil {
		t.Fatalf("loupe rejects %s: %v", ruleFile, err)
	}
	var ids []string
	for _, d := range splitDocs(src) {
		m := idLine.FindSubmatch(d)
		if m == nil {
			t.Fatalf("%s: a rule without id", ruleFile)
		}
		ids = append(ids, string(m[1]))
	}
	if len(ids) != len(cfgs) {
		t.Fatalf("%s: %d ids but %d rules", ruleFile, len(ids), len(cfgs))
	}
	rules := scan.NewRules(cfgs, ".", "")

	type part struct {
		root  string
		files []string
	}
	var parts []part
	for _, co := range ruleCorpora[lang.Name()] {
		root, err := co.root(ctx)
		if err != nil && (co.optional || errors.Is(err, ErrNotInstalled)) {
			t.Logf("corpus skipped: %v", err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var sel []string
		if !full {
			for _, g := range co.bounded {
				m, err := filepath.Glob(filepath.Join(root, g))
				if err != nil || len(m) == 0 {
					t.Fatalf("%q matches nothing under %s", g, root)
				}
				for _, p := range m {
					rel, _ := filepath.Rel(root, p)
					sel = append(sel, rel)
				}
			}
		}
		files, err := Files(root, lang, sel...)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, part{root, files})
	}
	for _, dir := range []string{filepath.Join("testdata", "rules", lang.Name()), filepath.Join("testdata", lang.Name())} {
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		root, _ := filepath.Abs(dir)
		files, err := Files(root, lang)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) > 0 {
			parts = append(parts, part{root, files})
		}
	}
	if len(parts) == 0 {
		t.Fatalf("no corpus for %s", lang.Name())
	}

	want := map[string][]string{}
	got := map[string][]string{}
	for _, p := range parts {
		type refResult struct {
			findings []ruleFinding
			err      error
		}
		done := make(chan refResult, 1)
		go func() {
			f, err := scanAstGrep(ctx, bin, p.root, absRules, p.files)
			done <- refResult{f, err}
		}()
		for id, keys := range scanLoupe(ctx, t, rules, p.root, p.files) {
			got[id] = append(got[id], keys...)
		}
		r := <-done
		if r.err != nil {
			t.Fatalf("ast-grep: %v", r.err)
		}
		for _, f := range r.findings {
			want[f.rule] = append(want[f.rule], f.key)
		}
	}
	agree := 0
	for _, id := range ids {
		onlyRef, onlyGot := diffKeys(want[id], got[id])
		if len(onlyRef)+len(onlyGot) == 0 {
			agree++
			t.Logf("rule %s: %d findings agree", id, len(want[id]))
			continue
		}
		t.Errorf("rule %s: ast-grep %d findings, loupe %d; %d only in ast-grep, %d only in loupe:\n%s",
			id, len(want[id]), len(got[id]), len(onlyRef), len(onlyGot), firstDiffs(onlyRef, onlyGot, 4))
	}
	return len(ids), agree
}

// scanAstGrep runs `ast-grep scan -r RULES --json=stream FILES` in dir.
func scanAstGrep(ctx context.Context, bin, dir, rules string, files []string) ([]ruleFinding, error) {
	argv := append([]string{"scan", "-r", rules, "--json=stream", "--"}, files...)
	cmd := exec.CommandContext(ctx, bin, argv...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	// Exit status 1 means an error-severity rule fired.
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1 &&
		(stderr.Len() == 0 || bytes.Contains(stderr.Bytes(), []byte("error(s) found in code")))) {
		return nil, fmt.Errorf("%w: %s", err, stderr.Bytes())
	}
	var out []ruleFinding
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var f wire.Finding
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			return nil, fmt.Errorf("ast-grep output: %w", err)
		}
		out = append(out, ruleFinding{rule: f.RuleID, key: findingKey(f)})
	}
	return out, sc.Err()
}

// scanLoupe scans files (relative to root) with rules through the loop
// `loupe scan` runs (core/scan over the per-file pipeline) and returns the
// findings' keys by rule id.
func scanLoupe(ctx context.Context, t *testing.T, rules *scan.Rules, root string, files []string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	type keyed struct{ id, key string }
	st, err := scan.Scan(ctx, rules, search.Options{Root: root, Paths: files, NodeModules: true},
		func(f scan.File) ([]keyed, int64) {
			var out []keyed
			for _, fd := range f.Findings {
				out = append(out, keyed{fd.Config.ID, findingKey(wire.NewFinding(f.Path, fd, true, false))})
			}
			return out, 0
		},
		func(ks []keyed) error {
			for _, k := range ks {
				got[k.id] = append(got[k.id], k.key)
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Skipped) > 0 {
		t.Fatalf("files the pipeline skipped: %v", st.Skipped)
	}
	return got
}

// findingKey renders a finding as one comparable string; labels are
// sorted since ast-grep lists configured labels in hash order.
func findingKey(f wire.Finding) string {
	sort.Slice(f.Labels, func(i, j int) bool {
		a, b := f.Labels[i], f.Labels[j]
		if a.Range.ByteOffset != b.Range.ByteOffset {
			if a.Range.ByteOffset.Start != b.Range.ByteOffset.Start {
				return a.Range.ByteOffset.Start < b.Range.ByteOffset.Start
			}
			return a.Range.ByteOffset.End < b.Range.ByteOffset.End
		}
		return a.Style < b.Style
	})
	b, err := json.Marshal(f)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func diffKeys(ref, got []string) (onlyRef, onlyGot []string) {
	count := map[string]int{}
	for _, k := range ref {
		count[k]++
	}
	for _, k := range got {
		count[k]--
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for n := count[k]; n > 0; n-- {
			onlyRef = append(onlyRef, k)
		}
		for n := count[k]; n < 0; n++ {
			onlyGot = append(onlyGot, k)
		}
	}
	return onlyRef, onlyGot
}

// runErrorSuite checks that both tools reject every rule of a file.
func runErrorSuite(ctx context.Context, t *testing.T, bin, file string) (int, int) {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "empty.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	docs := splitDocs(src)
	agree := 0
	for i, d := range docs {
		m := idLine.FindSubmatch(d)
		id := fmt.Sprintf("doc%d", i+1)
		if m != nil {
			id = string(m[1])
		}
		cmd := exec.CommandContext(ctx, bin, "scan", "--inline-rules", string(d), "--json=stream", ".")
		cmd.Dir = dir
		out, runErr := cmd.CombinedOutput()
		_, loupeErr := rule.ParseConfigs(ctx, d, rule.Options{})
		switch {
		case runErr == nil:
			t.Errorf("rule %s: ast-grep accepts it; the suite expects a rejection", id)
		case loupeErr == nil:
			t.Errorf("rule %s: ast-grep rejects it but loupe accepts it:\n%s", id, lastLines(out, 3))
		default:
			agree++
			t.Logf("rule %s: loupe: %v", id, loupeErr)
		}
	}
	return len(docs), agree
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestRulesProject scans testdata/rules/project, an ast-grep project with
// sgconfig.yml, global utilities (plain and parameterized) and rules, with
// both tools.
func TestRulesProject(t *testing.T) {
	if testing.Short() {
		t.Skip("differential suite against ast-grep: skipped with -short")
	}
	bin := needAstGrep(t)
	ctx := context.Background()
	dir, err := filepath.Abs(filepath.Join("testdata", "rules", "project"))
	if err != nil {
		t.Fatal(err)
	}
	proj, err := project.Find(filepath.Join(dir, "sgconfig.yml"), "")
	if err != nil {
		t.Fatal(err)
	}
	cfgs, err := proj.LoadRules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lang, _ := language.Lookup("typescript")
	files, err := Files(dir, lang, "src")
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{rule.UnusedSuppressionID}
	for _, c := range cfgs {
		ids = append(ids, c.ID)
	}
	// The project's own rule selection (files/ignores globs relative to
	// the sgconfig.yml's folder) decides which rules each file gets; the
	// unused-suppression report is on, as in a project scan. Named files
	// (every TypeScript file; a Python file, of no rule's language, and
	// a TypeScript one) and the project walk (no path) are compared.
	for _, paths := range [][]string{files, {"src/tool.py", "src/unused.ts"}, nil} {
		argv := append([]string{"scan", "--json=stream", "--"}, paths...)
		cmd := exec.CommandContext(ctx, bin, argv...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("ast-grep: %v", err)
		}
		want := map[string][]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if line == "" {
				continue
			}
			var f wire.Finding
			if err := json.Unmarshal([]byte(line), &f); err != nil {
				t.Fatal(err)
			}
			want[f.RuleID] = append(want[f.RuleID], findingKey(f))
		}
		got := scanLoupe(ctx, t, scan.NewRules(cfgs, proj.Dir, rule.SeverityHint), dir, paths)
		agree := 0
		for _, id := range ids {
			onlyRef, onlyGot := diffKeys(want[id], got[id])
			if len(onlyRef)+len(onlyGot) > 0 {
				t.Errorf("paths %q, rule %s: ast-grep %d findings, loupe %d:\n%s", paths, id, len(want[id]), len(got[id]), firstDiffs(onlyRef, onlyGot, 4))
				continue
			}
			agree++
			t.Logf("paths %q, rule %s: %d findings agree", paths, id, len(want[id]))
		}
		t.Logf("project difftest over %q: %d of %d rules agree", paths, agree, len(ids))
	}
}
