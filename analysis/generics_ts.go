package analysis

import (
	"slices"

	"github.com/loupe-dev/loupe/analysis/internal/tstype"
	"github.com/loupe-dev/loupe/core/tree"
)

// TypeScript's type arguments, as a reader follows them: a written
// Atom<Vec> makes Atom's Value a Vec in the types of Atom's members (get()
// returns a Vec), through the heritage that passes them on (interface Atom<V>
// extends Signal<V>); a generic function's type parameters are what its call
// writes (atom<Vec>()) or, when it writes none, the type of the argument
// passed for a parameter written as the type parameter itself (cache<K, V>(m,
// k: K, v: V): V called with new Map() returns a Map). Inference beyond that
// (from parts of a parameter's type, from the context) stays out.

// typeFrame binds the type parameters of one generic declaration, a class,
// interface, type alias, function or method, to the types a use gives them,
// in the order the declaration lists them; an unknown one is not found.
type typeFrame struct {
	owner defRef
	args  []binding
}

// ownTypeParams returns the type parameters declaration dr lists, in order.
func ownTypeParams(dr defRef) []typedName {
	d := dr.f.defs[dr.i]
	var out []typedName
	for _, tp := range dr.f.typeParams {
		if tp.Start == d.Start && tp.Until == d.End {
			out = append(out, tp)
		}
	}
	return out
}

// frameArg finds the type the innermost frame in effect gives type
// parameter tp of f; ok is false when no frame binds it to a known type.
func (b *binder) frameArg(f *fileFacts, tp typedName) (binding, bool) {
	for i := len(b.env) - 1; i >= 0; i-- {
		fr := b.env[i]
		if fr.owner.f != f || len(fr.args) == 0 {
			continue // a frame giving nothing leaves this's type arguments (this.value in Box<T>'s peek())
		}
		if d := f.defs[fr.owner.i]; d.Start != tp.Start || d.End != tp.Until {
			continue
		}
		idx := 0
		for _, o := range f.typeParams {
			if o.Start != tp.Start || o.Until != tp.Until {
				continue
			}
			if o.Name == tp.Name {
				break
			}
			idx++
		}
		if idx < len(fr.args) && fr.args[idx].found() {
			return fr.args[idx], true
		}
		return binding{}, false
	}
	return binding{}, false
}

// inFrames evaluates fn with frames in effect.
func (b *binder) inFrames(frames []typeFrame, fn func() binding) binding {
	if len(frames) == 0 {
		return fn()
	}
	n := len(b.env)
	b.env = append(b.env, frames...)
	defer func() { b.env = b.env[:n] }()
	return fn()
}

// framesFor returns the frames of targs that hold in the declaration of m:
// its own (a generic function's), its class's, and those its class's
// supertypes take from them through their heritage (a member of Signal
// reached from an Atom<Vec>).
func (b *binder) framesFor(targs []typeFrame, m defRef) []typeFrame {
	var out []typeFrame
	parent := m.f.defs[m.i].Parent
	for _, fr := range targs {
		switch {
		case fr.owner == m:
			out = append(out, fr)
		case parent < 0:
		case fr.owner == defRef{m.f, parent}:
			out = append(out, fr)
		default:
			if sup, ok := b.superFrame(fr, defRef{m.f, parent}, 0); ok {
				out = append(out, sup)
			}
		}
	}
	return out
}

// superFrame finds the frame of supertype p of frame fr's owner, following
// the type arguments each heritage writes (extends Signal<Value, Diff>),
// evaluated in the frame of the type that writes them.
func (b *binder) superFrame(fr typeFrame, p defRef, depth int) (typeFrame, bool) {
	if depth > 4 || b.depth > maxTypeDepth {
		return typeFrame{}, false
	}
	o := fr.owner
	for _, sf := range o.f.supers {
		if sf.Def != o.i || len(sf.Args) == 0 {
			continue
		}
		next, ok := b.heritageFrame(fr, sf)
		if !ok {
			continue
		}
		if next.owner == p {
			return next, true
		}
		if r, ok := b.superFrame(next, p, depth+1); ok {
			return r, true
		}
	}
	return typeFrame{}, false
}

// heritageFrame finds the frame supertype fact sf of frame fr's owner
// gives its supertype: the type arguments it writes, in fr.
func (b *binder) heritageFrame(fr typeFrame, sf superFact) (typeFrame, bool) {
	o := fr.owner
	pos := o.f.defs[o.i].Start
	b.depth++
	defer func() { b.depth-- }()
	sup := b.types(b.superType(o.f, sf, pos))
	if len(sup.defs) == 0 {
		return typeFrame{}, false
	}
	next := typeFrame{owner: sup.defs[0]}
	b.inFrames([]typeFrame{fr}, func() binding {
		for _, a := range sf.Args {
			next.args = append(next.args, b.evalType(o.f, parseTyx(a), pos, 1))
		}
		return binding{}
	})
	return next, true
}

// framesOf returns the frames of targs whose owner is dr.
func framesOf(targs []typeFrame, dr defRef) []typeFrame {
	var out []typeFrame
	for _, fr := range targs {
		if fr.owner == dr {
			out = append(out, fr)
		}
	}
	return out
}

// ownFrames is framesOf, or else a frame of dr giving its type parameters
// nothing: what its heritage writes (class Holder extends Box<Cache>)
// still gives its supertypes theirs.
func ownFrames(targs []typeFrame, dr defRef) []typeFrame {
	if out := framesOf(targs, dr); len(out) > 0 {
		return out
	}
	return []typeFrame{{owner: dr}}
}

// writtenArgs gives type ty, a generic type of the workspace written with
// type arguments args (Atom<Vec>), its frame: the arguments evaluated at
// pos of f.
func (b *binder) writtenArgs(f *fileFacts, ty binding, args []tyx, pos, depth int) binding {
	if len(args) == 0 || len(ty.defs) == 0 || len(ownTypeParams(ty.defs[0])) == 0 {
		return ty
	}
	fr := typeFrame{owner: ty.defs[0]}
	for _, a := range args {
		fr.args = append(fr.args, b.evalType(f, a, pos, depth+1))
	}
	ty.targs = append(slices.Clip(ty.targs), fr)
	return ty
}

// callArgs adds to called, what call k of f calls, the frame of its generic
// function: the type arguments k writes, else those its arguments give
// parameters written as a type parameter (v: V).
func (b *binder) callArgs(f *fileFacts, k call, called binding) binding {
	if !f.c.spec.jsFamily() || b.depth > maxTypeDepth {
		return called
	}
	called = overload(k, called)
	if len(called.defs) != 1 {
		return called
	}
	dr := called.defs[0]
	if d := dr.f.defs[dr.i]; !d.Callable && d.Label != lSignature {
		return called
	}
	if fr, ok := b.inferFrame(f, k, dr, dr); ok {
		called.targs = append(slices.Clip(called.targs), fr)
	}
	return called
}

// overload keeps, of the overloads of one function called bd names (or
// those declared before the implementation it names), the one call k
// calls as the compiler picks it, by the number of its arguments: the
// first declared whose required parameters k passes and that takes no
// fewer than k passes. bd as it is when it names anything else or no
// overload takes k's arguments.
func overload(k call, bd binding) binding {
	if len(bd.defs) == 1 {
		// A function declared with overloads: callers see those alone.
		// (Its overloads are the signatures declared right before it.)
		dr := bd.defs[0]
		d := dr.f.defs[dr.i]
		var sigs []defRef
		for i := dr.i - 1; i >= 0 && d.Callable; i-- {
			o := dr.f.defs[i]
			if o.Parent != d.Parent {
				continue // nested in an overload's types ({ fn(): void }) or in a sibling
			}
			if o.Label != lSignature || o.Name != d.Name || o.Parent != d.Parent {
				break
			}
			sigs = append([]defRef{{dr.f, i}}, sigs...)
		}
		if len(sigs) == 0 {
			return bd
		}
		bd.defs = sigs
	}
	if len(bd.defs) < 2 {
		return bd
	}
	f := bd.defs[0].f
	for _, dr := range bd.defs {
		if d := dr.f.defs[dr.i]; dr.f != f || !d.Callable && d.Label != lSignature {
			return bd
		}
	}
	defs := slices.Clone(bd.defs)
	slices.SortFunc(defs, func(a, c defRef) int { return a.f.defs[a.i].Start - c.f.defs[c.i].Start })
	// The first that takes as many arguments as k passes; else (a rest
	// parameter is not counted) the first whose required ones k passes.
	for _, exact := range []bool{true, false} {
		for _, dr := range defs {
			required, all := 0, 0
			for _, t := range f.typed {
				if t.Scope == dr.i && t.Param > 0 {
					all++
					if !t.Opt {
						required++
					}
				}
			}
			if required <= len(k.Args) && (!exact || len(k.Args) <= all) {
				bd.defs = []defRef{dr}
				return bd
			}
		}
	}
	return bd
}

// newArgs adds to ty, the class call k of f instantiates (new C<T>(x)),
// the frame of its type parameters: written, or given by the arguments of
// its constructor's parameters written as one; to a library type (new
// Map<K, V>()), the type arguments written.
func (b *binder) newArgs(f *fileFacts, k call, ty binding) binding {
	if !f.c.spec.jsFamily() || b.depth > maxTypeDepth {
		return ty
	}
	if ty.lib != nil && len(ty.typeArgs) == 0 {
		// new Map<K, Subject>(): a library type's written arguments.
		for _, a := range k.TypeArgs {
			ty.typeArgs = append(ty.typeArgs, b.evalType(f, parseTyx(a), k.Start, 1))
		}
		return ty
	}
	if len(ty.defs) != 1 {
		return ty
	}
	cls := ty.defs[0]
	ctor := cls
	for _, m := range b.membersOf(cls, "constructor", 0) {
		if m.f == cls.f && m.f.defs[m.i].Parent == cls.i {
			ctor = m
		}
	}
	if fr, ok := b.inferFrame(f, k, cls, ctor); ok {
		ty.targs = append(slices.Clip(ty.targs), fr)
	}
	return ty
}

// inferFrame finds the frame call k of f gives the type parameters of
// owner, whose parameters are those of fn: each written type argument, else
// the type of the argument passed for a parameter of fn written as that
// type parameter. ok is false when it gives none.
func (b *binder) inferFrame(f *fileFacts, k call, owner, fn defRef) (typeFrame, bool) {
	tps := ownTypeParams(owner)
	if len(tps) == 0 {
		return typeFrame{}, false
	}
	fr := typeFrame{owner: owner, args: make([]binding, len(tps))}
	known := false
	b.depth++
	defer func() { b.depth-- }()
	for i, tp := range tps {
		if i < len(k.TypeArgs) {
			fr.args[i] = b.evalType(f, parseTyx(k.TypeArgs[i]), k.Start, 1)
		} else if a := paramWritten(fn, tp.Name); a >= 0 && a < len(k.Args) && len(k.TypeArgs) == 0 {
			fr.args[i] = b.valueType(f, k.Args[a][0], k.Args[a][1])
		} else if a := paramConstructs(fn, tp.Name); a >= 0 && a < len(k.Args) && len(k.TypeArgs) == 0 {
			// theClass: new (...args: any[]) => T given a class: T is
			// its instances.
			if cls := b.lookup(f, string(f.src[k.Args[a][0]:k.Args[a][1]]), k.Start, 0); b.isTypeBinding(cls) {
				fr.args[i] = b.types(cls)
			}
		} else if a := paramYields(fn, tp.Name); a >= 0 && a < len(k.Args) && len(k.TypeArgs) == 0 {
			// init: () => T given () => ({ stack: … }): T is what the
			// function literal returns.
			fr.args[i] = b.literalReturn(f, k.Args[a][0])
		}
		known = known || fr.args[i].found()
	}
	return fr, known
}

// paramYields finds the 0-based position of the parameter of function dr
// written as a function type returning name alone (() => T); -1 when none
// is.
func paramYields(dr defRef, name string) int {
	for _, t := range dr.f.typed {
		if t.Scope == dr.i && t.Param > 0 && t.Yields == name && !t.Return {
			return t.Param - 1
		}
	}
	return -1
}

// paramWritten finds the 0-based position of the parameter of function dr
// whose written type is name alone (value: V); -1 when none is.
func paramWritten(dr defRef, name string) int {
	for _, t := range dr.f.typed {
		if t.Scope == dr.i && t.Param > 0 && t.Expr == name && !t.Return {
			return t.Param - 1
		}
	}
	return -1
}

// paramConstructs finds the 0-based position of the parameter of function
// dr written as a constructor type making name alone (new (...) => T);
// -1 when none is.
func paramConstructs(dr defRef, name string) int {
	for _, t := range dr.f.typed {
		if t.Scope == dr.i && t.Param > 0 && t.Constructs == name && !t.Return {
			return t.Param - 1
		}
	}
	return -1
}

// computedKey names a TypeScript member whose key is a name's value
// ([$mobx]: T): "[$mobx]", as x[$mobx] reads it; "" for any other key.
func computedKey(n tree.Node) string {
	if n.Kind() != "computed_property_name" {
		return ""
	}
	if cs := namedNonExtra(n); len(cs) == 1 && cs[0].Kind() == "identifier" {
		return "[" + cs[0].Text() + "]"
	}
	return ""
}

// heritageTypeArgs returns the compact forms of the type arguments a
// TypeScript heritage node writes: a generic_type's (implements D<T>,
// interface extends S<V>), or an extends clause's beside its value
// (extends C<T>).
func heritageTypeArgs(n tree.Node) []string {
	ta := n.ChildByField("type_arguments")
	if ta.IsZero() {
		if p := n.Parent(); !p.IsZero() && p.Kind() == "extends_clause" {
			ta = p.ChildByField("type_arguments")
		}
	}
	if ta.IsZero() {
		return nil
	}
	var out []string
	for _, a := range namedNonExtra(ta) {
		out = append(out, tstype.Expr(a))
	}
	return out
}
