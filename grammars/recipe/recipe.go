// Package recipe is the one build recipe of loupe's grammar modules: it
// compiles tree-sitter's runtime, a grammar's generated parser.c (and its
// external scanner, scanner.c or scanner.cc) and the glue (package
// grammars/glue) with Debian's clang 19 and wasi-libc into a wasm32-wasi
// reactor that imports nothing. The built-in modules (`make grammars`,
// grammars/internal/build) and `loupe grammar build` both build through
// Build, so a user's grammar gets the very recipe the built-in ones got,
// and the same inputs give the same bytes.
package recipe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/grammars"
)

// Source names one pinned package that carries C sources.
type Source struct {
	Kind    string `json:"kind"` // "gomod" or "npm"
	Package string `json:"package"`
	Version string `json:"version"`
	Dir     string `json:"dir"` // folder holding parser.c (or lib.c) inside the package
}

// The compilers the committed modules were built with; other versions
// produce different bytes.
const (
	Clang   = "clang-19"
	ClangXX = "clang++-19"
)

// ErrToolchain means the pinned toolchain is not installed.
var ErrToolchain = errors.New("the wasm toolchain is missing")

// toolchainFile is a file a Debian package of the toolchain installs.
type toolchainFile struct {
	path, pkg string
	cxx       bool // needed only for a C++ scanner
}

var toolchainFiles = []toolchainFile{
	{"/usr/include/wasm32-wasi/stdlib.h", "wasi-libc", false},
	{"/usr/lib/llvm-19/lib/clang/19/lib/wasi/libclang_rt.builtins-wasm32.a", "libclang-rt-19-dev-wasm32", false},
	{"/usr/lib/wasm32-wasi/libc++.a", "libc++-19-dev-wasm32", true},
	{"/usr/lib/wasm32-wasi/libc++abi.a", "libc++abi-19-dev-wasm32", true},
}

// CheckToolchain reports which Debian packages of the toolchain are
// missing (cxx: those a C++ scanner needs too), as an error wrapping
// ErrToolchain that says what to install.
func CheckToolchain(cxx bool) error {
	var missing []string
	for _, t := range []struct{ cmd, pkg string }{{Clang, "clang-19"}, {"wasm-ld-19", "lld-19"}} {
		if _, err := exec.LookPath(t.cmd); err != nil {
			missing = append(missing, t.pkg)
		}
	}
	for _, f := range toolchainFiles {
		if f.cxx && !cxx {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			missing = append(missing, f.pkg)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%w: install the Debian packages with: apt-get install -y %s", ErrToolchain, strings.Join(missing, " "))
}

// Tool is one part of the toolchain: what this machine has against what
// the committed modules were built with.
type Tool struct {
	// Name is the command, or the Debian package for a library.
	Name string
	// Found is its version here ("--version"'s first line, or the Debian
	// package's version), with the path for a command; "missing" when it
	// is not installed.
	Found string
	// Pinned is the version the committed modules were built with; empty
	// for a tool the recipe does not run.
	Pinned string
}

// Differs reports whether t is a pinned tool found in another version.
func (t Tool) Differs() bool { return t.Pinned != "" && t.Found != t.Pinned }

// pinned are the versions of Debian 12's packages the committed modules
// were built with.
var pinned = []struct{ name, version string }{
	{Clang, "Debian clang version 19.1.7 (3~deb12u1)"},
	{"wasm-ld-19", "Debian LLD 19.1.7"},
	{"wasi-libc", "0.0~git20220510.9886d3d-2"},
	{"libclang-rt-19-dev-wasm32", "1:19.1.7-3~deb12u1"},
	{"libc++-19-dev-wasm32", "1:19.1.7-3~deb12u1"},
	{"libc++abi-19-dev-wasm32", "1:19.1.7-3~deb12u1"},
}

// Toolchain finds each pinned part of the toolchain on this machine, and
// Binaryen's wasm-opt, which the recipe does not run but an older recipe's
// link step ran whenever it was on PATH.
func Toolchain() []Tool {
	var ts []Tool
	for _, p := range pinned {
		t := Tool{Name: p.name, Pinned: p.version}
		if strings.Contains(p.name, "-dev-") || p.name == "wasi-libc" {
			t.Found = debianVersion(p.name)
		} else {
			t.Found = commandVersion(p.name)
			if t.Found != "missing" {
				t.Found = firstLine(t.Found)
			}
		}
		ts = append(ts, t)
	}
	opt := "missing"
	if path, err := exec.LookPath("wasm-opt"); err == nil {
		opt = path + ": " + firstLine(commandVersion(path))
	}
	return append(ts, Tool{Name: "wasm-opt", Found: opt})
}

// ToolchainReport describes, for a rebuild whose bytes differ from the
// committed ones, the toolchain found against the pinned one (each part
// that differs marked) and the flags the recipe passes clang.
func ToolchainReport() string {
	var b strings.Builder
	b.WriteString("the toolchain here (the committed modules were built with the pinned versions):\n")
	same := true
	for _, t := range Toolchain() {
		same = same && !t.Differs()
		switch {
		case t.Pinned == "":
			fmt.Fprintf(&b, "  %-26s %s (not run by the recipe: its link step has no -O flag)\n", t.Name, t.Found)
		case t.Differs():
			fmt.Fprintf(&b, "  %-26s %s DIFFERS from the pinned %s\n", t.Name, t.Found, t.Pinned)
		default:
			fmt.Fprintf(&b, "  %-26s %s (as pinned)\n", t.Name, t.Found)
		}
	}
	if same {
		b.WriteString("every pinned tool is the pinned version: the difference lies in the sources, their patches or the flags\n")
	}
	u := Unit{Runtime: "$RUNTIME/lib", Src: "$SRC", Function: "tree_sitter_$NAME"}
	fmt.Fprintf(&b, "compile: %s %s -flto -c\n", Clang, strings.Join(CompileFlags(u), " "))
	fmt.Fprintf(&b, "link:    %s %s\n", Clang, strings.Join(LinkFlags(u), " "))
	return b.String()
}

// commandVersion is the output of name --version, or "missing".
func commandVersion(name string) string {
	out, err := exec.Command(name, "--version").Output()
	if err != nil {
		return "missing"
	}
	return string(out)
}

// debianVersion is the installed version of the Debian package pkg, or
// "missing" ("unknown" where dpkg-query is not there to ask).
func debianVersion(pkg string) string {
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		return "unknown (no dpkg-query)"
	}
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", pkg).Output()
	if err != nil || len(out) == 0 {
		return "missing"
	}
	return string(out)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Unit is one grammar to build.
type Unit struct {
	// Runtime is the folder of tree-sitter's runtime holding lib.c (as
	// PrepareRuntime returns it); its parent holds include/.
	Runtime string
	// Glue is the folder holding glue.c and runtime.c.
	Glue string
	// Src is the grammar's folder holding parser.c, tree_sitter/parser.h
	// and optionally scanner.c or scanner.cc.
	Src string
	// Function is the grammar's entry point, tree_sitter_<name>.
	Function string
	// Work is an empty scratch folder.
	Work string
	// PrefixMaps are folders whose paths are written as "." in the
	// output, so it does not depend on where the inputs lie.
	PrefixMaps []string
}

// Optimize is the optimisation level of every compile step. The link step
// gets no -O flag: clang's wasm driver takes one on a link as its cue to
// run Binaryen's wasm-opt after wasm-ld whenever wasm-opt is on PATH (and
// to make wasm-ld keep the target_features section for it), so with
// Debian's binaryen installed the same sources gave other bytes. Nothing
// else in the link depends on it: the driver passes wasm-ld no LTO level,
// so the LTO code generation runs at wasm-ld's default either way. clang
// 19's --no-wasm-opt is no way out: it skips the link step altogether
// (clang 20 fixed that).
const Optimize = "-O3"

// CompileFlags are the clang flags every compile step of u gets (before
// -flto, -c and its files).
func CompileFlags(u Unit) []string {
	return append([]string{Optimize}, flags(u)...)
}

// LinkFlags are the clang flags of u's link step (before its objects and
// libraries): no -O flag, so the driver runs nothing after wasm-ld (see
// Optimize).
func LinkFlags(u Unit) []string {
	return append(flags(u), "-flto", "-mexec-model=reactor", "-Wl,--strip-all", "-Wl,--gc-sections")
}

// flags are the clang flags the compile and link steps of u share.
func flags(u Unit) []string {
	f := []string{
		"--target=wasm32-wasi", "-mbulk-memory",
		"-DHAVE_ENDIAN_H", "-DNDEBUG", "-D_DEFAULT_SOURCE", "-DLOUPE_LANGUAGE=" + u.Function,
		"-I", filepath.Join(filepath.Dir(u.Runtime), "include"), "-I", u.Runtime, "-I", u.Src,
	}
	for _, d := range u.PrefixMaps {
		f = append(f, "-ffile-prefix-map="+d+"=.")
	}
	return append(f, "-w")
}

// Build compiles u into a module and returns its bytes.
func Build(u Unit) ([]byte, error) {
	direct, err := directLexerHeader(u.Src, u.Work)
	if err != nil {
		return nil, err
	}
	common := CompileFlags(u)
	// Every C file becomes LLVM bitcode (-flto) so the linker can inline the
	// runtime's lexer into the grammar's; parser.c gets the direct-call
	// lexer macros by pre-including the patched copy of its parser.h.
	type unit struct {
		file  string
		extra []string
	}
	units := []unit{
		{filepath.Join(u.Glue, "runtime.c"), nil},
		{filepath.Join(u.Src, "parser.c"), []string{"-include", direct}},
		{filepath.Join(u.Glue, "glue.c"), nil},
	}
	if _, err := os.Stat(filepath.Join(u.Src, "scanner.c")); err == nil {
		units = append(units, unit{filepath.Join(u.Src, "scanner.c"), nil})
	}
	var objs []string
	for i, c := range units {
		obj := filepath.Join(u.Work, fmt.Sprintf("%d.o", i))
		args := append(append(append([]string{}, common...), "-flto", "-c", "-o", obj, "-x", "c"), c.extra...)
		if msg, err := exec.Command(Clang, append(args, c.file)...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s %s: %w\n%s", Clang, filepath.Base(c.file), err, msg)
		}
		objs = append(objs, obj)
	}
	link := Clang
	var libs []string
	// A few grammars (hcl) still carry a C++ scanner: it is compiled on its
	// own, without exceptions or RTTI, and linked with WASI's libc++.
	if _, err := os.Stat(filepath.Join(u.Src, "scanner.cc")); err == nil {
		obj := filepath.Join(u.Work, "scanner.o")
		args := append(append([]string{}, common...), "-fno-exceptions", "-fno-rtti", "-c", "-o", obj, filepath.Join(u.Src, "scanner.cc"))
		if msg, err := exec.Command(ClangXX, args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s scanner.cc: %w\n%s", ClangXX, err, msg)
		}
		objs = append(objs, obj)
		link = ClangXX
		libs = []string{"-lc++", "-lc++abi"}
	}
	out := filepath.Join(u.Work, "module.wasm")
	args := append(LinkFlags(u), "-o", out)
	args = append(append(args, objs...), libs...)
	if msg, err := exec.Command(link, args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s (link): %w\n%s", link, err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("read the linked module: %w", err)
	}
	return data, nil
}

// BuildGrammar builds the grammar whose generated sources are in src
// (parser.c, tree_sitter/parser.h, a scanner) with entry point function
// into a module, with the built-in modules' glue and their pinned
// tree-sitter runtime (fetched into cache): what `loupe grammar build`
// does. The toolchain is checked first (CheckToolchain).
func BuildGrammar(cache, src, function string) ([]byte, error) {
	_, statErr := os.Stat(filepath.Join(src, "scanner.cc"))
	if err := CheckToolchain(statErr == nil); err != nil {
		return nil, err
	}
	m, err := grammars.All()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "loupe-grammar-build")
	if err != nil {
		return nil, fmt.Errorf("scratch folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	glueDir, work := filepath.Join(tmp, "glue"), filepath.Join(tmp, "work")
	for _, d := range []string{glueDir, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, fmt.Errorf("scratch folder: %w", err)
		}
	}
	if err := grammars.WriteGlue(glueDir); err != nil {
		return nil, err
	}
	rt, err := PrepareRuntime(cache, tmp, Source(m.Runtime))
	if err != nil {
		return nil, fmt.Errorf("tree-sitter's runtime %s@%s: %w", m.Runtime.Package, m.Runtime.Version, err)
	}
	data, err := Build(Unit{
		Runtime: rt, Glue: glueDir, Src: src, Function: function, Work: work,
		PrefixMaps: []string{cache, glueDir, work, filepath.Dir(rt), src},
	})
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", src, err)
	}
	return data, nil
}

// directLexer rewrites the two lexer macros of a generated parser.h that
// call through TSLexer's function pointers into direct calls of the
// functions glue/runtime.c exports (the same functions the pointers hold).
var directLexer = []Patch{
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
		return "", fmt.Errorf("the grammar's generated header: %w", err)
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

// Patch replaces one exact piece of a grammar source file.
type Patch struct {
	File, Old, New string
}

// apply returns data, the contents of p.File, with p made; p.Old must
// occur exactly once.
func (p Patch) apply(data []byte) ([]byte, error) {
	if n := bytes.Count(data, []byte(p.Old)); n != 1 {
		return nil, fmt.Errorf("patch %s: %q occurs %d times, want once", p.File, p.Old, n)
	}
	return bytes.Replace(data, []byte(p.Old), []byte(p.New), 1), nil
}

// Patches make a few grammars' C portable to wasm32, and steer how the
// runtime is inlined, keyed by package@version (file paths are relative to
// the folder holding parser.c, or for the runtime to its package). Native
// 64-bit builds of the unpatched sources (what ast-grep runs) are the
// reference: a patch must leave their behaviour unchanged, which
// tests/parity checks by comparing these modules' trees with native ones
// built from the original sources.
var Patches = map[string][]Patch{
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

// PatchedCopy copies the source folder src to dst and applies ps there;
// each old text must occur exactly once.
func PatchedCopy(src, dst string, ps []Patch) (string, error) {
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
		return "", fmt.Errorf("copy %s: %w", src, err)
	}
	for _, p := range ps {
		path := filepath.Join(dst, p.File)
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

// PrepareRuntime fetches tree-sitter's pinned runtime rt into cache and,
// when it has Patches, copies it below tmp with them applied. It returns
// the folder holding lib.c.
func PrepareRuntime(cache, tmp string, rt Source) (string, error) {
	dir, err := Fetch(cache, rt)
	if err != nil {
		return "", fmt.Errorf("runtime: %w", err)
	}
	ps := Patches[rt.Package+"@"+rt.Version]
	if len(ps) == 0 {
		return dir, nil
	}
	// The whole package is copied: the include folder beside src holds api.h.
	if _, err := PatchedCopy(filepath.Dir(dir), filepath.Join(tmp, "runtime"), ps); err != nil {
		return "", fmt.Errorf("runtime: %w", err)
	}
	return filepath.Join(tmp, "runtime", rt.Dir), nil
}

var fetchMu sync.Mutex

// Fetch returns the folder holding s's C sources, downloading the pinned
// package the first time: a Go module with `go mod download` (into Go's
// module cache, checked against the checksum database), an npm package
// with `npm pack` into cache.
func Fetch(cache string, s Source) (string, error) {
	fetchMu.Lock()
	defer fetchMu.Unlock()
	switch s.Kind {
	case "gomod":
		if _, err := exec.LookPath("go"); err != nil {
			return "", fmt.Errorf("fetching %s@%s needs the go command on PATH: %w", s.Package, s.Version, err)
		}
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
