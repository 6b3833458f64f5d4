package rule

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// registry resolves `matches` references while compiling. One registry
// serves a rule config: its rule, constraints and rewriters share the
// local utilities, as in ast-grep.
type registry struct {
	local     map[string]*localUtil
	globals   *Globals
	params    []string // parameters of the global utility being compiled
	rewriters map[string]*rewriter
}

func newRegistry(globals *Globals) *registry {
	return &registry{local: map[string]*localUtil{}, globals: globals, rewriters: map[string]*rewriter{}}
}

// localUtil is a rule defined under `utils:`; m is set once compiled.
type localUtil struct{ m matcher }

// Globals is a set of global utility rules (from sgconfig's utilDirs),
// available to every rule through `matches`. A Globals is immutable once
// built and safe for concurrent use.
type Globals struct {
	utils map[string]*globalUtil
}

type globalUtil struct {
	id     string
	lang   *language.Language
	params []string
	core   *Core // set once compiled
	doc    *value
	file   string
}

// Len returns the number of global utilities.
func (g *Globals) Len() int {
	if g == nil {
		return 0
	}
	return len(g.utils)
}

func (g *Globals) lookup(id string) *globalUtil {
	if g == nil {
		return nil
	}
	return g.utils[id]
}

// File is a named rule document.
type File struct {
	Path string
	Data []byte
}

var globalKeys = []string{"id", "language", "arguments", "rule", "constraints", "utils", "transform"}

// ParseGlobals compiles global utility rules. Each file holds one YAML
// document with id, language, rule and optionally constraints, utils,
// transform and arguments (the parameter names of a parameterized
// utility).
func ParseGlobals(ctx context.Context, files []File) (*Globals, error) {
	g := &Globals{utils: map[string]*globalUtil{}}
	var order []string
	for _, f := range files {
		docs, err := parseYAMLDocs(f.Data)
		if err != nil {
			return nil, fileError(f.Path, err)
		}
		if len(docs) != 1 {
			return nil, fileError(f.Path, &Error{Msg: fmt.Sprintf("a utility file must hold exactly one YAML document, found %d", len(docs))})
		}
		for _, d := range docs {
			u, err := declareGlobal(d)
			if err != nil {
				return nil, fileError(f.Path, err)
			}
			if g.utils[u.id] != nil {
				return nil, fileError(f.Path, errAt(d.get("id"), "id", "duplicate utility id %q", u.id))
			}
			u.file = f.Path
			g.utils[u.id] = u
			order = append(order, u.id)
		}
	}
	deps := func(id string) []string {
		u := g.utils[id]
		var out []string
		for _, key := range []string{"rule"} {
			if v := u.doc.get(key); v != nil {
				out = append(out, compositeRefs(v, u.params)...)
			}
		}
		for _, key := range []string{"constraints", "utils"} {
			if v := u.doc.get(key); v != nil && v.kind == mapValue {
				for _, r := range v.vals {
					out = append(out, compositeRefs(r, u.params)...)
				}
			}
		}
		return out
	}
	sorted, cycle := topoSort(order, deps, func(id string) bool { return g.utils[id] != nil })
	if cycle != "" {
		u := g.utils[cycle]
		return nil, fileError(u.file, errAt(u.doc, "rule", "utility %q has a cyclic dependency in its matches rules", cycle))
	}
	for _, id := range sorted {
		u := g.utils[id]
		reg := newRegistry(g)
		reg.params = u.params
		c, err := newCompiler(ctx, u.lang, reg)
		if err != nil {
			return nil, fileError(u.file, err)
		}
		c.global = true
		core, err := c.core(u.doc, "")
		if err != nil {
			return nil, fileError(u.file, err)
		}
		u.core = core
		u.doc = nil
	}
	return g, nil
}

func fileError(path string, err error) error {
	if path == "" {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

func declareGlobal(d *value) (*globalUtil, error) {
	if err := asMap(d, ""); err != nil {
		return nil, err
	}
	if err := checkKeys(d, "", globalKeys); err != nil {
		return nil, err
	}
	idv := d.get("id")
	if idv == nil {
		return nil, errAt(d, "", "missing key \"id\"")
	}
	id, err := asString(idv, "id")
	if err != nil {
		return nil, err
	}
	if !validUtilName(id) {
		return nil, errAt(idv, "id", "utility id %q must be non-empty and must not contain ( ) , =", id)
	}
	lang, err := parseLanguage(d)
	if err != nil {
		return nil, err
	}
	u := &globalUtil{id: id, lang: lang, doc: d}
	if av := d.get("arguments"); av != nil && av.kind != nullValue {
		if err := asList(av, "arguments"); err != nil {
			return nil, err
		}
		for i, item := range av.items {
			p := index("arguments", i)
			name, err := asString(item, p)
			if err != nil {
				return nil, err
			}
			if !validUtilName(name) {
				return nil, errAt(item, p, "argument %q must be non-empty and must not contain ( ) , =", name)
			}
			if contains(u.params, name) {
				return nil, errAt(item, p, "duplicate argument %q", name)
			}
			u.params = append(u.params, name)
		}
	}
	return u, nil
}

func validUtilName(s string) bool { return s != "" && !strings.ContainsAny(s, "(),=") }

// compositeRefs lists the utility ids a rule document refers to through
// matches, all, any, not and nthChild's ofRule (relational rules do not
// count: recursion through them terminates). Parameter names are not ids.
func compositeRefs(v *value, params []string) []string {
	if v == nil || v.kind != mapValue {
		return nil
	}
	var out []string
	if m := v.get("matches"); m != nil {
		switch m.kind {
		case scalarValue:
			if !contains(params, m.text) {
				out = append(out, m.text)
			}
		case mapValue:
			for i, callee := range m.keys {
				out = append(out, callee)
				if args := m.vals[i]; args.kind == mapValue {
					for _, a := range args.vals {
						out = append(out, compositeRefs(a, params)...)
					}
				}
			}
		}
	}
	for _, key := range []string{"all", "any"} {
		if l := v.get(key); l != nil && l.kind == seqValue {
			for _, item := range l.items {
				out = append(out, compositeRefs(item, params)...)
			}
		}
	}
	out = append(out, compositeRefs(v.get("not"), params)...)
	// nthChild's ofRule runs on the node and its siblings: a utility
	// reaching itself through it would recurse without end (ast-grep
	// overflows its stack), so it counts as a dependency too.
	if nth := v.get("nthChild"); nth != nil && nth.kind == mapValue {
		out = append(out, compositeRefs(nth.get("ofRule"), params)...)
	}
	return out
}

// topoSort orders ids so that every id comes after the ids it depends on
// (ids failing known are ignored). It reports an id on a cycle.
func topoSort(ids []string, deps func(string) []string, known func(string) bool) (order []string, cycle string) {
	done := map[string]bool{} // false: in progress
	var visit func(id string) string
	visit = func(id string) string {
		if fin, seen := done[id]; seen {
			if fin {
				return ""
			}
			return id
		}
		if !known(id) {
			return ""
		}
		done[id] = false
		for _, d := range deps(id) {
			if c := visit(d); c != "" {
				return c
			}
		}
		done[id] = true
		order = append(order, id)
		return ""
	}
	sorted := append([]string(nil), ids...)
	sort.Strings(sorted)
	for _, id := range sorted {
		if c := visit(id); c != "" {
			return nil, c
		}
	}
	return order, ""
}

// declareLocals registers the local utilities of a rule core and compiles
// them in dependency order.
func (c *compiler) declareLocals(v *value, path string) error {
	if err := asMap(v, path); err != nil {
		return err
	}
	for i, id := range v.keys {
		p := join(path, id)
		if !validUtilName(id) {
			return errAt(v.vals[i], p, "utility id %q must be non-empty and must not contain ( ) , =", id)
		}
		if c.reg.local[id] != nil {
			return errAt(v.vals[i], p, "duplicate utility id %q", id)
		}
	}
	defs := map[string]*value{}
	for i, id := range v.keys {
		defs[id] = v.vals[i]
		c.reg.local[id] = &localUtil{}
	}
	order, cycle := topoSort(v.keys, func(id string) []string { return compositeRefs(defs[id], c.reg.params) },
		func(id string) bool { return defs[id] != nil })
	if cycle != "" {
		return errAt(defs[cycle], join(path, cycle), "utility %q has a cyclic dependency in its matches rules", cycle)
	}
	for _, id := range order {
		m, err := c.rule(defs[id], join(path, id))
		if err != nil {
			return err
		}
		c.reg.local[id].m = m
	}
	return nil
}

// matches compiles a utility reference: an id, or a call of parameterized
// utilities {id: {ARG: rule, ...}, ...}.
func (c *compiler) matches(v *value, path string) (matcher, error) {
	if v.kind == scalarValue && v.tag == tagStr {
		return c.reference(v, path, v.text)
	}
	if v.kind != mapValue {
		return nil, errAt(v, path, "expected a utility id or a call object, found %s", v.describe())
	}
	if len(v.keys) == 0 {
		return nil, errAt(v, path, "a utility call needs at least one utility")
	}
	var calls []matcher
	for i, callee := range v.keys {
		m, err := c.call(callee, v.vals[i], join(path, callee))
		if err != nil {
			return nil, err
		}
		calls = append(calls, m)
	}
	if len(calls) == 1 {
		return calls[0], nil
	}
	return newAll(calls), nil
}

func (c *compiler) reference(v *value, path, id string) (matcher, error) {
	if contains(c.reg.params, id) {
		return &paramRef{name: id}, nil
	}
	if u := c.reg.local[id]; u != nil {
		return &localRef{id: id, u: u}, nil
	}
	if g := c.reg.globals.lookup(id); g != nil {
		if len(g.params) > 0 {
			return nil, errAt(v, path, "utility %q takes arguments (%s); call it as matches: {%s: {...}}", id, strings.Join(g.params, ", "), id)
		}
		return &globalRef{u: g}, nil
	}
	if c.global {
		// ast-grep does not check references inside global utilities;
		// an undefined one never matches.
		return newAny(nil), nil
	}
	return nil, errAt(v, path, "utility %q is not defined", id)
}

func (c *compiler) call(callee string, args *value, path string) (matcher, error) {
	if contains(c.reg.params, callee) {
		return nil, errAt(args, path, "utility parameter %q cannot be called with arguments", callee)
	}
	g := c.reg.globals.lookup(callee)
	if g == nil || len(g.params) == 0 {
		if g != nil || c.reg.local[callee] != nil {
			return nil, errAt(args, path, "utility %q does not take arguments", callee)
		}
		return nil, errAt(args, path, "utility %q is not defined", callee)
	}
	if err := asMap(args, path); err != nil {
		return nil, err
	}
	for i, name := range args.keys {
		if !contains(g.params, name) {
			return nil, errAt(args.vals[i], join(path, name), "utility %q has no argument %q (arguments: %s)", callee, name, strings.Join(g.params, ", "))
		}
	}
	m := &callM{u: g, args: map[string]matcher{}}
	for _, name := range g.params {
		av := args.get(name)
		if av == nil {
			return nil, errAt(args, path, "utility %q is missing argument %q", callee, name)
		}
		am, err := c.rule(av, join(path, name))
		if err != nil {
			return nil, err
		}
		if refersTo(am, callee) {
			return nil, errAt(av, join(path, name), "argument %q calls utility %q cyclically", name, callee)
		}
		m.args[name] = am
	}
	set := map[string]bool{}
	for _, am := range m.args {
		am.vars(set)
	}
	m.exported = sortedKeys(set)
	return m, nil
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// refersTo reports whether m refers to utility id through composite rules.
func refersTo(m matcher, id string) bool {
	switch t := m.(type) {
	case *allM:
		for _, r := range t.rules {
			if refersTo(r, id) {
				return true
			}
		}
	case *anyM:
		for _, r := range t.rules {
			if refersTo(r, id) {
				return true
			}
		}
	case *notM:
		return refersTo(t.rule, id)
	case *localRef:
		return t.id == id
	case *globalRef:
		return t.u.id == id
	case *callM:
		if t.u.id == id {
			return true
		}
		for _, a := range t.args {
			if refersTo(a, id) {
				return true
			}
		}
	}
	return false
}

// localRef matches a local utility in the caller's environment.
type localRef struct {
	id string
	u  *localUtil
}

func (m *localRef) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	if m.u.m == nil {
		return tree.Node{}, false
	}
	return m.u.m.match(n, env, ec)
}

func (m *localRef) kinds() match.KindSet {
	if m.u.m == nil {
		return nil
	}
	return m.u.m.kinds()
}

func (m *localRef) vars(map[string]bool) {}

// globalRef matches a global utility in an environment of its own: its
// bindings do not reach the caller.
type globalRef struct{ u *globalUtil }

func (m *globalRef) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	if m.u.core == nil {
		return tree.Node{}, false
	}
	return m.u.core.do(n, env.Fresh(), nil, ec)
}

func (m *globalRef) kinds() match.KindSet {
	if m.u.core == nil {
		return nil
	}
	return m.u.core.ks
}

func (m *globalRef) vars(map[string]bool) {}

// callM calls a parameterized global utility with argument rules. The
// utility matches in an environment of its own; the variables the
// argument rules bind are exported to the caller.
type callM struct {
	u        *globalUtil
	args     map[string]matcher
	exported []string
}

func (m *callM) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	if m.u.core == nil {
		return tree.Node{}, false
	}
	var parent *frame
	if ec != nil {
		parent = ec.frame
	}
	export := env.Fresh()
	inner := &evalCtx{frame: &frame{args: m.args, parent: parent}, export: export}
	found, ok := m.u.core.do(n, env.Fresh(), nil, inner)
	if !ok {
		return tree.Node{}, false
	}
	if len(m.exported) > 0 && !exportVars(export, env, m.exported) {
		return tree.Node{}, false
	}
	return found, true
}

func (m *callM) kinds() match.KindSet {
	if m.u.core == nil {
		return nil
	}
	return m.u.core.ks
}

func (m *callM) vars(set map[string]bool) {
	for _, v := range m.exported {
		set[v] = true
	}
}

// paramRef matches the argument rule bound to a parameter of the
// parameterized utility being evaluated.
type paramRef struct{ name string }

func (m *paramRef) match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	if ec == nil || ec.frame == nil {
		return tree.Node{}, false
	}
	arg := ec.frame.args[m.name]
	if arg == nil {
		return tree.Node{}, false
	}
	outer := &evalCtx{frame: ec.frame.parent, export: ec.export}
	if ec.export == nil {
		return arg.match(n, env, outer)
	}
	// The argument matches against the exports collected so far, and what
	// it binds is exported once it matches.
	local := ec.export.Clone()
	found, ok := arg.match(n, local, outer)
	if !ok {
		return tree.Node{}, false
	}
	set := map[string]bool{}
	arg.vars(set)
	if !exportVars(local, ec.export, sortedKeys(set)) {
		return tree.Node{}, false
	}
	return found, true
}

func (m *paramRef) kinds() match.KindSet { return nil }

func (m *paramRef) vars(map[string]bool) {}
