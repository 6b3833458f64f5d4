// Package pytype writes a Python type annotation in the compact form the
// type layer and its library tables read (list<_T>, |<A,B>, this for
// Self), for the analysis and for pylibgen.
package pytype

import (
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/core/tree"
)

// Stubs are the typeshed stubs the standard library table is generated
// from (pylibgen), in precedence order: the builtins, then the modules
// whose types a program most often writes or gets back.
var Stubs = []string{
	"builtins.pyi", "typing.pyi", "re.pyi", "json/decoder.pyi", "json/encoder.pyi", "_io.pyi", "io.pyi",
	"collections/__init__.pyi", "pathlib/__init__.pyi", "subprocess.pyi", "argparse.pyi", "logging/__init__.pyi",
	"types.pyi", "importlib/__init__.pyi", "base64.pyi", "binascii.pyi", "socket.pyi", "socketserver.pyi",
	"urllib/parse.pyi", "quopri.pyi", "_collections_abc.pyi", "os/__init__.pyi",
}

// FuncPrefix is what the table writes before the name of a function of
// stub (a path in Stubs): its module's public name and a dot (os., io.
// for _io, json.decoder.), nothing for builtins, whose functions are
// called by their bare names.
func FuncPrefix(stub string) string {
	m := strings.ReplaceAll(strings.TrimSuffix(strings.TrimSuffix(stub, ".pyi"), "/__init__"), "/", ".")
	if m == "builtins" {
		return ""
	}
	return strings.TrimPrefix(m, "_") + "."
}

// StubModule reports whether module (io, json.decoder, urllib.parse) is
// one whose stub the table is generated from; a private module's public
// name counts (_io's classes are io's).
func StubModule(module string) bool {
	for _, s := range Stubs {
		m := strings.TrimSuffix(FuncPrefix(s), ".")
		if m == "" {
			m = "builtins"
		}
		if m == module || "_"+m == module {
			return true
		}
	}
	return false
}

// Union is the compact form's union (the same as tstype.Union).
const Union = "|"

// Any is the compact form of Any (and typeshed's Incomplete), the same
// as tstype.Any: pyright ties a call on it to nothing.
const Any = "any"

// Expr writes a type annotation in compact form: Foo, list<_T>, this
// (Self), X for X | None and Optional[X], |<A,B> for a wider union, a
// string annotation's type ("Foo" gives Foo); any for Any; "" for None,
// object or what it cannot read.
func Expr(n tree.Node) string { return expr(n, 0) }

func expr(n tree.Node, depth int) string {
	if n.IsZero() || depth > 8 {
		return ""
	}
	switch n.Kind() {
	case "type", "parenthesized_expression":
		if cs := n.NamedChildren(); len(cs) == 1 {
			return expr(cs[0], depth+1)
		}
	case "identifier":
		switch s := n.Text(); s {
		case "Self":
			return "this"
		case "Any", "Incomplete":
			return Any
		case "NoReturn", "Never", "object":
			return ""
		case "None":
			return "None"
		case "LiteralString":
			return "str"
		default:
			return s
		}
	case "none":
		return "None"
	case "attribute":
		return expr(n.ChildByField("attribute"), depth+1)
	case "string":
		s := n.Text()
		if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
			s = strings.TrimSpace(s[1 : len(s)-1])
			if i := strings.LastIndexByte(s, '.'); i >= 0 {
				s = s[i+1:]
			}
			if ident(s) {
				return s
			}
		}
	case "union_type", "binary_operator":
		var ms []string
		for _, c := range n.NamedChildren() {
			s := expr(c, depth+1)
			if strings.HasPrefix(s, Union+"<") {
				ms = append(ms, strings.Split(strings.TrimSuffix(strings.TrimPrefix(s, Union+"<"), ">"), ",")...)
				continue
			}
			ms = append(ms, s)
		}
		return join(ms)
	case "generic_type", "subscript":
		cs := n.NamedChildren()
		if len(cs) == 0 {
			return ""
		}
		head := expr(cs[0], depth+1)
		var args []string
		for _, c := range cs[1:] {
			if c.Kind() == "type_parameter" {
				for _, a := range c.NamedChildren() {
					args = append(args, expr(a, depth+1))
				}
				continue
			}
			args = append(args, expr(c, depth+1))
		}
		switch head {
		case "Optional":
			if len(args) == 1 {
				return args[0]
			}
			return ""
		case "Union":
			return join(args)
		case "":
			return ""
		case "List", "Dict", "Set", "FrozenSet", "Tuple", "Type":
			head = strings.ToLower(head)
		}
		for _, a := range args {
			if a == "" || strings.HasPrefix(a, Union+"<") {
				return head // a type argument it cannot write
			}
		}
		if len(args) == 0 {
			return head
		}
		return head + "<" + strings.Join(args, ",") + ">"
	}
	return ""
}

// join writes the union of ms without None: the one member, or |<...>;
// "" when a member cannot be written (it may be anything).
func join(ms []string) string {
	var keep []string
	for _, m := range ms {
		switch {
		case m == "":
			return ""
		case m == "None" || slices.Contains(keep, m):
		default:
			keep = append(keep, m)
		}
	}
	switch len(keep) {
	case 0:
		return ""
	case 1:
		return keep[0]
	}
	return Union + "<" + strings.Join(keep, ",") + ">"
}

func ident(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
