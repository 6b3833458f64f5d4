package difftest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
)

// ast-grep skips a file that is over both of these limits.
const (
	skipBytes = 3_000_000
	skipLines = 200_000
)

// CacheDir returns the folder corpora are fetched into: $LOUPE_CACHE, else
// .cache at the module root.
func CacheDir() (string, error) {
	if d := os.Getenv("LOUPE_CACHE"); d != "" {
		return d, nil
	}
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, ".cache"), nil
}

// NpmPackage returns the folder of an npm package's unpacked tarball
// ("package" inside it), fetching it with `npm pack` on first use.
func NpmPackage(ctx context.Context, name, version string) (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	dest := filepath.Join(cache, "corpora", name+"-"+version)
	pkg := filepath.Join(dest, "package")
	if _, err := os.Stat(pkg); err == nil {
		return pkg, nil
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dest), ".fetch-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", name+"@"+version, "--pack-destination", tmp)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack %s@%s: %w", name, version, err)
	}
	tgz := filepath.Join(tmp, strings.TrimSpace(string(bytes.TrimSpace(out))))
	if err := untar(tgz, filepath.Join(tmp, "x")); err != nil {
		return "", fmt.Errorf("unpack %s: %w", tgz, err)
	}
	if err := os.Rename(filepath.Join(tmp, "x"), dest); err != nil && !errors.Is(err, fs.ErrExist) {
		if _, statErr := os.Stat(pkg); statErr != nil { // not fetched by a concurrent run
			return "", err
		}
	}
	return pkg, nil
}

func untar(tgz, dest string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		if h.Typeflag != tar.TypeReg || strings.HasPrefix(name, "..") || path.IsAbs(name) {
			continue
		}
		p := filepath.Join(dest, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		w, err := os.Create(p)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, tr)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}

// GoRoot returns the Go toolchain's source tree, $(go env GOROOT)/src.
func GoRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src"), nil
}

// ErrNotInstalled is wrapped by the errors of corpora that come from the
// machine's packages when the package is missing; a test skips on it.
var ErrNotInstalled = errors.New("not installed")

// PythonStdlib returns Python 3.11's standard library folder.
func PythonStdlib() (string, error) {
	const dir = "/usr/lib/python3.11"
	if _, err := os.Stat(filepath.Join(dir, "json", "decoder.py")); err != nil {
		return "", fmt.Errorf("python 3.11 standard library %w (`make test-deps` as root, or apt-get install -y libpython3.11-stdlib)", ErrNotInstalled)
	}
	return dir, nil
}

// Files lists the files under root, or under the given parts of it (files
// or folders relative to root), that ast-grep searches for lang: the
// language's extensions, no hidden file or folder, not empty, and not over
// both of ast-grep's size limits. Paths are relative to root, with
// slashes, sorted.
func Files(root string, lang *language.Language, parts ...string) ([]string, error) {
	exts := map[string]bool{}
	for _, e := range lang.Extensions() {
		exts["."+e] = true
	}
	if len(parts) == 0 {
		parts = []string{"."}
	}
	seen := map[string]bool{}
	var out []string
	for _, part := range parts {
		err := filepath.WalkDir(filepath.Join(root, part), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			if rel != "." && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() || !d.Type().IsRegular() || !exts[filepath.Ext(p)] || seen[rel] {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if info.Size() == 0 {
				return nil
			}
			if info.Size() > skipBytes {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				if bytes.Count(b, []byte("\n")) > skipLines {
					return nil
				}
			}
			seen[rel] = true
			out = append(out, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list %s files under %s: %w", lang.Name(), filepath.Join(root, part), err)
		}
	}
	sort.Strings(out)
	return out, nil
}
