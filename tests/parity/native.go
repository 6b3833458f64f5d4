//go:build parity

package parity

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;

// tree-sitter's runtime, linked into the binary by go-tree-sitter.
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));
extern TSParser *ts_parser_new(void);
extern void ts_parser_delete(TSParser *);
extern _Bool ts_parser_set_language(TSParser *, const TSLanguage *);
extern TSTree *ts_parser_parse_string(TSParser *, const TSTree *, const char *, uint32_t);
extern void ts_tree_delete(TSTree *);

static void *open_library(const char *path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }

static const char *library_error(void) {
  const char *e = dlerror();
  return e ? e : "unknown dlopen error";
}

static const TSLanguage *call_language(void *lib, const char *fn) {
  const TSLanguage *(*f)(void) = (const TSLanguage *(*)(void))dlsym(lib, fn);
  return f ? f() : 0;
}

static void use_libc_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }

static TSParser *new_parser(const TSLanguage *lang) {
  TSParser *p = ts_parser_new();
  if (p && !ts_parser_set_language(p, lang)) {
    ts_parser_delete(p);
    return 0;
  }
  return p;
}

static int parse_and_free(TSParser *p, const char *src, uint32_t len) {
  TSTree *t = ts_parser_parse_string(p, 0, src, len);
  if (!t) return 0;
  ts_tree_delete(t);
  return 1;
}
*/
import "C"

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"github.com/loupe-dev/loupe/grammars"
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// cflags compile a grammar for the host with the defines loupe's modules
// are built with (grammars/internal/build), at the optimisation level of
// Go's cgo default.
var cflags = []string{"-O2", "-fPIC", "-shared", "-DHAVE_ENDIAN_H", "-DNDEBUG", "-D_DEFAULT_SOURCE", "-w"}

func init() {
	// go-tree-sitter routes every allocation of the runtime through Go
	// callbacks; the reference is tree-sitter itself, so use libc's malloc,
	// as the C library does by default. go-tree-sitter frees the few
	// buffers it receives (ts_node_string) with C.free, which matches.
	C.use_libc_allocator()
}

// native is one grammar compiled for the host and loaded into the process.
type native struct {
	lang *sitter.Language
	ptr  unsafe.Pointer // the TSLanguage
}

var (
	nativeMu sync.Mutex
	natives  = map[string]*nativeLoad{}
)

type nativeLoad struct {
	once sync.Once
	n    *native
	err  error
}

// loadNative returns the native build of a language, compiling its pinned
// C sources into a cached shared library on first use.
func loadNative(ctx context.Context, cache string, info grammars.Language) (*native, error) {
	nativeMu.Lock()
	l := natives[info.Name]
	if l == nil {
		l = &nativeLoad{}
		natives[info.Name] = l
	}
	nativeMu.Unlock()
	l.once.Do(func() {
		src, err := sourceDir(ctx, cache, info.Source)
		if err != nil {
			l.err = err
			return
		}
		lib, err := buildLibrary(ctx, cache, info, src)
		if err != nil {
			l.err = err
			return
		}
		l.n, l.err = openLanguage(lib, info.Function)
	})
	return l.n, l.err
}

// buildLibrary compiles parser.c and the external scanner (scanner.c, or
// scanner.cc for the grammars that still carry a C++ one) of src into a
// shared library under cache/parity/lib, reusing an earlier build of the
// same sources and flags.
func buildLibrary(ctx context.Context, cache string, info grammars.Language, src string) (string, error) {
	args := append([]string{}, cflags...)
	args = append(args, "-I", src, "-x", "c", filepath.Join(src, "parser.c"))
	if _, err := os.Stat(filepath.Join(src, "scanner.c")); err == nil {
		args = append(args, filepath.Join(src, "scanner.c"))
	}
	if _, err := os.Stat(filepath.Join(src, "scanner.cc")); err == nil {
		args = append(args, "-x", "c++", "-fno-exceptions", "-fno-rtti", filepath.Join(src, "scanner.cc"), "-x", "none", "-lstdc++")
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	key := sha256.Sum256([]byte(cc + "\x00" + strings.Join(args, " ")))
	dir := filepath.Join(cache, "parity", "lib")
	out := filepath.Join(dir, fmt.Sprintf("%s@%s-%s.so", info.Name, info.Source.Version, hex.EncodeToString(key[:6])))
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, info.Name+"-*.so.tmp")
	if err != nil {
		return "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	cmd := exec.CommandContext(ctx, cc, append([]string{"-o", tmp.Name()}, args...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("parity: %s %s: %w\n%s", cc, info.Name, err, msg)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return "", err
	}
	return out, nil
}

// openLanguage loads a grammar library and calls its tree_sitter_<name>.
// The library stays loaded for the life of the process.
func openLanguage(lib, fn string) (*native, error) {
	cpath, cfn := C.CString(lib), C.CString(fn)
	defer C.free(unsafe.Pointer(cpath))
	defer C.free(unsafe.Pointer(cfn))
	h := C.open_library(cpath)
	if h == nil {
		return nil, fmt.Errorf("parity: dlopen %s: %s", lib, C.GoString(C.library_error()))
	}
	ptr := C.call_language(h, cfn)
	if ptr == nil {
		return nil, fmt.Errorf("parity: %s has no %s", lib, fn)
	}
	return &native{lang: sitter.NewLanguage(unsafe.Pointer(ptr)), ptr: unsafe.Pointer(ptr)}, nil
}

// parser returns a go-tree-sitter parser for the language.
func (n *native) parser() (*sitter.Parser, error) {
	p := sitter.NewParser()
	if err := p.SetLanguage(n.lang); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// rawParser is a bare tree-sitter parser driven straight from C, without
// go-tree-sitter's read callbacks: the benchmark's native reference.
type rawParser struct{ p *C.TSParser }

func (n *native) rawParser() (*rawParser, error) {
	p := C.new_parser((*C.TSLanguage)(n.ptr))
	if p == nil {
		return nil, errors.New("parity: tree-sitter rejected the language")
	}
	return &rawParser{p: p}, nil
}

// parse parses src and frees the tree.
func (r *rawParser) parse(src []byte) error {
	buf := src
	if len(buf) == 0 {
		buf = make([]byte, 1) // C needs a valid pointer even for no bytes
	}
	ok := C.parse_and_free(r.p, (*C.char)(unsafe.Pointer(&buf[0])), C.uint32_t(len(src)))
	if ok == 0 {
		return errors.New("parity: tree-sitter returned no tree")
	}
	return nil
}

func (r *rawParser) close() { C.ts_parser_delete(r.p) }
