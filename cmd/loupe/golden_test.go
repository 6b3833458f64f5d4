package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tests/golden"
	"golang.org/x/tools/txtar"
)

// The golden tests are txtar archives in testdata/, in the style of gopls:
// the comment holds the command line (a line starting with "loupe "), and
// the files are the input tree plus these special sections:
//
//	stdin     fed to the command's standard input
//	stdout    the expected standard output
//	stderr    the expected standard error (not checked when absent)
//	exit      the expected exit status (0 when absent)
//	want/P    the expected content of file P after the command
//
// A comment line "compat" also runs the real ast-grep (when installed, see
// package.json) with the same arguments and requires the same stdout and
// exit status (and stderr, when the archive has a stderr section);
// "compat sorted" compares stdout (and stderr) with their lines sorted,
// for multi-file output whose order ast-grep does not fix. A comment line
// "compat replace OLD NEW" (shell words) replaces OLD with NEW in
// ast-grep's output before the comparison, for a documented difference
// such as the tool's name. A comment line "compat tree" also requires
// the files both commands leave (created, changed or not) to be the same,
// with the replacements applied to ast-grep's.
//
// The command runs in a temporary folder; its path in stdout and stderr
// is written $WORK (for ast-grep too).
//
// Run `go test ./cmd/loupe -run Golden -update` to rewrite the expected
// stdout, stderr and exit sections from the current output (a compat
// archive's stderr only when it has the section).
var update = flag.Bool("update", false, "rewrite the golden files' expected output")

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	sg := astGrepBinary()
	for _, file := range files {
		if file, err = filepath.Abs(file); err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runGolden(t, file, sg)
		})
	}
}

// astGrepBinary is the reference binary, or "" when it is not installed.
func astGrepBinary() string {
	p, err := filepath.Abs("../../node_modules/@ast-grep/cli/ast-grep")
	if err != nil {
		return ""
	}
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

func runGolden(t *testing.T, file, sg string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(data)
	var cmdLine string
	compat := ""
	var replace []string // OLD, NEW pairs for ast-grep's output
	compareTrees := false
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "#"))
		switch {
		case strings.HasPrefix(l, "loupe "):
			cmdLine = l
		case l == "compat" || l == "compat sorted":
			compat = l
		case l == "compat tree":
			compareTrees = true
		case strings.HasPrefix(l, "compat replace "):
			words, err := splitShell(strings.TrimPrefix(l, "compat replace "))
			if err != nil || len(words) != 2 {
				t.Fatalf("%s: want \"compat replace OLD NEW\", got %q", file, l)
			}
			replace = append(replace, words...)
		}
	}
	if cmdLine == "" {
		t.Fatalf("%s: no command line (a comment line starting with \"loupe \")", file)
	}
	args, err := splitShell(strings.TrimPrefix(cmdLine, "loupe "))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	dir := t.TempDir()
	var stdin []byte
	for _, f := range ar.Files {
		switch {
		case f.Name == "stdin":
			stdin = f.Data
		case f.Name == "stdout" || f.Name == "stderr" || f.Name == "exit" || strings.HasPrefix(f.Name, "want/"):
		default:
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	e := &env{
		stdin:  bytes.NewReader(stdin),
		stdout: &stdout,
		stderr: &stderr,
		getenv: func(string) string { return "" },
	}
	code := dispatch(context.Background(), e, args)
	gotOut, gotErr := workPath(stdout.String(), dir), workPath(stderr.String(), dir)

	if *update {
		golden.Set(ar, "stdout", []byte(gotOut))
		// A compat archive pins stderr only when it has the section: then
		// ast-grep's must be the same.
		if has(ar, "stderr") || (gotErr != "" && compat == "") {
			golden.Set(ar, "stderr", []byte(gotErr))
		}
		if code != 0 || has(ar, "exit") {
			golden.Set(ar, "exit", []byte(strconv.Itoa(code)+"\n"))
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := get(ar, "stdout"); gotOut != string(want) {
		t.Errorf("stdout:\n%s\nwant:\n%s", gotOut, want)
	}
	if has(ar, "stderr") {
		if want := get(ar, "stderr"); gotErr != string(want) {
			t.Errorf("stderr:\n%s\nwant:\n%s", gotErr, want)
		}
	}
	wantCode := 0
	if has(ar, "exit") {
		wantCode, err = strconv.Atoi(strings.TrimSpace(string(get(ar, "exit"))))
		if err != nil {
			t.Fatalf("exit section: %v", err)
		}
	}
	if code != wantCode {
		t.Errorf("exit status %d, want %d (stderr: %s)", code, wantCode, gotErr)
	}
	for _, f := range ar.Files {
		name, ok := strings.CutPrefix(f.Name, "want/")
		if !ok {
			continue
		}
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("want/%s: %v", name, err)
		} else if !bytes.Equal(got, f.Data) {
			t.Errorf("%s after the command:\n%s\nwant:\n%s", name, got, f.Data)
		}
	}
	if compat == "" {
		return
	}
	if sg == "" {
		t.Logf("ast-grep not installed (npm install); compat check skipped")
		return
	}
	// ast-grep runs on a fresh copy: the command may have changed files.
	sgDir := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "stdin" || f.Name == "stdout" || f.Name == "stderr" || f.Name == "exit" || strings.HasPrefix(f.Name, "want/") {
			continue
		}
		p := filepath.Join(sgDir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(sg, args...)
	cmd.Dir = sgDir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var sgOut, sgErr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &sgOut, &sgErr
	err = cmd.Run()
	sgCode := 0
	if ee, ok := err.(*exec.ExitError); ok {
		sgCode = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("ast-grep: %v", err)
	}
	sgStdout, sgStderr := workPath(sgOut.String(), sgDir), workPath(sgErr.String(), sgDir)
	r := strings.NewReplacer(replace...)
	sgStdout, sgStderr = r.Replace(sgStdout), r.Replace(sgStderr)
	if compareTrees {
		got, want := readTree(t, dir), readTree(t, sgDir)
		for name, data := range want {
			want[name] = r.Replace(workPath(data, sgDir))
		}
		for name, data := range got {
			got[name] = workPath(data, dir)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the files ast-grep leaves:\n%s\nloupe's:\n%s", formatTree(want), formatTree(got))
		}
	}
	got, want := sgStdout, gotOut
	if compat == "compat sorted" {
		got, want = sortedLines(got), sortedLines(want)
	}
	if got != want && !sameJSONLines(got, want) {
		t.Errorf("ast-grep disagrees; its stdout:\n%s\nloupe's:\n%s", got, want)
	}
	if sgCode != code {
		t.Errorf("ast-grep exit status %d, loupe %d", sgCode, code)
	}
	sgErrCmp, errCmp := sgStderr, gotErr
	if compat == "compat sorted" {
		sgErrCmp, errCmp = sortedLines(sgStderr), sortedLines(gotErr)
	}
	if has(ar, "stderr") && sgErrCmp != errCmp {
		t.Errorf("ast-grep disagrees; its stderr:\n%s\nloupe's:\n%s", sgStderr, gotErr)
	}
}

// readTree returns the content of every file below dir, by
// slash-separated path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// formatTree lists a tree's files with their contents, by path.
func formatTree(tree map[string]string) string {
	var b strings.Builder
	names := make([]string, 0, len(tree))
	for n := range tree {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "-- %s --\n%s\n", n, tree[n])
	}
	return b.String()
}

// workPath writes the folder dir (as given and with its links resolved)
// as $WORK in s.
func workPath(s, dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		s = strings.ReplaceAll(s, real, "$WORK")
	}
	return strings.ReplaceAll(s, dir, "$WORK")
}

// sameJSONLines reports whether a and b hold the same JSON values line by
// line (or as one document): ast-grep prints the keys of its metavariable
// maps in hash order, which changes from run to run.
func sameJSONLines(a, b string) bool {
	decode := func(s string) ([]any, bool) {
		var out []any
		dec := json.NewDecoder(strings.NewReader(s))
		for {
			var v any
			if err := dec.Decode(&v); err == io.EOF {
				return out, true
			} else if err != nil {
				return nil, false
			}
			out = append(out, v)
		}
	}
	av, ok1 := decode(a)
	bv, ok2 := decode(b)
	return ok1 && ok2 && len(av) > 0 && reflect.DeepEqual(av, bv)
}

func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// has reports whether the archive has the section name.
func has(a *txtar.Archive, name string) bool {
	_, ok := golden.Get(a, name)
	return ok
}

// get returns the section name's data (nil when absent).
func get(a *txtar.Archive, name string) []byte {
	data, _ := golden.Get(a, name)
	return data
}

// splitShell splits a command line like a POSIX shell: words separated by
// blanks, 'single' and "double" quotes, and backslash escapes.
func splitShell(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`, s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}
