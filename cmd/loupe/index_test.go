package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/loupe-dev/loupe/index"
)

// indexFixture copies index/testdata/shop into a new directory.
func indexFixture(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "index", "testdata", "shop")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestIndexInterrupted: a `loupe index` killed with SIGKILL, or stopped
// with SIGINT, half-way through a rebuild leaves the previous index,
// which still opens and answers.
func TestIndexInterrupted(t *testing.T) {
	bin := buildLoupe(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			root := indexFixture(t)
			out, err := exec.Command(bin, "index", root).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "Indexed 4 files (4 parsed, 0 removed), 5 packages") {
				t.Fatalf("first build: %v\n%s", err, out)
			}
			if err := os.WriteFile(filepath.Join(root, "api", "server.go"), []byte("package api\n\nfunc Replaced() {}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(filepath.Join(root, "packages", "core", "src", "cart.ts")); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "index", root)
			cmd.Env = append(os.Environ(), stallEnv+"=1")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(stderr)
			if !sc.Scan() || !strings.Contains(sc.Text(), "stalled") {
				t.Fatalf("no stall: %q", sc.Text())
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			var rest strings.Builder
			for sc.Scan() {
				rest.WriteString(sc.Text() + "\n")
			}
			err = cmd.Wait()
			if sig == syscall.SIGINT && (cmd.ProcessState.ExitCode() != exitError || !strings.Contains(rest.String(), "the previous index is unchanged")) {
				t.Errorf("interrupted: %v\n%s", err, rest.String())
			}
			db, err := index.Open(index.DefaultPath(root))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			for name, want := range map[string]int{"Server": 1, "Cart": 1, "Replaced": 0} {
				if got, err := db.Symbols(ctx, name, ""); err != nil || len(got) != want {
					t.Errorf("%s: %+v %v", name, got, err)
				}
			}
			// The next build completes the change.
			out, err = exec.Command(bin, "index", root).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "Indexed 3 files (1 parsed, 1 removed)") {
				t.Errorf("rebuild: %v\n%s", err, out)
			}
		})
	}
}

// TestIndexCommand: the summary line and --db.
func TestIndexCommand(t *testing.T) {
	root := indexFixture(t)
	db := filepath.Join(t.TempDir(), "shop.db")
	var stdout, stderr strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	if code := dispatch(context.Background(), e, []string{"index", "--db", db, root}); code != exitMatch {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "Indexed 4 files (4 parsed, 0 removed), 5 packages, 13 symbols in ") || !strings.HasSuffix(stdout.String(), db+"\n") || stderr.Len() > 0 {
		t.Errorf("stdout %q stderr %q", stdout.String(), stderr.String())
	}
	if _, err := os.Stat(index.DefaultPath(root)); err == nil {
		t.Error("--db still wrote the default index")
	}
	stdout.Reset()
	if code := dispatch(context.Background(), e, []string{"index", filepath.Join(root, "nope")}); code != exitError {
		t.Errorf("missing dir: exit %d", code)
	}
}

// TestIndexWatch: `loupe index --watch` builds, then applies each change
// to the tree as it happens (each batch a line on stdout, read as the
// signal that it is applied), until SIGINT ends it with status 0.
func TestIndexWatch(t *testing.T) {
	bin := buildLoupe(t)
	root := indexFixture(t)
	cmd := exec.Command(bin, "index", "--watch", root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	next := func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("loupe index --watch ended: %v\n%s", lines.Err(), stderr.String())
		}
		return lines.Text()
	}
	for _, prefix := range []string{"Indexed 4 files", "Watching "} {
		if line := next(); !strings.HasPrefix(line, prefix) {
			t.Fatalf("%q, want %s…", line, prefix)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "api", "watched.go"), []byte("package api\n\nfunc Watched() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if line := next(); !strings.HasPrefix(line, "Updated 1 files (1 parsed, 0 removed) in ") {
		t.Fatalf("%q", line)
	}
	db, err := index.Open(index.DefaultPath(root))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, err := db.Symbols(context.Background(), "Watched", ""); err != nil || len(got) != 1 {
		t.Errorf("Watched: %v %v", got, err)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("after SIGINT: %v\n%s", err, stderr.String())
	}
}
