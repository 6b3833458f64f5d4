package analysis

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/analysis/internal/tstype"
)

// The type layer: what the code writes down about types (declared types
// of parameters, fields, variables and returns, this: parameters), what a
// reader infers at a glance (new C(), literals, x ?? y, aliases of this
// and of other names), return types followed through calls and chains,
// and the standard library's types (a table generated from its
// declarations) with the type arguments that pick a member's type
// (Map<K, V>.get gives V). A receiver whose type is known binds to that
// type's member: the workspace's class, or the library's, which is then
// not the workspace's method.

// maxTypeDepth bounds how deep the type layer follows one site's type
// through declarations, calls, fields and returns (this.editor.inputs
// .getCurrentPagePoint().clone() reads six of them): past it, a type is
// unknown.
const maxTypeDepth = 10

// identityTypes are TypeScript's utility types whose members are those of
// their first type argument (Partial<Store> has Store's methods).
var identityTypes = map[string]bool{"Partial": true, "Required": true, "Readonly": true, "NonNullable": true,
	"Pick": true, "Omit": true, "NoInfer": true}

// iterates are the library types a TypeScript for...of gives the first
// type argument of: their elements.
var iterates = map[string]bool{"Array": true, "ReadonlyArray": true, "Set": true, "ReadonlySet": true,
	"Iterable": true, "IterableIterator": true, "Iterator": true, "MapIterator": true, "SetIterator": true,
	"ArrayIterator": true, "Generator": true, "AsyncIterable": true, "AsyncIterableIterator": true,
	"AsyncGenerator": true, "NodeListOf": true, "HTMLCollectionOf": true}

// libLowerGlobals are the lower-case library globals a call's receiver is
// taken to name when nothing in scope declares it; the others (name,
// parent, status, ...) are too often an undeclared local's name.
var libLowerGlobals = []string{"document", "window", "console", "navigator", "localStorage", "sessionStorage",
	"globalThis", "performance"}

// declAt finds the declaration in scope at pos of f of the variable or
// parameter name: in the innermost scope, the last one before pos.
func (b *binder) declAt(f *fileFacts, name string, pos int) (typedName, bool) {
	best, bestStart := -1, -2
	for i, t := range f.typed {
		if t.Name != name || t.Return || t.Under || t.Prop || t.Type == "" && t.Expr == "" && t.Start > pos {
			continue // a name declared by its value is typed after it; a written type holds in its whole scope
		}
		if t.ValStart >= 0 && pos >= t.ValStart && pos < t.ValEnd && !f.c.spec.jsFamily() {
			// x := x.(type): the value's x is the outer one. (In
			// TypeScript it is the name itself, in a function the value
			// holds: const s = new S({ next: () => s.stop() }).)
			continue
		}
		start := -1
		if t.Until > 0 {
			if pos < t.Start || pos >= t.Until {
				continue // another case of the type switch
			}
			start = t.Start // narrower than any scope around it
		} else if t.Scope >= 0 {
			sc := f.defs[t.Scope]
			if pos < sc.Start || pos >= sc.End || (sc.container && isType(sc)) {
				continue // out of scope, or a field (reached through this)
			}
			start = sc.Start
		}
		if start > bestStart || start == bestStart && t.Start > f.typed[best].Start {
			best, bestStart = i, start
		}
	}
	if best < 0 {
		return typedName{}, false
	}
	return f.typed[best], true
}

// typeParamAt finds the type parameter name of a declaration around pos
// of f (the innermost).
func typeParamAt(f *fileFacts, name string, pos int) (typedName, bool) {
	best := -1
	for i, t := range f.typeParams {
		if t.Name == name && t.Start <= pos && pos < t.Until && (best < 0 || t.Start >= f.typeParams[best].Start) {
			best = i
		}
	}
	if best < 0 {
		return typedName{}, false
	}
	return f.typeParams[best], true
}

// entryType types name t at position t.Index of an entry destructured by
// a TypeScript for...of (for (const [id, record] of map), or of
// map.entries()): a Map's key (0) or value (1); anything else unknown.
func (b *binder) entryType(f *fileFacts, t typedName, pos int) binding {
	if t.ValStart < 0 || b.depth > maxTypeDepth {
		return binding{}
	}
	end := t.ValEnd
	if v := string(f.src[t.ValStart:t.ValEnd]); strings.HasSuffix(v, ".entries()") {
		end -= len(".entries()")
	}
	b.depth++
	defer func() { b.depth-- }()
	ty := b.valueType(f, t.ValStart, end)
	if ty.isAny() || pyNominal(f) && (len(ty.typeArgs) == 1 && ty.typeArgs[0].isAny() || len(ty.defs) > 0 && b.pyUnknownElements(ty)) {
		return anyType // Python: for s, c in self._chunks with self._chunks = []: Unknown elements
	}
	if elem, ok := b.pyIterElem(ty); ok && pyNominal(f) && elem.typeName == "tuple" && t.Index < len(elem.typeArgs) {
		return elem.typeArgs[t.Index] // for k, v in d.items(): tuple[K, V]'s
	}
	if (ty.typeName == "Map" || ty.typeName == "ReadonlyMap") && len(ty.typeArgs) == 2 && t.Index <= 1 {
		return ty.typeArgs[t.Index]
	}
	return binding{}
}

// declType finds the type a declaration gives its name: its written type,
// else its initial value's.
func (b *binder) declType(f *fileFacts, t typedName, pos int) binding {
	if t.Key {
		t.Key = false
		if ty := b.declType(f, t, pos); ty.key != nil {
			return *ty.key
		}
		return binding{}
	}
	if t.Elem && t.Field != "" && t.FieldOf == "" {
		// for (const { el } of xs): field el of xs's elements.
		field := t.Field
		t.Field = ""
		ty := b.declType(f, t, pos)
		for _, name := range strings.Split(field, ".") {
			ty = b.fieldOf(ty, name)
		}
		return ty
	}
	if t.Elem {
		// for x in xs: the element type of xs's library container; in Go,
		// the element type a written []T reads as (elements).
		t.Elem = false
		if t.Entry {
			return b.entryType(f, t, pos)
		}
		ty := b.declType(f, t, pos)
		if pyNominal(f) {
			if elem, ok := b.pyIterElem(ty); ok {
				return elem // for x in an Unknown, or in a class TokenList(list): x is Unknown
			}
		}
		if ty.isAny() {
			return anyType
		}
		if f.c.spec.jsFamily() && !iterates[ty.typeName] {
			return binding{} // for (const e of map): e is an entry, [K, V]
		}
		if ty.external && len(ty.typeArgs) > 0 {
			return ty.typeArgs[0]
		}
		if len(f.c.spec.Element) > 0 {
			return b.elements(ty)
		}
		return binding{}
	}
	if t.Entry && t.ValStart >= 0 && b.depth <= maxTypeDepth {
		// const [a, b] = v: any when v is; tuples are not told apart.
		b.depth++
		defer func() { b.depth-- }()
		if b.valueType(f, t.ValStart, t.ValEnd).isAny() {
			return anyType
		}
		return binding{}
	}
	if t.FieldOf != "" && b.depth <= maxTypeDepth {
		b.depth++
		defer func() { b.depth-- }()
		ty := b.evalType(f, parseTyx(t.FieldOf), pos, 0)
		for _, field := range strings.Split(t.Field, ".") {
			ty = b.fieldOf(ty, field)
		}
		return ty
	}
	switch {
	case (t.Expr == tstype.Any || t.Splat) && f.c.spec.Lang == "python" && b.pyBaseTyped(f, t.Scope):
		return binding{} // pyright may type it from the overridden method
	case t.Expr != "":
		return b.evalType(f, parseTyx(t.Expr), pos, 0)
	case t.Type != "":
		return b.written(f, t, pos)
	case t.ValExpr != "":
		if ty := b.valueExprType(f, t); ty.found() {
			return ty
		}
	}
	if t.ValStart >= 0 {
		return b.valueTypeAt(f, t.ValStart, t.ValEnd, t.Index)
	}
	return binding{}
}

// elements keeps the types of ty that can be a container's elements as a
// written []T reads them: structs, interfaces and types outside the
// workspace. A defined container type (type list []T) has the elements
// its underlying type reads as; one whose underlying type is not written
// has unknown elements.
func (b *binder) elements(ty binding) binding {
	var out []defRef
	var ext *binding
	for _, dr := range ty.defs {
		switch l := dr.f.defs[dr.i].Label; {
		case l == lStruct || l == lInterface:
			out = append(out, dr)
		case l == lType:
			u := b.underlying(dr)
			for _, e := range u.defs {
				if l := e.f.defs[e.i].Label; l == lStruct || l == lInterface {
					out = append(out, e)
				}
			}
			if u.external && ext == nil {
				ext = &u
			}
		}
	}
	if len(out) == 0 && ext != nil {
		return *ext
	}
	if len(out) == 0 && len(ty.defs) > 0 {
		return binding{}
	}
	ty.defs = out
	return ty
}

// underlying finds the type a defined type is written over (Go's type
// list []*T reads as T, type Term term as term).
func (b *binder) underlying(dr defRef) binding {
	d := dr.f.defs[dr.i]
	if b.depth > maxTypeDepth {
		return binding{}
	}
	for _, t := range dr.f.typed {
		if t.Under && t.Name == d.Name && t.Start == d.Start {
			b.depth++
			defer func() { b.depth-- }()
			if t.Expr != "" {
				return b.evalType(dr.f, parseTyx(t.Expr), d.Start, 0) // type T = A | B
			}
			return b.written(dr.f, t, d.Start)
		}
	}
	return binding{}
}

// valueExprType types an initial value from its syntax (valueExpr): this,
// another name, or a written type.
func (b *binder) valueExprType(f *fileFacts, t typedName) binding {
	switch {
	case t.ValExpr == "this":
		return b.enclosingClass(f, t.Start)
	case strings.HasPrefix(t.ValExpr, ctxPrefix):
		return b.ctxElem(f, t.ValExpr)
	case strings.HasPrefix(t.ValExpr, argPrefix):
		return b.ctxArg(f, t.ValExpr)
	case strings.HasPrefix(t.ValExpr, "="):
		name := t.ValExpr[1:]
		if name == t.Name || b.depth > maxTypeDepth {
			return binding{}
		}
		b.depth++
		defer func() { b.depth-- }()
		if chain := strings.Split(name, "."); len(chain) > 1 {
			// const { name } = context.x: a field of a name's type.
			var ty binding
			if chain[0] != t.Name || contains(f.c.spec.SelfNames, chain[0]) {
				ty = b.chainBase(f, chain[0], t.Start) // const { regexes } = z.core: a namespace's too
			}
			for _, field := range chain[1:] {
				ty = b.fieldOf(ty, field)
			}
			return ty
		}
		bd := b.lookup(f, name, t.Start, 0)
		if len(bd.files) > 0 || b.isTypeBinding(bd) {
			return binding{} // a namespace or a class itself, not an instance
		}
		return b.typeOf(f, name, t.Start, bd)
	}
	return b.evalType(f, parseTyx(t.ValExpr), t.Start, 0)
}

// enclosingClass finds the class or interface around pos of f.
func (b *binder) enclosingClass(f *fileFacts, pos int) binding {
	best := -1
	for i, d := range f.defs {
		if d.container && isType(d) && d.Start <= pos && pos < d.End && (best < 0 || d.Start >= f.defs[best].Start) {
			best = i
		}
	}
	if best < 0 {
		return binding{}
	}
	return binding{defs: []defRef{{f, best}}}
}

// evalType finds what a written type (compact form) names at pos of f:
// the workspace's type definitions, a package's type (external), or a
// standard library type with its type arguments; nothing for a type
// parameter or a type that cannot be named.
func (b *binder) evalType(f *fileFacts, x tyx, pos, depth int) binding {
	switch {
	case x.name == "" || depth > 6:
		return binding{}
	case x.name == tstype.Anonymous:
		return binding{external: true, typeName: tstype.Anonymous}
	case strings.HasPrefix(x.name, tstype.Anonymous+"@"):
		// An object type literal written at start:end of f.
		at := strings.TrimPrefix(x.name, tstype.Anonymous+"@")
		s, e, _ := strings.Cut(at, ":")
		start, err1 := strconv.Atoi(s)
		end, err2 := strconv.Atoi(e)
		if err1 != nil || err2 != nil {
			return binding{external: true, typeName: tstype.Anonymous}
		}
		return binding{external: true, typeName: tstype.Anonymous, shape: &objectShape{f, start, end}}
	case x.name == tstype.Any:
		return anyType
	case x.name == "this":
		return b.enclosingClass(f, pos)
	case identityTypes[x.name] && len(x.args) > 0:
		return b.evalType(f, x.args[0], pos, depth+1)
	case x.name == tstype.Union:
		return union(x.args, func(a tyx) binding { return b.evalType(f, a, pos, depth+1) })
	case x.name == tstype.Intersection:
		return b.intersection(f, x.args, pos, depth)
	}
	if name, ok := strings.CutPrefix(x.name, tstype.TypeOf); ok {
		// typeof Foo: the class itself (its static members), or the
		// type of the value Foo.
		bd := b.lookup(f, name, pos, 0)
		// A value's name, not a type's of the same name (type
		// UNINITIALIZED = typeof UNINITIALIZED).
		bd.defs = slices.DeleteFunc(slices.Clone(bd.defs), func(dr defRef) bool {
			l := dr.f.defs[dr.i].Label
			return l == lType || l == lInterface
		})
		if b.isTypeBinding(bd) {
			bd.static = true
			return bd
		}
		return b.typeOf(f, name, pos, bd)
	}
	if i := strings.IndexByte(x.name, '.'); i > 0 {
		ns, rest := x.name[:i], x.name[i+1:]
		bd := b.lookup(f, ns, pos, 0)
		for _, seg := range strings.Split(rest, ".") {
			bd = b.member(bd, seg)
		}
		if ty := b.types(bd); len(ty.defs) > 0 {
			return ty
		}
		if bd.isAny() {
			return anyType // a type of a package that is not installed
		}
		if bd.external {
			return binding{external: true}
		}
		return binding{}
	}
	if tp, ok := typeParamAt(f, x.name, pos); ok {
		// A type parameter: the type its frame gives it (Atom<Vec>'s
		// Value), else its constraint's members (T extends ZodNumber),
		// else unknown.
		if ty, ok := b.frameArg(f, tp); ok {
			return ty
		}
		return b.evalType(f, parseTyx(tp.Expr), pos, depth+1)
	}
	bd := b.lookup(f, x.name, pos, 0)
	if ty := b.types(bd); len(ty.defs) > 0 {
		return b.writtenArgs(f, ty, x.args, pos, depth)
	}
	if bd.isAny() {
		return anyType // a type of a package that is not installed
	}
	if bd.external {
		return binding{external: true, typeName: x.name}
	}
	if lib := f.c.spec.Library; lib != nil && !bd.found() {
		if _, ok := lib().types[x.name]; ok {
			out := binding{external: true, typeName: x.name, lib: lib()}
			for _, a := range x.args {
				out.typeArgs = append(out.typeArgs, b.evalType(f, a, pos, depth+1))
			}
			return out
		}
	}
	return binding{}
}

// libEval finds what a library member's type (compact form) names: one
// of its owner's type parameters (the receiver's type arguments), the
// receiver itself (this), or another library type.
func libEval(lib *libTable, x tyx, params []string, recv binding, depth int) binding {
	switch {
	case x.name == "" || depth > 6:
		return binding{}
	case x.name == "this":
		recv.member = ""
		return recv
	case x.name == tstype.Anonymous:
		return binding{external: true, typeName: tstype.Anonymous}
	case x.name == tstype.Any:
		return anyType // typeshed's Any: json.loads() gives it
	case x.name == tstype.Union:
		return union(x.args, func(a tyx) binding { return libEval(lib, a, params, recv, depth+1) })
	}
	for i, p := range params {
		if p == x.name {
			if i < len(recv.typeArgs) {
				return recv.typeArgs[i]
			}
			return binding{}
		}
	}
	if _, ok := lib.types[x.name]; !ok {
		return binding{} // a method's own type parameter
	}
	out := binding{external: true, typeName: x.name, lib: lib}
	for _, a := range x.args {
		out.typeArgs = append(out.typeArgs, libEval(lib, a, params, recv, depth+1))
	}
	return out
}

// libMember finds the type of member name of the library type bd names
// (a method's return type); ok reports whether the library declares it.
func libMember(bd binding, name string) (binding, bool) {
	if bd.lib == nil || bd.typeName == "" {
		return binding{}, false
	}
	typ, owner, ok := bd.lib.member(bd.typeName, name, 0)
	if !ok {
		return binding{}, false
	}
	return libEval(bd.lib, parseTyx(typ), owner.params, bd, 0), true
}

// global finds the library global a receiver names when nothing in scope
// declares it (Object in Object.keys(), document): a library value.
func (b *binder) global(f *fileFacts, name string) binding {
	lib := f.c.spec.Library
	if lib == nil {
		return binding{}
	}
	typ, ok := lib().globals[name]
	if r, _ := utf8.DecodeRuneInString(name); !ok || !unicode.IsUpper(r) && !contains(libLowerGlobals, name) {
		return binding{}
	}
	if ty := libEval(lib(), parseTyx(typ), nil, binding{}, 0); ty.found() {
		return ty
	}
	return binding{external: true}
}

// instance finds the type call k of f instantiates (new C()): the
// workspace's class, a package's (external) or a library type.
func (b *binder) instance(f *fileFacts, name string, pos int) binding {
	bd := b.lookup(f, name, pos, 0)
	if ty := b.types(bd); len(ty.defs) > 0 {
		return ty
	}
	if bd.external {
		return binding{external: true, typeName: name}
	}
	if lib := f.c.spec.Library; lib != nil && !bd.found() {
		if _, ok := lib().types[name]; ok {
			return binding{external: true, typeName: name, lib: lib()}
		}
	}
	return binding{}
}

// defType finds the type of the variable definition dr: its declaration's
// written type or initial value.
func (b *binder) defType(dr defRef) binding {
	d := dr.f.defs[dr.i]
	for _, t := range dr.f.typed {
		if t.Name == d.Name && t.Start == d.Start && !t.Return {
			return b.declType(dr.f, t, d.Start)
		}
	}
	return b.valueType(dr.f, d.Start, d.End)
}

// thisUntyped reports whether this, at pos of a TypeScript file, is
// outside every class (an object literal's method, a plain function): the
// compiler types it as the object literal or any, never as a class.
func (b *binder) thisUntyped(f *fileFacts, pos int) bool {
	switch f.c.spec.Lang {
	case "typescript", "tsx":
		return len(b.enclosingClass(f, pos).defs) == 0
	}
	return false
}

// intersection finds what an intersection of types names when one part
// alone holds the members the workspace may define: an object type among
// library types (Promise<T> & { resolve(v: T): void }: its resolve is
// written there, then is Promise's), or one workspace type among library
// types; nothing otherwise (two workspace types, or a part unknown).
func (b *binder) intersection(f *fileFacts, args []tyx, pos, depth int) binding {
	var own, lib binding
	n, libs := 0, 0
	for _, a := range args {
		ty := b.evalType(f, a, pos, depth+1)
		switch {
		case !ty.found() || len(ty.files) > 0:
			return binding{}
		case ty.shape != nil || len(ty.defs) > 0:
			own = ty
			n++
		case ty.lib == nil:
			return binding{} // a package's type: its members are not known
		default:
			lib = ty
			libs++
		}
	}
	if n != 1 {
		return binding{}
	}
	if own.shape != nil && libs == 1 {
		own.rest = &lib // what the object type does not write is the library type's
	}
	return own
}

// anyType is what a value typed any holds: a checker ties its members,
// fields and results to nothing, and they are any too.
var anyType = binding{external: true, typeName: tstype.Any}

// isAny reports whether bd is the type any (anyType, or a member of it).
func (bd binding) isAny() bool { return bd.external && bd.typeName == tstype.Any }

// union finds what a union of types names: the workspace's types among
// them (a call binds to each one's member), else a library value; nothing
// when one of them cannot be named.
func union(members []tyx, eval func(tyx) binding) binding {
	var out binding
	for _, m := range members {
		ty := eval(m)
		if !ty.found() || len(ty.files) > 0 {
			return binding{}
		}
		out.defs = append(out.defs, ty.defs...)
	}
	if len(out.defs) == 0 {
		return binding{external: true}
	}
	return out
}

// eitherOf finds what a value that is one of alts names (a ?? b): any
// when one is any, the workspace's types among them, else a library
// value; nothing when one of them is unknown.
func eitherOf(alts []binding) binding {
	var out binding
	for _, ty := range alts {
		switch {
		case ty.isAny():
			return anyType
		case !ty.found() || len(ty.files) > 0:
			return binding{}
		}
		out.defs = append(out.defs, ty.defs...)
	}
	if len(out.defs) == 0 {
		if len(alts) == 1 {
			return alts[0]
		}
		return binding{external: true}
	}
	return out
}

// superMember finds name as a member of the supertypes of the class
// around pos (super.name()).
func (b *binder) superMember(f *fileFacts, pos int, name string) binding {
	cls := b.enclosingClass(f, pos)
	var out []defRef
	for _, c := range cls.defs {
		supers := 0
		for _, sf := range f.supers {
			if sf.Def != c.i {
				continue
			}
			supers++
			sup := b.superType(f, sf, f.defs[c.i].Start)
			if sup.external || !sup.found() && f.c.spec.Library != nil && f.c.spec.Library().types[sf.Name] != nil {
				return binding{external: true} // a library or package class's member
			}
			for _, p := range sup.defs {
				if p.f.defs[p.i].container {
					out = append(out, b.member(binding{defs: []defRef{p}}, name).defs...)
				}
			}
		}
		if supers == 0 && f.c.spec.Library != nil {
			return binding{external: true} // class A: super() is object
		}
	}
	return binding{defs: out}
}
