package difftest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The injection suite runs ast-grep and loupe as programs over
// testdata/inject: a project whose sgconfig.yml has languageInjections
// (CSS in styled-components templates, by a $LANG candidate and by a
// static language; HTML in a TypeScript call) and languageGlobs (Vue
// files as HTML), rules of JavaScript, TypeScript, CSS and HTML, and
// pages with several scripts and styles (type=module, a lang attribute,
// other attributes, empty ones, one nested in other elements). It
// compares the --json=stream output (lines canonical and sorted: ast-grep
// prints files in no fixed order), the text reports of one file at a time
// byte for byte, and the files -U fixes.

// injectDir is the project of the suite.
const injectDir = "testdata/inject"

// injectJSON are the runs whose JSON streams must agree.
var injectJSON = [][]string{
	{"scan"},
	{"run", "-p", "console.$M($$$A)"},
	{"run", "-p", "console.log($A)", "-l", "js"},
	{"run", "-p", "console.log($A)", "-r", "logger.log($A)"},
	{"run", "-k", "call_expression", "-l", "ts"},
	{"run", "-k", "declaration", "-l", "css"},
	{"run", "-k", "plain_value", "-l", "css"},
	{"run", "-k", "program", "-l", "javascript"},
	{"run", "-k", "attribute_name", "-l", "html"},
	{"run", "-k", "plain_value"}, // of no host language: their regions are passed over too
	{"run", "-p", "$A", "-l", "html"},
}

// injectFiles are the files whose text reports must be byte-identical.
var injectFiles = []string{"web/page.html", "web/Widget.vue", "web/styled.js", "web/view.ts", "web/one.html"}

// injectText are the text runs, each over one of injectFiles.
var injectText = [][]string{
	{"scan"},
	{"scan", "--report-style", "short"},
	{"scan", "--report-style", "medium"},
	{"scan", "--format", "github"},
	{"run", "-p", "console.$M($$$A)"},
	{"run", "-p", "console.$M($$$A)", "--heading", "always", "-C", "1"},
	{"run", "-p", "console.$M($$$A)", "-r", "logger.$M($$$A)"},
	{"run", "-k", "plain_value", "-l", "css"},
}

// injectFixes are the -U runs whose output and fixed files must agree:
// each fixes a single region of injected code (see TestInjectedFixesAll
// for several).
var injectFixes = [][]string{
	{"scan", "-U", "web/one.html"},
	{"scan", "-U", "web/Widget.vue"},
	{"run", "-p", "console.$M($$$A)", "-r", "logger.$M($$$A)", "-U", "web/one.html"},
}

func TestInjections(t *testing.T) {
	bin := needAstGrep(t)
	loupe := buildLoupe(t)
	ctx := context.Background()
	matches := 0
	for _, args := range injectJSON {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			args := append(append([]string{}, args...), "--json=stream")
			want, wantCode := jsonLines(t, ctx, injectDir, bin, args...)
			got, gotCode := jsonLines(t, ctx, injectDir, loupe, args...)
			matches += compareLines(t, strings.Join(args, " "), want, got, wantCode, gotCode)
		})
	}
	reports := 0
	for _, file := range injectFiles {
		for _, args := range injectText {
			args := append(append([]string{}, args...), file)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				want, wantCode := output(t, ctx, injectDir, bin, args)
				got, gotCode := output(t, ctx, injectDir, loupe, args)
				if want != got || wantCode != gotCode {
					t.Errorf("status %d, ast-grep %d; output:\n%s\nast-grep:\n%s", gotCode, wantCode, got, want)
				}
				reports++
			})
		}
	}
	for _, args := range injectFixes {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			wantDir, gotDir := t.TempDir(), t.TempDir()
			for _, d := range []string{wantDir, gotDir} {
				if err := copyCheckout(injectDir, d); err != nil {
					t.Fatal(err)
				}
			}
			want, wantCode := output(t, ctx, wantDir, bin, args)
			got, gotCode := output(t, ctx, gotDir, loupe, args)
			if want != got || wantCode != gotCode {
				t.Errorf("status %d, ast-grep %d; output:\n%s\nast-grep:\n%s", gotCode, wantCode, got, want)
			}
			file := args[len(args)-1]
			wantSrc, gotSrc := readFile(t, filepath.Join(wantDir, file)), readFile(t, filepath.Join(gotDir, file))
			if wantSrc != gotSrc {
				t.Errorf("%s fixed:\n%s\nast-grep:\n%s", file, gotSrc, wantSrc)
			}
			if wantSrc == readFile(t, filepath.Join(injectDir, file)) {
				t.Errorf("%s: nothing fixed: the case is wrong", file)
			}
		})
	}
	t.Logf("injections: %d JSON runs (%d matches), %d text reports, %d fixes agree with ast-grep", len(injectJSON), matches, reports, len(injectFixes))
}

// TestInjectedFixesAll is where loupe departs from ast-grep on purpose:
// with fixes in several regions of one file, ast-grep 0.51.1 writes each
// region's fixes over the file as it was read, so that only the last
// region's are kept (while it counts them all); loupe applies them all.
func TestInjectedFixesAll(t *testing.T) {
	loupe := buildLoupe(t)
	ctx := context.Background()
	dir := t.TempDir()
	if err := copyCheckout(injectDir, dir); err != nil {
		t.Fatal(err)
	}
	out, code := output(t, ctx, dir, loupe, []string{"scan", "-U", "web/page.html", "web/styled.js"})
	if code != 0 || !strings.HasSuffix(out, "Applied 8 changes\n") {
		t.Fatalf("status %d, output:\n%s", code, out)
	}
	left, _ := output(t, ctx, dir, loupe, []string{"scan", "--json=stream", "--filter", "no-console|no-red", "web/page.html", "web/styled.js"})
	if left != "" {
		t.Errorf("findings left after -U:\n%s", left)
	}
}

// output runs bin with args in dir and returns what it printed (stdout,
// then stderr) and its exit status.
func output(t *testing.T, ctx context.Context, dir, bin string, args []string) (string, int) {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %v: %v", filepath.Base(bin), args, err)
	}
	return stdout.String() + stderr.String(), code
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
