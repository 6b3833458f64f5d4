package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionOf(t *testing.T) {
	const rev = "a8fa93e1b2c3d4e5f60718293a4b5c6d7e8f9012"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, c := range []struct {
		name    string
		stamped string
		info    *debug.BuildInfo
		want    string
	}{
		{"stamped tag", "v0.4.0", nil, "0.4.0"},
		{"stamped past a tag", "v0.4.0-3-ga8fa93e-dirty", nil, "0.4.0-3-ga8fa93e-dirty"},
		{"stamped without v", "0.4.0", nil, "0.4.0"},
		{"stamped wins over buildinfo", "v1.0.0", &debug.BuildInfo{Main: debug.Module{Version: "v0.4.0"}}, "1.0.0"},
		{"go install @v0.4.0", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.4.0"}}, "0.4.0"},
		{"go build on a tag, dirty", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.4.0+dirty"}, Settings: vcs("true")}, "0.4.0+dirty"},
		{"go build of an untagged commit", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128005000-a8fa93e1b2c3"}, Settings: vcs("false")}, "dev+a8fa93e1b2c3"},
		{"go build past a tag, dirty", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.4.1-0.20261128005000-a8fa93e1b2c3+dirty"}, Settings: vcs("true")}, "dev+a8fa93e1b2c3-dirty"},
		{"go install @commit (no vcs settings)", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128005000-a8fa93e1b2c3"}}, "dev+a8fa93e1b2c3"},
		{"devel with vcs", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("false")}, "dev+a8fa93e1b2c3"},
		{"devel with vcs, dirty", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("true")}, "dev+a8fa93e1b2c3-dirty"},
		{"devel without vcs", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"no build info", "", nil, "dev"},
	} {
		if got := versionOf(c.stamped, c.info); got != c.want {
			t.Errorf("%s: versionOf(%q, ...) = %q, want %q", c.name, c.stamped, got, c.want)
		}
	}
}

// TestVersionFromTag builds loupe from a copy of this checkout committed
// in a new repository with the lightweight tag v0.9.7: `make build`
// (which stamps `git describe --tags`) and a plain `go build` with VCS
// stamping on (no ldflags: the version comes from the build information,
// as for `go install ...@v0.9.7`) both print "loupe 0.9.7". (A v2+ tag
// would do for make but not for Go, which takes a major version above 1
// only from a module path ending in /vN.)
func TestVersionFromTag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds loupe twice")
	}
	for _, tool := range []string{"git", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	dir := t.TempDir()
	for _, f := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		if err := copyFile(filepath.Join(root, f), filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	gitEnv := append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, append(gitEnv, "GOFLAGS=-buildvcs=true")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("git", "init", "-q")
	run("git", "add", "-A")
	run("git", "commit", "-q", "--no-gpg-sign", "-m", "v0.9.7")
	run("git", "tag", "v0.9.7")
	run("make", "--no-print-directory", "build")
	if got := run(filepath.Join(dir, "bin", "loupe"), "--version"); got != "loupe 0.9.7\n" {
		t.Errorf("make build: --version = %q, want %q", got, "loupe 0.9.7\n")
	}
	plain := filepath.Join(t.TempDir(), "loupe") // outside the work tree, which stays clean
	run("go", "build", "-o", plain, "./cmd/loupe")
	if got := run(plain, "--version"); got != "loupe 0.9.7\n" {
		t.Errorf("go build: --version = %q, want %q", got, "loupe 0.9.7\n")
	}
}

// copyFile copies the regular file src to dst, making dst's folder; a
// listed path that is gone from the work tree (deleted, not yet committed)
// or is no regular file (a symlink to a shared cache) is skipped.
func copyFile(src, dst string) error {
	fi, err := os.Lstat(src)
	if os.IsNotExist(err) || (err == nil && !fi.Mode().IsRegular()) {
		return nil
	}
	if err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
