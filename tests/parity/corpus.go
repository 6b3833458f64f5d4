//go:build parity

package parity

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/grammars"
)

// Pinned registry packages of real code, fetched at test time.
const (
	typescriptPkg     = "typescript"
	typescriptVersion = "5.9.3" // lib/*.d.ts and lib/*.js
	expoPkg           = "expo-modules-core"
	expoVersion       = "3.0.29" // Kotlin, Swift, Java, C++, TypeScript
	pythonStdlib      = "/usr/lib/python3.11"
)

// input is one source text to parse with both implementations.
type input struct {
	name string
	src  []byte
}

// corpusLimits bound the bounded (default) corpus; the full corpus takes
// every file.
type corpusLimits struct {
	full    bool
	budget  int64 // bytes of pool files per language
	maxFile int64 // larger pool files are left out
}

var defaultLimits = corpusLimits{budget: 1 << 20, maxFile: 256 << 10}

// poolFile is a file of real code found under one of the corpus roots.
type poolFile struct {
	path    string
	size    int64
	primary bool   // from the corpus chosen for this language
	key     uint64 // a stable shuffle
}

// corpus holds every input source by language.
type corpus struct {
	limits   corpusLimits
	testdata string                // testdata/parse
	roots    map[string]string     // grammar name -> source package root
	pool     map[string][]poolFile // language name -> real files
}

// root is a folder of real code; primary lists the languages for which
// it is the designated corpus and goes first in the bounded selection.
type root struct {
	dir     string
	primary []string
}

// newCorpus fetches every grammar's source package and the pinned corpora
// and indexes their files by language (by extension, as ast-grep does).
func newCorpus(ctx context.Context, cache string, m grammars.Manifest, limits corpusLimits) (*corpus, error) {
	c := &corpus{limits: limits, roots: map[string]string{}, pool: map[string][]poolFile{}}
	var err error
	if c.testdata, err = filepath.Abs(filepath.Join("..", "..", "testdata", "parse")); err != nil {
		return nil, err
	}
	var roots []root
	seen := map[string]bool{}
	for _, l := range m.Languages {
		dir, err := packageRoot(ctx, cache, l.Source)
		if err != nil {
			return nil, err
		}
		c.roots[l.Name] = dir
		if !seen[dir] {
			seen[dir] = true
			roots = append(roots, root{dir: dir})
		}
	}
	rt, err := packageRoot(ctx, cache, m.Runtime)
	if err != nil {
		return nil, err
	}
	roots = append(roots, root{dir: rt})
	ts, err := npmPack(ctx, filepath.Join(cache, "corpus"), typescriptPkg, typescriptVersion)
	if err != nil {
		return nil, err
	}
	roots = append(roots, root{dir: filepath.Join(ts, "lib"), primary: []string{"typescript", "javascript"}})
	expo, err := npmPack(ctx, filepath.Join(cache, "corpus"), expoPkg, expoVersion)
	if err != nil {
		return nil, err
	}
	roots = append(roots, root{dir: expo, primary: []string{"kotlin", "swift", "java", "cpp"}})
	roots = append(roots, root{dir: filepath.Join(runtime.GOROOT(), "src"), primary: []string{"go"}})
	if _, err := os.Stat(pythonStdlib); err == nil {
		roots = append(roots, root{dir: pythonStdlib, primary: []string{"python"}})
	}
	for _, r := range roots {
		if err := c.index(r); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *corpus) index(r root) error {
	return filepath.WalkDir(r.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		// Generated parsers are tens of megabytes of tables, not code.
		if d.Name() == "parser.c" || !d.Type().IsRegular() {
			return nil
		}
		l, ok := grammars.ForPath(p)
		if !ok {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h := fnv.New64a()
		h.Write([]byte(strings.TrimPrefix(p, r.dir)))
		c.pool[l.Name] = append(c.pool[l.Name], poolFile{
			path: p, size: info.Size(), key: h.Sum64(),
			primary: contains(r.primary, l.Name),
		})
		return nil
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// inputs returns a language's inputs: its samples in testdata, the cases
// of its grammar's test corpus, and real files from the pool.
func (c *corpus) inputs(lang string) ([]input, error) {
	var out []input
	samples, err := filepath.Glob(filepath.Join(c.testdata, lang, "*"))
	if err != nil {
		return nil, err
	}
	if len(samples) == 0 {
		return nil, fmt.Errorf("parity: no samples in %s", filepath.Join(c.testdata, lang))
	}
	for _, p := range samples {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, input{name: "testdata/parse/" + lang + "/" + filepath.Base(p), src: b})
	}
	cases, err := corpusCases(c.roots[lang], lang)
	if err != nil {
		return nil, err
	}
	out = append(out, cases...)

	files := append([]poolFile(nil), c.pool[lang]...)
	sort.Slice(files, func(i, j int) bool {
		if files[i].primary != files[j].primary {
			return files[i].primary
		}
		return files[i].key < files[j].key
	})
	var total int64
	for _, f := range files {
		if !c.limits.full && (f.size > c.limits.maxFile || total >= c.limits.budget) {
			continue
		}
		b, err := os.ReadFile(f.path)
		if err != nil {
			return nil, err
		}
		total += int64(len(b))
		out = append(out, input{name: f.path, src: b})
	}
	return out, nil
}

// A test corpus file of tree-sitter holds cases like
//
//	==================
//	name
//	==================
//
//	source
//
//	---
//
//	(expected tree)
//
// Header and divider lines may carry a suffix so sources can contain
// such lines themselves.
var (
	headerLine  = regexp.MustCompile(`^={3,}(\S*)$`)
	dividerLine = regexp.MustCompile(`^-{3,}(\S*)$`)
)

// corpusCases extracts the source of every case of every test corpus file
// under a grammar package (markdown's inline grammar is not loupe's).
func corpusCases(root, lang string) ([]input, error) {
	var out []input
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "tree-sitter-markdown-inline" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".txt") || !strings.Contains(filepath.ToSlash(p), "/corpus/") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, src := range splitCases(b) {
			out = append(out, input{name: fmt.Sprintf("%s#%d", p, i+1), src: src})
		}
		return nil
	})
	return out, err
}

// splitCases returns the source part of each case in a corpus file.
func splitCases(b []byte) [][]byte {
	var (
		out    [][]byte
		lines  []string
		sc     = bufio.NewScanner(bytes.NewReader(b))
		suffix string
		state  int // 0 outside a case or in its expected tree, 1 in its header, 2 in its source
		src    []string
	)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	for _, line := range lines {
		switch state {
		case 0:
			if m := headerLine.FindStringSubmatch(line); m != nil {
				suffix, state = m[1], 1
			}
		case 1:
			if m := headerLine.FindStringSubmatch(line); m != nil && m[1] == suffix {
				state, src = 2, nil
			}
		case 2:
			if m := dividerLine.FindStringSubmatch(line); m != nil && m[1] == suffix {
				out = append(out, []byte(strings.Trim(strings.Join(src, "\n"), "\n")+"\n"))
				state = 0
				continue
			}
			src = append(src, line)
		}
	}
	return out
}
