//go:build parity

package parity

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/grammars"
)

// cacheDir returns the folder for fetched packages and built libraries:
// $LOUPE_CACHE, or the repository's .cache (the tests run in
// tests/parity, two levels below the root).
func cacheDir() (string, error) {
	if d := os.Getenv("LOUPE_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	return filepath.Abs(filepath.Join("..", "..", ".cache"))
}

// fetches deduplicates concurrent downloads of one package in this process.
var (
	fetchMu sync.Mutex
	fetches = map[string]*fetchResult{}
)

type fetchResult struct {
	once sync.Once
	dir  string
	err  error
}

func once(key string, f func() (string, error)) (string, error) {
	fetchMu.Lock()
	r := fetches[key]
	if r == nil {
		r = &fetchResult{}
		fetches[key] = r
	}
	fetchMu.Unlock()
	r.once.Do(func() { r.dir, r.err = f() })
	return r.dir, r.err
}

// packageRoot returns the root folder of a pinned source package, fetching
// it on first use: Go modules through the module cache, npm packages with
// `npm pack` into cache/grammar-src/npm (the layout of grammars' build tool).
func packageRoot(ctx context.Context, cache string, s grammars.Source) (string, error) {
	switch s.Kind {
	case "gomod":
		return once("gomod:"+s.Package+"@"+s.Version, func() (string, error) {
			return goModDir(ctx, s.Package, s.Version)
		})
	case "npm":
		return npmPack(ctx, filepath.Join(cache, "grammar-src", "npm"), s.Package, s.Version)
	}
	return "", fmt.Errorf("parity: unknown source kind %q of %s", s.Kind, s.Package)
}

// sourceDir returns the folder holding a package's parser.c (or lib.c).
func sourceDir(ctx context.Context, cache string, s grammars.Source) (string, error) {
	root, err := packageRoot(ctx, cache, s)
	if err != nil {
		return "", err
	}
	return filepath.Join(root, filepath.FromSlash(s.Dir)), nil
}

func goModDir(ctx context.Context, pkg, version string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", pkg+"@"+version)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Error != "" || err != nil {
		return "", fmt.Errorf("parity: go mod download %s@%s: %v %s", pkg, version, err, info.Error)
	}
	return info.Dir, nil
}

// npmPack unpacks pkg@version into base/pkg@version/package once, and
// returns that folder.
func npmPack(ctx context.Context, base, pkg, version string) (string, error) {
	dir := filepath.Join(base, pkg+"@"+version)
	return once("npm:"+dir, func() (string, error) {
		root := filepath.Join(dir, "package")
		if _, err := os.Stat(root); err == nil {
			return root, nil
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		tmp, err := os.MkdirTemp(dir, "unpack")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(tmp)
		cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", pkg+"@"+version)
		cmd.Dir = tmp
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("parity: npm pack %s@%s: %w", pkg, version, err)
		}
		lines := strings.Fields(string(out))
		if len(lines) == 0 {
			return "", fmt.Errorf("parity: npm pack %s@%s printed no file name", pkg, version)
		}
		tgz := filepath.Join(tmp, lines[len(lines)-1])
		if msg, err := exec.CommandContext(ctx, "tar", "-xzf", tgz, "-C", tmp).CombinedOutput(); err != nil {
			return "", fmt.Errorf("parity: unpack %s: %w\n%s", tgz, err, msg)
		}
		// Another process may have won the race; its copy is as good.
		if err := os.Rename(filepath.Join(tmp, "package"), root); err != nil {
			if _, serr := os.Stat(root); serr != nil {
				return "", err
			}
		}
		return root, nil
	})
}
