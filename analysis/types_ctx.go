package analysis

import (
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/core/tree"
)

// Contextual typing of callbacks: a function literal passed to a library
// container's iteration method (xs.forEach(x => ...), m.forEach((v, k) =>
// ...)) gives its untyped parameters the container's element types.

// ctxPrefix starts the ValExpr of a callback parameter typed by its
// context: "cb:<method>:<index>:<start>:<end>", the receiver's range.
const ctxPrefix = "cb:"

// elemMethods are Array's methods whose callback's first parameter is an
// element; Set's and Map's forEach are handled by ctxElem.
var elemMethods = map[string]bool{"forEach": true, "map": true, "filter": true, "find": true, "findIndex": true,
	"findLast": true, "findLastIndex": true, "some": true, "every": true, "flatMap": true}

// callbackParamExpr returns the contextual ValExpr of the untyped
// parameter declared by n (a required_parameter, or an arrow function's
// single parameter), "" unless n is a parameter of a function literal
// passed first to recv.method(...) where method is an iteration method.
func callbackParamExpr(n tree.Node) string {
	fn, index := n, 0
	if n.Kind() == "required_parameter" {
		params := n.Parent()
		if params.Kind() != "formal_parameters" {
			return ""
		}
		index = -1
		for i, p := range namedNonExtra(params) {
			if p.StartByte() == n.StartByte() {
				index = i
			}
		}
		fn = params.Parent()
	}
	if index < 0 || index > 1 || fn.Kind() != "arrow_function" && fn.Kind() != "function_expression" {
		return ""
	}
	args := fn.Parent()
	if args.Kind() != "arguments" {
		return ""
	}
	if as := namedNonExtra(args); len(as) == 0 || as[0].StartByte() != fn.StartByte() {
		return ""
	}
	call := args.Parent()
	callee := call.ChildByField("function")
	if call.Kind() != "call_expression" || callee.Kind() != "member_expression" {
		return ""
	}
	method, recv := callee.ChildByField("property").Text(), callee.ChildByField("object")
	if !elemMethods[method] || recv.IsZero() {
		return ""
	}
	return ctxPrefix + method + ":" + strconv.Itoa(index) + ":" + strconv.Itoa(recv.StartByte()) + ":" +
		strconv.Itoa(recv.EndByte())
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
// type (Array<T> and ReadonlyArray<T> give T to the first parameter; Set's
// forEach T to the first, Map<K, V>'s V to the first and K to the second).
func (b *binder) ctxElem(f *fileFacts, v string) binding {
	parts := strings.Split(strings.TrimPrefix(v, ctxPrefix), ":")
	if len(parts) != 4 || b.depth > 6 {
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
