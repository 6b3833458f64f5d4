package difftest

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/printer"
)

// TestFixDiffs rewrites the lines of a template literal into other lines
// drawn from a few repeated ones (`}` twice indented, letters), where
// many edits are equally short, and compares ast-grep's diff of the file
// (`run -p 'x = $A' -r …`) with printer.Diff's byte for byte: the same
// hunks, and the same lines paired as equal. 40 cases from a fixed seed;
// 400 with LOUPE_DIFFTEST_FULL=1.
func TestFixDiffs(t *testing.T) {
	bin := needAstGrep(t)
	ctx := context.Background()
	n := 40
	if os.Getenv("LOUPE_DIFFTEST_FULL") == "1" {
		n = 400
	}
	rng := rand.New(rand.NewPCG(31, 4))
	alphabet := []string{"a", "b", "c", "}", "  }", "d"}
	lines := func() string {
		var b strings.Builder
		for range rng.IntN(14) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))] + "\n")
		}
		return b.String()
	}
	dir := t.TempDir()
	same := 0
	for i := range n {
		old := "x = `\n" + lines() + "`\n"
		rewrite := "x = `\n" + lines() + "`"
		if err := os.WriteFile(filepath.Join(dir, "a.js"), []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(ctx, bin, "run", "--color", "never", "-p", "x = $A", "-r", rewrite, "a.js")
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("ast-grep run: %v", err)
		}
		want := strings.TrimPrefix(string(out), "a.js\n")
		var got bytes.Buffer
		printer.Diff(&got, old, rewrite+"\n", 3, printer.Palette{})
		if got.String() != want {
			t.Errorf("case %d: %q → %q\nast-grep:\n%s\nloupe:\n%s", i, old, rewrite, want, got.String())
			continue
		}
		same++
	}
	t.Logf("%d rewrites, %d diffs byte-identical", n, same)
}
