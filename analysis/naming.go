package analysis

import (
	"errors"
	"fmt"
	pathpkg "path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
)

// A symbol names definitions in one of two forms:
//
//   - a name, bare or qualified: get, Store.get, store.load, pkg.Store.get,
//     Store::get, Store#get, outer.inner (a function defined inside
//     outer);
//   - a file and a chain: path/to/file.ts#outer.inner, file.ts#Class.method,
//     resizing.test.ts#fn. The file is a workspace-relative path or a
//     suffix of one that only one file has; the chain lists the
//     definitions enclosing the symbol, innermost last, and ends with its
//     name. It names symbols a qualified name cannot: files with a dotted
//     stem, files of the same stem in several folders, nested functions.
//
// parseSymbol reads both, once per call; session.target turns the
// qualifier into a target.

// maxCandidates bounds the near candidates a failed qualifier lists, and
// the definitions a qualifier matching several owners lists in its note.
const maxCandidates = 5

// symbolName is a parsed symbol parameter.
type symbolName struct {
	name string // the definition's own name
	// owner is the qualifier's last segment (Store in pkg.Store.get), or
	// for a file form the last link of the chain, else the file.
	owner string
	// qual is the qualifier as the modes take it: Store, pkg.Store, or
	// file#chain for the file form (file# when the chain is the name
	// alone); empty for a bare name.
	qual string
	// shown is the symbol as answers show it.
	shown string
}

// parseSymbol splits a symbol parameter into its name and qualifier;
// isExt tells the extensions (lower case, no dot) of the language's files,
// which tell a file form (resizing.test.ts#fn) from a qualifier
// (Config#init).
func parseSymbol(sym string, isExt func(string) bool) (symbolName, error) {
	if file, chain, ok := splitFileForm(sym, isExt); ok {
		links := chainLinks(chain)
		if len(links) == 0 {
			return symbolName{}, fmt.Errorf("symbol %s names no definition after #: write file#name or file#Owner.name", sym)
		}
		n := symbolName{name: links[len(links)-1], owner: file,
			qual: file + "#" + strings.Join(links[:len(links)-1], "."), shown: sym}
		if len(links) > 1 {
			n.owner = links[len(links)-2]
		}
		return n, nil
	}
	owner, name := splitQualified(sym)
	n := symbolName{name: name, owner: owner, shown: name}
	if owner != "" {
		n.qual = strings.TrimRight(sym[:len(sym)-len(name)], ".:#")
		n.shown = owner + "." + name
	}
	return n, nil
}

// splitFileForm splits file#chain when the part before the first # is a
// path: it has a separator, or ends with an extension of the language.
func splitFileForm(s string, isExt func(string) bool) (file, chain string, ok bool) {
	file, chain, ok = strings.Cut(s, "#")
	if !ok || file == "" {
		return "", "", false
	}
	if strings.ContainsAny(file, `/\`) {
		return file, chain, true
	}
	if i := strings.LastIndexByte(file, '.'); i > 0 && isExt(strings.ToLower(file[i+1:])) {
		return file, chain, true
	}
	return "", "", false
}

// chainLinks splits a chain (outer.inner, Class::method) into its links.
func chainLinks(chain string) []string {
	return strings.FieldsFunc(chain, func(r rune) bool { return r == '.' || r == ':' })
}

// langExts tells the extensions (lower case, no dot) of the files an
// analysis of lang covers.
func langExts(lang string) func(string) bool {
	out := map[string]bool{}
	sp := specs[lang]
	if sp == nil {
		return func(string) bool { return false }
	}
	for _, name := range sp.Scope {
		if l, err := language.Lookup(name); err == nil {
			for _, e := range l.Extensions() {
				out[strings.ToLower(e)] = true
			}
		}
	}
	for _, e := range sp.ExtraExts {
		out[strings.ToLower(e)] = true
	}
	return func(e string) bool { return out[e] }
}

// resolveTarget makes the target of a name and its qualifier (Owner,
// pkg.Owner, file#chain), once per call.
func (s *session) resolveTarget(name, qual string) (target, error) {
	key := name + "\x00" + qual
	if r, ok := s.targets[key]; ok {
		return r.t, r.err
	}
	isExt := func(e string) bool { _, ok := s.exts[e]; return ok }
	var r resolvedTarget
	if file, chain, ok := splitFileForm(qual, isExt); ok {
		r.t, r.err = s.fileTarget(name, file, chain)
	} else {
		r.t = s.qualTarget(name, qual)
	}
	s.targets[key] = r
	return r.t, r.err
}

// resolvedTarget is resolveTarget's answer.
type resolvedTarget struct {
	t   target
	err error
}

// fileTarget makes the target of a file form's qualifier (file#chain),
// finding its file among the scope's files, else the workspace's.
func (s *session) fileTarget(name, file, chain string) (target, error) {
	rel, err := s.fileNamed(file)
	if err != nil {
		return target{name: name}, err
	}
	return target{name: name, file: rel, chain: chainLinks(chain)}, nil
}

// fileNamed finds the one file a file form names: the workspace-relative
// path, else the one file whose path ends with it.
func (s *session) fileNamed(p string) (string, error) {
	want := filepath.ToSlash(p)
	if filepath.IsAbs(p) {
		if rel, err := filepath.Rel(s.ws.root, p); err == nil {
			want = filepath.ToSlash(rel)
		}
	}
	want = strings.TrimPrefix(pathpkg.Clean(want), "./")
	find := func(fs []*file) []string {
		var exact, suffix []string
		for _, f := range fs {
			switch {
			case f.rel == want:
				exact = append(exact, f.rel)
			case strings.HasSuffix(f.rel, "/"+want):
				suffix = append(suffix, f.rel)
			}
		}
		if len(exact) > 0 {
			return exact
		}
		return suffix
	}
	found := find(s.files)
	var all []*file
	if len(found) == 0 {
		all = s.workspaceFiles()
		found = find(all)
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		sort.Strings(found)
		return "", fmt.Errorf("%s matches %d files (%s): give more of its path", p, len(found), listSome(found))
	}
	var near []string
	base := pathpkg.Base(want)
	for _, f := range all {
		if pathpkg.Base(f.rel) == base || editDistance(pathpkg.Base(f.rel), base) <= 2 {
			near = append(near, f.rel)
		}
	}
	sort.Strings(near)
	msg := fmt.Sprintf("no %s file of the workspace is %s or ends with /%s", s.req.lang.Name(), want, want)
	if len(near) > 0 {
		msg += "; near: " + listSome(near)
	}
	return "", errors.New(msg)
}

// workspaceFiles lists the files of the language in the whole workspace,
// for a name the scope does not define.
func (s *session) workspaceFiles() []*file {
	if s.req.scopeRel == "" {
		return s.files
	}
	fs, err := s.list(s.ws.root)
	if err != nil {
		return s.files
	}
	return fs
}

// listSome joins up to maxCandidates items, saying how many more there are.
func listSome(items []string) string {
	out := strings.Join(items[:min(len(items), maxCandidates)], ", ")
	if n := len(items) - maxCandidates; n > 0 {
		out += fmt.Sprintf(", and %d more", n)
	}
	return out
}

// chainMatches reports whether the definitions enclosing definition i of
// f are, innermost first, the chain's links from its last. A member
// defined outside its owner (Go's func (h Header) Get, C++'s void
// Foo::run()) has its owner as its one enclosing link.
func chainMatches(f *fileFacts, i int, chain []string) bool {
	d := f.defs[i]
	if len(chain) == 0 && !topLevel(d) {
		// file#name names the file's top-level name when it has one; a
		// member or nested definition only when no top-level one exists.
		for _, o := range f.defs {
			if o.Name == d.Name && topLevel(o) {
				return false
			}
		}
	}
	p := d.Parent
	for j := len(chain) - 1; j >= 0; j-- {
		if p < 0 {
			return j == 0 && d.Parent < 0 && d.Container == chain[0] && len(chain) == 1
		}
		if f.defs[p].Name != chain[j] {
			return false
		}
		p = f.defs[p].Parent
	}
	return true
}

// topLevel reports whether d is defined at its file's top level, not as
// a member (a Go method belongs to its type) or inside another definition.
func topLevel(d def) bool {
	return d.Parent < 0 && (d.Container == "" || d.Lexical)
}

// defChain lists the names enclosing definition i of f, outermost first:
// its parents' names, or the owner of a member defined outside it.
func defChain(f *fileFacts, i int) []string {
	d := f.defs[i]
	var out []string
	for p := d.Parent; p >= 0; p = f.defs[p].Parent {
		out = append([]string{f.defs[p].Name}, out...)
	}
	if len(out) == 0 && d.Container != "" {
		out = []string{d.Container}
	}
	return out
}

// defLabel names definition i of f as a qualified name and a location:
// Owner.name file:line.
func defLabel(f *fileFacts, i int) string {
	d := f.defs[i]
	return strings.Join(append(defChain(f, i), d.Name), ".") + " " + loc(f.rel, d.Line)
}

// checkSymbol checks the qualifier of the call's symbol before any mode
// runs: one that matches no definition of the scope or the workspace is
// an error listing the near candidates; one that matches definitions of
// several owners (two classes Store, two files) adds a note listing them.
// A bare name is not checked.
func (s *session) checkSymbol() error {
	req := s.req
	if req.qual == "" || req.symbol == "" || req.mode == ModeDependencies || req.mode == ModeExports {
		return nil
	}
	t, err := s.resolveTarget(req.symbol, req.qual)
	if err != nil {
		return fmt.Errorf("symbol %s: %w", req.shown, err)
	}
	defs := s.matching(t, s.files)
	if len(defs) == 0 && !s.stopped {
		// Defined outside the scope, in a file naming the owner: only
		// those files are parsed.
		wide := s.ownerFiles(t)
		defs = s.matching(t, wide)
		if len(defs) == 0 && !s.stopped {
			return s.noMatch(t, fileUnion(s.files, wide))
		}
	}
	if groups := ownerGroups(defs); len(groups) > 1 {
		var where []string
		for _, g := range groups {
			where = append(where, defLabel(g.f, g.i))
		}
		s.notes = append(s.notes, fmt.Sprintf("%s matches %d definitions in different classes or files, all covered by this answer: %s; name one as file#Owner.name to ask about it alone",
			req.shown, len(groups), listSome(where)))
	}
	return nil
}

// ownerFiles returns the workspace's files that may hold what t asks
// about: the file of a file form, else the files whose path or text
// names the owner (a module, a directory, a class).
func (s *session) ownerFiles(t target) []*file {
	all := s.workspaceFiles()
	if t.file == "" {
		var byPath, rest []*file
		for _, f := range all {
			if strings.Contains(f.rel, t.owner) {
				byPath = append(byPath, f)
			} else {
				rest = append(rest, f)
			}
		}
		return append(byPath, s.containing(rest, []string{t.owner})...)
	}
	for _, f := range all {
		if f.rel == t.file {
			return []*file{f}
		}
	}
	return nil
}

// fileUnion returns the files of a, then those of b not in a.
func fileUnion(a, b []*file) []*file {
	in := make(map[*file]bool, len(a))
	for _, f := range a {
		in[f] = true
	}
	out := slices.Clone(a)
	for _, f := range b {
		if !in[f] {
			out = append(out, f)
		}
	}
	return out
}

// matching lists the definitions of fs that t asks about.
func (s *session) matching(t target, fs []*file) []defRef {
	var out []defRef
	for _, f := range s.factsWith(fs, []string{t.name}) {
		for i := range f.defs {
			if t.matches(f, i) {
				out = append(out, defRef{f, i})
			}
		}
	}
	return out
}

// ownerGroups returns the first definition of each owner among defs: each
// class, function or file holding some (overloads of one method are one
// owner, and so are a class and its constructor of the same name).
func ownerGroups(defs []defRef) []defRef {
	type key struct {
		file, container string
		parent          int
	}
	in := map[defKey]bool{}
	for _, dr := range defs {
		in[defKey{dr.f.rel, dr.i}] = true
	}
	seen := map[key]bool{}
	var out []defRef
	for _, dr := range defs {
		d := dr.f.defs[dr.i]
		if d.Parent >= 0 && in[defKey{dr.f.rel, d.Parent}] {
			continue // a member of one of defs, named as it: Java's constructor
		}
		k := key{dr.f.rel, d.Container, d.Parent}
		if !seen[k] {
			seen[k] = true
			out = append(out, dr)
		}
	}
	return out
}

// noMatch is the error of a qualifier matching no definition of fs (the
// scope's files and those of the workspace naming the owner): it
// lists up to maxCandidates near ones, closest first: definitions of the
// same name under other owners or files, and definitions of the owner
// whose names are a small edit away (Hedaer.Get finds Header.Get, and
// Header.Gte Header.Get).
func (s *session) noMatch(t target, fs []*file) error {
	type cand struct {
		dist  int
		label string
	}
	var cands []cand
	asked := t.owner
	if t.file != "" {
		asked = t.file + "#" + strings.Join(t.chain, ".")
	}
	seen := map[string]bool{}
	add := func(dist int, f *fileFacts, i int) {
		l := defLabel(f, i)
		if !seen[l] {
			seen[l] = true
			cands = append(cands, cand{dist, l})
		}
	}
	for _, f := range s.factsWith(fs, []string{t.name}) {
		for i, d := range f.defs {
			if d.Name != t.name {
				continue
			}
			dist := 1 << 20
			if t.file != "" {
				dist = editDistance(asked, f.rel+"#"+strings.Join(defChain(f, i), "."))
			} else {
				for _, o := range ownerNames(f, i) {
					dist = min(dist, editDistance(asked, o))
				}
			}
			add(dist, f, i)
		}
	}
	// Definitions of the owner asked about with a name a small edit away.
	owner := t.owner
	if t.file != "" && len(t.chain) > 0 {
		owner = t.chain[len(t.chain)-1]
	}
	if owner != "" {
		for _, f := range s.factsWith(fs, []string{owner}) {
			if t.file != "" && f.rel != t.file {
				continue
			}
			for i, d := range f.defs {
				chain := defChain(f, i)
				inOwner := t.file != "" && len(t.chain) == 0 || len(chain) > 0 && chain[len(chain)-1] == owner
				if e := editDistance(d.Name, t.name); inOwner && d.Name != t.name && e <= closeEdits(t.name) {
					add(e, f, i)
				}
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].dist < cands[b].dist })
	var labels []string
	for _, c := range cands {
		labels = append(labels, c.label)
	}
	msg := fmt.Sprintf("symbol %s matches no definition in the workspace", s.req.shown)
	if len(labels) == 0 {
		return errors.New(msg + fmt.Sprintf("; nothing named %s is defined in the %s files of %s", t.name, s.req.lang.Name(),
			displayPath(s.req.scopeRel)))
	}
	return errors.New(msg + "; near candidates: " + listSome(labels) + " (name one as Owner.name, or file#Owner.name)")
}

// ownerNames lists the names a qualifier may give definition i of f: its
// enclosing definitions, its module and its directory.
func ownerNames(f *fileFacts, i int) []string {
	out := append(defChain(f, i), moduleName(f), pathpkg.Base(pathpkg.Dir(f.rel)))
	return append(out, f.packages...)
}

// closeEdits is the edit distance within which a name is near another.
func closeEdits(name string) int {
	return min(2, max(1, len(name)/4))
}

// editDistance is the edit distance of a and b, by bytes, a swap of two
// neighbours counting one edit (gte is one edit from get).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
