package analysis

import (
	"bytes"
	"github.com/loupe-dev/loupe/analysis/internal/pytype"
	pathpkg "path"

	"github.com/loupe-dev/loupe/analysis/internal/tstype"
	"path/filepath"
	"slices"
	"strings"
)

// Confidence labels: how a call, reference or supertype was tied to the
// symbol asked about.
const (
	// Resolved: the name was followed through the file's scope (a
	// definition in the same file, package or class, this/self) or its
	// imports and re-exports to a definition of the symbol.
	Resolved = "resolved"
	// Dispatch: a call bound, through a written or inferred type, to a
	// member the symbol overrides or implements (an interface's, a base
	// class's, a library type's its class implements), or to a sibling
	// implementation's: it reaches the symbol when the receiver is one of
	// its class at run time, and a type checker's call hierarchy counts it
	// as the symbol's caller.
	Dispatch = "dispatch"
	// NameOnly: the name matches, but syntax alone cannot tell which
	// definition it means (a method called on a value of unknown type, a
	// global, an import the workspace cannot resolve).
	NameOnly = "name-only"
	// Heuristic: a method call whose receiver's name contains the symbol's
	// words (references' "method calls on instances"); never resolved.
	Heuristic = "heuristic"
)

// target says which definitions a call asks about: those named name, in
// owner when owner is set (a class, struct or trait holding them, or the
// module, package or file they are defined in).
type target struct {
	name, owner string
	// dirs are the qualifier's segments before owner (v2 in
	// v2.Store.get, store in store.Store.get): directories, the module or
	// package segments of the definition's file, used when some
	// definition has them.
	dirs []string
	// exact, when set, is the one definition asked about (a caller found
	// at the level above).
	exact *defRef
	// file, when set, is the one file holding the definitions (the file
	// form, file.ts#outer.inner), and chain the definitions enclosing
	// them, innermost last (naming.go).
	file  string
	chain []string
}

// matches reports whether definition i of f is one the target asks about.
func (t target) matches(f *fileFacts, i int) bool {
	if t.exact != nil {
		return t.exact.f.rel == f.rel && t.exact.i == i
	}
	d := f.defs[i]
	if d.Name != t.name {
		return false
	}
	if t.file != "" {
		return f.rel == t.file && chainMatches(f, i, t.chain)
	}
	if t.owner != "" {
		// The owner is the definition's class (a member of it, not a local
		// of one of its methods) or function (a function defined in it),
		// or its module, package or directory (a top-level definition).
		member := d.Container == t.owner && (d.Parent < 0 || f.defs[d.Parent].container) ||
			d.Parent >= 0 && f.defs[d.Parent].Callable && f.defs[d.Parent].Name == t.owner
		// A Go method sits at the top level but belongs to its type.
		top := (d.Parent < 0 || f.c.is(f.defs[d.Parent].kind, fScope)) && (d.Container == "" || d.Lexical)
		inModule := moduleName(f) == t.owner || pathpkg.Base(pathpkg.Dir(f.rel)) == t.owner
		for _, p := range f.packages {
			inModule = inModule || p == t.owner || lastSegment(p, f.c.spec.Sep) == t.owner
		}
		if !member && !(top && inModule) {
			return false
		}
	}
	if len(t.dirs) > 0 {
		have := append(strings.Split(pathpkg.Dir(f.rel), "/"), moduleName(f))
		for _, p := range f.packages {
			have = append(have, qualSegments(p)...)
		}
		for _, d := range t.dirs {
			if !contains(have, d) {
				return false
			}
		}
	}
	return true
}

// qualSegments splits a qualified name at its separators (. :: # / \).
func qualSegments(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(".:#/\\", r) })
}

// target makes the target of a name and its qualifier (resolveTarget; a
// qualifier's error was reported by checkSymbol).
func (s *session) target(name, qual string) target {
	t, _ := s.resolveTarget(name, qual)
	return t
}

// qualTarget makes the target of a name and its qualifier (qual: Owner,
// module, pkg.Owner, v2.Store), dropping the leading segments when no
// definition in scope has them.
func (s *session) qualTarget(name, qual string) target {
	t := target{name: name}
	segs := qualSegments(qual)
	if len(segs) == 0 {
		return t
	}
	t.owner, t.dirs = segs[len(segs)-1], segs[:len(segs)-1]
	if len(t.dirs) > 0 {
		for _, f := range s.factsWith(s.files, []string{name}) {
			for i := range f.defs {
				if t.matches(f, i) {
					return t
				}
			}
		}
		t.dirs = nil
	}
	return t
}

// moduleName is the name a file's definitions are qualified with: its stem,
// or its directory's name for an index file (index.ts, __init__.py,
// mod.rs).
func moduleName(f *fileFacts) string {
	base := pathpkg.Base(f.rel)
	stem := strings.TrimSuffix(strings.TrimSuffix(base, pathpkg.Ext(base)), ".d")
	if contains(indexStems, stem) {
		return pathpkg.Base(pathpkg.Dir(f.rel))
	}
	return stem
}

// binding is what a name means at one place of a file.
type binding struct {
	defs []defRef // the definitions it names (several: a Go package's files)
	// external: an import the workspace cannot resolve (a package), or a
	// standard type, named typeName when it is a written type (Map).
	external bool
	typeName string
	// lib, for a standard library type, is its table; typeArgs are the
	// type's arguments (Map<K, V>'s K and V), and member the member of it
	// a call names (its return type types the call).
	lib      *libTable
	typeArgs []binding
	// key, for a written map type, is its key type (Go's map[K]V).
	key    *binding
	member string
	// pkg, for an external binding, is the source of the import it comes
	// through (a Go package's path: io for io.Writer).
	pkg string
	// files: a namespace (import * as ns, a Go package, a Python module):
	// the files whose exports it holds.
	files []*fileFacts
	// shape, for a TypeScript object type literal, is where it is
	// written: its fields are typed there.
	shape *objectShape
	// self: the type is a method's written return type this, which is
	// the type of the call's receiver (thisResult).
	self bool
	// targs are the type arguments of the workspace's generic types and
	// functions it is used with (Atom<Vec>, atom<Vec>()): what their type
	// parameters are in the types of its members and results.
	targs []typeFrame
	// static: the binding is a class itself, named as a value (Owner.m()),
	// whose members are its static ones, not its instances'.
	static bool
	// rest, for an object type of an intersection, is its library part,
	// whose members are those the object type does not write
	// (Map<K, V> & { size: number }: get is Map's).
	rest *binding
}

// objectShape locates an object type literal: [start, end) of f.
type objectShape struct {
	f          *fileFacts
	start, end int
}

func (b binding) found() bool { return len(b.defs) > 0 || b.external || len(b.files) > 0 }

// binder follows names through scopes and imports, for one call; files
// reached through imports are read and parsed once, whatever their scope.
type binder struct {
	s     *session
	r     *resolver
	byRel map[string][]*fileFacts        // an import's resolution -> its files' facts
	dirs  map[string]map[string][]defRef // a directory's top-level definitions by name, for package scope
	// imported caches importFiles, by file and import.
	imported map[importKey][]*fileFacts
	// targets caches targetDefs; merged, mergedDefs.
	targets map[string][]defRef
	merged  map[string]map[defRef]bool
	// rootsMemo caches roots.
	rootsMemo map[rootsKey]map[rootKey]bool
	// env are the type arguments in effect while a member's or result's
	// written type is evaluated (inFrames), innermost last.
	env   []typeFrame
	depth int // nesting of typeOf's calls, bounded
	// goSets memoises Go method sets (types_go.go).
	goSets *goSets
}

func (s *session) binder() *binder {
	if s.bind == nil {
		s.bind = &binder{s: s, r: newResolver(s), byRel: map[string][]*fileFacts{}, dirs: map[string]map[string][]defRef{},
			targets: map[string][]defRef{}, merged: map[string]map[defRef]bool{}, imported: map[importKey][]*fileFacts{}, rootsMemo: map[rootsKey]map[rootKey]bool{}}
	}
	return s.bind
}

// factsOf returns the facts of the workspace file or directory rel (a Go
// package's files), parsing what is not parsed yet.
func (b *binder) factsOf(rel string) []*fileFacts {
	if fs, ok := b.byRel[rel]; ok {
		return fs
	}
	var out []*fileFacts
	if fs, err := b.s.list(filepath.Join(b.s.ws.root, filepath.FromSlash(rel))); err == nil {
		var direct []*file
		for _, f := range fs {
			// A directory stands for the files directly in it.
			if f.rel == rel || pathpkg.Dir(f.rel) == rel {
				direct = append(direct, f)
			}
		}
		b.s.ensure(direct)
		out = collectFacts(direct)
	}
	b.byRel[rel] = out
	return out
}

// status is how a site relates to a target.
type status int

const (
	miss     status = iota // it names another definition
	nameOnly               // it may name the target: the name matches, nothing more is known
	resolved               // it names the target
)

func (st status) label() string {
	if st == resolved {
		return Resolved
	}
	return NameOnly
}

// callLabel is the confidence and reason a call site judged st, for why,
// shows: a name-only site whose reason is dispatch is labelled Dispatch,
// with no reason.
func callLabel(st status, why string) (confidence, reason string) {
	if st == nameOnly && why == ReasonDispatch {
		return Dispatch, ""
	}
	return st.label(), why
}

// classify decides whether call k of f calls the target.
func (b *binder) classify(f *fileFacts, k call, t target) status {
	st, _ := b.classifyWhy(f, k, t)
	return st
}

// classifyWhy is classify, saying why a name-only call could not be
// resolved (a Reason* constant).
func (b *binder) classifyWhy(f *fileFacts, k call, t target) (status, string) {
	st, why, _ := b.classifyBound(f, k, t)
	return st, why
}

// classifyBound is classifyWhy, with the definitions the call binds to
// (none when it is not resolved).
func (b *binder) classifyBound(f *fileFacts, k call, t target) (status, string, []defRef) {
	if k.Name == "" || b.typeTarget(t) {
		return miss, "", nil // t2.output() never calls the type output
	}
	bd := b.resolveCall(f, k)
	if k.Member && bd.isAny() {
		return miss, ReasonUntypedValue, nil // x.m() with x: any calls nothing a checker names
	}
	st, why := b.judgeWhy(bd, t)
	st, why = b.pyRejudge(f, k, t, st, why) // Python: Base.m(self) never dispatches; arguments that fit no def
	if st != nameOnly || why != "" {
		return st, why, bd.defs
	}
	if !k.Member {
		if !f.c.spec.ImplicitSelf && b.memberTarget(t) {
			return miss, "", nil // len(x) never calls a method named len
		}
		return st, ReasonUnboundName, bd.defs
	}
	if len(bd.defs) == 0 && len(bd.files) == 0 && !f.c.spec.ImplicitSelf && b.valueReceiver(f, k) && b.functionTarget(t) {
		return miss, "", nil // a method of a value is never a module's function
	}
	return st, ReasonUntypedReceiver, bd.defs
}

// valueReceiver reports whether call k's receiver is a value (this, a
// variable, a parameter, a field, a call's result), not possibly a
// namespace, a package or a class.
func (b *binder) valueReceiver(f *fileFacts, k call) bool {
	if k.RecvBase != "" && f.c.spec.jsFamily() {
		if base := b.lookup(f, k.RecvBase, k.Start, 0); len(base.files) > 0 || base.external {
			return false // TypeScript's ns.x.f(): x may be a namespace too
		}
	}
	if !k.RecvPlain {
		return true
	}
	if contains(f.c.spec.SelfNames, k.Recv) {
		return true
	}
	bd := b.lookup(f, k.Recv, k.Start, 0)
	if len(bd.files) > 0 || bd.external {
		return false
	}
	if len(bd.defs) == 0 {
		_, declared := b.declAt(f, k.Recv, k.Start)
		return declared
	}
	for _, dr := range bd.defs {
		if d := dr.f.defs[dr.i]; d.container || d.Callable || objectLiteral(dr) {
			return false
		}
	}
	return true
}

// objectMember finds member name of the object literal the one variable
// bd names holds, when the literal is made of names alone (const z = {
// ..._schemas, ..._checks, iso: _iso, email }): the last entry giving
// name, a spread namespace's export or a key's value. ok is false when
// the literal is anything else or no entry gives name.
func (b *binder) objectMember(bd binding, name string) (binding, bool) {
	if len(bd.defs) != 1 || b.depth > maxTypeDepth {
		return binding{}, false
	}
	dr := bd.defs[0]
	d := dr.f.defs[dr.i]
	if d.Callable || d.container || !objectLiteral(dr) {
		return binding{}, false
	}
	text, at := declValue(dr)
	entries := strings.Split(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(text), "{"), "}"), ",")
	b.depth++
	defer func() { b.depth-- }()
	for i := len(entries) - 1; i >= 0; i-- {
		e := strings.TrimSpace(entries[i])
		key, value, pair := strings.Cut(e, ":")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case e == "":
		case strings.HasPrefix(e, "..."):
			ns := b.lookup(dr.f, strings.TrimPrefix(e, "..."), at, 0)
			if !isIdent(strings.TrimPrefix(e, "...")) || len(ns.files) == 0 {
				return binding{}, false // a spread of a value: its members are unknown
			}
			if m := b.member(ns, name); m.found() {
				return m, true
			}
		case pair && isIdent(key) && isIdent(value):
			if key == name {
				return b.lookup(dr.f, value, at, 0), true
			}
		case !pair && isIdent(e):
			if e == name {
				return b.lookup(dr.f, e, at, 0), true
			}
		default:
			return binding{}, false // a literal of other entries
		}
	}
	return binding{}, false
}

// objectLiteral reports whether variable dr holds an object literal, whose
// members may be a module's functions (const z = { ...schemas, iso }).
func objectLiteral(dr defRef) bool {
	text, _ := declValue(dr)
	return strings.HasPrefix(text, "{")
}

// declValue returns the source of the initial value variable dr is
// declared with, and where it starts; "" when none is kept.
func declValue(dr defRef) (string, int) {
	d := dr.f.defs[dr.i]
	for _, t := range dr.f.typed {
		if t.Name == d.Name && t.Start == d.Start && !t.Return && t.ValStart >= 0 && t.ValEnd <= len(dr.f.src) {
			return string(dr.f.src[t.ValStart:t.ValEnd]), t.ValStart
		}
	}
	return "", -1
}

// functionTarget reports whether every definition a target asks about is
// a function of a module or block scope, not a member.
func (b *binder) functionTarget(t target) bool {
	ds := b.targetDefs(t)
	for _, dr := range ds {
		if d := dr.f.defs[dr.i]; !d.Lexical || d.Label != lFunction {
			return false
		}
	}
	return len(ds) > 0
}

// typeTarget reports whether every definition a target asks about is a
// type no call reaches: a TypeScript interface or type alias, not a class.
// (Go's HandlerFunc(f) converts to a defined type: a reference.)
func (b *binder) typeTarget(t target) bool {
	ds := b.targetDefs(t)
	for _, dr := range ds {
		if l := dr.f.defs[dr.i].Label; l != lInterface && l != lType || !dr.f.c.spec.jsFamily() {
			return false
		}
	}
	return len(ds) > 0
}

// memberTarget reports whether every definition a target asks about is a
// member (a method), which a call without a receiver never reaches where
// the language has no implicit this.
func (b *binder) memberTarget(t target) bool {
	ds := b.targetDefs(t)
	for _, dr := range ds {
		if d := dr.f.defs[dr.i]; d.Lexical || !d.Callable {
			return false
		}
	}
	return len(ds) > 0
}

// resolveCall finds what call k of f calls: a name in scope or imported
// (or, with implicit this, a member of the enclosing class), a member of
// this/self's class, of an imported namespace or package, of a class named
// as the receiver, of the written or instantiated type of the receiver
// (s.get() with s: Store or s = new Store()), of a field's type
// (this.store.get(), h.store.get()), of an instantiation (new
// Store().get()) or of a call's written return type (open().get()). A call
// on any other receiver is not resolved.
func (b *binder) resolveCall(f *fileFacts, k call) binding {
	switch {
	case k.Name == "":
	case !k.Member:
		if f.c.spec.ImplicitSelf {
			if bd := b.selfMember(f, k.Caller, k.Name); len(bd.defs) > 0 {
				return bd
			}
		}
		bd := b.lookup(f, k.Name, k.Start, 0)
		if !bd.found() && contains(f.c.spec.Builtins, k.Name) {
			if _, declared := b.declAt(f, k.Name, k.Start); !declared {
				return binding{external: true, typeName: k.Name}
			}
		}
		if !bd.found() {
			return b.localValue(f, k.Name, k.Start)
		}
		return bd
	case k.RecvPlain && k.Recv == "super" && f.c.spec.Library != nil:
		return b.superMember(f, k.Start, k.Name)
	case k.RecvPlain && contains(f.c.spec.SelfNames, k.Recv):
		if t, ok := b.declAt(f, k.Recv, k.Start); ok {
			return b.member(b.declType(f, t, k.Start), k.Name) // function f(this: Foo)
		}
		if b.thisUntyped(f, k.Start) {
			return binding{external: true, typeName: tstype.Anonymous}
		}
		bd := b.selfMember(f, k.Caller, k.Name)
		if !bd.found() && pyNominal(f) {
			// self._create_connection = socket.create_connection: a field
			// holding a library's function.
			if fn := b.fieldType(f, k.Caller, k.Name, k.Start); fn.external && fn.member != "" && fn.lib == nil {
				return fn
			}
		}
		return bd
	case k.RecvPlain:
		if ty, _ := b.narrowed(f, k.Recv, k.Start); ty.found() {
			return b.member(ty, k.Name)
		}
		bd := b.lookup(f, k.Recv, k.Start, 0)
		if len(bd.files) > 0 || bd.external || b.isTypeBinding(bd) {
			bd.static = b.isTypeBinding(bd)
			return b.member(bd, k.Name)
		}
		if m, ok := b.objectMember(bd, k.Name); ok {
			return m // const z = { ..._schemas, iso: _iso }; z.string()
		}
		ty := b.nameValue(f, k.Recv, k.Start, bd)
		if k.RecvElem && len(f.c.spec.Element) > 0 {
			ty = b.elements(ty) // xs[i].m() with xs of a defined type list []*T
		}
		return b.member(ty, k.Name)
	case k.RecvSelf:
		if _, typed := b.declAt(f, "this", k.Start); !typed && b.thisUntyped(f, k.Start) {
			return binding{external: true, typeName: tstype.Anonymous}
		}
		return b.member(b.fieldType(f, k.Caller, k.Recv, k.Start), k.Name)
	case k.RecvNew != "":
		return b.member(b.instance(f, k.RecvNew, k.Start), k.Name)
	case k.RecvLit != "":
		return b.member(b.evalType(f, parseTyx(k.RecvLit), k.Start, 0), k.Name)
	case k.RecvCall > 0:
		if inner, ok := recvCall(f, k); ok {
			if !inner.Member && inner.Name == "super" && f.c.spec.Library != nil {
				return b.superMember(f, k.Start, k.Name) // Python's super().m()
			}
			return b.member(b.callResult(f, inner), k.Name)
		}
	case k.RecvChainEnd > 0:
		if b.depth > maxTypeDepth {
			return binding{}
		}
		b.depth++
		defer func() { b.depth-- }()
		return b.member(b.valueType(f, k.RecvChainStart, k.RecvChainEnd), k.Name)
	case len(k.RecvAlts) > 0 && b.depth <= maxTypeDepth:
		b.depth++
		defer func() { b.depth-- }()
		var alts []binding
		for _, a := range k.RecvAlts {
			alts = append(alts, b.valueType(f, a[0], a[1]))
		}
		return b.member(eitherOf(alts), k.Name)
	case k.RecvBase != "":
		base := b.lookup(f, k.RecvBase, k.Start, 0)
		if base.isAny() {
			return anyType // pkg.a.m() of a package that is not installed
		}
		if mod, ok := b.pyDottedModule(f, k, base); ok {
			return b.member(mod, k.Name) // import pkg.mod; pkg.mod.f()
		}
		if len(base.files) > 0 {
			inner := b.member(base, k.Recv)
			if len(inner.files) > 0 {
				return b.member(inner, k.Name) // z.coerce.date(): a namespace's namespace
			}
			if pyNominal(f) && b.isTypeBinding(inner) {
				inner.static = true
				return b.member(inner, k.Name) // message.Message.attach(self, m): that class's method
			}
		}
		if inner, ok := b.objectMember(base, k.Recv); ok && len(inner.files) > 0 {
			return b.member(inner, k.Name) // z.iso.datetime() with const z = { iso: _iso }
		}
		if lib := f.c.spec.Library; f.c.spec.Lang == "python" && base.external && len(base.defs) == 0 && lib != nil &&
			lib().types[k.Recv] != nil {
			// socketserver.TCPServer.server_bind(self): a standard library
			// class's member, named through its module.
			return b.member(binding{external: true, typeName: k.Recv, lib: lib()}, k.Name)
		}
		if k.Recv == "prototype" && b.isTypeBinding(base) && f.c.spec.jsFamily() {
			return b.member(b.types(base), k.Name) // Owner.prototype.m.call(x)
		}
		if b.isTypeBinding(base) && f.c.spec.jsFamily() {
			// Owner.connected.add(this): the static field's type.
			base.static = true
			return b.member(b.fieldOf(base, k.Recv), k.Name)
		}
		if len(base.files) > 0 || b.isTypeBinding(base) {
			return binding{} // pkg.Var.m() or Owner.field.m(): not followed
		}
		if pyNominal(f) && base.external && len(base.defs) == 0 {
			return b.member(b.fieldOf(base, k.Recv), k.Name) // sys.stderr.write(): a module's outside the workspace
		}
		return b.member(b.fieldOf(b.nameValue(f, k.RecvBase, k.Start, base), k.Recv), k.Name) // Object.prototype.toString
	}
	return binding{}
}

// isTypeBinding reports whether bd names types (a static call
// Owner.name()).
func (b *binder) isTypeBinding(bd binding) bool {
	for _, dr := range bd.defs {
		if isType(dr.f.defs[dr.i]) {
			return true
		}
	}
	return false
}

// typeOf finds the type of the variable or parameter name at pos of f,
// from what is written: a declared type (x: Foo, Foo x, x *Foo), else the
// class its definition instantiates (x = new Foo(), x = Foo()). bd is
// what the name binds to.
func (b *binder) typeOf(f *fileFacts, name string, pos int, bd binding) binding {
	ty, narrows := b.narrowed(f, name, pos)
	if ty.found() {
		return ty
	}
	if t, ok := b.declAt(f, name, pos); ok {
		if rt, ok := b.pyReaching(f, t, pos); ok && !narrows {
			return rt // a Python name assigned more than once
		}
		ty := b.declType(f, t, pos)
		if !ty.isAny() || !narrows && !pyReassigned(f, t, pos) && !pyNarrowedNear(f, name, pos) {
			return ty
		}
		if jt, ok := b.pyJoined(f, name, pos); ok && !narrows && !pyReassigned(f, t, pos) {
			return jt // Python's C | Unknown after isinstance branches meet
		}
		// any, narrowed by a test whose type cannot be told; or a Python
		// name assigned elsewhere too (pyright types it by all of them).
		return binding{}
	}
	for _, dr := range bd.defs {
		if d := dr.f.defs[dr.i]; !d.Callable && !d.container {
			if b.depth > maxTypeDepth {
				return binding{}
			}
			// A variable of this file or imported from another.
			b.depth++
			ty := b.defType(dr)
			b.depth--
			return ty
		}
	}
	return binding{}
}

// spreadsAtTop reports whether object literal v spreads another value
// among its own properties ({ ...other, a }), not in a value nested in it
// (a rest parameter (...args) => 1, an inner literal's spread). Strings,
// template literals and comments are skipped.
func spreadsAtTop(v []byte) bool {
	spread := false
	scanDepth(v, func(i, depth int) bool {
		spread = depth == 1 && v[i] == '.' && i+2 < len(v) && v[i+1] == '.' && v[i+2] == '.'
		return !spread
	})
	return spread
}

// scanDepth calls visit with each byte of TypeScript source src outside
// strings, template literals and comments, and the depth of brackets
// ((, [, {) around it once the byte is read; it stops when visit returns
// false.
func scanDepth(src []byte, visit func(i, depth int) bool) {
	scanBrackets(src, skipLiteral, visit)
}

// scanBrackets is scanDepth for the literals skip finds: skip reports,
// at src[i], whether a literal starts there and the index of its last
// byte (len(src) or more for one left open).
func scanBrackets(src []byte, skip func(src []byte, i int) (int, bool), visit func(i, depth int) bool) {
	depth := 0
	for i := 0; i < len(src); i++ {
		if j, ok := skip(src, i); ok {
			i = j
			continue
		}
		switch src[i] {
		case '{', '(', '[':
			depth++
		case '}', ')', ']':
			depth--
		}
		if !visit(i, depth) {
			return
		}
	}
}

// parenthesizedChain types a TypeScript value written (v).a.b: v's type,
// either side's when v is x ?? y or x || y, then field by field; ok is
// false for any other value.
func (b *binder) parenthesizedChain(f *fileFacts, start, end int) (binding, bool) {
	src := f.src[start:end]
	if !f.c.spec.jsFamily() || len(src) == 0 || src[0] != '(' {
		return binding{}, false
	}
	closing, op := -1, -1
	scanDepth(src, func(i, depth int) bool {
		switch c := src[i]; {
		case depth == 0:
			closing = i
			return false
		case (c == '?' || c == '|') && depth == 1 && op < 0 && i+1 < len(src) && src[i+1] == c:
			op = i
		}
		return true
	})
	chain := ""
	if closing > 0 {
		chain = fieldChain("_" + string(src[closing+1:]))
	}
	if chain == "" || chain == "_" {
		return binding{}, false
	}
	b.depth++
	defer func() { b.depth-- }()
	side := func(from, to int) binding { // its range without the spaces around it
		from, to = trimSpace(f.src, from, to)
		return b.valueType(f, from, to)
	}
	var ty binding
	if op > 0 {
		ty = eitherOf([]binding{side(start+1, start+op), side(start+op+2, start+closing)})
	} else {
		ty = side(start+1, start+closing)
	}
	for _, field := range strings.Split(chain, ".")[1:] {
		ty = b.fieldOf(ty, field)
	}
	return ty, true
}

// valueType finds the type of the value between start and end from its
// outermost call: a class instantiated, or a function or method whose
// return type is written; a value that is another name (x := y) or a
// field of one (x := y.f) has that name's or field's type.
func (b *binder) valueType(f *fileFacts, start, end int) binding {
	return b.valueTypeAt(f, start, end, 0)
}

// valueTypeAt is valueType for result index of the value's call (1 for
// err in x, err := f()); a value other than a call has one result.
func (b *binder) valueTypeAt(f *fileFacts, start, end, index int) binding {
	if v := f.src[start:end]; f.c.spec.jsFamily() && len(v) > 0 && (v[0] == '{' || v[0] == '[') {
		// An object literal (its properties are typed where it is
		// written) or an array, not the type of a call it holds.
		if v[0] == '{' && !spreadsAtTop(v) {
			return binding{external: true, typeName: tstype.Anonymous, shape: &objectShape{f, start, end}}
		}
		if lib := f.c.spec.Library; v[0] == '[' && lib != nil {
			return binding{external: true, typeName: "Array", lib: lib()} // elements not told
		}
		return binding{} // { ...other }: members of a value not told
	}
	if f.c.spec.jsFamily() && isFunctionLiteral(f.src[start:end]) {
		return binding{} // a function, not the type of a call in its body
	}
	if v := f.src[start:end]; f.c.spec.jsFamily() && index == 0 && bytes.HasPrefix(v, []byte("await")) &&
		len(v) > len("await") && isSpace(v[len("await")]) && b.depth <= maxTypeDepth {
		// await p: what the promise gives (a value that is no promise is
		// itself).
		inner := start + len("await")
		for inner < end && isSpace(f.src[inner]) {
			inner++
		}
		b.depth++
		defer func() { b.depth-- }()
		return awaited(b.valueTypeAt(f, inner, end, 0))
	}
	if v := string(f.src[start:end]); b.depth <= maxTypeDepth && index == 0 {
		if ty, ok := b.assertedType(f, v, start); ok {
			return ty
		}
		if ty, ok := b.parenthesizedChain(f, start, end); ok {
			return ty
		}
		if len(f.c.spec.Element) > 0 {
			// xs[i], r.xs[i].f: Go reads a written []T as T; &x, *x
			// and (*x).f are typed as x and x.f (a pointer's methods
			// are its type's).
			v = strings.TrimLeft(v, "&*")
			if strings.HasPrefix(v, "(") {
				if j := strings.IndexByte(v, ')'); j > 0 {
					v = strings.TrimLeft(v[1:j], "*") + v[j+1:]
				}
			}
			v = withoutIndexes(v)
		}
		if f.c.spec.jsFamily() {
			if chain := fieldChain(v); chain != "" {
				v = chain // this.diff?.removed, a!.b
			}
		}
		if ty, ok := b.pyValueAt(f, start, end, v); ok {
			return ty // (fmt % args), [e for x in xs], type(self)(), a if c else b, self[0].value
		}
		if (f.c.spec.jsFamily() || f.c.spec.Lang == "python") && strings.HasSuffix(v, "]") {
			b.depth++
			defer func() { b.depth-- }()
			return b.indexed(f, v, start)
		}
		if chain := strings.Split(v, "."); !slices.ContainsFunc(chain, func(s string) bool { return !isField(s) }) {
			b.depth++
			defer func() { b.depth-- }()
			ty := b.chainBase(f, chain[0], start)
			rest := chain[1:]
			if len(chain) > 1 {
				if mod, ok := b.pyDottedModule(f, call{RecvBase: chain[0], Recv: chain[1], Start: start}, ty); ok {
					ty, rest = mod, chain[2:] // import email.base64mime; email.base64mime
				}
			}
			for _, field := range rest {
				if pyNominal(f) && pyLibModule(ty) {
					ty = b.member(ty, field) // socket.create_connection: the library's function, by name
					continue
				}
				ty = b.fieldOf(ty, field)
			}
			return ty
		}
	}
	for _, k := range f.calls {
		if k.Read || k.Start < start || k.End > end || k.Literal && !k.New || index > 0 && (k.Start != start || k.End != end) {
			continue // v, ok := m[f(x)]: ok is not f's second result
		}
		if f.c.spec.jsFamily() && strings.Contains(string(f.src[start:k.Start]), "=>") {
			return binding{} // a function literal returning the call is a function
		}
		if (f.c.spec.jsFamily() || pyNominal(f)) && index == 0 && k.End < end && b.depth <= maxTypeDepth {
			if chain := fieldChain("_" + string(f.src[k.End:end])); chain != "" {
				// open().store.cache: the call's result, field by field.
				b.depth++
				defer func() { b.depth-- }()
				ty := b.valueTypeAt(f, k.Start, k.End, 0)
				for _, field := range strings.Split(chain, ".")[1:] {
					ty = b.fieldOf(ty, field)
				}
				return ty
			}
		}
		if b.depth > maxTypeDepth || index > 0 && k.New {
			return binding{}
		}
		if k.NewOf != "" {
			return b.types(b.lookup(f, k.NewOf, k.Start, 0))
		}
		if k.New && !k.Member && k.Name != "" {
			return b.newArgs(f, k, b.instance(f, k.Name, k.Start))
		}
		if ns, ok := b.dynamicImport(f, k); ok {
			return ns // await import('./index.js'): the module's namespace
		}
		b.depth++
		called := b.callArgs(f, k, b.resolveCall(f, k))
		b.depth--
		if called.isAny() {
			return anyType // _, cs = ew.split('?') with ew untyped: each part is any
		}
		if index > 0 {
			return b.returnsAt(called, index)
		}
		if called.external && !k.Member && contains(f.c.spec.TypeArgs, k.Name) {
			return b.typeArg(f, k)
		}
		if ty := b.types(called); len(ty.defs) > 0 {
			return ty
		}
		if pyNominal(f) && !k.Member && !called.external && !slices.ContainsFunc(called.defs, func(dr defRef) bool {
			return dr.f.defs[dr.i].Callable || isType(dr.f.defs[dr.i])
		}) {
			// A local, or a variable: what its assignments hold.
			if v := b.typeOf(f, k.Name, k.Start, binding{}); v.static && len(v.defs) > 0 {
				return b.types(v) // cls = PBXNativeTarget if native else PBXAggregateTarget; cls()
			}
		}
		if ty := b.pyLibClass(f, k, called); ty.found() {
			return ty // Python: io.BytesIO()
		}
		if ty := b.pyCollectionOf(f, k, called); ty.found() {
			return ty // Python: list(xs), frozenset(xs)
		}
		if lib := f.c.spec.Library; lib != nil && !k.Member && !called.found() {
			if typ, ok := lib().funcs[k.Name]; ok {
				return libEval(lib(), parseTyx(typ), nil, binding{}, 0) // open() gives a TextIOWrapper
			}
		}
		b.depth++
		defer func() { b.depth-- }()
		ty := b.thisResult(f, k, b.returns(called))
		if !ty.found() {
			ty = b.pyUnknownArgsReturn(f, k, called) // self._fold(name, value) with both Unknown
		}
		return ty
	}
	return binding{}
}

// thisResult is what call k of f returns when its written return type is
// this (ty.self): the type of k's receiver (a TestEditor's
// setCurrentTool() returns a TestEditor, not the Editor declaring it),
// when that is a subtype of it; else ty.
func (b *binder) thisResult(f *fileFacts, k call, ty binding) binding {
	if !ty.self || !k.Member || b.depth > maxTypeDepth {
		return ty
	}
	var recv binding
	switch {
	case k.RecvPlain && contains(f.c.spec.SelfNames, k.Recv):
		recv = b.chainBase(f, k.Recv, k.Start)
	case k.RecvPlain:
		if bd := b.lookup(f, k.Recv, k.Start, 0); len(bd.files) == 0 && !bd.external && !b.isTypeBinding(bd) {
			recv = b.typeOf(f, k.Recv, k.Start, bd)
		}
	case k.RecvSelf:
		recv = b.fieldType(f, k.Caller, k.Recv, k.Start)
	case k.RecvNew != "":
		recv = b.instance(f, k.RecvNew, k.Start)
	case k.RecvChainEnd > 0:
		recv = b.valueType(f, k.RecvChainStart, k.RecvChainEnd)
	case k.RecvCall > 0:
		if inner, ok := recvCall(f, k); ok {
			recv = b.callResult(f, inner)
		}
	}
	recv.self = false
	if len(recv.defs) == 0 {
		return ty
	}
	for _, sub := range recv.defs {
		for _, sup := range ty.defs {
			if sub != sup && !b.inherits(sub, sup, 0) {
				return ty
			}
		}
	}
	return recv
}

// dynamicImport finds the module a TypeScript or JavaScript import() call
// k of f loads, as a namespace; ok is false for any other call or a module
// outside the workspace.
func (b *binder) dynamicImport(f *fileFacts, k call) (binding, bool) {
	if k.Member || k.Name != "import" || !f.c.spec.jsFamily() {
		return binding{}, false
	}
	for _, imp := range f.imports {
		if imp.Call && imp.Form == "dynamic" && imp.Start == k.Start {
			if files := b.importFiles(f, imp); len(files) > 0 {
				return binding{files: files}, true
			}
		}
	}
	return binding{}, false
}

// recvCall finds the call whose result is call k's receiver (open() in
// open().get()).
func recvCall(f *fileFacts, k call) (call, bool) {
	for _, inner := range f.calls {
		if inner.Start == k.RecvCall && inner.End < k.End && !inner.Literal && !inner.Read {
			return inner, true
		}
	}
	return call{}, false
}

// callResult finds what call k of f gives: the type it names (a class
// called as Foo()), else what it returns, this-typed by its receiver
// (thisResult); a Python call as the value of an assignment is typed.
func (b *binder) callResult(f *fileFacts, k call) binding {
	if b.depth > maxTypeDepth {
		return binding{}
	}
	b.depth++
	defer func() { b.depth-- }()
	if pyNominal(f) {
		return b.valueTypeAt(f, k.Start, k.End, 0) // as the value of an assignment is typed
	}
	called := b.callArgs(f, k, b.resolveCall(f, k))
	if ty := b.types(called); len(ty.defs) > 0 {
		return ty
	}
	return b.thisResult(f, k, b.returns(called))
}

// chainBase types the first name of a chain of fields (x in x.a.b) at
// pos of f: this or self is the enclosing class (or what a this:
// parameter writes), another name its type.
func (b *binder) chainBase(f *fileFacts, name string, pos int) binding {
	if contains(f.c.spec.SelfNames, name) {
		if t, ok := b.declAt(f, name, pos); ok {
			return b.declType(f, t, pos)
		}
		return b.enclosingClass(f, pos)
	}
	bd := b.lookup(f, name, pos, 0)
	if len(bd.files) > 0 && f.c.spec.jsFamily() {
		return bd // a namespace: z in z.core.regexes
	}
	if pyNominal(f) && bd.external && len(bd.defs) == 0 {
		return bd // a module outside the workspace: sys in sys.stderr
	}
	return b.nameValue(f, name, pos, bd)
}

// nameValue types the value name holds at pos of f, bd being what the
// name binds to: a library global when nothing binds or declares it
// (Object, JSON, document), else its declared or inferred type.
func (b *binder) nameValue(f *fileFacts, name string, pos int, bd binding) binding {
	if !bd.found() {
		if _, declared := b.declAt(f, name, pos); !declared {
			if g := b.global(f, name); g.found() {
				return g
			}
		}
	}
	return b.typeOf(f, name, pos, bd)
}

// indexed types an element v of a TypeScript or Python value (xs[i],
// this.m[k], self.d["k"], a[i][j]) at pos of f: an Array<T>'s,
// ReadonlyArray<T>'s or list[T]'s element is T, a Record<K, V>'s or
// dict[K, V]'s is V, and anything of any is any; else unknown.
func (b *binder) indexed(f *fileFacts, v string, pos int) binding {
	i := strings.IndexByte(v, '[')
	if i <= 0 {
		return binding{}
	}
	var ty binding
	if asType, ok := asserted(v[:i]); ok && f.c.spec.jsFamily() {
		ty = b.evalType(f, parseTyx(asType), pos, 0) // (x as any as Store)[k]
	} else {
		base := strings.TrimSuffix(v[:i], "?.")
		if c := fieldChain(base); c != "" && f.c.spec.jsFamily() {
			base = c // m![k], this.a!.b?.[k]
		}
		chain := strings.Split(base, ".")
		if slices.ContainsFunc(chain, func(s string) bool { return !isField(s) }) {
			return binding{}
		}
		ty = b.chainBase(f, chain[0], pos)
		for _, field := range chain[1:] {
			ty = b.fieldOf(ty, field)
		}
	}
	key := strings.TrimSuffix(v[i+1:], "]")
	if (len(ty.defs) > 0 || ty.shape != nil) && strings.Count(v, "[") == 1 && f.c.spec.jsFamily() {
		if isIdent(key) {
			if ft := b.fieldOf(ty, "["+key+"]"); ft.found() {
				return ft // x[$mobx] with [$mobx]: T declared
			}
		}
		if ft := b.fieldOf(ty, "[]"); ft.found() {
			return ft // byPage[id] with { [id: string]: TLShape[] }
		}
	}
	if len(ty.defs) > 0 && strings.Count(v, "[") == 1 && b.pyUnknownElements(ty) {
		return anyType // self[0] in a class TokenList(list)
	}
	switch {
	case ty.isAny():
		return anyType
	case strings.Count(v, "[") > 1 || !ty.external || ty.member != "":
		return binding{}
	case len(ty.typeArgs) == 1 && (ty.typeName == "Array" || ty.typeName == "ReadonlyArray" || ty.typeName == "list" ||
		ty.typeName == "tuple" && ty.typeArgs[0].isAny()):
		return ty.typeArgs[0]
	case (ty.typeName == "Record" || ty.typeName == "dict") && len(ty.typeArgs) == 2:
		return ty.typeArgs[1]
	}
	return binding{}
}

// asserted reads a parenthesized TypeScript assertion (x as Store), or
// a chain of them (x as any as Store), as the name of the type it asserts;
// ok is false for any other text.
func asserted(v string) (string, bool) {
	if !strings.HasPrefix(v, "(") || !strings.HasSuffix(v, ")") {
		return "", false
	}
	i := strings.LastIndex(v, " as ")
	if i < 0 {
		return "", false
	}
	name := strings.TrimSpace(v[i+len(" as ") : len(v)-1])
	return name, isIdent(name)
}

// typeArg types call k by the type its first argument writes:
// make([]*ast.Ident, n) and new(T) give T, as Go reads a written []T.
func (b *binder) typeArg(f *fileFacts, k call) binding {
	v := string(f.src[k.Start:k.End])
	open := strings.IndexByte(v, '(')
	if open < 0 {
		return binding{}
	}
	arg, _, _ := strings.Cut(v[open+1:], ",")
	arg = strings.TrimSuffix(strings.TrimSpace(arg), ")")
	for {
		switch {
		case strings.HasPrefix(arg, "*"):
			arg = arg[1:]
		case strings.HasPrefix(arg, "[]"):
			arg = arg[2:]
		case strings.HasPrefix(arg, "map["):
			_, arg, _ = strings.Cut(arg, "]")
		case strings.HasPrefix(arg, "chan "):
			arg = strings.TrimSpace(arg[len("chan "):])
		default:
			ty, _ := b.writtenName(f, arg, k.Start)
			return ty
		}
	}
}

// withoutIndexes removes the index expressions of a chain of fields and
// elements (a.b[i].c[k] gives a.b.c); v as it is when its brackets do not
// balance or an index holds a bracket.
func withoutIndexes(v string) string {
	orig := v
	var out strings.Builder
	for {
		i := strings.IndexByte(v, '[')
		if i < 0 {
			out.WriteString(v)
			return out.String()
		}
		j := strings.IndexByte(v[i:], ']')
		if i == 0 && out.Len() == 0 || j < 0 || strings.ContainsAny(v[i+1:i+j], "[]") {
			return orig
		}
		out.WriteString(v[:i])
		v = v[i+j+1:]
	}
}

// assertedType types a type assertion v (Go's x.(*T), x.(pkg.T)) by its
// written type; ok is false when v is no assertion.
func (b *binder) assertedType(f *fileFacts, v string, pos int) (binding, bool) {
	if f.c.spec.Assertion == "" || !strings.HasSuffix(v, ")") {
		return binding{}, false
	}
	i := strings.LastIndex(v, ".(")
	if i <= 0 {
		return binding{}, false
	}
	return b.writtenName(f, strings.TrimPrefix(v[i+2:len(v)-1], "*"), pos)
}

// writtenName finds the type a written name T or pkg.T names; ok is false
// when typ is neither.
func (b *binder) writtenName(f *fileFacts, typ string, pos int) (ty binding, ok bool) {
	recv, name, qualified := strings.Cut(typ, ".")
	if !qualified {
		recv, name = "", typ
	}
	if !isIdent(name) || qualified && !isIdent(recv) {
		return binding{}, false
	}
	return b.written(f, typedName{Type: name, TypeRecv: recv}, pos), true
}

// returns finds the written return type of the functions bd names, or
// of the standard library method it names.
func (b *binder) returns(bd binding) binding {
	if bd.isAny() {
		return anyType
	}
	if bd.external && bd.member != "" {
		ty, _ := libMember(bd, bd.member)
		return ty
	}
	return b.returnsAt(bd, 0)
}

// returnsAt finds the written type of result index of the functions bd
// names.
func (b *binder) returnsAt(bd binding, index int) binding {
	for _, dr := range bd.defs {
		d := dr.f.defs[dr.i]
		if !d.Callable && d.Label != lSignature {
			if ty, ok := b.writtenReturn(bd, dr, index); ok {
				return ty // a variable of a written function type
			}
			fn := b.calledValue(dr)
			if fn.external && fn.member != "" && index == 0 {
				return pyLibFunc(fn, fn.member) // Python: _create_connection = socket.create_connection
			}
			if len(fn.defs) > 0 && b.depth <= maxTypeDepth {
				if ty := b.types(fn); len(ty.defs) > 0 && index == 0 {
					return ty // a Python class: calling it makes one
				}
				b.depth++
				ty := b.returnsAt(fn, index)
				b.depth--
				if ty.found() {
					return ty
				}
			}
			continue
		}
		if ty := b.pyInferredReturn(dr); index == 0 && ty.found() {
			return ty // Python, no annotation: what its returns give
		}
		if ty, ok := b.writtenReturn(bd, dr, index); ok {
			return ty
		}
		if ty := b.inFrames(b.framesFor(bd.targs, dr), func() binding { return b.tsInferredReturn(dr) }); index == 0 && ty.found() {
			return ty // TypeScript, no return type: what its returns give
		}
	}
	return binding{}
}

// writtenReturn finds the written type of result index of definition dr
// of bd, in the type arguments bd is used with; ok is false when none is
// written.
func (b *binder) writtenReturn(bd binding, dr defRef, index int) (binding, bool) {
	d := dr.f.defs[dr.i]
	for _, t := range dr.f.typed {
		if t.Name == d.Name && t.Start == d.Start && t.Return && t.Index == index {
			ty := b.inFrames(b.framesFor(bd.targs, dr), func() binding { return b.declType(dr.f, t, d.Start) })
			ty.self = t.Expr == "this" && len(ty.defs) > 0
			return ty, true
		}
	}
	return binding{}, false
}

// calledValue finds the function a variable names by its value (const
// stringType = ZodString.create, const f = g): calling the variable calls
// it, and returns what it returns. Empty when the value is no such name.
func (b *binder) calledValue(dr defRef) binding {
	d := dr.f.defs[dr.i]
	if d.container || b.depth > maxTypeDepth {
		return binding{}
	}
	for _, t := range dr.f.typed {
		if t.Name != d.Name || t.Return || t.ValStart < d.Start || t.ValEnd > d.End || t.ValStart >= t.ValEnd {
			continue
		}
		chain := strings.Split(string(dr.f.src[t.ValStart:t.ValEnd]), ".")
		if slices.ContainsFunc(chain, func(s string) bool { return !isIdent(s) }) || chain[0] == d.Name {
			return binding{}
		}
		b.depth++
		defer func() { b.depth-- }()
		var fn binding
		if contains(dr.f.c.spec.SelfNames, chain[0]) {
			fn = b.enclosingClass(dr.f, d.Start) // min = this.gte
		} else {
			fn = b.lookup(dr.f, chain[0], t.ValStart, 0)
		}
		for _, m := range chain[1:] {
			fn = b.member(fn, m)
		}
		if pyNominal(dr.f) && fn.external && fn.member != "" && len(fn.defs) == 0 {
			return fn // a library's function (socket.create_connection)
		}
		var out []defRef
		for _, c := range fn.defs {
			if cd := c.f.defs[c.i]; cd.Callable || cd.Label == lSignature || pyNominal(c.f) && isType(cd) {
				out = append(out, c) // Python: response_class = HTTPResponse constructs one
			} else {
				out = append(out, b.calledValue(c).defs...) // const make2 = make
			}
		}
		return binding{defs: out}
	}
	return binding{}
}

// written finds the type definition a written type names. A written type
// the workspace does not define (Map, string, a package's class) is
// external: its members are not the workspace's.
func (b *binder) written(f *fileFacts, t typedName, pos int) binding {
	var bd binding
	if t.TypeRecv != "" {
		bd = b.member(b.lookup(f, t.TypeRecv, pos, 0), t.Type)
	} else {
		bd = b.lookup(f, t.Type, pos, 0)
	}
	var out binding
	switch ty := b.types(bd); {
	case len(ty.defs) > 0:
		out = ty
	case bd.external || len(bd.defs) == 0 && len(bd.files) == 0 && contains(builtinTypes, t.Type):
		out = binding{external: true, typeName: t.Type, pkg: bd.pkg}
	}
	if t.KeyType != "" {
		key := b.written(f, typedName{Type: t.KeyType, TypeRecv: t.KeyRecv}, pos)
		out.key = &key
	}
	return out
}

// builtinTypes are the standard types whose members are never the
// workspace's (a written any, an unknown name or a type parameter may
// stand for anything, so calls on them stay name-only).
var builtinTypes = []string{"string", "number", "boolean", "bigint", "symbol", "void", "never", "undefined", "null",
	"String", "Number", "Boolean", "Symbol", "BigInt", "Array", "ReadonlyArray", "Map", "ReadonlyMap", "Set",
	"ReadonlySet", "WeakMap", "WeakSet", "WeakRef", "Promise", "Date", "RegExp", "Error", "Function", "Record",
	"Iterator", "Iterable", "IterableIterator", "AsyncIterable", "str", "int", "float", "bool", "bytes", "dict",
	"list", "tuple", "set", "frozenset",
	// Go's predeclared types: error's Error is an interface's method.
	"error", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
	"float32", "float64", "complex64", "complex128", "byte", "rune"}

// types keeps the type definitions of bd.
func (b *binder) types(bd binding) binding {
	var out []defRef
	for _, dr := range bd.defs {
		if isType(dr.f.defs[dr.i]) {
			out = append(out, dr)
		}
	}
	return binding{defs: out, targs: bd.targs}
}

// fieldType finds the declared type of field name of the class enclosing
// definition caller, or of a this: parameter's type (this.name.f()).
func (b *binder) fieldType(f *fileFacts, caller int, name string, pos int) binding {
	if t, ok := b.declAt(f, "this", pos); ok {
		return b.fieldOf(b.declType(f, t, pos), name)
	}
	for i := caller; i >= 0; i = f.defs[i].Parent {
		if d := f.defs[i]; d.container && isType(d) {
			return b.fieldOf(binding{defs: []defRef{{f, i}}}, name)
		}
	}
	return binding{}
}

// fieldOf finds the type of field name of the types ty names: its written
// type, else the type of its initial value.
func (b *binder) fieldOf(ty binding, name string) binding {
	if ty.isAny() {
		return anyType // a field of any is any
	}
	if len(ty.files) > 0 && b.depth <= maxTypeDepth {
		// A namespace's export (z.core.regexes, const { regexes } =
		// z.core): a namespace again, a class named as a value, or the
		// type of a variable.
		b.depth++
		defer func() { b.depth-- }()
		bd := b.exported(ty.files, name, 1)
		switch {
		case len(bd.files) > 0 || !bd.found():
			return bd
		case b.isTypeBinding(bd):
			bd.static = true
			return bd
		}
		for _, dr := range bd.defs {
			if d := dr.f.defs[dr.i]; !d.Callable && !d.container {
				return b.typeOf(dr.f, d.Name, -1, binding{defs: []defRef{dr}})
			}
		}
		return binding{}
	}
	for _, dr := range ty.defs {
		f, d := dr.f, dr.f.defs[dr.i]
		if d.Label == lType && !d.container && len(ty.defs) == 1 && b.depth <= maxTypeDepth && f.c.spec.jsFamily() {
			// A TypeScript type alias (type Pair<L, R> = { left: L }): the
			// fields of the type it names, in its type arguments.
			b.depth++
			defer func() { b.depth-- }()
			frames := ownFrames(ty.targs, dr)
			under := b.inFrames(frames, func() binding { return b.underlying(dr) })
			if under.shape != nil {
				under.targs = append(slices.Clip(under.targs), frames...)
			}
			return b.fieldOf(under, name)
		}
		if !d.container {
			continue
		}
		if pyFieldCycle(f, dr.i, name) {
			return anyType // self.x = child.x, child an element of self.x
		}
		frames := ownFrames(ty.targs, dr)
		if ft, ok := b.pyFieldJoin(f, dr.i, name); ok {
			return ft
		}
		for _, t := range f.typed {
			if t.Name == name && t.Scope == dr.i && !t.Return && !t.Prop && !t.Under {
				return b.inFrames(frames, func() binding { return b.declType(f, t, d.Start) })
			}
		}
		for _, m := range b.membersOf(dr, name, 0) {
			if pyProperty(m) && b.depth <= maxTypeDepth {
				// @property def value(self): what the getter returns.
				b.depth++
				defer func() { b.depth-- }()
				return b.inFrames(b.framesFor(frames, m), func() binding { return b.returns(binding{defs: []defRef{m}}) })
			}
			if m.f == f {
				return b.inFrames(b.framesFor(frames, m), func() binding {
					return b.typeOf(f, name, -1, binding{defs: []defRef{m}})
				})
			}
		}
		// A defined type's fields are its underlying type's (type Term
		// term).
		if d.Label == lType && b.depth <= maxTypeDepth {
			if ft := b.fieldOf(b.underlying(dr), name); ft.found() {
				return ft
			}
		}
		// A field of a supertype: a base class's (TypeScript's inherited
		// fields and parameter properties), an embedded type's (Go's
		// promoted fields).
		if b.depth <= maxTypeDepth {
			for _, sf := range f.supers {
				if sf.Def != dr.i {
					continue
				}
				b.depth++
				sup := b.superType(f, sf, d.Start)
				if sup.lib == nil {
					sup = b.types(sup) // a standard library class's field is the table's (rfile)
				}
				for _, fr := range frames {
					if next, ok := b.heritageFrame(fr, sf); ok {
						sup.targs = append(sup.targs, next)
					}
				}
				ft := b.fieldOf(sup, name)
				b.depth--
				if ft.found() {
					return ft
				}
			}
		}
	}
	if ty.external && ty.lib != nil {
		// A standard type's property (a Map's size, a Record's values),
		// else what its __getattr__ gives any name (argparse's Namespace:
		// Any).
		if ft, ok := libMember(ty, name); ok {
			return ft
		}
		if ft, ok := libMember(ty, "__getattr__"); ok && ty.lib == pyLibrary() {
			return ft
		}
		if ty.typeName == "Record" && len(ty.typeArgs) == 2 {
			return ty.typeArgs[1]
		}
		return binding{}
	}
	if sh := ty.shape; sh != nil && b.depth <= maxTypeDepth {
		// An object type literal's field ({ subs: Subscription }): its
		// property signature's type.
		for _, key := range []string{name, "[]"} {
			// A field, else what an index signature or a mapped type
			// gives every key ({ readonly [K in Scope]: Set<T> }.document).
			for _, t := range sh.f.typed {
				if t.Name == key && !t.Return && t.Start >= sh.start && t.Start < sh.end {
					b.depth++
					defer func() { b.depth-- }()
					return b.inFrames(ty.targs, func() binding { return b.declType(sh.f, t, t.Start) })
				}
			}
		}
		if ty.rest != nil {
			return b.fieldOf(*ty.rest, name)
		}
		return binding{}
	}
	if ty.external && ty.typeName != tstype.Anonymous {
		return ty // a package type's field: not the workspace's
	}
	return binding{} // an object literal's field: its type is not kept
}

// classifyName decides whether the unqualified name at pos of f (a type
// annotation, a supertype) names the target.
func (b *binder) classifyName(f *fileFacts, name string, pos int, t target) status {
	bd := b.lookup(f, name, pos, 0)
	if !bd.found() {
		bd = b.localValue(f, name, pos)
	}
	return b.judge(bd, t)
}

// localValue is what a TypeScript name no definition binds at pos of f
// names when a parameter or local of that name is in scope there (new
// Class() with a parameter Class): a value of its own, never a
// definition elsewhere. Nothing when none is.
func (b *binder) localValue(f *fileFacts, name string, pos int) binding {
	if !f.c.spec.jsFamily() {
		return binding{}
	}
	if t, ok := b.declAt(f, name, pos); ok && t.Scope >= 0 && (t.Param > 0 || t.ValStart >= 0 || t.ValExpr != "") {
		return binding{external: true, typeName: tstype.Anonymous} // a parameter or a variable, not a type's property
	}
	return binding{}
}

// why names the reason a name-only site of a name (not a call) stayed
// name-only.
func why(st status) string {
	if st == nameOnly {
		return ReasonUnboundName
	}
	return ""
}

// judge compares what a site binds to with the target. A call of a
// member of a supertype or subtype of the target's class may dispatch to
// the target: it stays name-only.
func (b *binder) judge(bd binding, t target) status {
	st, _ := b.judgeWhy(bd, t)
	return st
}

// judgeWhy is judge, saying why a site stays name-only when it is
// dispatch (ReasonDispatch); "" when nothing binds it.
func (b *binder) judgeWhy(bd binding, t target) (status, string) {
	switch {
	case len(bd.defs) > 0:
		for _, dr := range bd.defs {
			if t.matches(dr.f, dr.i) {
				return resolved, ""
			}
		}
		if merged := b.mergedDefs(t); len(merged) > 0 {
			for _, dr := range bd.defs {
				if merged[dr] {
					return resolved, "" // the same interface, augmented by a module declaration
				}
			}
		}
		if b.dispatches(bd.defs, t) || b.siblingObjectMember(bd.defs, t) {
			return nameOnly, ReasonDispatch
		}
		return miss, ""
	case bd.external && (t.owner != "" || t.exact != nil || bd.typeName != "" && bd.typeName != tstype.Anonymous ||
		b.s.main.spec.jsFamily()):
		// A package's or the standard library's: not the workspace's. (A
		// TypeScript import the resolver cannot place in the workspace is
		// a package's; elsewhere a bare name's may be a module of the
		// workspace no rule maps, as PHP's use App\Registry\X.)
		if bd.typeName != "" && b.s.main.spec.Lang != "python" && b.implementsExternal(bd.typeName, t) || b.goImplementsExternal(bd, t) {
			return nameOnly, ReasonDispatch // a Map's get may be a class's implementing Map
		}
		if bd.typeName == "Object" && bd.lib != nil && bd.member == t.name && b.classMember(t) {
			// Object's toString, valueOf, ...: every class overrides them.
			return nameOnly, ReasonDispatch
		}
		return miss, ""
	}
	return nameOnly, ""
}

// siblingObjectMember reports whether defs, methods of TypeScript or
// JavaScript classes, and the target, one too, override the same member
// of Object (valueOf in ComputedValue and in ObservableValue): the
// compiler relates every override of an Object member, as it relates a
// call of Object's own (classMember).
func (b *binder) siblingObjectMember(defs []defRef, t target) bool {
	if !b.classMember(t) {
		return false
	}
	f := defs[0].f
	lib := f.c.spec.Library
	if lib == nil {
		return false
	}
	if _, _, ok := lib().member("Object", t.name, 0); !ok {
		return false
	}
	for _, dr := range defs {
		d := dr.f.defs[dr.i]
		if d.Name != t.name || !dr.f.c.spec.jsFamily() || d.Parent < 0 || dr.f.defs[d.Parent].Label != lClass {
			return false
		}
	}
	return true
}

// classMember reports whether a target's definitions are all methods of
// TypeScript or JavaScript classes, which override Object's members.
func (b *binder) classMember(t target) bool {
	ds := b.targetDefs(t)
	for _, dr := range ds {
		d := dr.f.defs[dr.i]
		if !dr.f.c.spec.jsFamily() || d.Parent < 0 || dr.f.defs[d.Parent].Label != lClass {
			return false
		}
	}
	return len(ds) > 0
}

// implementsExternal reports whether a target's class names typeName as a
// supertype.
func (b *binder) implementsExternal(typeName string, t target) bool {
	for _, td := range b.targetDefs(t) {
		d := td.f.defs[td.i]
		if d.Parent < 0 {
			continue
		}
		for _, sf := range td.f.supers {
			if sf.Def == d.Parent && sf.Name == typeName {
				return true
			}
		}
	}
	return false
}

// targetDefs lists the definitions a target asks about, computed once per
// target and call.
func (b *binder) targetDefs(t target) []defRef {
	if t.exact != nil {
		return []defRef{*t.exact}
	}
	key := t.key()
	if ds, ok := b.targets[key]; ok {
		return ds
	}
	var out []defRef
	defer func() { b.targets[key] = out }()
	for _, f := range b.s.factsWith(b.s.files, []string{t.name}) {
		for i := range f.defs {
			if t.matches(f, i) {
				out = append(out, defRef{f, i})
			}
		}
	}
	return out
}

// key identifies a target among those of one call (the caches of
// targetDefs and mergedDefs).
func (t target) key() string {
	return t.name + "\x00" + t.owner + "\x00" + strings.Join(t.dirs, "/") + "\x00" + t.file + "#" + strings.Join(t.chain, ".")
}

// mergedDefs returns the TypeScript declarations merged with a target's
// by module augmentation, computed once per target: a declaration in
// declare module "spec" { … } merges with the one of its name the module
// spec resolves to exports, and that one with every such augmentation.
func (b *binder) mergedDefs(t target) map[defRef]bool {
	if !b.s.main.spec.jsFamily() {
		return nil
	}
	key := t.key()
	if m, ok := b.merged[key]; ok {
		return m
	}
	var out map[defRef]bool
	defer func() { b.merged[key] = out }()
	targets := b.targetDefs(t)
	if len(targets) == 0 || !isType(targets[0].f.defs[targets[0].i]) {
		return nil
	}
	add := func(dr defRef) {
		if out == nil {
			out = map[defRef]bool{}
		}
		out[dr] = true
	}
	for _, f := range b.s.factsWith(b.s.files, []string{t.name}) {
		for i, d := range f.defs {
			if d.Augments == "" || d.Name != t.name {
				continue
			}
			aug := defRef{f, i}
			orig := b.exported(b.importFiles(f, importFact{Start: -1 - i, Source: d.Augments, Resolve: resolveJS}), d.Name, 1)
			for _, td := range targets {
				switch {
				case td == aug:
					for _, o := range orig.defs {
						add(o)
					}
				case slices.Contains(orig.defs, td):
					add(aug)
				}
			}
		}
	}
	return out
}

// dispatches reports whether one of the members bound may be overridden
// by, or override, a target: their classes are related by extends or
// implements.
func (b *binder) dispatches(bound []defRef, t target) bool {
	if b.goDispatches(bound, t) {
		return true // Go: an interface and a type implementing it (types_go.go)
	}
	var owners []defRef
	static := false
	for _, dr := range bound {
		if d := dr.f.defs[dr.i]; d.Parent >= 0 && dr.f.defs[d.Parent].container {
			owners = append(owners, defRef{dr.f, d.Parent})
			static = static || d.Static
		}
	}
	if len(owners) == 0 {
		return false
	}
	for _, td := range b.targetDefs(t) {
		d := td.f.defs[td.i]
		if d.Parent < 0 || !td.f.defs[d.Parent].container || d.Static != static {
			continue // a static member overrides static ones alone
		}
		cls := defRef{td.f, d.Parent}
		var mine map[rootKey]bool
		for _, o := range owners {
			if b.inherits(cls, o, 0) {
				return true
			}
			if pyNominal(td.f) {
				continue // a Python object runs its class's member: never a sibling's or a subclass's
			}
			if b.inherits(o, cls, 0) {
				return true
			}
			// Two implementations of one interface's or base class's
			// member: a call of either is a call of that member.
			if mine == nil {
				mine = b.roots(cls, t.name)
			}
			for k := range b.roots(o, t.name) {
				if mine[k] {
					return true
				}
			}
		}
	}
	return false
}

// rootKey identifies a type definition.
type rootKey struct {
	file string
	i    int
}

// roots returns the supertypes of type dr, transitively, that declare a
// member name; computed once per type and name.
func (b *binder) roots(dr defRef, name string) map[rootKey]bool {
	k := rootsKey{rootKey{dr.f.rel, dr.i}, name}
	if r, ok := b.rootsMemo[k]; ok {
		return r
	}
	out := map[rootKey]bool{}
	b.rootsMemo[k] = out
	var walk func(t defRef, depth int)
	walk = func(t defRef, depth int) {
		if depth > 6 {
			return
		}
		for _, sf := range t.f.supers {
			if sf.Def != t.i {
				continue
			}
			for _, p := range b.superType(t.f, sf, t.f.defs[t.i].Start).defs {
				if !p.f.defs[p.i].container || out[rootKey{p.f.rel, p.i}] {
					continue
				}
				for _, d := range p.f.defs {
					if d.Parent == p.i && d.Name == name {
						out[rootKey{p.f.rel, p.i}] = true
						break
					}
				}
				walk(p, depth+1)
			}
		}
	}
	walk(dr, 0)
	return out
}

// rootsKey memoizes roots.
type rootsKey struct {
	t    rootKey
	name string
}

// inherits reports whether type sub extends or implements type sup,
// directly or through its supertypes.
func (b *binder) inherits(sub, sup defRef, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, sf := range sub.f.supers {
		if sf.Def != sub.i {
			continue
		}
		for _, p := range b.superType(sub.f, sf, sub.f.defs[sub.i].Start).defs {
			if p.f.rel == sup.f.rel && p.i == sup.i || b.inherits(p, sup, depth+1) {
				return true
			}
		}
	}
	return false
}

// lookup finds what name means at byte pos of f: the innermost lexical
// definition in scope, else an import binding it, else (package-scoped
// languages) a top-level definition of another file of the package.
func (b *binder) lookup(f *fileFacts, name string, pos, depth int) binding {
	if depth > 8 {
		return binding{}
	}
	// Every definition of the innermost scope: a prototype and its body,
	// overloads.
	var best []defRef
	bestStart := -1
	for _, i := range f.named(name) {
		d := f.defs[i]
		if !d.Lexical || f.requires(d) {
			continue
		}
		start := -1
		if d.Parent >= 0 {
			p := f.defs[d.Parent]
			if pos >= 0 && (pos < p.Start || pos >= p.End) {
				continue
			}
			if pos < 0 && !f.c.is(p.kind, fScope) {
				continue // module level only
			}
			start = p.Start
		}
		switch {
		case len(best) == 0 || start > bestStart:
			best, bestStart = []defRef{{f, i}}, start
		case start == bestStart:
			best = append(best, defRef{f, i})
		}
	}
	if pos >= 0 {
		if t, ok := b.declAt(f, name, pos); ok && t.Scope >= 0 {
			// A parameter or local shadows an import (fs FileSystem) and
			// the outer scopes' definitions (target Type over type target).
			local := f.defs[t.Scope].Start
			if t.Until > 0 {
				local = t.Start
			}
			if len(best) == 0 || local > bestStart {
				return binding{}
			}
		}
	}
	if len(best) > 0 {
		return binding{defs: best}
	}
	for _, imp := range f.imports {
		if imp.Form == "re-export" {
			continue
		}
		for _, bn := range imp.Names {
			local, exported, ns := importBinds(imp, bn, f.c.spec.Sep)
			if local != name {
				continue
			}
			files := b.importFiles(f, imp)
			if len(files) == 0 {
				if localSource(imp.Source) || b.r.ownModule(f, imp) {
					// A module of the workspace that the resolver could
					// not find (a path alias, a file not on disk, a
					// workspace package without its entry): the name is
					// not known to be another package's.
					return binding{}
				}
				if b.r.packageAbsent(f, imp) {
					// The compiler cannot find the module either: what it
					// exports is any to it, so calls on it name nothing.
					return binding{external: true, typeName: tstype.Any, pkg: imp.Source}
				}
				return binding{external: true, pkg: imp.Source}
			}
			if ns {
				return binding{files: files}
			}
			if f.c.spec.Lang == "python" && imp.Form == "from" {
				return b.pyFromImport(imp, exported, files, depth)
			}
			if bd := b.exported(files, exported, depth+1); bd.found() {
				return bd
			}
			// The import names a module itself (Rust's use crate::b,
			// Python's from pkg import mod).
			var mods []*fileFacts
			for _, g := range files {
				if moduleName(g) == exported {
					mods = append(mods, g)
				}
			}
			return binding{files: mods}
		}
		if len(imp.Names) == 0 && (imp.Form == "package" && lastSegment(imp.Source, "/") == name ||
			imp.Form == "module" && imp.Source == name) {
			// A Go import without alias binds the package's name (its
			// path's last segment, by convention); Python's import m
			// binds m (a package's: unittest.main() is not the
			// workspace's main).
			files := b.importFiles(f, imp)
			if len(files) == 0 {
				return binding{external: true, pkg: imp.Source}
			}
			return binding{files: files}
		}
	}
	for _, imp := range f.imports {
		if len(imp.Names) == 0 && imp.Form == "include" {
			// A C include makes the header's names visible.
			if bd := b.exported(b.importFiles(f, imp), name, depth+1); len(bd.defs) > 0 {
				return bd
			}
		}
		for _, bn := range imp.Names {
			if bn.Name == "*" || bn.Form == "wildcard" || bn.Form == "dot" {
				if bd := b.exported(b.importFiles(f, imp), name, depth+1); len(bd.defs) > 0 {
					return bd
				}
			}
		}
	}
	if f.c.spec.DirScope {
		if bd := b.inPackage(f, name); len(bd.defs) > 0 {
			return bd
		}
	}
	return binding{}
}

// localSource reports whether an import's source names a module of the
// workspace rather than a package: a relative path (./x, ../x, Python's
// .x), an absolute one, or a path alias no package name can be (@/x, ~/x,
// #x, as tsconfig paths and bundlers spell them).
func localSource(src string) bool {
	for _, p := range []string{".", "/", "@/", "~/", "#"} {
		if strings.HasPrefix(src, p) {
			return true
		}
	}
	return false
}

// requires reports whether definition d is a require() binding
// (const { a } = require('m')): the import, not d, says what it names.
func (f *fileFacts) requires(d def) bool {
	for _, imp := range f.imports {
		if imp.Call && imp.Form == "require" && d.Start <= imp.Start && imp.End <= d.End {
			return true
		}
	}
	return false
}

// importBinds reads an import's bound name: the local name it introduces,
// the name exported by the module, and whether it binds the whole module
// (a namespace).
func importBinds(imp importFact, bn boundName, sep string) (local, exported string, ns bool) {
	local = bn.Name
	if bn.Alias != "" {
		local = bn.Alias
	}
	switch bn.Form {
	case "default":
		return bn.Name, "default", false
	case "namespace", "require", "alias", "module":
		if imp.Resolve == resolveRustUse && bn.Form == "alias" {
			return bn.Name, lastSegment(imp.Source, sep), false
		}
		return local, "", true
	}
	return local, bn.Name, false
}

// nsReexport reports whether imp re-exports a whole module under a name
// (export * as ns from './x').
func nsReexport(f *fileFacts, imp importFact) bool {
	if imp.Start < 0 || imp.End > len(f.src) || imp.Start >= imp.End {
		return false
	}
	rest, ok := strings.CutPrefix(string(f.src[imp.Start:imp.End]), "export")
	if !ok {
		return false
	}
	rest, ok = strings.CutPrefix(strings.TrimSpace(rest), "*")
	return ok && strings.HasPrefix(strings.TrimSpace(rest), "as")
}

// importKey identifies one import of one file.
type importKey struct {
	file  string
	start int
	src   string
}

// importFiles returns the facts of the files an import resolves to,
// resolved once per call.
func (b *binder) importFiles(f *fileFacts, imp importFact) []*fileFacts {
	k := importKey{f.rel, imp.Start, imp.Source}
	if out, ok := b.imported[k]; ok {
		return out
	}
	var out []*fileFacts
	for _, rel := range b.r.resolve(f, imp) {
		out = append(out, b.factsOf(rel)...)
	}
	b.imported[k] = out
	return out
}

// exported finds the definition files export as name, following
// re-exports and imports that are exported again.
func (b *binder) exported(files []*fileFacts, name string, depth int) binding {
	if depth > 8 {
		return binding{}
	}
	for _, g := range files {
		if name == "default" {
			for i, d := range g.defs {
				if d.Default {
					return binding{defs: []defRef{{g, i}}}
				}
			}
			for _, e := range g.exports {
				if e.Name == "default" && e.Detail != "" && isIdent(e.Detail) {
					return b.lookup(g, e.Detail, -1, depth+1)
				}
			}
			continue
		}
		if bd := b.lookup(g, name, -1, depth+1); bd.found() && !bd.external {
			return bd
		}
		for _, e := range g.exports {
			if e.Name == name && e.Local != "" && e.Source == "" {
				if bd := b.lookup(g, e.Local, -1, depth+1); bd.found() {
					return bd // export { other as o }
				}
			}
		}
		for _, imp := range g.imports {
			if imp.Form != "re-export" {
				continue
			}
			if len(imp.Names) == 0 {
				// export * from './x'
				if bd := b.exported(b.importFiles(g, imp), name, depth+1); len(bd.defs) > 0 || len(bd.files) > 0 {
					return bd
				}
				continue
			}
			for _, bn := range imp.Names {
				if bn.Alias == name || (bn.Alias == "" && bn.Name == name) {
					files := b.importFiles(g, imp)
					if len(files) == 0 {
						if b.r.packageAbsent(g, imp) {
							return binding{external: true, typeName: tstype.Any, pkg: imp.Source}
						}
						return binding{external: true}
					}
					if nsReexport(g, imp) {
						return binding{files: files} // export * as coerce from './coerce'
					}
					return b.exported(files, bn.Name, depth+1)
				}
			}
		}
	}
	return binding{}
}

// inPackage finds the top-level definitions named name in the other files
// of f's directory (Go's and Java's package scope).
func (b *binder) inPackage(f *fileFacts, name string) binding {
	dir := pathpkg.Dir(f.rel)
	idx, ok := b.dirs[dir]
	if !ok {
		idx = map[string][]defRef{}
		for _, g := range b.factsOf(dir) {
			for i, d := range g.defs {
				if d.Lexical && (d.Parent < 0 || g.c.is(g.defs[d.Parent].kind, fScope)) {
					idx[d.Name] = append(idx[d.Name], defRef{g, i})
				}
			}
		}
		b.dirs[dir] = idx
	}
	var out []defRef
	for _, dr := range idx[name] {
		if dr.f.rel != f.rel {
			out = append(out, dr)
		}
	}
	return binding{defs: out}
}

// member finds name as a member of what bd names: an export of a
// namespace, or a member of a class (a static call Owner.name()).
func (b *binder) member(bd binding, name string) binding {
	if len(bd.files) > 1 && bd.files[0].c.spec.Lang == "python" {
		// One of several Python modules (what returns email.base64mime
		// or email.quoprimime): each one's.
		var out binding
		for _, g := range bd.files {
			out.defs = append(out.defs, b.exported([]*fileFacts{g}, name, 1).defs...)
		}
		if len(out.defs) > 0 {
			return out
		}
	}
	if len(bd.files) > 0 {
		return b.exported(bd.files, name, 1)
	}
	if sh := bd.shape; sh != nil {
		// An object literal's or object type's method ({ get() {} }):
		// the definition written there.
		var out []defRef
		for i, d := range sh.f.defs {
			if d.Name == name && d.Start > sh.start && d.End <= sh.end &&
				(d.Callable || d.Label == lSignature || d.Label == lFunction || d.Label == lMethod) {
				out = append(out, defRef{sh.f, i})
			}
		}
		if len(out) > 0 {
			return binding{defs: out}
		}
		if rest := bd.rest; rest != nil {
			if bd.rest = nil; !b.fieldOf(bd, name).found() {
				return b.member(*rest, name) // not written in the object type
			}
		}
	}
	if bd.external {
		// Its members are the package's, or the standard type's.
		bd.member = name
		return bd
	}
	var out []defRef
	library := false
	alias := -1
	for i, dr := range bd.defs {
		d := dr.f.defs[dr.i]
		if d.Label == lType && !d.container && b.depth <= maxTypeDepth && dr.f.c.spec.jsFamily() {
			alias = i // its members are read below, unless a namespace merged with it has this one
			continue
		}
		if !d.container {
			return binding{} // a variable: its type is unknown
		}
		ms := sideOf(b.membersOf(dr, name, 0), bd.static)
		out = append(out, ms...)
		library = library || len(ms) == 0 && b.externalSuper(dr, 0)
	}
	if alias >= 0 && len(out) == 0 {
		// A TypeScript type alias (type PartialObserver<T> = A<T> |
		// B<T>): the members of the type it names. (A Go defined type
		// has none of its underlying type's methods.)
		dr := bd.defs[alias]
		b.depth++
		m := b.member(b.inFrames(framesOf(bd.targs, dr), func() binding { return b.underlying(dr) }), name)
		b.depth--
		if m.external || len(m.defs) > 0 {
			return m
		}
		return binding{}
	}
	if len(out) == 0 && library {
		// A member the type inherits from a package's type (File
		// embedding io.Closer: Close is io's), or from the standard
		// library's, whose table types it (class Cookie(dict): items).
		if sup, ok := b.pyLibBase(bd.defs, name, 0); ok {
			sup.member = name
			return sup
		}
		return binding{external: true, member: name}
	}
	if len(out) == 0 && b.typedField(bd, name) {
		// A field of a type written elsewhere (onKeyDown?: KbdHandler):
		// calling it calls no method of the workspace's.
		return binding{external: true, typeName: tstype.Anonymous}
	}
	targs := bd.targs
	for _, m := range out {
		if p := m.f.defs[m.i].Parent; p >= 0 && !slices.ContainsFunc(bd.defs, func(dr defRef) bool { return dr == defRef{m.f, p} }) {
			// Inherited: the supertype's type arguments are what the
			// heritage of the type asked about writes (framesFor).
			for _, dr := range bd.defs {
				if len(framesOf(targs, dr)) == 0 {
					targs = append(slices.Clip(targs), typeFrame{owner: dr})
				}
			}
			break
		}
	}
	return binding{defs: out, targs: targs}
}

// typedField reports whether a TypeScript type bd names declares a field
// name with a written type, itself or through a supertype.
func (b *binder) typedField(bd binding, name string) bool {
	for _, dr := range bd.defs {
		if !dr.f.c.spec.jsFamily() || !dr.f.defs[dr.i].container {
			return false
		}
	}
	return len(bd.defs) > 0 && b.fieldOf(binding{defs: bd.defs}, name).found()
}

// superType finds the type a supertype fact names, through its
// qualifier when it has one (io.Closer). In Python, a base the workspace
// does not define that the standard library table holds, written bare
// (class H(str)) or imported from a module the table reads
// (socketserver.StreamRequestHandler, from io import BufferedIOBase), is
// the table's class.
func (b *binder) superType(f *fileFacts, sf superFact, pos int) binding {
	var sup binding
	if sf.Recv != "" {
		sup = b.member(b.lookup(f, sf.Recv, pos, 0), sf.Name)
	} else {
		sup = b.lookup(f, sf.Name, pos, 0)
	}
	if pyNominal(f) && len(sup.defs) == 0 && sup.lib == nil && pyLibrary().types[sf.Name] != nil &&
		(sf.Recv == "" && !sup.found() || sup.external && pytype.StubModule(sup.pkg)) {
		lib := pyLibrary()
		sup = binding{external: true, typeName: sf.Name, lib: lib}
		// class Cookie(dict): pyright's dict[Unknown, Unknown]; class
		// Tokens(list[Token]): a list of Token.
		for i := range lib.types[sf.Name].params {
			arg := anyType
			if i < len(sf.Args) {
				arg = b.evalType(f, parseTyx(sf.Args[i]), pos, 0)
			}
			sup.typeArgs = append(sup.typeArgs, arg)
		}
	}
	return sup
}

// externalSuper reports whether type dr has, transitively, a supertype
// outside the workspace (an import it cannot resolve, a package's type).
func (b *binder) externalSuper(dr defRef, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, sf := range dr.f.supers {
		if sf.Def != dr.i {
			continue
		}
		sup := b.superType(dr.f, sf, dr.f.defs[dr.i].Start)
		if sup.external {
			return true
		}
		if lib := dr.f.c.spec.Library; lib != nil && !sup.found() && sf.Recv == "" {
			if _, ok := lib().types[sf.Name]; ok {
				return true // interface IObservableArray<T> extends Array<T>
			}
		}
		for _, p := range sup.defs {
			if p.f.defs[p.i].container && b.externalSuper(p, depth+1) {
				return true
			}
		}
	}
	return false
}

// membersOf finds the members named name of the type dr, or of its
// supertypes when it has none.
func (b *binder) membersOf(dr defRef, name string, depth int) []defRef {
	f := dr.f
	var out []defRef
	owner := f.defs[dr.i]
	for _, i := range f.named(name) {
		if d := f.defs[i]; d.Parent == dr.i || d.Container == owner.Name && i != dr.i && !d.Lexical {
			out = append(out, defRef{f, i})
		}
	}
	if len(out) == 0 && f.c.spec.DirScope {
		// Go's methods may sit in any file of the type's package.
		for _, g := range b.factsOf(pathpkg.Dir(f.rel)) {
			for _, i := range g.named(name) {
				if d := g.defs[i]; g != f && d.Container == owner.Name && !d.Lexical {
					out = append(out, defRef{g, i})
				}
			}
		}
	}
	if len(out) > 0 || depth > 4 {
		return out
	}
	for _, sf := range f.supers {
		if sf.Def != dr.i {
			continue
		}
		for _, sup := range b.superType(f, sf, f.defs[dr.i].Start).defs {
			if sup.f.defs[sup.i].container {
				out = append(out, b.membersOf(sup, name, depth+1)...)
			}
		}
	}
	return out
}

// selfMember finds name as a member of the class enclosing definition
// caller (this.name(), self.name()).
func (b *binder) selfMember(f *fileFacts, caller int, name string) binding {
	static := caller >= 0 && f.defs[caller].Static // this in a static method is the class
	for i := caller; i >= 0; i = f.defs[i].Parent {
		if d := f.defs[i]; d.container && isType(d) {
			ms := sideOf(b.membersOf(defRef{f, i}, name, 0), static)
			if len(ms) == 0 && pyNominal(f) {
				if sup, ok := b.pyLibBase([]defRef{{f, i}}, name, 0); ok {
					sup.member = name
					return sup // self.items() in a class Cookie(dict)
				}
			}
			return binding{defs: ms}
		}
	}
	return binding{}
}

// pyLibBase finds the standard library class among the bases of the
// Python classes defs, theirs or their workspace bases', whose table has
// member name: that class, in the type arguments the heritage writes.
func (b *binder) pyLibBase(defs []defRef, name string, depth int) (binding, bool) {
	if depth > 4 || b.depth > maxTypeDepth {
		return binding{}, false
	}
	for _, dr := range defs {
		if !pyNominal(dr.f) {
			continue
		}
		for _, sf := range dr.f.supers {
			if sf.Def != dr.i {
				continue
			}
			b.depth++
			sup := b.superType(dr.f, sf, dr.f.defs[dr.i].Start)
			b.depth--
			if sup.lib != nil {
				if _, ok := libMember(sup, name); ok {
					return sup, true
				}
				continue
			}
			if found, ok := b.pyLibBase(b.types(sup).defs, name, depth+1); ok {
				return found, true
			}
		}
	}
	return binding{}, false
}

// sideOf keeps, of the members ms of one name, the static ones when
// static, else the instances' (a class may have both: static children
// and children), when there are any of that side.
func sideOf(ms []defRef, static bool) []defRef {
	keep := ms[:0:0]
	for _, m := range ms {
		if m.f.defs[m.i].Static == static {
			keep = append(keep, m)
		}
	}
	if len(keep) == 0 {
		return ms
	}
	return keep
}

// isField reports whether s is a plain identifier or a private field's
// name (#observers).
func isField(s string) bool { return isIdent(strings.TrimPrefix(s, "#")) }

// isIdent reports whether s is a plain identifier.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r > 127 || i > 0 && '0' <= r && r <= '9'
		if !ok {
			return false
		}
	}
	return true
}

// classifyImport decides whether an import of the target's name imports
// the target: the definition the module exports under that name.
func (b *binder) classifyImport(f *fileFacts, imp importFact, t target) status {
	for _, bn := range imp.Names {
		if bn.Name != t.name {
			continue
		}
		files := b.importFiles(f, imp)
		if len(files) == 0 {
			return b.judge(binding{external: true}, t)
		}
		return b.judge(b.exported(files, bn.Name, 0), t)
	}
	if len(b.targetDefs(t)) > 0 {
		// import { operate } from '../util/lift', import { a as lift }:
		// the module or another name, not the definitions asked about.
		return miss
	}
	return nameOnly
}

// isSpace reports whether c is an ASCII space, tab or line break.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// trimSpace narrows the range [start, end) of src to leave out the spaces
// around it.
func trimSpace(src []byte, start, end int) (int, int) {
	for start < end && isSpace(src[start]) {
		start++
	}
	for end > start && isSpace(src[end-1]) {
		end--
	}
	return start, end
}

// isFunctionLiteral reports whether TypeScript or JavaScript expression v
// is a function expression (function () {…}, async function* g() {…}).
func isFunctionLiteral(v []byte) bool {
	v = bytes.TrimPrefix(v, []byte("async "))
	if !bytes.HasPrefix(v, []byte("function")) {
		return false
	}
	rest := bytes.TrimLeft(v[len("function"):], " \t\n")
	return len(rest) > 0 && (rest[0] == '(' || rest[0] == '*' || rest[0] == '<' || len(rest) < len(v)-len("function"))
}

// awaited is what await gives for a value of type ty: a Promise's (or
// PromiseLike's) type argument, any for any, the value itself for a type
// or a namespace of the workspace (a dynamic import's) or another library
// type; unknown otherwise.
func awaited(ty binding) binding {
	switch {
	case ty.isAny():
		return anyType
	case ty.external && (ty.typeName == "Promise" || ty.typeName == "PromiseLike"):
		if len(ty.typeArgs) == 1 {
			return ty.typeArgs[0]
		}
		return binding{}
	case len(ty.defs) > 0 || len(ty.files) > 0 || ty.external && ty.lib != nil:
		return ty // await import('./api.js'): the module's namespace; await new Map(): the map
	}
	return binding{}
}
