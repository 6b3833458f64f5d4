package analysis

import (
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/analysis/internal/tstype"
	"github.com/loupe-dev/loupe/core/tree"
)

// Narrowing: inside the branch a test guards, a name has the type the test
// proves (TypeScript's if (x instanceof C), typeof x === "string",
// if (isObservableMap(x)) with isObservableMap(x): x is ObservableMap, and
// the same tests before && and in a ?: condition). Only the branch the
// test holds in is narrowed; a test that returns early is not followed.

// narrowFact says that within [Start, End) of its file, Name has the type
// its test proves: a written type Type (instanceof), a compact type Prim
// (typeof), or the type predicate of the function the call at
// [Guard, GuardEnd) calls.
type narrowFact struct {
	Name            string
	Start, End      int
	Type, Prim      string
	Guard, GuardEnd int
	// Alts, when set, are the tests of a disjunction (isMap(x) ||
	// isSet(x)), each narrowing Name: it has the union of their types.
	Alts []narrowFact
	// Not: the test proves Name is not of the type Type or Alts give
	// (Python's not isinstance(x, C), the else of isinstance(x, C)), which
	// tells no type over [Start, End): an Unknown stays Unknown. Where the
	// branches meet after it, the way around the branch holds a C.
	Not bool
}

// typeofTypes maps the strings typeof compares with to the compact types
// holding their members.
var typeofTypes = map[string]string{"string": "String", "number": "Number", "boolean": "Boolean",
	"symbol": "Symbol", "bigint": "BigInt", "function": "Function"}

// tsNarrows returns the narrowings node n makes: an if statement's
// condition over its consequence, a && b's left side over its right side,
// a ?: condition over its consequence, and an if (!test) whose branch
// always leaves over the rest of its block.
func tsNarrows(n tree.Node) []narrowFact {
	out := branchNarrows(n, []string{"if_statement", "ternary_expression"}, "binary_expression", "&&", tsTests)
	if n.Kind() == "if_statement" {
		test := n.ChildByField("condition")
		for test.Kind() == "parenthesized_expression" {
			test = firstNamedNonExtra(test)
		}
		if test.Kind() == "unary_expression" && test.ChildByField("operator").Text() == "!" {
			out = append(out, narrowsAfter(n, test.ChildByField("argument"), []string{"continue_statement",
				"break_statement", "return_statement", "throw_statement"}, tsTests, tsAssigns)...)
		}
	}
	return out
}

// narrowsAfter returns the narrowings an if statement n with no else
// makes after itself in its block when its branch always leaves (its last
// statement is one of leaves): what inner, the test n negates, proves
// holds from the end of n to the end of the block, or to the next
// statement that assigns the name (assigns). tests reads inner.
func narrowsAfter(n, inner tree.Node, leaves []string, tests func(test tree.Node, start, end, depth int, out *[]narrowFact),
	assigns func(s tree.Node, name string) bool) []narrowFact {
	body := n.ChildByField("consequence")
	if inner.IsZero() || body.IsZero() || !n.ChildByField("alternative").IsZero() {
		return nil
	}
	last := body
	if body.Kind() == "block" || body.Kind() == "statement_block" {
		stmts := namedNonExtra(body)
		if len(stmts) == 0 {
			return nil
		}
		last = stmts[len(stmts)-1]
	}
	if !contains(leaves, last.Kind()) {
		return nil
	}
	block := n.Parent()
	var pos []narrowFact
	tests(inner, n.EndByte(), block.EndByte(), 0, &pos)
	for i := range pos {
		if pos[i].Type == "" && pos[i].Prim == "" && pos[i].Guard == 0 && len(pos[i].Alts) == 0 {
			return nil // a test that tells no type
		}
		for s := n.NextNamedSibling(); !s.IsZero(); s = s.NextNamedSibling() {
			if assigns(s, pos[i].Name) {
				pos[i].End = s.StartByte()
				break
			}
		}
		for j := range pos[i].Alts {
			pos[i].Alts[j].End = pos[i].End
		}
	}
	return pos
}

// tsAssigns reports whether TypeScript statement n assigns the name (x =
// ..., x ??= ...) anywhere inside it, or declares it again.
func tsAssigns(n tree.Node, name string) bool {
	found := false
	var walk func(c tree.Node, depth int)
	walk = func(c tree.Node, depth int) {
		if found || c.IsZero() || depth > 64 {
			return
		}
		switch c.Kind() {
		case "assignment_expression", "augmented_assignment_expression":
			if l := c.ChildByField("left"); l.Kind() == "identifier" && l.Text() == name {
				found = true
				return
			}
		case "variable_declarator":
			if l := c.ChildByField("name"); l.Kind() == "identifier" && l.Text() == name {
				found = true
				return
			}
		}
		for _, k := range c.NamedChildren() {
			walk(k, depth+1)
		}
	}
	walk(n, 0)
	return found
}

// branchNarrows returns the narrowings node n makes: the test of one of
// ifKinds (its condition) over its consequence, and a conjunction's (a
// conjKind with operator conjOp) left side over its right side, each test
// read by tests.
func branchNarrows(n tree.Node, ifKinds []string, conjKind, conjOp string,
	tests func(test tree.Node, start, end, depth int, out *[]narrowFact)) []narrowFact {
	var test, region tree.Node
	switch k := n.Kind(); {
	case contains(ifKinds, k):
		test, region = n.ChildByField("condition"), n.ChildByField("consequence")
	case k == conjKind:
		if op := n.ChildByField("operator"); op.IsZero() || op.Text() != conjOp {
			return nil
		}
		test, region = n.ChildByField("left"), n.ChildByField("right")
	default:
		return nil
	}
	if test.IsZero() || region.IsZero() {
		return nil
	}
	var out []narrowFact
	tests(test, region.StartByte(), region.EndByte(), 0, &out)
	return out
}

// tsTests adds the narrowings test proves over [start, end): each side of
// a conjunction, a guard call on a name, instanceof and typeof checks.
func tsTests(test tree.Node, start, end, depth int, out *[]narrowFact) {
	if test.IsZero() || depth > 8 {
		return
	}
	switch test.Kind() {
	case "parenthesized_expression":
		tsTests(firstNamedNonExtra(test), start, end, depth+1, out)
	case "call_expression":
		args := namedNonExtra(test.ChildByField("arguments"))
		if len(args) > 0 && args[0].Kind() == "identifier" {
			*out = append(*out, narrowFact{Name: args[0].Text(), Start: start, End: end, Guard: test.StartByte(),
				GuardEnd: test.EndByte()})
		}
	case "binary_expression":
		op, left, right := test.ChildByField("operator").Text(), test.ChildByField("left"), test.ChildByField("right")
		switch op {
		case "&&":
			tsTests(left, start, end, depth+1, out)
			tsTests(right, start, end, depth+1, out)
		case "||":
			// Both sides narrowing one name: it has either type.
			var l, r []narrowFact
			tsTests(left, start, end, depth+1, &l)
			tsTests(right, start, end, depth+1, &r)
			for _, a := range l {
				for _, c := range r {
					if a.Name == c.Name {
						*out = append(*out, narrowFact{Name: a.Name, Start: start, End: end,
							Alts: append(alternatives(a), alternatives(c)...)})
					}
				}
			}
		case "instanceof":
			if left.Kind() == "identifier" && (right.Kind() == "identifier" || right.Kind() == "member_expression") {
				*out = append(*out, narrowFact{Name: left.Text(), Start: start, End: end,
					Type: strings.Join(strings.Fields(right.Text()), "")})
			}
		case "===", "==":
			if left.Kind() != "unary_expression" {
				left, right = right, left
			}
			arg := left.ChildByField("argument")
			if left.Kind() != "unary_expression" || left.ChildByField("operator").Text() != "typeof" ||
				arg.Kind() != "identifier" || right.Kind() != "string" {
				return
			}
			if prim := typeofTypes[strings.Trim(right.Text(), `"'`)]; prim != "" {
				*out = append(*out, narrowFact{Name: arg.Text(), Start: start, End: end, Prim: prim})
			}
		}
	}
}

// alternatives returns the tests a narrowing stands for: its own
// alternatives, or itself.
func alternatives(nf narrowFact) []narrowFact {
	if len(nf.Alts) > 0 {
		return nf.Alts
	}
	return []narrowFact{nf}
}

// firstNamedNonExtra returns n's first named child that is not a comment.
func firstNamedNonExtra(n tree.Node) tree.Node {
	if cs := namedNonExtra(n); len(cs) > 0 {
		return cs[0]
	}
	return tree.Node{}
}

// narrowed finds the type the innermost test around pos of f proves name
// has. applies reports whether a test narrows name there: a test whose
// type cannot be told (a guard of a function out of reach) applies with
// an unknown type; a call of a function with no type predicate does not.
func (b *binder) narrowed(f *fileFacts, name string, pos int) (ty binding, applies bool) {
	best := -1
	for i, nf := range f.narrows {
		if nf.Name == name && !nf.Not && nf.Start <= pos && pos < nf.End && (best < 0 || nf.Start >= f.narrows[best].Start) {
			best = i
		}
	}
	if best < 0 {
		return binding{}, false
	}
	return b.narrowedBy(f, f.narrows[best], pos)
}

// narrowedBy finds the type test nf proves for its name at pos of f, and
// whether it narrows it; narrowed's for one test.
func (b *binder) narrowedBy(f *fileFacts, test narrowFact, pos int) (ty binding, applies bool) {
	if b.depth > maxTypeDepth {
		return binding{}, false
	}
	name := test.Name
	b.depth++
	defer func() { b.depth-- }()
	var alts []binding
	for _, nf := range alternatives(test) {
		ty, applies := b.narrowType(f, nf, pos)
		switch {
		case !applies:
			return binding{}, false
		case !ty.found() || len(ty.files) > 0:
			return binding{}, true
		}
		alts = append(alts, ty)
	}
	if f.c.spec.jsFamily() {
		alts = b.withoutSubtypes(alts)
	}
	var out binding
	for _, ty := range alts {
		out.defs = append(out.defs, ty.defs...)
		if ty.external && out.typeName == "" {
			out.external, out.typeName, out.lib, out.typeArgs = true, ty.typeName, ty.lib, ty.typeArgs
		}
	}
	if len(out.defs) > 0 {
		out.external, out.typeName, out.lib, out.typeArgs = false, "", nil, nil // a call binds to the workspace's members
	}
	if out.typeName == tstype.Anonymous {
		// hasLift(source): source is { lift: … } with source: Observable<T>:
		// a written type keeps its members, as the compiler narrows it to
		// itself (it holds the object type's) or to both (it does not).
		if t, ok := b.declAt(f, name, pos); ok {
			if decl := b.declType(f, t, pos); decl.found() && !decl.isAny() {
				return decl, true
			}
		}
	}
	return out, true
}

// withoutSubtypes drops, of the types a disjunction of tests proves
// (isES6Map(x) || isObservableMap(x)), those another of them is a
// supertype of, as the compiler reduces the union: ObservableMap, which
// implements Map, leaves Map<any, any>, whose get dispatches to it.
func (b *binder) withoutSubtypes(alts []binding) []binding {
	if len(alts) < 2 {
		return alts
	}
	keep := alts[:0:0]
	for i, a := range alts {
		sub := len(a.defs) > 0 && slices.ContainsFunc(alts, func(o binding) bool {
			return !sameType(o, alts[i]) && !slices.ContainsFunc(a.defs, func(dr defRef) bool { return !b.subtypeOf(dr, o, 0) })
		})
		if !sub {
			keep = append(keep, a)
		}
	}
	return keep
}

// subtypeOf reports whether type dr extends or implements o, a workspace
// type or a library one named by its name, itself or through its
// supertypes.
func (b *binder) subtypeOf(dr defRef, o binding, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, od := range o.defs {
		if b.inherits(dr, od, 0) {
			return true
		}
	}
	if !o.external || o.typeName == "" || o.typeName == tstype.Anonymous {
		return false
	}
	for _, sf := range dr.f.supers {
		if sf.Def != dr.i {
			continue
		}
		if sf.Name == o.typeName {
			return true
		}
		for _, p := range b.superType(dr.f, sf, dr.f.defs[dr.i].Start).defs {
			if b.subtypeOf(p, o, depth+1) {
				return true
			}
		}
	}
	return false
}

// narrowType is the type one test nf proves, with whether it narrows.
func (b *binder) narrowType(f *fileFacts, nf narrowFact, pos int) (binding, bool) {
	switch {
	case nf.Type != "":
		ty, _ := b.writtenName(f, nf.Type, pos)
		if ty.external && ty.lib == nil && f.c.spec.Lang == "python" {
			if lt := b.evalType(f, parseTyx(nf.Type), pos, 0); lt.lib != nil {
				ty = lt // isinstance(s, bytes): bytes's members type what they give
			}
			switch ty.typeName {
			case "list", "tuple", "set", "frozenset":
				// isinstance(x, tuple): pyright's tuple[Unknown, ...].
				ty.typeArgs = []binding{anyType}
			case "dict":
				ty.typeArgs = []binding{anyType, anyType}
			}
		}
		return ty, true
	case nf.Prim != "":
		return b.evalType(f, parseTyx(nf.Prim), pos, 0), true
	}
	k, ok := f.callAt(nf.Guard, nf.GuardEnd)
	if !ok {
		return binding{}, false
	}
	called := b.resolveCall(f, k)
	if ty := b.predicate(called); ty.found() {
		return ty, true
	}
	return binding{}, len(called.defs) == 0 // a guard out of reach may narrow; a plain function does not
}

// predicate finds the type the type predicate of the functions bd names
// proves (isMap(x): x is Map<K, V>), or of the function type of a
// variable it names (const isMap = f() as (x: any) => x is Map<K, V>).
func (b *binder) predicate(bd binding) binding {
	for _, dr := range bd.defs {
		d := dr.f.defs[dr.i]
		for _, t := range dr.f.typed {
			if t.Predicate != "" && t.Name == d.Name && t.Start >= d.Start && t.Start < d.End && t.Scope == d.Parent {
				if t.Return && len(bd.targs) > 0 {
					return b.inFrames(b.framesFor(bd.targs, dr), func() binding {
						return b.evalType(dr.f, parseTyx(t.Predicate), d.Start, 0)
					})
				}
				return b.evalType(dr.f, parseTyx(t.Predicate), d.Start, 0)
			}
		}
		if ty := b.madePredicate(dr); ty.found() {
			return ty
		}
	}
	return binding{}
}

// madePredicate finds the type a guard variable proves when its value is
// a call of a function returning a guard (const isComputedValue =
// createInstanceofPredicate("ComputedValue", ComputedValue), with
// createInstanceofPredicate<T>(name, theClass: new (...args: any[]) => T):
// (x: any) => x is T): the guard's type in the call's type arguments.
func (b *binder) madePredicate(dr defRef) binding {
	d := dr.f.defs[dr.i]
	if d.Callable || d.container || b.depth > maxTypeDepth || !dr.f.c.spec.jsFamily() {
		return binding{}
	}
	for _, t := range dr.f.typed {
		if t.Name != d.Name || t.Start != d.Start || t.ValStart < 0 || t.Expr != "" {
			continue
		}
		k, ok := dr.f.callAt(t.ValStart, t.ValEnd)
		if !ok || k.New {
			return binding{}
		}
		b.depth++
		defer func() { b.depth-- }()
		called := b.callArgs(dr.f, k, b.resolveCall(dr.f, k))
		if len(called.defs) != 1 || !dr.f.defs[dr.i].Lexical {
			return binding{}
		}
		return b.predicate(called)
	}
	return binding{}
}
