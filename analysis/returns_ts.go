package analysis

import (
	"slices"

	"github.com/loupe-dev/loupe/core/tree"
)

// Inferred returns (TypeScript and JavaScript): a function or method with
// no written return type returns what every one of its return statements
// gives, when a reader can tell it at a glance and they agree (return new
// Set<Id>(), return this, return this.store, return make()), as the
// compiler infers it. An async function returns a Promise of that; a
// generator's Generator is not followed.

// returnFact is a return statement's value (or an arrow function's
// expression body) of definition Def, or (Def -1) of the function literal
// passed as an argument that starts at byte Fn.
type returnFact struct {
	Def, Fn    int
	Start, End int
	// Wrapped: the function is async or a generator, so what it returns
	// is a Promise or a Generator of the value; Async: async and not a
	// generator (a Promise of it).
	Wrapped, Async bool
}

// maxInferredReturns bounds the return statements typed per definition.
const maxInferredReturns = 32

// jsFunctionKinds are the nodes that start a function body.
var jsFunctionKinds = []string{"function_declaration", "generator_function_declaration", "method_definition",
	"arrow_function", "function_expression", "generator_function", "function"}

// addReturn records n when it is a return statement with a value, or an
// arrow function's expression body, of the innermost definition on stack
// itself (not of a function literal nested in it).
func (f *fileFacts) addReturn(n tree.Node, stack []int) {
	if len(stack) == 0 {
		return
	}
	var v, fn tree.Node
	switch n.Kind() {
	case "return_statement":
		if v = firstNamedNonExtra(n); v.IsZero() {
			return
		}
		for a, up := n.Parent(), 0; !a.IsZero() && up < 64; a, up = a.Parent(), up+1 {
			if contains(jsFunctionKinds, a.Kind()) {
				fn = a
				break
			}
		}
	case "arrow_function":
		if v = n.ChildByField("body"); v.IsZero() || v.Kind() == "statement_block" {
			return
		}
		fn = n
	default:
		return
	}
	if fn.IsZero() {
		return
	}
	for range 4 {
		if v.Kind() != "parenthesized_expression" {
			break
		}
		v = firstNamedNonExtra(v) // () => ({ … }): the object literal
	}
	generator := hasToken(fn, "*") || fn.Kind() == "generator_function" || fn.Kind() == "generator_function_declaration"
	async := hasToken(fn, "async") && !generator
	wrapped := async || generator
	i := stack[len(stack)-1]
	d := f.defs[i]
	// The function must be the definition's own: the definition itself
	// (a function or method) or its value (const f = () => ...); else a
	// function literal passed as an argument (singleton('k', () => ...)).
	switch {
	case d.Callable && fn.StartByte() >= d.Start && fn.EndByte() <= d.End &&
		(fn.StartByte() == d.Start && fn.EndByte() == d.End || sameRange(fn.Parent(), d)):
		f.returns = append(f.returns, returnFact{Def: i, Start: v.StartByte(), End: v.EndByte(), Wrapped: wrapped, Async: async})
	case fn.Parent().Kind() == "arguments" && (fn.Kind() == "arrow_function" || fn.Kind() == "function_expression"):
		f.returns = append(f.returns, returnFact{Def: -1, Fn: fn.StartByte(), Start: v.StartByte(), End: v.EndByte(), Wrapped: wrapped,
			Async: async})
	}
}

// tsInferredReturn types what definition dr returns when no return type is
// written (returnsAt asks only then): the one type all its returns give; nothing when one cannot be
// typed, two differ, there are none or more than maxInferredReturns, or
// the function is async or a generator.
func (b *binder) tsInferredReturn(dr defRef) binding {
	f, d := dr.f, dr.f.defs[dr.i]
	if !f.c.spec.jsFamily() || !d.Callable || b.depth > maxTypeDepth {
		return binding{}
	}
	return b.agreedReturn(f, dr.i, -1)
}

// literalReturn types what the function literal starting at byte fn of f,
// passed as an argument, returns, as tsInferredReturn does a definition's.
func (b *binder) literalReturn(f *fileFacts, fn int) binding {
	if !f.c.spec.jsFamily() || b.depth > maxTypeDepth {
		return binding{}
	}
	for i, d := range f.defs {
		if d.Start == fn && d.Callable {
			return b.agreedReturn(f, i, -1) // a literal the outline names
		}
	}
	return b.agreedReturn(f, -1, fn)
}

// agreedReturn is the one type the returns of definition def (or, def
// -1, of the function literal at byte fn) give; see tsInferredReturn.
func (b *binder) agreedReturn(f *fileFacts, def, fn int) binding {
	var out binding
	n := 0
	async := false
	for _, r := range f.returns {
		if r.Def != def || def < 0 && r.Fn != fn {
			continue
		}
		if n++; n > maxInferredReturns || r.Wrapped && !r.Async {
			return binding{}
		}
		async = r.Async
		b.depth++
		ty := b.valueType(f, r.Start, r.End)
		b.depth--
		if async {
			ty = awaited(ty) // return await load() and return load() give the same
		}
		switch {
		case !ty.found() || len(ty.files) > 0:
			return binding{}
		case n == 1 || sameType(out, ty):
			out = ty
		case out.external || ty.external || out.member != "" || ty.member != "":
			return binding{} // two types, not both the workspace's
		default:
			// Either of the workspace's types (new Store() or new Cache()):
			// a call binds to each one's member, as for a union.
			for _, dr := range ty.defs {
				if !slices.Contains(out.defs, dr) {
					out.defs = append(out.defs, dr)
				}
			}
		}
	}
	if lib := f.c.spec.Library; async && out.found() && lib != nil {
		// An async function returns a Promise of what it returns.
		return binding{external: true, typeName: "Promise", lib: lib(), typeArgs: []binding{out}}
	}
	return out
}
