//go:build unix

// Package unpriv runs a test again as an unprivileged user, for tests of
// what happens when a file or directory cannot be read or written: root,
// who runs CI, reads and writes everything.
package unpriv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// childEnv marks the re-run; its value is the directory Run was given.
const childEnv = "LOUPE_UNPRIV_DIR"

// marker starts the line that carries a child's result.
const marker = "\nLOUPE-UNPRIV-RESULT "

// Dir returns the directory the test is re-run for, or "" when this is
// not the re-run.
func Dir() string { return os.Getenv(childEnv) }

// Report, called in the re-run, hands result to the Run that started it.
func Report(result string) {
	os.Stdout.WriteString(marker + strings.ReplaceAll(result, "\n", `\n`) + "\n")
}

// Run copies the test binary into base (a directory it makes readable to
// all) and runs the calling test there again, as nobody (uid 65534) when
// the process is root and as the same user otherwise, with Dir() = dir.
// It returns what the re-run passed to Report; the test fails if the
// re-run fails or reports nothing.
func Run(t *testing.T, base, dir string) string {
	t.Helper()
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "unpriv.test")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Dir = base
	cmd.Env = append(os.Environ(), childEnv+"="+dir, "HOME="+base, "XDG_CACHE_HOME="+base, "GOCACHE="+base)
	if os.Getuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the unprivileged run failed: %v\n%s", err, out)
	}
	_, result, ok := strings.Cut(string(out), marker)
	if !ok {
		t.Fatalf("the unprivileged run reported nothing:\n%s", out)
	}
	result, _, _ = strings.Cut(result, "\n")
	return strings.ReplaceAll(result, `\n`, "\n")
}

// TempDir returns a new directory for Run's base, removed (with
// everything made readable again) when the test ends. Unlike t.TempDir,
// its parents are open to other users.
func TempDir(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("", "loupe-unpriv-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			if d != nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(base)
	})
	return base
}
