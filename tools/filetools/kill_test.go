//go:build unix

package filetools

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/rewrite"

	"github.com/loupe-dev/loupe/tools/toolspec"
)

// killEnv names the workspace a re-executed test binary writes in a loop
// until it is killed (TestKillHelper).
const killEnv = "FILETOOLS_KILL_WORKSPACE"

// killContents are the two versions of the file the helper alternates
// between, and the file it creates, edits and deletes: big enough that a
// kill often lands in the middle of writing one, and differing in one
// line, so that the time goes to writing rather than to diffing.
func killContents() (a, b, created string) {
	body := strings.Repeat("a line of the file, the same in both versions\n", 60000)
	return "version A\n" + body, "version B\n" + body, "header: created\n" + body
}

// TestKillHelper is the writing process of TestKillDuringWrites: it runs
// only when re-executed with killEnv set, and writes until killed.
func TestKillHelper(t *testing.T) {
	dir := os.Getenv(killEnv)
	if dir == "" {
		t.Skip("only run re-executed by TestKillDuringWrites")
	}
	tl, err := New(Config{Workspace: dir, Approver: func(context.Context, toolspec.Request) (bool, error) { return true, nil }})
	if err != nil {
		t.Fatal(err)
	}
	a, b, created := killContents()
	ctx := context.Background()
	// A previous helper may have been killed between creating and
	// deleting the second file.
	if _, err := tl.DeleteFile(ctx, DeleteFileParams{Path: "sub/g.txt"}); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		next := a
		if i%2 == 0 {
			next = b
		}
		if _, err := tl.UpdateFile(ctx, UpdateFileParams{Path: "f.txt", Content: next}); err != nil {
			t.Fatal(err)
		}
		if _, err := tl.CreateFile(ctx, CreateFileParams{Path: "sub/g.txt", Content: created}); err != nil {
			t.Fatal(err)
		}
		if _, err := tl.ReplaceInFile(ctx, ReplaceInFileParams{Path: "sub/g.txt", Find: "header: created", Replace: "header: edited"}); err != nil {
			t.Fatal(err)
		}
		if _, err := tl.DeleteFile(ctx, DeleteFileParams{Path: "sub/g.txt"}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			fmt.Println("ready")
		}
	}
}

// TestKillDuringWrites kills a process writing through the tools with
// SIGKILL at random moments: each file is always one whole version or
// absent, never torn, and the temporary files a kill leaves behind are
// never shown by glob, grep, search or list_directory.
func TestKillDuringWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	a, b, created := killContents()
	edited := strings.Replace(created, "created", "edited", 1)
	dir := workspace(t, map[string]string{"f.txt": a, "sub/": ""})
	// A temporary file as a kill may leave it: half written.
	stray := filepath.Join(dir, ".f.txt.loupe-123456")
	if err := os.WriteFile(stray, []byte("hit half"), 0o600); err != nil {
		t.Fatal(err)
	}
	const rounds = 20
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), killEnv+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("round %d: helper did not start: %q %v", round, line, err)
		}
		time.Sleep(time.Duration(rand.IntN(40)) * time.Millisecond)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()

		if got := readBack(t, dir, "f.txt"); got != a && got != b {
			t.Fatalf("round %d: f.txt is torn (%d bytes)", round, len(got))
		}
		g, err := os.ReadFile(filepath.Join(dir, "sub", "g.txt"))
		if err == nil && string(g) != created && string(g) != edited {
			t.Fatalf("round %d: sub/g.txt is torn (%d bytes)", round, len(g))
		}
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}

	// Whatever temporary files the kills left, the tools show none.
	tl, _ := newTools(t, dir)
	ctx := context.Background()
	real := map[string]bool{"f.txt": true, "sub/g.txt": true}
	gl, err := tl.Glob(ctx, GlobParams{Pattern: "**/*"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range gl.Files {
		if !real[f] {
			t.Errorf("glob shows %s", f)
		}
	}
	gr, err := tl.Grep(ctx, GrepParams{Pattern: "half|line|created|edited", CaseSensitive: Bool(false)})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range gr.Matches {
		if !real[m.File] {
			t.Errorf("grep shows %s", m.File)
		}
	}
	se, err := tl.Search(ctx, SearchParams{Query: "f.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitPaths(se); len(got) != 1 || got[0] != "f.txt" {
		t.Errorf("search shows %q", got)
	}
	for _, sub := range []string{"", "sub"} {
		for _, recursive := range []bool{false, true} {
			ls, err := tl.ListDirectory(ctx, ListDirectoryParams{Path: sub, Recursive: recursive})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ls.Entries {
				if rewrite.IsTempName(filepath.Base(e.Name)) {
					t.Errorf("list_directory %q (recursive %v) shows %s", sub, recursive, e.Name)
				}
			}
		}
	}
}
