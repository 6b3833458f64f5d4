package analysis

import (
	"bufio"
	"os"
	pathpkg "path"
	"path/filepath"
	"sort"
	"strings"
)

// Import resolution strategies, named by the import shapes.
const (
	// resolveJS: relative specifiers, with extensions, index files, and a
	// .js specifier standing for a .ts file.
	resolveJS = "js"
	// resolvePython: dotted modules, relative (leading dots) or from any
	// ancestor directory of the importing file.
	resolvePython = "python"
	// resolveGo: import paths under the module of the nearest go.mod.
	resolveGo = "go"
	// resolveRustMod: `mod x;` declarations; resolveRustUse: crate::,
	// self:: and super:: paths.
	resolveRustMod = "rust-mod"
	resolveRustUse = "rust-use"
	// resolvePackage: package-qualified names (Java, Kotlin, C#, PHP use),
	// matched against the package a file declares.
	resolvePackage = "package"
	// resolveRelative: a path relative to the importing file, else to any
	// workspace directory (C includes, Ruby requires, PHP includes).
	resolveRelative = "relative"
)

// resolver maps import specifiers to workspace files for one call.
type resolver struct {
	s       *session
	exists  map[string]bool // rel path -> regular file (rel + "/" -> directory)
	all     []string        // every file of the scope languages in the workspace, lazily
	allDone bool
	goMods  map[string][2]string // dir -> (module root, module path)
	wsx     *wsIndex             // the workspace's packages, read when first needed
}

func newResolver(s *session) *resolver {
	return &resolver{s: s, exists: map[string]bool{}, goMods: map[string][2]string{}}
}

// isDir reports whether rel is a directory inside the workspace (cached
// in exists under rel + "/").
func (r *resolver) isDir(rel string) bool {
	if rel == "" || strings.HasPrefix(rel, "../") || rel == ".." {
		return false
	}
	key := rel + "/"
	if v, ok := r.exists[key]; ok {
		return v
	}
	abs := filepath.Join(r.s.ws.root, filepath.FromSlash(rel))
	ok := false
	if real, err := filepath.EvalSymlinks(abs); err == nil && r.s.ws.inside(real) {
		if st, err := os.Stat(real); err == nil && st.IsDir() {
			ok = true
		}
	}
	r.exists[key] = ok
	return ok
}

// isFile reports whether rel is a regular file inside the workspace.
func (r *resolver) isFile(rel string) bool {
	if rel == "" || rel == "." || strings.HasPrefix(rel, "../") || rel == ".." {
		return false
	}
	if v, ok := r.exists[rel]; ok {
		return v
	}
	abs := filepath.Join(r.s.ws.root, filepath.FromSlash(rel))
	ok := false
	if real, err := filepath.EvalSymlinks(abs); err == nil && r.s.ws.inside(real) {
		if st, err := os.Stat(real); err == nil && st.Mode().IsRegular() {
			ok = true
		}
	}
	r.exists[rel] = ok
	return ok
}

// first returns the first candidate that is a file.
func (r *resolver) first(cands ...string) []string {
	for _, c := range cands {
		if r.isFile(c) {
			return []string{c}
		}
	}
	return nil
}

// resolve returns the workspace files an import names (relative paths).
func (r *resolver) resolve(f *fileFacts, imp importFact) []string {
	switch imp.Resolve {
	case resolveJS:
		return r.resolveJS(f, imp.Source)
	case resolvePython:
		return r.resolvePython(f, imp)
	case resolveGo:
		return r.resolveGo(f, imp.Source)
	case resolveRustMod:
		dir := rustModuleDir(f.rel)
		return r.first(pathpkg.Join(dir, imp.Source+".rs"), pathpkg.Join(dir, imp.Source, "mod.rs"))
	case resolveRustUse:
		return r.resolveRustUse(f, imp)
	case resolvePackage:
		return r.resolvePackageFile(f, imp)
	case resolveRelative:
		return r.resolveRelative(f, imp.Source)
	}
	return nil
}

func (r *resolver) resolveJS(f *fileFacts, src string) []string {
	var base string
	switch {
	case strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") || src == "." || src == "..":
		base = pathpkg.Join(pathpkg.Dir(f.rel), src)
	case strings.HasPrefix(src, "/"):
		base = pathpkg.Clean(strings.TrimPrefix(src, "/"))
	default:
		// A package: the workspace's own (by name, tsconfig paths), else
		// another's.
		out, _ := r.ws().resolveBare(f, src)
		return out
	}
	return r.jsFile(f, base)
}

// jsFile returns the file a JavaScript module path names (relative to the
// workspace root): itself, its TypeScript source (x.js -> x.ts), with an
// extension, or its folder's index file.
func (r *resolver) jsFile(f *fileFacts, base string) []string {
	if base == ".." || strings.HasPrefix(base, "../") {
		return nil
	}
	exts := f.c.spec.Exts
	cands := []string{base}
	switch ext := pathpkg.Ext(base); ext {
	case ".js", ".jsx", ".mjs", ".cjs":
		stem := strings.TrimSuffix(base, ext)
		switch ext {
		case ".mjs":
			cands = append(cands, stem+".mts")
		case ".cjs":
			cands = append(cands, stem+".cts")
		default:
			cands = append(cands, stem+".ts", stem+".tsx", stem+".d.ts")
		}
	}
	for _, e := range exts {
		cands = append(cands, base+e)
	}
	for _, idx := range f.c.spec.Index {
		for _, e := range exts {
			cands = append(cands, pathpkg.Join(base, idx+e))
		}
	}
	return r.first(cands...)
}

func (r *resolver) resolvePython(f *fileFacts, imp importFact) []string {
	src := imp.Source
	dots := len(src) - len(strings.TrimLeft(src, "."))
	var segs []string
	if mod := src[dots:]; mod != "" {
		segs = strings.Split(mod, ".")
	}
	var bases []string
	if dots > 0 {
		dir := pathpkg.Dir(f.rel)
		for i := 1; i < dots; i++ {
			dir = pathpkg.Dir(dir)
		}
		bases = []string{dir}
	} else {
		for dir := pathpkg.Dir(f.rel); ; dir = pathpkg.Dir(dir) {
			bases = append(bases, dir)
			if dir == "." || dir == "/" {
				break
			}
		}
	}
	if out := r.pythonFrom(bases, segs, imp); out != nil || dots > 0 || len(segs) == 0 {
		return out
	}
	// The package roots of the workspace (a src/ layout, a folder with
	// pyproject.toml) that hold a package of that name.
	return r.pythonFrom(r.ws().pythonRoots(segs[0]), segs, imp)
}

// pythonFrom resolves a module's segments from the first of bases holding
// it: the imported names that are submodules, then the module itself.
func (r *resolver) pythonFrom(bases, segs []string, imp importFact) []string {
	for _, base := range bases {
		p := pathpkg.Join(append([]string{base}, segs...)...)
		var out []string
		for _, b := range imp.Names {
			if b.Name == "*" {
				continue
			}
			out = append(out, r.first(pathpkg.Join(p, b.Name+".py"), pathpkg.Join(p, b.Name, "__init__.py"))...)
		}
		// Imported names may be submodules; they come first, then the
		// module itself.
		if len(segs) > 0 {
			out = append(out, r.first(p+".py", p+".pyi", pathpkg.Join(p, "__init__.py"))...)
		} else {
			out = append(out, r.first(pathpkg.Join(p, "__init__.py"))...)
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// goModule finds the module containing dir: its root and module path.
func (r *resolver) goModule(dir string) (string, string) {
	if m, ok := r.goMods[dir]; ok {
		return m[0], m[1]
	}
	var m [2]string
	if r.isFile(pathpkg.Join(dir, "go.mod")) {
		m = [2]string{dir, readModulePath(filepath.Join(r.s.ws.root, filepath.FromSlash(dir), "go.mod"))}
	} else if dir != "." && dir != "" {
		m[0], m[1] = r.goModule(pathpkg.Dir(dir))
	}
	r.goMods[dir] = m
	return m[0], m[1]
}

func readModulePath(gomod string) string {
	fh, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			mod, _ := unquote(strings.TrimSpace(rest))
			return mod
		}
	}
	return ""
}

func (r *resolver) resolveGo(f *fileFacts, src string) []string {
	root, mod := r.goModule(pathpkg.Dir(f.rel))
	// Another module of the workspace (go.work use, a local replace),
	// nested in this one's path or not: the longest module path wins.
	wdir, wmod := r.ws().goWorkDir(pathpkg.Dir(f.rel), src)
	var dir string
	switch {
	case wdir != "" && len(wmod) > len(mod):
		dir = wdir
	case mod != "" && src == mod:
		dir = root
	case mod != "" && strings.HasPrefix(src, mod+"/"):
		dir = pathpkg.Join(root, strings.TrimPrefix(src, mod+"/"))
	case mod == "std" && !strings.Contains(strings.SplitN(src, "/", 2)[0], "."):
		dir = pathpkg.Join(root, src) // the standard library's own tree
	default:
		if dir = wdir; dir == "" {
			return nil
		}
	}
	// An import string may climb out of the module ("m/../../.."), and a
	// directory may be a link out of the workspace: neither is listed.
	if dir == ".." || strings.HasPrefix(dir, "../") {
		return nil
	}
	real, err := filepath.EvalSymlinks(filepath.Join(r.s.ws.root, filepath.FromSlash(dir)))
	if err != nil || !r.s.ws.inside(real) {
		return nil
	}
	entries, err := os.ReadDir(real)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			out = append(out, pathpkg.Join(dir, n))
		}
	}
	return out
}

// rustModuleDir is the directory holding the submodules of a Rust file.
func rustModuleDir(rel string) string {
	dir, base := pathpkg.Split(rel)
	stem := strings.TrimSuffix(base, ".rs")
	if stem == "mod" || stem == "lib" || stem == "main" {
		return pathpkg.Clean(dir)
	}
	return pathpkg.Join(dir, stem)
}

func (r *resolver) resolveRustUse(f *fileFacts, imp importFact) []string {
	segs := strings.Split(imp.Source, "::")
	if len(segs) == 0 {
		return nil
	}
	var base string
	relative := false
	switch segs[0] {
	case "crate":
		for dir := pathpkg.Dir(f.rel); ; dir = pathpkg.Dir(dir) {
			if r.isFile(pathpkg.Join(dir, "lib.rs")) || r.isFile(pathpkg.Join(dir, "main.rs")) {
				base = dir
				break
			}
			if dir == "." {
				return nil
			}
		}
	case "self":
		base = rustModuleDir(f.rel)
	case "super":
		base = pathpkg.Dir(rustModuleDir(f.rel))
	default:
		// A path relative to the current module (edition 2018), else
		// another crate.
		base = rustModuleDir(f.rel)
		segs = append([]string{"self"}, segs...)
		relative = true
	}
	rest := segs[1:]
	for len(rest) > 0 && rest[0] == "super" {
		base, rest = pathpkg.Dir(base), rest[1:]
	}
	try := func(segs []string) []string {
		for i := len(segs); i >= 1; i-- {
			p := pathpkg.Join(append([]string{base}, segs[:i]...)...)
			if out := r.first(p+".rs", pathpkg.Join(p, "mod.rs")); out != nil {
				return out
			}
		}
		return nil
	}
	for _, b := range imp.Names {
		if out := try(append(append([]string{}, rest...), b.Name)); out != nil {
			return out
		}
	}
	if out := try(rest); out != nil || relative {
		return out
	}
	return r.first(pathpkg.Join(base, "mod.rs"), pathpkg.Join(base, "lib.rs"), pathpkg.Join(base, "main.rs"), base+".rs")
}

// allFiles lists every file of the scope languages in the workspace.
func (r *resolver) allFiles() []string {
	if !r.allDone {
		r.allDone = true
		if fs, _, err := r.s.ws.listFiles(r.s.ctx, r.s.ws.root, r.s.exts); err == nil {
			for _, f := range fs {
				r.all = append(r.all, f.rel)
			}
		}
	}
	return r.all
}

// bySuffix returns the workspace files whose path ends with suffix (at a
// directory boundary), ignoring case when fold is set.
func (r *resolver) bySuffix(suffix string, fold bool) []string {
	var out []string
	for _, rel := range r.allFiles() {
		a, b := rel, suffix
		if fold {
			a, b = strings.ToLower(a), strings.ToLower(b)
		}
		if a == b || strings.HasSuffix(a, "/"+b) {
			out = append(out, rel)
		}
	}
	return out
}

func (r *resolver) resolveRelative(f *fileFacts, src string) []string {
	if src == "" {
		return nil
	}
	src = strings.TrimPrefix(src, "/")
	var cands []string
	base := pathpkg.Join(pathpkg.Dir(f.rel), src)
	cands = append(cands, base)
	for _, e := range f.c.spec.Exts {
		cands = append(cands, base+e)
	}
	if out := r.first(cands...); out != nil {
		return out
	}
	for _, c := range append([]string{src}, addExts(src, f.c.spec.Exts)...) {
		if out := r.bySuffix(pathpkg.Clean(c), false); len(out) > 0 {
			sort.Strings(out)
			return out[:1]
		}
	}
	return nil
}

func addExts(s string, exts []string) []string {
	var out []string
	for _, e := range exts {
		out = append(out, s+e)
	}
	return out
}

// resolvePackageFile maps a package-qualified import (com.foo.Bar) to the
// file conventionally holding it (com/foo/Bar.java), else to the package's
// directory (a wildcard import, or a Kotlin file named otherwise).
func (r *resolver) resolvePackageFile(f *fileFacts, imp importFact) []string {
	segs := strings.Split(imp.Source, f.c.spec.Sep)
	// Leading segments may be dropped: source roots map a prefix (PSR-4's
	// App\ -> src/), but two segments at least must match.
	suffixes := func(parts []string) []string {
		var out []string
		for i := 0; i == 0 || i < len(parts)-1; i++ {
			out = append(out, strings.Join(parts[i:], "/"))
		}
		return out
	}
	var files [][]string
	for _, b := range imp.Names {
		if b.Name != "*" {
			files = append(files, append(append([]string{}, segs...), b.Name))
		}
	}
	files = append(files, segs) // the module itself may be a type: import static a.b.C.m
	for _, parts := range files {
		for _, p := range suffixes(parts) {
			for _, e := range f.c.spec.Exts {
				if out := r.bySuffix(p+e, true); len(out) > 0 {
					return out[:1]
				}
			}
		}
	}
	for _, p := range suffixes(segs) {
		lp := strings.ToLower(p)
		for _, rel := range r.allFiles() {
			dir := strings.ToLower(pathpkg.Dir(rel))
			if dir == lp || strings.HasSuffix(dir, "/"+lp) {
				return []string{pathpkg.Dir(rel)}
			}
		}
	}
	return nil
}

// packageIndex maps each package the targets declare to the type names
// they define at top level, each with its file.
func packageIndex(targets []*file) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, f := range targets {
		if f.facts == nil {
			continue
		}
		for _, p := range f.facts.packages {
			m := out[p]
			if m == nil {
				m = map[string]string{"": f.rel}
				out[p] = m
			}
			for _, d := range f.facts.defs {
				if d.Parent < 0 || f.facts.c.is(f.facts.defs[d.Parent].kind, fScope) {
					if _, ok := m[d.Name]; !ok {
						m[d.Name] = f.rel
					}
				}
			}
		}
	}
	return out
}

// matchPackage returns the target file a package-qualified import names:
// a type the target defines in its package, the package by wildcard, or
// (C#) the namespace itself.
func matchPackage(imp importFact, idx map[string]map[string]string, sep string) string {
	if m, ok := idx[imp.Source]; ok {
		if len(imp.Names) == 0 {
			return m[""]
		}
		for _, b := range imp.Names {
			if b.Name == "*" {
				return m[""]
			}
			if rel, ok := m[b.Name]; ok {
				return rel
			}
		}
	}
	// import static a.b.C.m: the module is a type of the package.
	if i := strings.LastIndex(imp.Source, sep); i > 0 {
		if m, ok := idx[imp.Source[:i]]; ok {
			if rel, ok := m[imp.Source[i+len(sep):]]; ok {
				return rel
			}
		}
	}
	return ""
}
