// Package tstype writes a TypeScript type, as tree-sitter's TypeScript
// grammar parses it, in the compact form structural_analysis's type layer
// reads: a type name with its type arguments (Map<String,Foo>, ns.Store,
// Array<Foo>), primitives as the library interfaces holding their members
// (string as String), and "" for a type whose members cannot be named (any,
// a union of several types, a conditional type). The library table
// generator and the analysis of project code share it, so both spell a type
// alike.
package tstype

import (
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/core/tree"
)

// Any is the form of a type a checker ties to no member: a written any,
// or a parameter no type is written for and no context types (the
// compiler's implicit any). A call on it reaches no definition. Expr never
// returns it (the library table keeps "" for any); the analysis of project
// code sets it where IsAny or an implicit any says so.
const Any = "any"

// Anonymous is the form of an object type literal ({ a(): void }): a
// type whose members belong to no named type.
const Anonymous = "{}"

// primitives maps TypeScript's primitive types to the interfaces that hold
// their members; the types whose members cannot be named map to "".
var primitives = map[string]string{
	"string": "String", "number": "Number", "boolean": "Boolean", "bigint": "BigInt", "symbol": "Symbol",
	"object": "Object", "any": "", "unknown": "", "never": "", "void": "", "undefined": "", "null": "",
}

// Expr returns the compact form of the type node n (a type annotation or
// the type itself), "" when it names no type whose members are known.
func Expr(n tree.Node) string {
	return expr(n, 0)
}

func expr(n tree.Node, depth int) string {
	if n.IsZero() || depth > 8 {
		return ""
	}
	switch n.Kind() {
	case "type_annotation", "constraint", "parenthesized_type", "readonly_type", "opting_type_annotation", "omitting_type_annotation":
		if c := firstNamed(n); !c.IsZero() {
			return expr(c, depth+1)
		}
	case "type_identifier", "identifier":
		return n.Text()
	case "nested_type_identifier":
		return strings.Join(strings.Fields(n.Text()), "")
	case "predefined_type":
		return primitives[n.Text()]
	case "this_type":
		return "this"
	case "generic_type":
		name := expr(n.ChildByField("name"), depth+1)
		if name == "" {
			return ""
		}
		var args []string
		if ta := n.ChildByField("type_arguments"); !ta.IsZero() {
			for _, a := range ta.NamedChildren() {
				if !a.IsExtra() {
					args = append(args, expr(a, depth+1))
				}
			}
		}
		if len(args) == 0 {
			return name
		}
		return name + "<" + strings.Join(args, ",") + ">"
	case "array_type":
		return "Array<" + expr(firstNamed(n), depth+1) + ">"
	case "tuple_type":
		return "Array"
	case "type_query":
		// typeof Foo: a class's static side, or a value's type.
		if c := firstNamed(n); !c.IsZero() && c.Kind() == "identifier" {
			return TypeOf + c.Text()
		}
		return ""
	case "function_type", "constructor_type":
		return "Function"
	case "object_type":
		return Anonymous
	case "template_literal_type":
		return "String"
	case "literal_type":
		c := firstNamed(n)
		switch {
		case c.IsZero():
		case c.Kind() == "string":
			return "String"
		case c.Kind() == "number", c.Kind() == "unary_expression":
			return "Number"
		case c.Kind() == "true", c.Kind() == "false":
			return "Boolean"
		}
		return ""
	case "union_type":
		// A declared union with null or undefined is its other member; a
		// union of several types is Union<A,B>, and of types one of which
		// cannot be named, nothing.
		var members []string
		if !unionMembers(n, depth, &members) {
			return ""
		}
		switch len(members) {
		case 0:
			return ""
		case 1:
			return members[0]
		}
		return Union + "<" + strings.Join(members, ",") + ">"
	}
	return ""
}

// IsAny reports whether the type n (a type annotation or the type
// itself, parenthesized or not) is any.
func IsAny(n tree.Node) bool {
	for depth := 0; !n.IsZero() && depth < 8; depth++ {
		switch n.Kind() {
		case "type_annotation", "opting_type_annotation", "parenthesized_type":
			n = firstNamed(n)
			continue
		case "predefined_type":
			return n.Text() == "any"
		}
		return false
	}
	return false
}

// Params returns the compact forms of the parameters of the function
// type n (a type annotation or the type itself, optional or parenthesized:
// ((x: A) => void) | undefined), in order and without a this: parameter;
// nil when n is no function type. A parameter whose type cannot be named
// is "".
func Params(n tree.Node) []string {
	for depth := 0; !n.IsZero() && depth < 8; depth++ {
		switch n.Kind() {
		case "type_annotation", "opting_type_annotation", "parenthesized_type", "readonly_type":
			n = firstNamed(n)
			continue
		case "union_type":
			// A function type or null/undefined: the function type.
			var fn tree.Node
			for _, c := range n.NamedChildren() {
				switch {
				case c.IsExtra() || Nullish(c):
				case !fn.IsZero():
					return nil
				default:
					fn = c
				}
			}
			n = fn
			continue
		case "function_type":
			out := []string{}
			for _, p := range n.ChildByField("parameters").NamedChildren() {
				if p.IsExtra() || p.ChildByField("pattern").Kind() == "this" {
					continue
				}
				out = append(out, Expr(p.ChildByField("type")))
			}
			return out
		}
		return nil
	}
	return nil
}

// Predicate returns the compact form of the type a type predicate proves
// (x is Map<K, V>): of n, a return type, or of the function type n writes
// (a variable declared (thing: any) => thing is Map<K, V>); "" when n
// holds none.
func Predicate(n tree.Node) string {
	for depth := 0; !n.IsZero() && depth < 8; depth++ {
		switch n.Kind() {
		case "type_annotation", "parenthesized_type", "type_predicate_annotation":
			n = firstNamed(n)
			continue
		case "function_type":
			n = n.ChildByField("return_type")
			continue
		case "type_predicate":
			return Expr(n.ChildByField("type"))
		}
		return ""
	}
	return ""
}

// Constructs returns the compact form of what the constructor type n (or
// its annotation) makes: T for new (...args: any[]) => T; "" for any other
// type.
func Constructs(n tree.Node) string { return madeBy(n, "constructor_type", "type") }

// Yields returns the compact form of what the function type n (or its
// annotation) returns: T for () => T; "" for any other type.
func Yields(n tree.Node) string { return madeBy(n, "function_type", "return_type") }

// madeBy returns the compact form of field of n, or of what n annotates or
// parenthesizes, when that is a node of kind; "" otherwise.
func madeBy(n tree.Node, kind, field string) string {
	for depth := 0; !n.IsZero() && depth < 8; depth++ {
		switch n.Kind() {
		case "type_annotation", "parenthesized_type":
			n = firstNamed(n)
			continue
		case kind:
			return Expr(n.ChildByField(field))
		}
		return ""
	}
	return ""
}

// Intersection names an intersection of types: Intersection<A,B>.
const Intersection = "&"

// TypeOf prefixes the name of a value whose type a type query names
// (typeof Foo: "typeof:Foo").
const TypeOf = "typeof:"

// Union names a union of several types: Union<A,B>.
const Union = "|"

// unionMembers collects the distinct members of a (nested) union type
// but null and undefined, reporting false when one cannot be named.
func unionMembers(n tree.Node, depth int, out *[]string) bool {
	for _, c := range n.NamedChildren() {
		switch {
		case c.IsExtra() || Nullish(c):
			continue
		case c.Kind() == "union_type":
			if !unionMembers(c, depth+1, out) {
				return false
			}
			continue
		}
		t := expr(c, depth+1)
		if t == "" {
			return false
		}
		if !slices.Contains(*out, t) {
			*out = append(*out, t)
		}
	}
	return true
}

// nullish reports whether a union member is null, undefined or void.
// Nullish reports whether type n is null, undefined or void.
func Nullish(n tree.Node) bool {
	switch n.Kind() {
	case "literal_type":
		c := firstNamed(n)
		return !c.IsZero() && (c.Kind() == "undefined" || c.Kind() == "null")
	case "predefined_type":
		switch n.Text() {
		case "undefined", "null", "void":
			return true
		}
	}
	return false
}

func firstNamed(n tree.Node) tree.Node {
	for _, c := range n.NamedChildren() {
		if !c.IsExtra() {
			return c
		}
	}
	return tree.Node{}
}
