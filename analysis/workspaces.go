package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	pathpkg "path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"
	"golang.org/x/mod/modfile"
)

// Workspace package resolution: an import that names a package of the
// workspace (package.json name and exports, npm/yarn/pnpm workspaces,
// tsconfig paths and baseUrl, go.work and go.mod replace, Python package
// roots) resolves to that package's source files. The work is bounded by
// counts, never by time.
const (
	// wsMaxDirs bounds the folders one call's workspace globs visit.
	wsMaxDirs = 5000
	// wsMaxGlobDepth bounds how deep a "**" in a workspace glob descends.
	wsMaxGlobDepth = 8
	// wsMaxExtends bounds a tsconfig extends chain.
	wsMaxExtends = 8
	// manifestMaxBytes: a larger manifest is skipped, with a note.
	manifestMaxBytes = 1 << 20
	// manifestCacheMax bounds the process-wide manifest cache; it is
	// emptied when full.
	manifestCacheMax = 4096
)

// manifestKey identifies a decoded manifest: its path and how it is read.
type manifestKey struct{ abs, kind string }

// manifestVal is a decoded manifest and the version of the file it was
// read from.
type manifestVal struct {
	mod  time.Time
	size int64
	v    any
	err  error
}

// manifests caches decoded manifests across calls, by path and kind,
// valid while the file's modification time and size are unchanged.
var manifests = struct {
	sync.Mutex
	m map[manifestKey]manifestVal
}{m: map[manifestKey]manifestVal{}}

// loadManifest decodes the manifest at abs with decode, once per version
// of the file.
func loadManifest(abs, kind string, decode func([]byte) (any, error)) (any, error) {
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	k := manifestKey{abs, kind}
	manifests.Lock()
	e, ok := manifests.m[k]
	manifests.Unlock()
	if ok && e.mod.Equal(st.ModTime()) && e.size == st.Size() {
		return e.v, e.err
	}
	e = manifestVal{mod: st.ModTime(), size: st.Size()}
	if st.Size() > manifestMaxBytes {
		e.err = fmt.Errorf("larger than %d bytes", manifestMaxBytes)
	} else if data, err := readLimited(abs); err != nil {
		e.err = err
	} else {
		e.v, e.err = decode(data)
	}
	manifests.Lock()
	if len(manifests.m) >= manifestCacheMax {
		manifests.m = map[manifestKey]manifestVal{}
	}
	manifests.m[k] = e
	manifests.Unlock()
	return e.v, e.err
}

// readLimited reads at most manifestMaxBytes of the file at abs.
func readLimited(abs string) ([]byte, error) {
	fh, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return io.ReadAll(io.LimitReader(fh, manifestMaxBytes))
}

// wsIndex is what one call knows of the workspace's packages, read once.
type wsIndex struct {
	r *resolver
	// pkgAt: a folder's package.json (nil: none, or unreadable).
	pkgAt map[string]*npmPkg
	// byName: the packages the workspaces declare, by name.
	byName map[string]*npmPkg
	// expanded: the monorepo roots whose workspace globs were expanded.
	expanded map[string]bool
	// dirs counts the folders the globs visited, against wsMaxDirs.
	dirs    int
	dirsCut bool
	// tsAt: the tsconfig applying to a folder (nil: none).
	tsAt map[string]*tsConfig
	// goWork: a folder's workspace Go modules (go.work use, go.mod
	// replace with a local path), by module path.
	goWork map[string]map[string]string
	// pyRoots: Python import roots by top-level package name.
	pyRoots map[string][]string
	noted   map[string]bool
	memo    map[string]any // manifests read by this call, by kind and path
}

func newWSIndex(r *resolver) *wsIndex {
	return &wsIndex{r: r, pkgAt: map[string]*npmPkg{}, byName: map[string]*npmPkg{}, expanded: map[string]bool{},
		tsAt: map[string]*tsConfig{}, goWork: map[string]map[string]string{}, noted: map[string]bool{}, memo: map[string]any{}}
}

// ws returns the call's workspace index, made when first needed.
func (r *resolver) ws() *wsIndex {
	if r.wsx == nil {
		r.wsx = newWSIndex(r)
	}
	return r.wsx
}

// note adds a note to the answer, once per call.
func (w *wsIndex) note(msg string) {
	if !w.noted[msg] {
		w.noted[msg] = true
		w.r.s.notes = append(w.r.s.notes, msg)
	}
}

// manifest reads the workspace file rel with decode, once per call; a
// file that is absent gives nil, one that cannot be decoded a note and nil.
func (w *wsIndex) manifest(rel, kind string, decode func([]byte) (any, error)) any {
	mk := kind + "\x00" + rel
	if v, ok := w.memo[mk]; ok {
		return v
	}
	var v any
	if w.r.isFile(rel) {
		abs, err := filepath.EvalSymlinks(filepath.Join(w.r.s.ws.root, filepath.FromSlash(rel)))
		if err == nil {
			v, err = loadManifest(abs, kind, decode)
		}
		if err != nil {
			v = nil
			w.note(fmt.Sprintf("skipped %s: %v", rel, err))
		}
	}
	w.memo[mk] = v
	return v
}

// npmPkg is a package.json: the package's folder and what resolves its
// specifiers.
type npmPkg struct {
	dir        string
	name       string
	exports    any // ordered JSON (jsonObj for objects)
	imports    any
	fields     map[string]string // source, types, typings, module, main
	workspaces []string
	deps       map[string]bool // dependencies of every kind, but workspace:, file: and link: ones
}

// entryFields are the package.json fields naming a package's entry, in
// the order they are tried: the source first, for its definitions.
var entryFields = []string{"source", "types", "typings", "module", "main"}

func decodePackageJSON(data []byte) (any, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	p := &npmPkg{fields: map[string]string{}}
	str := func(k string) string {
		var s string
		if m, ok := raw[k]; ok && json.Unmarshal(m, &s) == nil {
			return s
		}
		return ""
	}
	p.name = str("name")
	for _, k := range entryFields {
		if s := str(k); s != "" {
			p.fields[k] = s
		}
	}
	for k, dst := range map[string]*any{"exports": &p.exports, "imports": &p.imports} {
		if m, ok := raw[k]; ok {
			v, err := decodeOrdered(m)
			if err != nil {
				return nil, fmt.Errorf("invalid JSON in %q: %w", k, err)
			}
			*dst = v
		}
	}
	for _, k := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"} {
		var deps map[string]string
		if m, ok := raw[k]; ok && json.Unmarshal(m, &deps) == nil {
			for name, version := range deps {
				if !strings.HasPrefix(version, "workspace:") && !strings.HasPrefix(version, "file:") && !strings.HasPrefix(version, "link:") {
					if p.deps == nil {
						p.deps = map[string]bool{}
					}
					p.deps[name] = true
				}
			}
		}
	}
	if m, ok := raw["workspaces"]; ok {
		var list []string
		var obj struct {
			Packages []string `json:"packages"`
		}
		switch {
		case json.Unmarshal(m, &list) == nil:
			p.workspaces = list
		case json.Unmarshal(m, &obj) == nil:
			p.workspaces = obj.Packages
		}
	}
	return p, nil
}

// jsonObj is a JSON object with its keys in their written order, which
// export conditions depend on.
type jsonObj []jsonKV

type jsonKV struct {
	key string
	val any
}

// decodeOrdered decodes JSON keeping the order of object keys.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > 64 {
		return nil, errors.New("nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var obj jsonObj
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := kt.(string)
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			obj = append(obj, jsonKV{key, v})
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return obj, nil
	case json.Delim('['):
		var arr []any
		for dec.More() {
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return arr, nil
	}
	return tok, nil
}

// pkg returns the package.json of folder dir, or nil.
func (w *wsIndex) pkg(dir string) *npmPkg {
	if p, ok := w.pkgAt[dir]; ok {
		return p
	}
	var p *npmPkg
	if v, ok := w.manifest(pathpkg.Join(dir, "package.json"), "package.json", decodePackageJSON).(*npmPkg); ok {
		cp := *v
		cp.dir = dir
		p = &cp
	}
	w.pkgAt[dir] = p
	return p
}

// ancestors lists dir and the folders above it, up to the workspace root.
func ancestors(dir string) []string {
	var out []string
	for d := dir; ; d = pathpkg.Dir(d) {
		out = append(out, d)
		if d == "." || d == "/" || d == "" {
			return out
		}
	}
}

// decodePnpm reads pnpm-workspace.yaml's packages.
func decodePnpm(data []byte) (any, error) {
	var doc struct {
		Packages []string `yaml:"packages"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	return doc.Packages, nil
}

// monorepos expands the workspace globs of every monorepo root above dir
// (a package.json with workspaces, a pnpm-workspace.yaml), once each.
func (w *wsIndex) monorepos(dir string) {
	for _, d := range ancestors(dir) {
		if w.expanded[d] {
			continue
		}
		w.expanded[d] = true
		var globs []string
		if p := w.pkg(d); p != nil {
			globs = append(globs, p.workspaces...)
		}
		if v, ok := w.manifest(pathpkg.Join(d, "pnpm-workspace.yaml"), "pnpm", decodePnpm).([]string); ok {
			globs = append(globs, v...)
		}
		if len(globs) > 0 {
			w.expand(d, globs)
		}
	}
}

// expand adds the packages of the folders the globs name under root;
// "!" globs exclude.
func (w *wsIndex) expand(root string, globs []string) {
	var excl []string
	for _, g := range globs {
		if rest, ok := strings.CutPrefix(g, "!"); ok {
			excl = append(excl, pathpkg.Clean(rest))
		}
	}
	for _, g := range globs {
		if strings.HasPrefix(g, "!") {
			continue
		}
		g = pathpkg.Clean(strings.TrimPrefix(g, "./"))
		if g == ".." || strings.HasPrefix(g, "../") || pathpkg.IsAbs(g) {
			continue
		}
		for _, d := range w.globDirs(root, strings.Split(g, "/"), 0, map[string]bool{}) {
			rel := strings.TrimPrefix(strings.TrimPrefix(d, root), "/")
			if matchAny(excl, rel) {
				continue
			}
			if p := w.pkg(d); p != nil && p.name != "" {
				if _, ok := w.byName[p.name]; !ok {
					w.byName[p.name] = p
				}
			}
		}
	}
}

func matchAny(globs []string, rel string) bool {
	for _, g := range globs {
		if globMatch(strings.Split(g, "/"), strings.Split(rel, "/")) {
			return true
		}
	}
	return false
}

// globMatch matches path segments against glob segments ("**": any
// number of segments).
func globMatch(g, p []string) bool {
	for len(g) > 0 {
		if g[0] == "**" {
			for i := 0; i <= len(p); i++ {
				if globMatch(g[1:], p[i:]) {
					return true
				}
			}
			return false
		}
		if len(p) == 0 {
			return false
		}
		if ok, _ := pathpkg.Match(g[0], p[0]); !ok {
			return false
		}
		g, p = g[1:], p[1:]
	}
	return len(p) == 0
}

// globDirs lists the folders under dir the glob segments name, visiting at
// most wsMaxDirs folders per call; a folder reached twice (a symlink
// loop) is visited once.
func (w *wsIndex) globDirs(dir string, segs []string, depth int, seen map[string]bool) []string {
	if w.dirs >= wsMaxDirs {
		if !w.dirsCut {
			w.dirsCut = true
			w.note(fmt.Sprintf("the workspace globs name more than %d folders; packages in the rest are not resolved by name", wsMaxDirs))
		}
		return nil
	}
	w.dirs++
	if len(segs) == 0 {
		return []string{dir}
	}
	abs, err := filepath.EvalSymlinks(filepath.Join(w.r.s.ws.root, filepath.FromSlash(dir)))
	if err != nil || !w.r.s.ws.inside(abs) || seen[abs+"\x00"+strings.Join(segs, "/")] {
		return nil
	}
	seen[abs+"\x00"+strings.Join(segs, "/")] = true
	seg := segs[0]
	if !strings.ContainsAny(seg, "*?[") {
		return w.globDirs(pathpkg.Join(dir, seg), segs[1:], depth, seen)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil
	}
	var out []string
	if seg == "**" {
		out = append(out, w.globDirs(dir, segs[1:], depth, seen)...)
	}
	for _, e := range entries {
		n := e.Name()
		if n == "node_modules" || strings.HasPrefix(n, ".") {
			continue
		}
		if !e.IsDir() && e.Type()&os.ModeSymlink == 0 {
			continue
		}
		sub := pathpkg.Join(dir, n)
		switch {
		case seg == "**":
			if depth < wsMaxGlobDepth {
				out = append(out, w.globDirs(sub, segs, depth+1, seen)...)
			}
		default:
			if ok, _ := pathpkg.Match(seg, n); ok {
				out = append(out, w.globDirs(sub, segs[1:], depth, seen)...)
			}
		}
	}
	return out
}

// splitSpecifier splits a package specifier into the package's name and
// the subpath (".", "./x").
func splitSpecifier(src string) (name, sub string) {
	segs := strings.SplitN(src, "/", 3)
	n := 1
	if strings.HasPrefix(src, "@") {
		if len(segs) < 2 {
			return "", ""
		}
		n = 2
	}
	name = strings.Join(segs[:min(n, len(segs))], "/")
	if rest := strings.TrimPrefix(src, name); rest != "" {
		return name, "." + rest
	}
	return name, "."
}

// npmPackageOf returns the workspace package a specifier names from the
// folder dir: the nearest enclosing package of that name (a library
// importing itself), else a package the workspaces declare.
func (w *wsIndex) npmPackageOf(dir, name string) *npmPkg {
	for _, d := range ancestors(dir) {
		if p := w.pkg(d); p != nil && p.name == name {
			return p
		}
	}
	w.monorepos(dir)
	return w.byName[name]
}

// resolveBare resolves a bare JavaScript/TypeScript specifier from file f:
// tsconfig paths and baseUrl, then a package of the workspace (its
// exports, its entry fields), then package.json imports ("#x"). known
// says whether the specifier names the workspace's own module, resolved
// or not.
func (w *wsIndex) resolveBare(f *fileFacts, src string) (out []string, known bool) {
	dir := pathpkg.Dir(f.rel)
	if tc := w.tsconfig(dir); tc != nil {
		if out := w.viaPaths(f, tc, src); len(out) > 0 {
			return out, true
		}
	}
	if strings.HasPrefix(src, "#") {
		for _, d := range ancestors(dir) {
			if p := w.pkg(d); p != nil {
				if p.imports == nil {
					return nil, true
				}
				return w.pick(f, p.dir, exportTargets(p.imports, src)), true
			}
		}
		return nil, true
	}
	name, sub := splitSpecifier(src)
	if name == "" {
		return nil, false
	}
	p := w.npmPackageOf(dir, name)
	if p == nil {
		return nil, false
	}
	if p.exports != nil {
		return w.pick(f, p.dir, exportTargets(p.exports, sub)), true
	}
	if sub == "." {
		var targets []string
		for _, k := range entryFields {
			if t := p.fields[k]; t != "" {
				targets = append(targets, t)
			}
		}
		return w.pick(f, p.dir, append(targets, "index")), true
	}
	return w.pick(f, p.dir, []string{sub}), true
}

// exportTargets returns the targets exports (or imports) maps subpath to,
// in the order of their conditions; every condition is taken, the
// choice among the targets is pick's.
func exportTargets(exports any, sub string) []string {
	obj, isObj := exports.(jsonObj)
	subpaths := false
	if isObj {
		for _, kv := range obj {
			if strings.HasPrefix(kv.key, ".") || strings.HasPrefix(kv.key, "#") {
				subpaths = true
			}
		}
	}
	if !subpaths {
		if sub != "." {
			return nil
		}
		return conditionTargets(exports, "", 0)
	}
	for _, kv := range obj {
		if kv.key == sub {
			return conditionTargets(kv.val, "", 0)
		}
	}
	// Patterns ("./*", "./locales/*.js"): the longest prefix wins.
	best, bestLen, star := -1, -1, ""
	for i, kv := range obj {
		pre, post, ok := strings.Cut(kv.key, "*")
		if !ok {
			if strings.HasSuffix(kv.key, "/") && strings.HasPrefix(sub, kv.key) && len(kv.key) > bestLen {
				best, bestLen, star = i, len(kv.key), strings.TrimPrefix(sub, kv.key)
			}
			continue
		}
		if strings.HasPrefix(sub, pre) && strings.HasSuffix(sub, post) && len(sub) >= len(pre)+len(post) && len(pre) > bestLen {
			best, bestLen, star = i, len(pre), sub[len(pre):len(sub)-len(post)]
		}
	}
	if best < 0 {
		return nil
	}
	kv := obj[best]
	if !strings.Contains(kv.key, "*") {
		var out []string
		for _, t := range conditionTargets(kv.val, "", 0) {
			out = append(out, t+star)
		}
		return out
	}
	return conditionTargets(kv.val, star, 0)
}

// conditionTargets flattens a target (a string, an array of fallbacks, an
// object of conditions) in order, "*" replaced by star.
func conditionTargets(v any, star string, depth int) []string {
	if depth > 16 {
		return nil
	}
	switch x := v.(type) {
	case string:
		return []string{strings.ReplaceAll(x, "*", star)}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, conditionTargets(e, star, depth+1)...)
		}
		return out
	case jsonObj:
		var out []string
		for _, kv := range x {
			out = append(out, conditionTargets(kv.val, star, depth+1)...)
		}
		return out
	}
	return nil
}

// buildDirs are folder names that hold build output, whose files map back
// to the sources under src/.
var buildDirs = []string{"dist", "build", "lib", "out", "esm", "cjs", "types", "dts", "typings"}

func isBuildDir(seg string) bool {
	return contains(buildDirs, seg) || strings.HasPrefix(seg, "dist-") || strings.HasPrefix(seg, "dist_") ||
		strings.HasPrefix(seg, "build-")
}

func isDeclaration(rel string) bool {
	for _, e := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(rel, e) {
			return true
		}
	}
	return false
}

// pick chooses the file a package's targets (relative to its folder pkg)
// stand for: a source file a target names, else the source under src/
// of a build output or declaration target (dist/x.js, x.d.ts ->
// src/x.ts), else the first target that exists.
func (w *wsIndex) pick(f *fileFacts, pkg string, targets []string) []string {
	var clean []string
	for _, t := range targets {
		t = pathpkg.Clean(strings.TrimPrefix(t, "./"))
		if t == ".." || strings.HasPrefix(t, "../") || pathpkg.IsAbs(t) {
			continue
		}
		clean = append(clean, t)
	}
	for _, t := range clean {
		if out := w.r.jsFile(f, pathpkg.Join(pkg, t)); len(out) > 0 && !isDeclaration(out[0]) &&
			!isBuildDir(strings.SplitN(t, "/", 2)[0]) {
			return out
		}
	}
	for _, t := range clean {
		for _, c := range sourceCounterparts(t) {
			if out := w.r.jsFile(f, pathpkg.Join(pkg, c)); len(out) > 0 && !isDeclaration(out[0]) {
				return out
			}
		}
	}
	for _, t := range clean {
		if out := w.r.jsFile(f, pathpkg.Join(pkg, t)); len(out) > 0 {
			return out
		}
	}
	return nil
}

// sourceCounterparts maps a build output or declaration path to where its
// source would be: the extension dropped, leading build folders dropped,
// under src/ and in place.
func sourceCounterparts(t string) []string {
	stem := t
	for _, e := range []string{".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs", ".jsx"} {
		if s, ok := strings.CutSuffix(stem, e); ok {
			stem = s
			break
		}
	}
	segs := strings.Split(stem, "/")
	for i := 0; i < 2 && len(segs) > 1 && isBuildDir(segs[0]); i++ {
		segs = segs[1:]
	}
	rest := strings.Join(segs, "/")
	if segs[0] == "src" {
		return []string{rest}
	}
	return []string{"src/" + rest, rest}
}

// tsConfig is what a tsconfig.json (with its extends chain) says about
// module resolution.
type tsConfig struct {
	baseURL   string // folder, "" when not set
	paths     map[string][]string
	pathsBase string // the folder paths' targets are relative to
}

// tsRaw is one tsconfig file's own settings.
type tsRaw struct {
	extends  []string
	baseURL  *string
	paths    map[string][]string
	hasPaths bool
}

func decodeTSConfig(data []byte) (any, error) {
	var doc struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if err := json.Unmarshal(stripJSONC(data), &doc); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	raw := &tsRaw{baseURL: doc.CompilerOptions.BaseURL, paths: doc.CompilerOptions.Paths, hasPaths: doc.CompilerOptions.Paths != nil}
	var one string
	var many []string
	switch {
	case len(doc.Extends) == 0:
	case json.Unmarshal(doc.Extends, &one) == nil:
		raw.extends = []string{one}
	case json.Unmarshal(doc.Extends, &many) == nil:
		raw.extends = many
	}
	return raw, nil
}

// stripJSONC turns JSON with comments and trailing commas into JSON.
func stripJSONC(data []byte) []byte {
	out := make([]byte, 0, len(data))
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inStr:
			out = append(out, c)
			if c == '\\' && i+1 < len(data) {
				i++
				out = append(out, data[i])
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			out = append(out, c)
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			if i < len(data) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			i += 2
			for i+1 < len(data) && (data[i] != '*' || data[i+1] != '/') {
				i++
			}
			i++
			out = append(out, ' ')
		case c == '}' || c == ']':
			// A trailing comma before the close is dropped.
			j := len(out) - 1
			for j >= 0 && (out[j] == ' ' || out[j] == '\t' || out[j] == '\n' || out[j] == '\r') {
				j--
			}
			if j >= 0 && out[j] == ',' {
				out = append(out[:j], out[j+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// tsconfig returns the configuration applying to files of folder dir:
// the nearest tsconfig.json or jsconfig.json above it, with its extends.
func (w *wsIndex) tsconfig(dir string) *tsConfig {
	if tc, ok := w.tsAt[dir]; ok {
		return tc
	}
	var tc *tsConfig
	for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
		if rel := pathpkg.Join(dir, name); w.r.isFile(rel) {
			tc = w.readTSConfig(rel)
			break
		}
	}
	if tc == nil && dir != "." && dir != "" && dir != "/" {
		tc = w.tsconfig(pathpkg.Dir(dir))
	}
	w.tsAt[dir] = tc
	return tc
}

// readTSConfig merges the chain from the tsconfig at rel up through its
// extends: a setting of a file overrides those it extends.
func (w *wsIndex) readTSConfig(rel string) *tsConfig {
	tc := &tsConfig{}
	seen := map[string]bool{}
	var apply func(rel string, depth int) bool
	// apply merges rel's chain into tc, parents first; it reports whether
	// anything was read.
	apply = func(rel string, depth int) bool {
		if depth > wsMaxExtends {
			w.note(fmt.Sprintf("%s: the tsconfig extends chain is longer than %d; the rest is not read", rel, wsMaxExtends))
			return false
		}
		if seen[rel] {
			return false
		}
		seen[rel] = true
		raw, ok := w.manifest(rel, "tsconfig", decodeTSConfig).(*tsRaw)
		if !ok {
			return false
		}
		dir := pathpkg.Dir(rel)
		for _, e := range raw.extends {
			if p := w.extendsPath(dir, e); p != "" {
				apply(p, depth+1)
			}
		}
		if raw.baseURL != nil {
			tc.baseURL = pathpkg.Join(dir, *raw.baseURL)
		}
		if raw.hasPaths {
			tc.paths, tc.pathsBase = raw.paths, dir
		}
		return true
	}
	if !apply(rel, 0) {
		return nil
	}
	if tc.baseURL != "" {
		tc.pathsBase = tc.baseURL
	}
	if tc.baseURL == "" && tc.paths == nil {
		return nil
	}
	return tc
}

// extendsPath finds the file a tsconfig's extends names from folder dir:
// a path, a package of node_modules above it, or a package of the
// workspace.
func (w *wsIndex) extendsPath(dir, spec string) string {
	withJSON := func(p string) string {
		if w.r.isFile(p) {
			return p
		}
		if w.r.isFile(p + ".json") {
			return p + ".json"
		}
		if w.r.isFile(pathpkg.Join(p, "tsconfig.json")) {
			return pathpkg.Join(p, "tsconfig.json")
		}
		return ""
	}
	if strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") {
		return withJSON(pathpkg.Join(dir, spec))
	}
	for _, d := range ancestors(dir) {
		if p := withJSON(pathpkg.Join(d, "node_modules", spec)); p != "" {
			return p
		}
	}
	name, sub := splitSpecifier(spec)
	if p := w.npmPackageOf(dir, name); p != nil {
		return withJSON(pathpkg.Join(p.dir, sub))
	}
	return ""
}

// viaPaths resolves src through tsconfig paths (an exact key, else the
// pattern with the longest prefix), then baseUrl; when neither names a
// file, resolution goes on as without them, as TypeScript's does.
func (w *wsIndex) viaPaths(f *fileFacts, tc *tsConfig, src string) []string {
	var targets []string
	star := ""
	if ts, ok := tc.paths[src]; ok {
		targets = ts
	} else {
		bestLen := -1
		keys := make([]string, 0, len(tc.paths))
		for k := range tc.paths {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			pre, post, ok := strings.Cut(k, "*")
			if ok && strings.HasPrefix(src, pre) && strings.HasSuffix(src, post) && len(src) >= len(pre)+len(post) && len(pre) > bestLen {
				targets, bestLen, star = tc.paths[k], len(pre), src[len(pre):len(src)-len(post)]
			}
		}
	}
	for _, t := range targets {
		p := pathpkg.Join(tc.pathsBase, strings.ReplaceAll(t, "*", star))
		if out := w.r.jsFile(f, p); len(out) > 0 {
			return out
		}
	}
	if tc.baseURL != "" {
		return w.r.jsFile(f, pathpkg.Join(tc.baseURL, src))
	}
	return nil
}

// goModules maps the module paths of the workspace's other Go modules to
// their folders, for a file of folder dir: the nearest go.work's use
// directives, and the local replace directives of the nearest go.mod.
func (w *wsIndex) goModules(dir string) map[string]string {
	if m, ok := w.goWork[dir]; ok {
		return m
	}
	m := map[string]string{}
	workDone, modDone := false, false
	for _, d := range ancestors(dir) {
		if !workDone {
			if wf, ok := w.manifest(pathpkg.Join(d, "go.work"), "go.work", decodeGoWork).(*modfile.WorkFile); ok {
				workDone = true
				for _, u := range wf.Use {
					w.addGoModule(m, d, u.Path)
				}
			}
		}
		if !modDone {
			if mf, ok := w.manifest(pathpkg.Join(d, "go.mod"), "go.mod", decodeGoMod).(*modfile.File); ok {
				modDone = true
				for _, rp := range mf.Replace {
					if modfile.IsDirectoryPath(rp.New.Path) && rp.New.Version == "" {
						if sub := w.addGoModule(nil, d, rp.New.Path); sub != "" {
							m[rp.Old.Path] = sub
						}
					}
				}
			}
		}
	}
	w.goWork[dir] = m
	return m
}

// addGoModule reads the go.mod of the folder p (relative to base) and adds
// its module path to m; it returns the folder, or "" when it has none.
func (w *wsIndex) addGoModule(m map[string]string, base, p string) string {
	if filepath.IsAbs(p) {
		return ""
	}
	dir := pathpkg.Join(base, filepath.ToSlash(p))
	if dir == ".." || strings.HasPrefix(dir, "../") {
		return ""
	}
	mf, ok := w.manifest(pathpkg.Join(dir, "go.mod"), "go.mod", decodeGoMod).(*modfile.File)
	if !ok {
		return ""
	}
	if m != nil && mf.Module != nil {
		m[mf.Module.Mod.Path] = dir
	}
	return dir
}

func decodeGoWork(data []byte) (any, error) {
	wf, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		return nil, fmt.Errorf("invalid go.work: %w", err)
	}
	return wf, nil
}

func decodeGoMod(data []byte) (any, error) {
	// Parse, not ParseLax: the lax parser drops replace directives.
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		if mf, lerr := modfile.ParseLax("go.mod", data, nil); lerr == nil {
			return mf, nil
		}
		return nil, fmt.Errorf("invalid go.mod: %w", err)
	}
	return mf, nil
}

// goWorkDir returns the folder of a Go import path under another module
// of the workspace (the longest module path that prefixes it) and that
// module's path, or "".
func (w *wsIndex) goWorkDir(dir, src string) (string, string) {
	best := ""
	out := ""
	for mod, d := range w.goModules(dir) {
		if (src == mod || strings.HasPrefix(src, mod+"/")) && len(mod) > len(best) {
			best, out = mod, pathpkg.Join(d, strings.TrimPrefix(strings.TrimPrefix(src, mod), "/"))
		}
	}
	return out, best
}

// pythonRoots returns the folders from which a top-level Python package
// named top is imported: the parent of each such package folder (one
// holding __init__.py under a folder without one) when that parent is a
// src/ folder, holds pyproject.toml, setup.py or setup.cfg, or is the
// workspace root.
func (w *wsIndex) pythonRoots(top string) []string {
	if w.pyRoots == nil {
		w.pyRoots = map[string][]string{}
		seen := map[string]bool{}
		for _, rel := range w.r.allFiles() {
			if pathpkg.Base(rel) != "__init__.py" {
				continue
			}
			pkg := pathpkg.Dir(rel)
			parent := pathpkg.Dir(pkg)
			if pkg == "." || w.r.isFile(pathpkg.Join(parent, "__init__.py")) {
				continue
			}
			name := pathpkg.Base(pkg)
			k := parent + "\x00" + name
			if seen[k] {
				continue
			}
			seen[k] = true
			if parent == "." || pathpkg.Base(parent) == "src" || w.r.isFile(pathpkg.Join(parent, "pyproject.toml")) ||
				w.r.isFile(pathpkg.Join(parent, "setup.py")) || w.r.isFile(pathpkg.Join(parent, "setup.cfg")) {
				w.pyRoots[name] = append(w.pyRoots[name], parent)
			}
		}
	}
	return w.pyRoots[top]
}

// packageAbsent reports whether a TypeScript or JavaScript import of a
// package names another party's package the compiler finds no
// declarations of: no node_modules folder of the workspace above the
// importing file holds it or its @types package (node:fs looks for
// @types/node), and either a node_modules folder is there (the project's
// packages are installed, but not this one) or a package.json above the
// file lists it among its dependencies (it is a published package, not
// installed yet). The compiler types what such a module exports any.
// With neither (a folder of a package's sources, importing the package by
// its own name) nothing tells another party's package from the project's.
func (r *resolver) packageAbsent(f *fileFacts, imp importFact) bool {
	if imp.Resolve != resolveJS || localSource(imp.Source) {
		return false
	}
	name, _ := splitSpecifier(strings.TrimPrefix(imp.Source, "node:"))
	if name == "" {
		return false
	}
	typesName := "@types/" + strings.Replace(strings.TrimPrefix(name, "@"), "/", "__", 1)
	if strings.HasPrefix(imp.Source, "node:") || nodeBuiltins[name] {
		name, typesName = typesName, "@types/node"
	}
	installed, declared := false, false
	for _, d := range ancestors(pathpkg.Dir(f.rel)) {
		for _, n := range []string{name, typesName} {
			if r.isFile(pathpkg.Join(d, "node_modules", n, "package.json")) {
				return false
			}
		}
		installed = installed || r.isDir(pathpkg.Join(d, "node_modules"))
		if p := r.ws().pkg(d); p != nil {
			declared = declared || p.deps[name] || p.deps[typesName]
		}
	}
	return installed || declared
}

// nodeBuiltins are Node's modules importable without the node: prefix,
// whose types come from @types/node.
var nodeBuiltins = map[string]bool{"assert": true, "buffer": true, "child_process": true, "crypto": true,
	"events": true, "fs": true, "http": true, "https": true, "net": true, "os": true, "path": true,
	"process": true, "stream": true, "url": true, "util": true, "worker_threads": true, "zlib": true}

// ownModule reports whether an import that resolved to no file names a
// module of the workspace all the same (a workspace package whose entry
// is missing, a tsconfig paths key): its names are not another package's.
func (r *resolver) ownModule(f *fileFacts, imp importFact) bool {
	if imp.Resolve != resolveJS || localSource(imp.Source) {
		return false
	}
	_, known := r.ws().resolveBare(f, imp.Source)
	return known
}
