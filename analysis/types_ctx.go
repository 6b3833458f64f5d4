package analysis

import (
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/core/tree"
)

// Contextual typing of callbacks: a function literal passed to a library
// container's iteration method (xs.forEach(x => ...), m.forEach((v, k) =>
// ...)) gives its untyped parameters the container's element types; one
// passed to the workspace's function or constructor, the types its
// parameter's written function type gives them (operate((source,
// subscriber) => ...) with operate(init: (s: Observable<T>, sub:
// Subscriber<R>) => void)).

// ctxPrefix starts the ValExpr of a callback parameter typed by its
// context: "cb:<method>:<index>:<start>:<end>", the receiver's range.
const ctxPrefix = "cb:"

// elemMethods are Array's methods whose callback's first parameter is an
// element; Set's and Map's forEach are handled by ctxElem.
var elemMethods = map[string]bool{"forEach": true, "map": true, "filter": true, "find": true, "findIndex": true,
	"findLast": true, "findLastIndex": true, "some": true, "every": true, "flatMap": true}

// callbackParamExpr returns the contextual ValExpr of the untyped
// parameter declared by n (a required_parameter, or an arrow function's
// single parameter) of a function literal passed to a call: for the first
// argument of recv.method(...) where method is an iteration method, the
// element form (ctxPrefix); for any other argument of a call or new, the
// argument form (argPrefix), typed by what the callee's parameter there
// writes. "" when n is no such parameter.
func callbackParamExpr(n tree.Node) string {
	fn, index := n, 0
	if n.Kind() == "required_parameter" {
		params := n.Parent()
		if params.Kind() != "formal_parameters" {
			return ""
		}
		index = paramPosition(n) - 1
		fn = params.Parent()
	}
	if index < 0 || fn.Kind() != "arrow_function" && fn.Kind() != "function_expression" {
		return ""
	}
	// The argument holding it: itself, or a branch of a conditional
	// (new Observable(s ? (sub) => ... : (sub) => ...)), parenthesized or
	// not.
	passed, args := fn, fn.Parent()
	for range 4 {
		if k := args.Kind(); k != "parenthesized_expression" && k != "ternary_expression" {
			break
		}
		if c := args.ChildByField("condition"); !c.IsZero() && c.StartByte() == passed.StartByte() {
			return ""
		}
		passed, args = args, args.Parent()
	}
	if args.Kind() != "arguments" {
		return ""
	}
	arg := -1
	for i, a := range namedNonExtra(args) {
		if a.StartByte() == passed.StartByte() {
			arg = i
		}
	}
	call := args.Parent()
	if arg < 0 || call.Kind() != "call_expression" && call.Kind() != "new_expression" {
		return ""
	}
	if callee := call.ChildByField("function"); arg == 0 && index <= 1 && callee.Kind() == "member_expression" {
		method, recv := callee.ChildByField("property").Text(), callee.ChildByField("object")
		if elemMethods[method] && !recv.IsZero() {
			return ctxPrefix + method + ":" + strconv.Itoa(index) + ":" + strconv.Itoa(recv.StartByte()) + ":" +
				strconv.Itoa(recv.EndByte())
		}
	}
	return argPrefix + strconv.Itoa(arg) + ":" + strconv.Itoa(index) + ":" + strconv.Itoa(call.StartByte()) + ":" +
		strconv.Itoa(call.EndByte())
}

// argPrefix starts the ValExpr of a callback parameter typed by the
// callee it is passed to: "ca:<argument>:<parameter>:<start>:<end>", the
// call's range.
const argPrefix = "ca:"

// ctxArg types a callback parameter from its argument ValExpr (see
// callbackParamExpr): the callee's parameter at the callback's position
// writes a function type, whose parameter at the callback parameter's
// position has the type, read where the callee is declared. A new C(...)
// calls C's constructors.
func (b *binder) ctxArg(f *fileFacts, v string) binding {
	parts := strings.Split(strings.TrimPrefix(v, argPrefix), ":")
	if len(parts) != 4 || b.depth > maxTypeDepth {
		return binding{}
	}
	var n [4]int
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil {
			return binding{}
		}
		n[i] = x
	}
	arg, param, start, end := n[0], n[1], n[2], n[3]
	k, ok := f.callAt(start, end)
	if !ok {
		return binding{}
	}
	b.depth++
	defer func() { b.depth-- }()
	var callees []defRef
	var targs []typeFrame // what the call gives the type parameters
	if k.New && !k.Member && k.Name != "" {
		inst := b.newArgs(f, k, b.instance(f, k.Name, k.Start))
		for _, c := range inst.defs {
			callees = append(callees, b.membersOf(c, "constructor", 0)...)
		}
		targs = inst.targs
	} else {
		called := b.resolveCall(f, k)
		if arg == 0 && param == 0 && k.Name == "then" && called.typeName == "Promise" && len(called.typeArgs) == 1 {
			return called.typeArgs[0] // p.then((value) => ...): what the promise gives
		}
		called = b.callArgs(f, k, called)
		callees, targs = called.defs, called.targs
	}
	for _, dr := range callees {
		d := dr.f.defs[dr.i]
		for _, t := range dr.f.typed {
			if t.Scope == dr.i && t.Param == arg+1 && param < len(t.Sig) && t.Sig[param] != "" {
				// computed<Set<Id>>('k', (prev) => …) with compute:
				// (previousValue: Value) => Value: prev is a Set<Id>.
				ty := b.inFrames(b.framesFor(targs, dr), func() binding {
					return b.evalType(dr.f, parseTyx(t.Sig[param]), d.Start, 0)
				})
				if ty.found() {
					return ty
				}
			}
		}
	}
	return binding{}
}

// namedNonExtra returns n's named children that are not comments.
func namedNonExtra(n tree.Node) []tree.Node {
	var out []tree.Node
	for _, c := range n.NamedChildren() {
		if !c.IsExtra() {
			out = append(out, c)
		}
	}
	return out
}

// ctxElem types a callback parameter from its contextual ValExpr (see
// callbackParamExpr): the element type argument of the receiver's library
// type (Array<T> and ReadonlyArray<T> give T to the first parameter and
// Number, the index, to the second; Set's
// forEach T to the first, Map<K, V>'s V to the first and K to the second).
func (b *binder) ctxElem(f *fileFacts, v string) binding {
	parts := strings.Split(strings.TrimPrefix(v, ctxPrefix), ":")
	if len(parts) != 4 || b.depth > maxTypeDepth {
		return binding{}
	}
	index, err1 := strconv.Atoi(parts[1])
	start, err2 := strconv.Atoi(parts[2])
	end, err3 := strconv.Atoi(parts[3])
	if err1 != nil || err2 != nil || err3 != nil || start < 0 || end > len(f.src) || start >= end {
		return binding{}
	}
	b.depth++
	recv := b.valueType(f, start, end)
	b.depth--
	arg := -1
	switch {
	case recv.lib == nil:
	case (recv.typeName == "Array" || recv.typeName == "ReadonlyArray") && index == 0:
		arg = 0
	case recv.typeName == "Array" || recv.typeName == "ReadonlyArray":
		return b.evalType(f, parseTyx("Number"), start, 0) // the element's index
	case (recv.typeName == "Set" || recv.typeName == "ReadonlySet") && parts[0] == "forEach" && index == 0:
		arg = 0
	case (recv.typeName == "Map" || recv.typeName == "ReadonlyMap") && parts[0] == "forEach":
		arg = 1 - index
	}
	if arg < 0 || arg >= len(recv.typeArgs) {
		return binding{}
	}
	return recv.typeArgs[arg]
}
