// Command build compiles loupe's grammar modules: for each language in
// grammars/manifest.json it fetches the pinned C sources (Go module proxy or
// npm registry), links tree-sitter's runtime, the grammar and glue/glue.c
// into a wasm32-wasi reactor with no imports, and records the module's
// sha256 in the manifest.
//
//	go run ./grammars/internal/build [-check] [-cache DIR] [lang ...]
//
// With -check nothing is written: each module is rebuilt in a temporary
// folder and compared byte for byte with the committed one.
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
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// source names one pinned package that carries C sources.
type source struct {
	Kind    string `json:"kind"` // "gomod" or "npm"
	Package string `json:"package"`
	Version string `json:"version"`
	Dir     string `json:"dir"` // folder holding parser.c (or lib.c) inside the package
}

type language struct {
	Name       string   `json:"name"`
	Display    string   `json:"display"`
	Aliases    []string `json:"aliases"`
	Extensions []string `json:"extensions"`
	Expando    string   `json:"expando"`
	Function   string   `json:"function"`
	Source     source   `json:"source"`
	SHA256     string   `json:"sha256,omitempty"`
	Size       int      `json:"size,omitempty"`
}

type manifest struct {
	Runtime   source     `json:"runtime"`
	Languages []language `json:"languages"`
}

// clang is the compiler the committed modules were built with; other
// versions produce different bytes.
const (
	clang   = "clang-19"
	clangxx = "clang++-19"
)

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
	rt, err := fetch(cache, m.Runtime)
	if err != nil {
		return fmt.Errorf("runtime: %w", err)
	}
	if ps := patches[m.Runtime.Package+"@"+m.Runtime.Version]; len(ps) > 0 {
		tmp, err := os.MkdirTemp("", "loupe-runtime")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		// The whole package is copied: the include folder beside src holds api.h.
		if _, err := patchedCopy(filepath.Dir(rt), tmp, ps); err != nil {
			return fmt.Errorf("runtime: %w", err)
		}
		rt = filepath.Join(tmp, m.Runtime.Dir)
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
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
		sem  = make(chan struct{}, max(jobs, 1))
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
	src, err := fetch(cache, l.Source)
	if err != nil {
		return "", 0, err
	}
	work, err := os.MkdirTemp("", "loupe-grammar-"+l.Name)
	if err != nil {
		return "", 0, err
	}
	defer os.RemoveAll(work)
	if ps := patches[l.Source.Package+"@"+l.Source.Version]; len(ps) > 0 {
		if src, err = patchedCopy(src, filepath.Join(work, "src"), ps); err != nil {
			return "", 0, err
		}
	}
	direct, err := directLexerHeader(src, work)
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", l.Name, err)
	}
	common := []string{
		"--target=wasm32-wasi", "-O3", "-mbulk-memory",
		"-DHAVE_ENDIAN_H", "-DNDEBUG", "-D_DEFAULT_SOURCE", "-DLOUPE_LANGUAGE=" + l.Function,
		"-I", filepath.Join(filepath.Dir(rt), "include"), "-I", rt, "-I", src,
		"-ffile-prefix-map=" + cache + "=.", "-ffile-prefix-map=" + filepath.Dir(glue) + "=.",
		"-ffile-prefix-map=" + work + "=.", "-ffile-prefix-map=" + filepath.Dir(rt) + "=.",
		"-w",
	}
	// Every C file becomes LLVM bitcode (-flto) so the linker can inline the
	// runtime's lexer into the grammar's; parser.c gets the direct-call
	// lexer macros by pre-including the patched copy of its parser.h.
	type unit struct {
		file  string
		extra []string
	}
	units := []unit{
		{filepath.Join(filepath.Dir(glue), "runtime.c"), nil},
		{filepath.Join(src, "parser.c"), []string{"-include", direct}},
		{glue, nil},
	}
	if _, err := os.Stat(filepath.Join(src, "scanner.c")); err == nil {
		units = append(units, unit{filepath.Join(src, "scanner.c"), nil})
	}
	var objs []string
	for i, u := range units {
		obj := filepath.Join(work, fmt.Sprintf("%d.o", i))
		args := append(append(append([]string{}, common...), "-flto", "-c", "-o", obj, "-x", "c"), u.extra...)
		if msg, err := exec.Command(clang, append(args, u.file)...).CombinedOutput(); err != nil {
			return "", 0, fmt.Errorf("%s: %w\n%s", clang, err, msg)
		}
		objs = append(objs, obj)
	}
	link := clang
	var libs []string
	// A few grammars (hcl) still carry a C++ scanner: it is compiled on its
	// own, without exceptions or RTTI, and linked with WASI's libc++.
	if _, err := os.Stat(filepath.Join(src, "scanner.cc")); err == nil {
		obj := filepath.Join(work, "scanner.o")
		args := append(append([]string{}, common...), "-fno-exceptions", "-fno-rtti", "-c", "-o", obj, filepath.Join(src, "scanner.cc"))
		if msg, err := exec.Command(clangxx, args...).CombinedOutput(); err != nil {
			return "", 0, fmt.Errorf("%s: %w\n%s", clangxx, err, msg)
		}
		objs = append(objs, obj)
		link = clangxx
		libs = []string{"-lc++", "-lc++abi"}
	}
	out := filepath.Join(outDir, l.Name+".wasm")
	tmp := filepath.Join(work, l.Name+".wasm")
	args := append(append([]string{}, common...), "-flto", "-mexec-model=reactor", "-Wl,--strip-all", "-Wl,--gc-sections", "-o", tmp)
	args = append(append(args, objs...), libs...)
	if msg, err := exec.Command(link, args...).CombinedOutput(); err != nil {
		return "", 0, fmt.Errorf("%s: %w\n%s", link, err, msg)
	}
	data, err := os.ReadFile(tmp)
	if err != nil {
		return "", 0, err
	}
	if err := os.WriteFile(out+".tmp", data, 0o644); err != nil {
		return "", 0, err
	}
	if err := os.Rename(out+".tmp", out); err != nil {
		return "", 0, err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), len(data), nil
}

// directLexer rewrites the two lexer macros of a generated parser.h that
// call through TSLexer's function pointers into direct calls of the
// functions glue/runtime.c exports (the same functions the pointers hold).
var directLexer = []patch{
	{"tree_sitter/parser.h", "  lexer->advance(lexer, skip);  \\", "  loupe_lexer_advance(lexer, skip);  \\"},
	{"tree_sitter/parser.h", "  lexer->mark_end(lexer);", "  loupe_lexer_mark_end(lexer);"},
}

// directLexerHeader writes the grammar's tree_sitter/parser.h with the
// directLexer patches into work and returns its path. It keeps the
// original's include guard, so parser.c's own #include of the header is a
// no-op once this copy is pre-included.
func directLexerHeader(src, work string) (string, error) {
	data, err := os.ReadFile(filepath.Join(src, "tree_sitter", "parser.h"))
	if err != nil {
		return "", err
	}
	for _, p := range directLexer {
		if data, err = p.apply(data); err != nil {
			return "", err
		}
	}
	decls := "#include <stdbool.h>\nstruct TSLexer;\nvoid loupe_lexer_advance(struct TSLexer *, bool);\nvoid loupe_lexer_mark_end(struct TSLexer *);\n"
	path := filepath.Join(work, "parser_direct.h")
	return path, os.WriteFile(path, append([]byte(decls), data...), 0o644)
}

// patch replaces one exact piece of a grammar source file.
type patch struct {
	file, old, new string
}

// apply returns data, the contents of p.file, with p made; p.old must
// occur exactly once.
func (p patch) apply(data []byte) ([]byte, error) {
	if n := bytes.Count(data, []byte(p.old)); n != 1 {
		return nil, fmt.Errorf("patch %s: %q occurs %d times, want once", p.file, p.old, n)
	}
	return bytes.Replace(data, []byte(p.old), []byte(p.new), 1), nil
}

// patches make a few grammars' C portable to wasm32, and steer how the
// runtime is inlined, keyed by package@version (file paths are relative to
// the folder holding parser.c, or for the runtime to its package). Native
// 64-bit builds of the unpatched sources (what ast-grep runs) are the
// reference: a patch must leave their behaviour unchanged, which
// internal/parity checks by comparing these modules' trees with native ones
// built from the original sources.
var patches = map[string][]patch{
	"github.com/tree-sitter/go-tree-sitter@v0.25.0": {
		// V8 runs a call in the code tier it was entered with: wasm has no
		// on-stack replacement. With these inlined, ts_parser_parse's loop
		// stayed in Liftoff's baseline code for a whole file; as functions
		// of their own they are entered once per token and switch to
		// optimised code as soon as it is ready (first parse of a 9 MB file
		// in two workers: 14-16% faster over 12 interleaved pairs). wazero
		// runs the same number of instructions either way (+0.4%).
		{"src/parser.c", "static bool ts_parser__advance(", "static __attribute__((noinline)) bool ts_parser__advance("},
		{"src/parser.c", "static Subtree ts_parser__lex(", "static __attribute__((noinline)) Subtree ts_parser__lex("},
		{"src/parser.c", "static unsigned ts_parser__condense_stack(", "static __attribute__((noinline)) unsigned ts_parser__condense_stack("},
	},
	"tree-sitter-swift@0.7.1": {
		// The scanner state is allocated with size 0 and then written; glibc
		// hands out a zeroed chunk, wasi-libc a reused one, so the state
		// started with garbage from an earlier parse.
		{"scanner.c", "return calloc(0, sizeof(struct ScannerState));", "return calloc(1, sizeof(struct ScannerState));"},
		// 1UL << 32 and the int shift 1 << suppressor are undefined; on
		// 64-bit hosts they end up testing DIRECTIVE_ENDIF, so say that.
		{"scanner.c", "    1UL << FAKE_TRY_BANG, // BANG,", "    1ULL << DIRECTIVE_ENDIF, // BANG,"},
		{"scanner.c", "if (!(suppressing_symbols & 1 << suppressor)) {", "if (!(suppressing_symbols & 1ULL << suppressor)) {"},
	},
}

// patchedCopy copies the source folder src to dst and applies ps there;
// each old text must occur exactly once.
func patchedCopy(src, dst string, ps []patch) (string, error) {
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		return "", err
	}
	for _, p := range ps {
		path := filepath.Join(dst, p.file)
		data, err := os.ReadFile(path)
		if err != nil {
			return "", err
		}
		if data, err = p.apply(data); err != nil {
			return "", err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return "", err
		}
	}
	return dst, nil
}

var fetchMu sync.Mutex

// fetch returns the folder holding s's C sources, downloading the pinned
// package into cache the first time.
func fetch(cache string, s source) (string, error) {
	fetchMu.Lock()
	defer fetchMu.Unlock()
	switch s.Kind {
	case "gomod":
		cmd := exec.Command("go", "mod", "download", "-json", s.Package+"@"+s.Version)
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.Output()
		var info struct{ Dir, Error string }
		if jerr := json.Unmarshal(out, &info); jerr != nil || info.Error != "" || err != nil {
			return "", fmt.Errorf("go mod download %s@%s: %v %s", s.Package, s.Version, err, info.Error)
		}
		return filepath.Join(info.Dir, s.Dir), nil
	case "npm":
		dir := filepath.Join(cache, "npm", s.Package+"@"+s.Version)
		if _, err := os.Stat(filepath.Join(dir, "package", s.Dir)); err == nil {
			return filepath.Join(dir, "package", s.Dir), nil
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		cmd := exec.Command("npm", "pack", "--silent", s.Package+"@"+s.Version)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("npm pack %s@%s: %w", s.Package, s.Version, err)
		}
		tgz := strings.TrimSpace(string(out))
		if i := strings.LastIndexByte(tgz, '\n'); i >= 0 {
			tgz = tgz[i+1:]
		}
		if msg, err := exec.Command("tar", "-xzf", filepath.Join(dir, tgz), "-C", dir).CombinedOutput(); err != nil {
			return "", fmt.Errorf("unpack %s: %w\n%s", tgz, err, msg)
		}
		return filepath.Join(dir, "package", s.Dir), nil
	}
	return "", fmt.Errorf("unknown source kind %q", s.Kind)
}
