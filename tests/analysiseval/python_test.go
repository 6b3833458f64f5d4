package analysiseval

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tests/difftest"
)

// The Python standard library measured: the pinned Debian packages of
// docs/corpora (libpython3.11-stdlib), a slice of its packages copied into
// a workspace of their own (json, email, http: decoders, parsers,
// messages and headers sharing decode, get, parse, ...).
const (
	pyStdlibPackage = "libpython3.11-stdlib"
	pyStdlibVersion = "3.11.2-6+deb12u9"
	pyStdlibDir     = "/usr/lib/python3.11"
)

var pyStdlibSlice = []string{"json", "email", "http"}

// TestEvalPython measures structural_analysis on Python against pyright's
// language server (tests/analysiseval/pyright.mjs): node-gyp's gyp/ and a
// slice of the standard library.
func TestEvalPython(t *testing.T) {
	t.Run("node-gyp", func(t *testing.T) {
		dir, err := difftest.NpmPackage(context.Background(), "node-gyp", "13.1.0")
		if err != nil {
			t.Skipf("analysiseval: node-gyp@13.1.0 could not be fetched: %v", err)
		}
		// gyp_main.py puts gyp/pylib on sys.path (import gyp is
		// gyp/pylib/gyp, not the gyp/ folder at the root): pyright is told
		// so, as it would be by the project's own configuration.
		measurePython(t, dir, "gyp", "node-gyp", "13.1.0", map[string]any{"extraPaths": []string{"gyp/pylib"}})
	})
	t.Run("python3.11 stdlib", func(t *testing.T) {
		out, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", pyStdlibPackage).Output()
		if err != nil || strings.TrimSpace(string(out)) != pyStdlibVersion {
			t.Skipf("analysiseval: %s=%s is not installed (scripts/test-deps.sh installs it)", pyStdlibPackage, pyStdlibVersion)
		}
		// The packages sit at the workspace's root. pyright still types
		// import email by its typeshed stub and maps the stub's names to
		// these sources (go to definition gives both), so its references
		// miss calls typed through the stub; pyright.mjs adds the calls
		// its call hierarchy finds.
		dir := t.TempDir()
		for _, p := range pyStdlibSlice {
			if err := copyPython(filepath.Join(pyStdlibDir, p), filepath.Join(dir, p)); err != nil {
				t.Fatal(err)
			}
		}
		measurePython(t, dir, ".", "python3.11 "+strings.Join(pyStdlibSlice, ","), pyStdlibVersion, nil)
	})
}

// measurePython asks pyright about the sample, then scores
// structural_analysis's answers against it; opts go into pyright.mjs's
// request (extraPaths).
func measurePython(t *testing.T, dir, srcDir, project, version string, opts map[string]any) {
	node, root, pyright := checker(t, "pyright")
	tr := askTruth(t, node, filepath.Join(root, "tests", "analysiseval", "pyright.mjs"), pyright, dir, srcDir, opts)
	compare(t, tr, dir, srcDir, "python", project, version)
}

// copyPython copies the .py files under src to dst, keeping the folders.
func copyPython(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".py") {
			return nil
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
}
