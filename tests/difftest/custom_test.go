package difftest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/grammars/recipe"
)

// The custom language of TestCustomLanguage: a grammar from the npm
// registry that is not among the built-in ones, with an external scanner,
// and a corpus of its language pinned in go.sum (toml-test's valid and
// documents, inside BurntSushi/toml).
const (
	customGrammar        = "@tree-sitter-grammars/tree-sitter-toml"
	customGrammarVersion = "0.7.0"
	customCorpus         = "github.com/BurntSushi/toml@v1.6.0"
)

// TestCustomLanguage: a project whose sgconfig.yml declares TOML as a
// custom language (testdata/custom/toml) gives the same scan findings, run
// matches and test verdicts in loupe, with the grammar built into a module
// by `loupe grammar build`, as in ast-grep 0.51.1 with the same grammar
// compiled by gcc into the native library ast-grep loads. The module is
// built twice, from two copies of the sources, and must come out byte
// for byte the same.
func TestCustomLanguage(t *testing.T) {
	ctx := context.Background()
	sg, err := AstGrep()
	if err != nil {
		t.Skip(err)
	}
	if err := recipe.CheckToolchain(false); err != nil {
		t.Skipf("loupe grammar build: %v", err)
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("the native library for ast-grep needs gcc: apt-get install -y gcc")
	}
	pkg, err := NpmPackage(ctx, customGrammar, customGrammarVersion)
	if err != nil {
		t.Fatal(err)
	}
	bin := buildLoupe(t)
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "project")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(root, "tests", "difftest", "testdata", "custom", "toml"))); err != nil {
		t.Fatal(err)
	}

	// The second build is from a copy of the package elsewhere: the
	// module does not depend on where its sources lie.
	elsewhere := filepath.Join(t.TempDir(), "a", "copy")
	if err := os.CopyFS(elsewhere, os.DirFS(pkg)); err != nil {
		t.Fatal(err)
	}
	var sums []string
	for i, src := range []string{pkg, elsewhere} {
		out := filepath.Join(dir, "toml.wasm")
		if i == 0 {
			out = filepath.Join(t.TempDir(), "first.wasm")
		}
		cmd := exec.CommandContext(ctx, bin, "grammar", "build", "-o", out, src)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("loupe grammar build: %v\n%s", err, b)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		sums = append(sums, hex.EncodeToString(sum[:]))
	}
	if sums[0] != sums[1] {
		t.Fatalf("two builds of %s differ: sha256 %s and %s", customGrammar, sums[0], sums[1])
	}
	t.Logf("%s@%s built twice, from two folders: sha256 %s", customGrammar, customGrammarVersion, sums[0])

	src := filepath.Join(pkg, "src")
	gcc := exec.CommandContext(ctx, "gcc", "-shared", "-fPIC", "-O2", "-I", src,
		filepath.Join(src, "parser.c"), filepath.Join(src, "scanner.c"), "-o", filepath.Join(dir, "toml.so"))
	if b, err := gcc.CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, b)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "sgconfig.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, lib := range map[string]string{"sgconfig.yml": "toml.wasm", "native.yml": "toml.so"} {
		if err := os.WriteFile(filepath.Join(dir, name), bytes.ReplaceAll(cfg, []byte("LIBRARY"), []byte(lib)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := copyTOMLCorpus(t, ctx, filepath.Join(dir, "src", "toml-test"))

	native := []string{"-c", "native.yml", "--custom-languages", "allow"}
	run := func(bin string, args ...string) ([]string, int) {
		t.Helper()
		return jsonLines(t, ctx, dir, bin, args...)
	}
	compare := func(what string, want, got []string, wantCode, gotCode int) int {
		t.Helper()
		return compareLines(t, what, want, got, wantCode, gotCode)
	}

	// Documents the grammar (TOML 1.0) parses with errors are left out:
	// tree-sitter's error recovery differs between ast-grep's runtime
	// (0.27.1) and the one the modules are built with (0.25.0;
	// docs/differences.md). Either tool's word that a file holds an
	// ERROR node is enough.
	errRule := []string{"scan", "--inline-rules", "id: e\nlanguage: toml\nrule: {kind: ERROR}", "--json=stream"}
	withErrors, _ := run(sg, append(errRule, native...)...)
	loupeErrors, _ := run(bin, errRule...)
	dropped := map[string]bool{}
	for _, l := range append(withErrors, loupeErrors...) {
		var m struct{ File string }
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if !dropped[m.File] {
			dropped[m.File] = true
			if err := os.Remove(filepath.Join(dir, m.File)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d toml-test documents and the project's 2; %d parsed with errors left out", files, len(dropped))

	want, wantCode := run(sg, append([]string{"scan", "--json=stream"}, native...)...)
	got, gotCode := run(bin, "scan", "--json=stream")
	findings := compare("scan", want, got, wantCode, gotCode)
	byFile := map[string]bool{}
	for _, l := range want {
		var m struct{ File string }
		if json.Unmarshal([]byte(l), &m) == nil {
			byFile[m.File] = true
		}
	}
	t.Logf("scan: %d findings in %d files compared", findings, len(byFile))

	matches := 0
	for _, p := range []string{"_K = true", "[_T]", "[[_T]]", "_K = _V", "name = _V"} {
		for _, lang := range [][]string{{"-l", "toml"}, nil} { // by --lang, then by extension
			args := append(append([]string{"run", "-p", p, "--json=stream"}, lang...), ".")
			want, wantCode := run(sg, append(args[:len(args):len(args)], native...)...)
			got, gotCode := run(bin, args...)
			matches += compare("run -p "+p+" "+strings.Join(lang, " "), want, got, wantCode, gotCode)
		}
	}
	t.Logf("run: %d matches over 5 patterns, by --lang and by extension, compared", matches)

	// test: without snapshots both fail alike; with the snapshots
	// ast-grep writes, and with those loupe writes, both pass.
	if v, w := runTest(ctx, bin, dir), runTest(ctx, sg, dir, native...); !v.same(w) || v.Class != "failed" {
		t.Errorf("test without snapshots: loupe %s %q %v, ast-grep %s %q %v\n%s", v.Class, v.Summary, v.Cases, w.Class, w.Summary, w.Cases, v.Output)
	}
	update := exec.CommandContext(ctx, sg, append([]string{"test", "-U"}, native...)...)
	update.Dir = dir
	if b, err := update.CombinedOutput(); err != nil {
		t.Fatalf("ast-grep test -U: %v\n%s", err, b)
	}
	if v, w := runTest(ctx, bin, dir), runTest(ctx, sg, dir, native...); !v.same(w) || v.Class != "ok" {
		t.Errorf("test with ast-grep's snapshots: loupe %s %q %v, ast-grep %s %q %v\n%s", v.Class, v.Summary, v.Cases, w.Class, w.Summary, w.Cases, v.Output)
	}
	// And with the snapshots loupe writes.
	if err := os.RemoveAll(filepath.Join(dir, "tests", "__snapshots__")); err != nil {
		t.Fatal(err)
	}
	update = exec.CommandContext(ctx, bin, "test", "-U")
	update.Dir = dir
	if b, err := update.CombinedOutput(); err != nil {
		t.Fatalf("loupe test -U: %v\n%s", err, b)
	}
	if v, w := runTest(ctx, bin, dir), runTest(ctx, sg, dir, native...); !v.same(w) || v.Class != "ok" {
		t.Errorf("test with loupe's snapshots: loupe %s %q %v, ast-grep %s %q %v\n%s", v.Class, v.Summary, v.Cases, w.Class, w.Summary, w.Cases, v.Output)
	}
}

// jsonLines runs bin with args in dir and returns its JSON lines of
// output, each canonical (canonicalJSON), sorted, and its exit status;
// a status over 1 (an error, not "no match") fails the test.
func jsonLines(t *testing.T, ctx context.Context, dir, bin string, args ...string) (lines []string, code int) {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	if code > 1 {
		t.Fatalf("%s %v: exit %d\n%s", bin, args, code, stderr.Bytes())
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			lines = append(lines, canonicalJSON(t, l))
		}
	}
	slices.Sort(lines)
	return lines, code
}

// compareLines reports where loupe's lines (got) and exit status differ
// from ast-grep's (want), and returns how many lines ast-grep gave.
func compareLines(t *testing.T, what string, want, got []string, wantCode, gotCode int) int {
	t.Helper()
	if wantCode != gotCode {
		t.Errorf("%s: exit %d, ast-grep %d", what, gotCode, wantCode)
	}
	if !slices.Equal(want, got) {
		t.Errorf("%s: %d lines, ast-grep %d; first difference:\n%s", what, len(got), len(want), firstDifference(want, got))
	}
	return len(want)
}

// copyTOMLCorpus copies toml-test's valid documents (but any with a NUL
// byte) into dst and returns how many.
func copyTOMLCorpus(t *testing.T, ctx context.Context, dst string) int {
	t.Helper()
	out, err := exec.CommandContext(ctx, "go", "mod", "download", "-json", customCorpus).Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", customCorpus, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatal(err)
	}
	// The valid documents only: on invalid ones tree-sitter's error
	// recovery differs between ast-grep's runtime (0.27.1) and the one
	// the modules are built with (0.25.0; docs/differences.md).
	tests := filepath.Join(info.Dir, "internal", "toml-test", "tests", "valid")
	n := 0
	err = filepath.WalkDir(tests, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".toml" {
			return err
		}
		rel, err := filepath.Rel(tests, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.IndexByte(data, 0) >= 0 {
			// A NUL byte makes a file binary to loupe, which skips it on
			// purpose (docs/differences.md, "Binary files are skipped").
			return nil
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		n++
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// canonicalJSON re-encodes a JSON line with its objects' keys sorted:
// ast-grep writes metavariables in hash order.
func canonicalJSON(t *testing.T, line string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, line)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// firstDifference shows the first line where two sorted outputs part.
func firstDifference(want, got []string) string {
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return "ast-grep: " + w + "\nloupe:    " + g
		}
	}
	return ""
}
