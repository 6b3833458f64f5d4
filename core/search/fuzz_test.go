package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolve: whatever path an agent passes, Resolve returns a real path
// inside the workspace or a refusal, and no refusal names anything
// outside (issue 18 items 4 and 5). The workspace holds links out of it
// (to a file, to a directory, dangling, looping) beside ordinary entries.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		"", ".", "a.js", "sub/b.js", "../outside/secret.txt", "/etc/passwd", "link_file", "link_dir/secret.txt",
		"link_dir/missing", "dangling", "loop/x", "sub/../../outside", "sub/./b.js", "a.js\x00", `sub\b.js`,
		"/proc/self/root/etc/passwd", "sub/inner_link/secret.txt", "ａ.js", "//a.js",
	} {
		f.Add(s)
	}
	base := f.TempDir()
	root := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	for p, c := range map[string]string{filepath.Join(root, "a.js"): "a", filepath.Join(root, "sub", "b.js"): "b", filepath.Join(outside, "secret.txt"): "s"} {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		filepath.Join(root, "link_file"):         filepath.Join(outside, "secret.txt"),
		filepath.Join(root, "link_dir"):          outside,
		filepath.Join(root, "sub", "inner_link"): "../../outside",
		filepath.Join(root, "dangling"):          filepath.Join(outside, "nothing"),
		filepath.Join(root, "loop"):              "loop",
		filepath.Join(root, "in_link"):           "sub",
	} {
		if err := os.Symlink(target, link); err != nil {
			f.Fatal(err)
		}
	}
	ws, err := OpenWorkspace(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		abs, rel, err := ws.Resolve(p)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, outside) || strings.Contains(msg, "secret") && !strings.Contains(p, "secret") || strings.Contains(msg, "nothing") && !strings.Contains(p, "nothing") {
				t.Fatalf("Resolve(%q) refusal reveals the outside: %v", p, err)
			}
			return
		}
		if !ws.Contains(abs) {
			t.Fatalf("Resolve(%q) = %q, outside the workspace", p, abs)
		}
		if real, err := filepath.EvalSymlinks(abs); err != nil || real != abs {
			t.Fatalf("Resolve(%q) = %q, not a real path (%q, %v)", p, abs, real, err)
		}
		if want, _ := filepath.Rel(ws.Root(), abs); filepath.ToSlash(want) != rel && !(rel == "" && want == ".") {
			t.Fatalf("Resolve(%q): rel %q for %q", p, rel, abs)
		}
	})
}
