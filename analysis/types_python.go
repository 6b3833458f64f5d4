package analysis

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/analysis/internal/pytype"
	"github.com/loupe-dev/loupe/core/tree"
)

// libTypesPy is the table of Python's standard library types, generated
// by `make analysis-libtypes` (analysis/internal/pylibgen) from the
// typeshed stubs pyright@1.1.414 bundles.
//
//go:embed libtypes_py.txt
var libTypesPy string

var (
	pyLibOnce sync.Once
	pyLib     *libTable
)

// pyLibrary returns Python's standard library table, read once. A class
// the workspace defines under the same name wins over it (the binder looks
// the workspace up first), so on the standard library's own source its
// classes are its own.
func pyLibrary() *libTable {
	pyLibOnce.Do(func() { pyLib = parseLibTable(libTypesPy) })
	return pyLib
}

// pyTypeExpr writes a Python annotation in compact form.
func pyTypeExpr(n tree.Node) string { return pytype.Expr(n) }

// pyValueType types a Python value from its syntax alone: a literal (str,
// bytes, int, float, bool, list, dict, set, tuple and their
// comprehensions), or another name ("=name"). Calls are typed later, from
// what they call.
func pyValueType(v tree.Node) string {
	switch v.Kind() {
	case "string":
		prefix := strings.ToLower(v.Text()[:strings.IndexAny(v.Text()+"'", "'\"")])
		if strings.Contains(prefix, "b") {
			return "bytes"
		}
		return "str"
	case "concatenated_string":
		if cs := v.NamedChildren(); len(cs) > 0 {
			return pyValueType(cs[0])
		}
	case "integer":
		return "int"
	case "float":
		return "float"
	case "true", "false":
		return "bool"
	case "list", "list_comprehension":
		return "list"
	case "dictionary", "dictionary_comprehension":
		return "dict"
	case "set", "set_comprehension":
		return "set"
	case "tuple":
		return "tuple"
	case "identifier":
		if t := v.Text(); t != "None" {
			return "=" + t
		}
	case "parenthesized_expression":
		if cs := v.NamedChildren(); len(cs) == 1 {
			return pyValueType(cs[0])
		}
	}
	return ""
}
