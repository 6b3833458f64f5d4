package difftest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/wire"
)

// The collection suite runs rule collections written by other people
// (sgconfig.yml projects with rules, utilities, tests and snapshots)
// through `ast-grep` and `loupe` as command-line programs and compares:
//
//   - `test` over the whole project, with and without snapshots: the
//     verdict (passed, failed, or refused as invalid) and the summary line;
//   - `test` for each rule file alone (a project of that file, the
//     collection's utilities, and the tests and snapshots of its ids): the
//     verdict, the summary and which cases pass or fail;
//   - `scan --json=stream` of each rule that loads over its own test
//     cases' code, written to files: every finding, field for field;
//   - `scan --json=stream` of the whole project, when every rule loads:
//     every finding over the project's own code, field for field.
//
// The collections are not fetched by the suite: LOUPE_RULE_COLLECTIONS
// names checkouts (separated by the list separator, ":" on Unix), as
// `make difftest-collections` does; without it the suite is skipped.

// TestRuleCollections compares loupe with ast-grep on real rule collections.
func TestRuleCollections(t *testing.T) {
	list := os.Getenv("LOUPE_RULE_COLLECTIONS")
	if list == "" {
		t.Skip("LOUPE_RULE_COLLECTIONS is not set: name checkouts of ast-grep rule collections to compare test and scan on them (make difftest-collections)")
	}
	bin := needAstGrep(t)
	loupe := buildLoupe(t)
	for _, dir := range filepath.SplitList(list) {
		dir, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			compareCollection(t, bin, loupe, dir)
		})
	}
}

// buildLoupe builds the CLI into the test's temporary folder, unless
// LOUPE_BIN names a loupe binary to compare instead.
func buildLoupe(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("LOUPE_BIN"); bin != "" {
		return bin
	}
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "loupe")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/loupe")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/loupe: %v\n%s", err, b)
	}
	return out
}

// testVerdict is what `test` said of a project.
type testVerdict struct {
	Class   string   // "ok", "failed" or "refused"
	Summary string   // the "test result:" or "Error: test failed." line
	Cases   []string // "PASS id" and "FAIL id" lines, sorted
	Output  string   // the last lines, for the report
}

func (v testVerdict) same(o testVerdict) bool {
	return v.Class == o.Class && v.Summary == o.Summary && strings.Join(v.Cases, "\n") == strings.Join(o.Cases, "\n")
}

// runTest runs `bin test args...` in dir and classifies its answer.
func runTest(ctx context.Context, bin, dir string, args ...string) testVerdict {
	cmd := exec.CommandContext(ctx, bin, append([]string{"test"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	v := testVerdict{Class: "ok", Output: lastLines(out, 12)}
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "test result:"), strings.HasPrefix(line, "Error: test failed."):
			v.Summary = line
		case strings.HasPrefix(line, "PASS ") || strings.HasPrefix(line, "FAIL "):
			f := strings.Fields(line)
			v.Cases = append(v.Cases, f[0]+" "+f[1])
		}
	}
	sort.Strings(v.Cases)
	if err != nil {
		v.Class = "failed"
		if v.Summary == "" {
			v.Class = "refused"
		}
	}
	return v
}

// collectionTest is a rule-test file of a collection.
type collectionTest struct {
	path    string
	ID      string   `yaml:"id"`
	Valid   []string `yaml:"valid"`
	Invalid []string `yaml:"invalid"`
}

// collectionRule is what the suite reads of a rule document.
type collectionRule struct {
	ID       string `yaml:"id"`
	Language string `yaml:"language"`
}

func compareCollection(t *testing.T, bin, loupe, dir string) {
	ctx := context.Background()
	proj, err := project.Find(filepath.Join(dir, "sgconfig.yml"), "")
	if err != nil {
		t.Fatal(err)
	}
	// Whether ast-grep loads every rule, as its run without snapshots says.
	loads := false
	for _, args := range [][]string{nil, {"--skip-snapshot-tests"}} {
		ref, got := runTest(ctx, bin, dir, args...), runTest(ctx, loupe, dir, args...)
		loads = ref.Class != "refused"
		if !ref.same(got) {
			t.Errorf("test %q over the project: ast-grep %s %q, loupe %s %q\nast-grep:\n%s\nloupe:\n%s", args, ref.Class, ref.Summary, got.Class, got.Summary, ref.Output, got.Output)
		} else {
			t.Logf("test %q over the project: both %s %q", args, ref.Class, ref.Summary)
		}
	}

	if loads {
		ref, err := scanCLI(ctx, bin, dir, nil)
		if err != nil {
			t.Fatalf("ast-grep scan: %v", err)
		}
		got, err := scanCLI(ctx, loupe, dir, nil)
		if err != nil {
			t.Fatalf("loupe scan: %v", err)
		}
		if onlyRef, onlyGot := diffKeys(ref, got); len(onlyRef)+len(onlyGot) > 0 {
			t.Errorf("scan of the project: ast-grep %d findings, loupe %d:\n%s", len(ref), len(got), firstDiffs(onlyRef, onlyGot, 4))
		} else {
			t.Logf("scan of the project: %d findings agree", len(ref))
		}
	}

	tests := ruleTests(t, proj)
	snapshots := snapshotFiles(proj)

	var ruleFiles []string
	for _, rd := range proj.RuleDirs {
		files, err := project.YAMLFiles(proj.Path(rd))
		if err != nil {
			t.Fatal(err)
		}
		ruleFiles = append(ruleFiles, files...)
	}
	var agree, refused, scanned, findings int
	reasons := map[string]int{}
	for _, rf := range ruleFiles {
		rules := ruleDocs(rf)
		if len(rules) == 0 {
			continue
		}
		work := t.TempDir()
		if err := writeRuleProject(work, proj, rf, rules, tests, snapshots); err != nil {
			t.Fatal(err)
		}
		rel := proj.Rel(rf)
		ref, got := runTest(ctx, bin, work), runTest(ctx, loupe, work)
		if !ref.same(got) {
			t.Errorf("%s: test: ast-grep %s %q, loupe %s %q\nast-grep:\n%s\nloupe:\n%s", rel, ref.Class, ref.Summary, got.Class, got.Summary, ref.Output, got.Output)
			continue
		}
		agree++
		if ref.Class == "refused" {
			refused++
			reasons[refusal(ref.Output)]++
			continue
		}
		n, err := compareRuleScan(ctx, bin, loupe, work, rules, tests)
		if err != nil {
			t.Errorf("%s: scan: %v", rel, err)
			continue
		}
		scanned++
		findings += n
	}
	for r, n := range reasons {
		t.Logf("both refused %d rule files; ast-grep's reason: %s", n, r)
	}
	t.Logf("%d rule files: test verdicts agree on %d (both refused %d); scan over their test cases agrees on %d rule files, %d findings", len(ruleFiles), agree, refused, scanned, findings)
}

// refusal is the innermost cause ast-grep gives for refusing a project,
// with quoted names elided so that causes can be counted.
func refusal(output string) string {
	cause := ""
	for _, line := range strings.Split(output, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "╰▻") || strings.HasPrefix(line, "Error:") && cause == "" {
			cause = line
		}
	}
	return regexp.MustCompile("`[^`]*`").ReplaceAllString(cause, "`…`")
}

// ruleDocs reads the ids and languages of a rule file's documents; a
// file that is not YAML still counts, with what could be read.
func ruleDocs(path string) []collectionRule {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []collectionRule
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var r collectionRule
		if err := dec.Decode(&r); err != nil {
			if !errors.Is(err, io.EOF) && len(out) == 0 {
				out = append(out, collectionRule{})
			}
			break
		}
		if r.ID != "" {
			out = append(out, r)
		}
	}
	return out
}

// ruleTests reads the rule-test files of the project's test folders, by
// rule id; a file that is not a rule test is passed over.
func ruleTests(t *testing.T, proj *project.Project) map[string][]collectionTest {
	t.Helper()
	tests := map[string][]collectionTest{}
	for _, tc := range proj.TestConfigs {
		eachYAMLFile(t, proj.Path(tc.TestDir), func(f string, data []byte) {
			var ct collectionTest
			if yaml.Unmarshal(data, &ct) != nil || ct.ID == "" {
				return
			}
			ct.path = f
			tests[ct.ID] = append(tests[ct.ID], ct)
		})
	}
	return tests
}

// eachYAMLFile calls f with the path and bytes of every YAML file under
// dir, as a project lists them (project.YAMLFiles).
func eachYAMLFile(t *testing.T, dir string, f func(path string, data []byte)) {
	t.Helper()
	files, err := project.YAMLFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f(path, data)
	}
}

// snapshotFiles maps a rule id to its snapshot file, in every test folder.
func snapshotFiles(proj *project.Project) map[string]string {
	out := map[string]string{}
	for _, tc := range proj.TestConfigs {
		dir := tc.SnapshotDir
		if dir == "" {
			dir = "__snapshots__"
		}
		matches, _ := filepath.Glob(filepath.Join(proj.Path(tc.TestDir), dir, "*-snapshot.yml"))
		for _, m := range matches {
			out[strings.TrimSuffix(filepath.Base(m), "-snapshot.yml")] = m
		}
	}
	return out
}

// writeRuleProject writes a project of one rule file into work: the rule,
// the collection's utility folders (by absolute path), and the tests and
// snapshots of the file's ids.
func writeRuleProject(work string, proj *project.Project, ruleFile string, rules []collectionRule, tests map[string][]collectionTest, snapshots map[string]string) error {
	cfg := "ruleDirs: [rules]\ntestConfigs:\n  - testDir: tests\n"
	if len(proj.UtilDirs) > 0 {
		cfg += "utilDirs:\n"
		for _, u := range proj.UtilDirs {
			cfg += fmt.Sprintf("  - %q\n", proj.Path(u))
		}
	}
	// The test folder exists even when no test is of these ids, as in a
	// project whose rule has no test yet.
	if err := os.MkdirAll(filepath.Join(work, "tests"), 0o755); err != nil {
		return err
	}
	files := map[string][]byte{"sgconfig.yml": []byte(cfg)}
	data, err := os.ReadFile(ruleFile)
	if err != nil {
		return err
	}
	files[filepath.Join("rules", filepath.Base(ruleFile))] = data
	for _, r := range rules {
		for i, ct := range tests[r.ID] {
			b, err := os.ReadFile(ct.path)
			if err != nil {
				return err
			}
			files[filepath.Join("tests", fmt.Sprintf("%d-%s", i, filepath.Base(ct.path)))] = b
		}
		if s, ok := snapshots[r.ID]; ok {
			b, err := os.ReadFile(s)
			if err != nil {
				return err
			}
			files[filepath.Join("tests", "__snapshots__", filepath.Base(s))] = b
		}
	}
	for name, b := range files {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// compareRuleScan writes the test cases of the rules in work/cases and
// scans them with both tools; it returns how many findings agreed.
func compareRuleScan(ctx context.Context, bin, loupe, work string, rules []collectionRule, tests map[string][]collectionTest) (int, error) {
	var paths []string
	for _, r := range rules {
		lang, err := language.Lookup(r.Language)
		if err != nil || len(lang.Extensions()) == 0 {
			continue
		}
		for i, ct := range tests[r.ID] {
			for j, code := range append(append([]string{}, ct.Valid...), ct.Invalid...) {
				rel := filepath.Join("cases", r.ID, fmt.Sprintf("%d-%d.%s", i, j, lang.Extensions()[0]))
				if err := os.MkdirAll(filepath.Join(work, filepath.Dir(rel)), 0o755); err != nil {
					return 0, err
				}
				if err := os.WriteFile(filepath.Join(work, rel), []byte(code), 0o644); err != nil {
					return 0, err
				}
				paths = append(paths, rel)
			}
		}
	}
	if len(paths) == 0 {
		return 0, nil
	}
	ref, err := scanCLI(ctx, bin, work, paths)
	if err != nil {
		return 0, fmt.Errorf("ast-grep: %w", err)
	}
	got, err := scanCLI(ctx, loupe, work, paths)
	if err != nil {
		return 0, fmt.Errorf("loupe: %w", err)
	}
	onlyRef, onlyGot := diffKeys(ref, got)
	if len(onlyRef)+len(onlyGot) > 0 {
		return 0, fmt.Errorf("ast-grep %d findings, loupe %d:\n%s", len(ref), len(got), firstDiffs(onlyRef, onlyGot, 4))
	}
	return len(ref), nil
}

// scanCLI runs `bin scan --json=stream` over paths in dir and returns the
// findings' keys.
func scanCLI(ctx context.Context, bin, dir string, paths []string) ([]string, error) {
	cmd := exec.CommandContext(ctx, bin, append([]string{"scan", "--json=stream", "--"}, paths...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return nil, fmt.Errorf("%w: %s", err, lastLines(stderr.Bytes(), 8))
	}
	var keys []string
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var f wire.Finding
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
		keys = append(keys, findingKey(f))
	}
	return keys, sc.Err()
}
