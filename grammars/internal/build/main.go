// Command build compiles loupe's grammar modules: for each language in
// grammars/manifest.json it fetches the pinned C sources (Go module proxy or
// npm registry), links tree-sitter's runtime, the grammar and glue/glue.c
// into a wasm32-wasi reactor with no imports, and records the module's
// sha256 in the manifest.
//
//	go run ./grammars/internal/build [-check] [-cache DIR] [lang ...]
//
// With -check nothing is written: each module is rebuilt in a temporary
// folder and compared byte for byte with the committed one; when one
// differs, the check prints the toolchain found against the pinned one
// and the flags used (recipe.ToolchainReport).
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/grammars/recipe"
)

type language struct {
	Name       string        `json:"name"`
	Display    string        `json:"display"`
	Aliases    []string      `json:"aliases"`
	Extensions []string      `json:"extensions"`
	Expando    string        `json:"expando"`
	Function   string        `json:"function"`
	Source     recipe.Source `json:"source"`
	SHA256     string        `json:"sha256,omitempty"`
	Size       int           `json:"size,omitempty"`
}

type manifest struct {
	Runtime   recipe.Source `json:"runtime"`
	Languages []language    `json:"languages"`
}

func main() {
	check := flag.Bool("check", false, "rebuild into a temporary folder and compare with the committed modules")
	root := flag.String("root", "grammars", "the grammars folder (manifest.json, glue/, wasm/)")
	cache := flag.String("cache", defaultCache(), "folder for fetched sources")
	jobs := flag.Int("j", runtime.NumCPU(), "parallel compilations")
	flag.Parse()
	if err := run(*root, *cache, *check, *jobs, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func defaultCache() string {
	if d := os.Getenv("LOUPE_CACHE"); d != "" {
		return filepath.Join(d, "grammar-src")
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "loupe-grammar-src")
	}
	return filepath.Join(d, "loupe", "grammar-src")
}

func run(root, cache string, check bool, jobs int, only []string) error {
	mpath := filepath.Join(root, "manifest.json")
	raw, err := os.ReadFile(mpath)
	if err != nil {
		return err
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: %w", mpath, err)
	}
	for _, name := range only {
		if !slices.ContainsFunc(m.Languages, func(l language) bool { return l.Name == name }) {
			return fmt.Errorf("unknown language %q", name)
		}
	}
	tmp, err := os.MkdirTemp("", "loupe-runtime")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	rt, err := recipe.PrepareRuntime(cache, tmp, m.Runtime)
	if err != nil {
		return err
	}
	outDir := filepath.Join(root, "wasm")
	if check {
		if outDir, err = os.MkdirTemp("", "loupe-grammar-check"); err != nil {
			return err
		}
		defer os.RemoveAll(outDir)
	}
	glue, err := filepath.Abs(filepath.Join(root, "glue", "glue.c"))
	if err != nil {
		return err
	}

	var (
		mu       sync.Mutex
		errs     []error
		mismatch bool
		wg       sync.WaitGroup
		sem      = make(chan struct{}, max(jobs, 1))
	)
	for i := range m.Languages {
		l := &m.Languages[i]
		if len(only) > 0 && !slices.Contains(only, l.Name) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			sum, size, err := buildOne(cache, rt, glue, outDir, l)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				errs = append(errs, fmt.Errorf("%s: %w", l.Name, err))
			case check && sum != l.SHA256:
				mismatch = true
				errs = append(errs, fmt.Errorf("%s: rebuilt module has sha256 %s, manifest says %s", l.Name, sum, l.SHA256))
			case check:
				fmt.Printf("%-10s ok, byte-identical (%d bytes)\n", l.Name, size)
			default:
				l.SHA256, l.Size = sum, size
				fmt.Printf("%-10s %d bytes %s\n", l.Name, size, sum)
			}
		}()
	}
	wg.Wait()
	if mismatch {
		// Which tool made the difference: the versions found against the
		// pinned ones, and the flags used.
		errs = append(errs, errors.New(strings.TrimSuffix(recipe.ToolchainReport(), "\n")))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if check {
		return nil
	}
	return writeManifest(mpath, &m)
}

// writeManifest writes one language per line so diffs stay readable.
func writeManifest(path string, m *manifest) error {
	var b bytes.Buffer
	enc := func(v any) string {
		var s bytes.Buffer
		e := json.NewEncoder(&s)
		e.SetEscapeHTML(false)
		if err := e.Encode(v); err != nil {
			panic(err) // plain structs of strings and ints always encode
		}
		return strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(s.String(), `":`, `": `), `,"`, `, "`))
	}
	b.WriteString("{\n  \"runtime\": " + enc(m.Runtime) + ",\n  \"languages\": [\n")
	for i, l := range m.Languages {
		b.WriteString("    " + enc(l))
		if i < len(m.Languages)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  ]\n}\n")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func buildOne(cache, rt, glue, outDir string, l *language) (string, int, error) {
	src, err := recipe.Fetch(cache, l.Source)
	if err != nil {
		return "", 0, err
	}
	work, err := os.MkdirTemp("", "loupe-grammar-"+l.Name)
	if err != nil {
		return "", 0, err
	}
	defer os.RemoveAll(work)
	if ps := recipe.Patches[l.Source.Package+"@"+l.Source.Version]; len(ps) > 0 {
		if src, err = recipe.PatchedCopy(src, filepath.Join(work, "src"), ps); err != nil {
			return "", 0, err
		}
	}
	data, err := recipe.Build(recipe.Unit{
		Runtime: rt, Glue: filepath.Dir(glue), Src: src, Function: l.Function, Work: work,
		PrefixMaps: []string{cache, filepath.Dir(glue), work, filepath.Dir(rt)},
	})
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", l.Name, err)
	}
	out := filepath.Join(outDir, l.Name+".wasm")
	if err := os.WriteFile(out+".tmp", data, 0o644); err != nil {
		return "", 0, err
	}
	if err := os.Rename(out+".tmp", out); err != nil {
		return "", 0, err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), len(data), nil
}
