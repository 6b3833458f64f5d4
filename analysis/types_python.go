package analysis

import (
	_ "embed"
	pathpkg "path"
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

// pyFromImport binds name as `from pkg import name` imports it (files:
// what the import resolved to, the submodules its names may be and pkg
// itself): pkg's own definition of name, else the submodule pkg.name.
// Another name's submodule is never searched: from gyp import MSVSNew,
// MSVSProject binds MSVSProject to its module, not to MSVSNew's class of
// that name.
func (b *binder) pyFromImport(imp importFact, name string, files []*fileFacts, depth int) binding {
	var pkg, sub []*fileFacts
	for _, g := range files {
		switch n := pySubmodule(g, imp); n {
		case "":
			pkg = append(pkg, g)
		case name:
			sub = append(sub, g)
		}
	}
	if bd := b.exported(pkg, name, depth+1); bd.found() {
		return bd
	}
	return binding{files: sub}
}

// pySubmodule returns the name of imp that file g is the submodule of
// (pkg/name.py, pkg/name/__init__.py), or "" when g is the imported
// module itself.
func pySubmodule(g *fileFacts, imp importFact) string {
	src := strings.TrimLeft(imp.Source, ".")
	last := src[strings.LastIndexByte(src, '.')+1:]
	base := pathpkg.Base(g.rel)
	for _, bn := range imp.Names {
		switch {
		case base == bn.Name+".py" || base == bn.Name+".pyi":
			return bn.Name
		case base == "__init__.py" && pathpkg.Base(pathpkg.Dir(g.rel)) == bn.Name && bn.Name != last:
			return bn.Name
		}
	}
	return ""
}

// pyDottedModule finds the module the receiver of pkg.mod.f() names when
// the file imports it whole (import pkg.mod) and nothing local is named
// pkg: that module (its f is the call's), or a package's; ok is false
// otherwise.
func (b *binder) pyDottedModule(f *fileFacts, k call, base binding) (mod binding, ok bool) {
	if f.c.spec.Lang != "python" || len(base.defs) > 0 {
		return binding{}, false
	}
	if _, declared := b.declAt(f, k.RecvBase, k.Start); declared {
		return binding{}, false
	}
	src := k.RecvBase + "." + k.Recv
	for _, imp := range f.imports {
		if imp.Form != "module" || imp.Source != src || len(imp.Names) > 0 {
			continue
		}
		if files := b.importFiles(f, imp); len(files) > 0 {
			return binding{files: files}, true
		}
		return binding{external: true}, true
	}
	return binding{}, false
}

// pyNominal reports whether f is Python's, whose classes are nominal: a
// call bound to a class's member reaches that member or an override in a
// subclass, so it may dispatch to the symbol asked about only when the
// symbol's class inherits the bound member's class, never when the two
// classes are siblings or the bound one is the symbol's subclass (unlike
// TypeScript's structural types, where a sibling's instance fits).
func pyNominal(f *fileFacts) bool { return f.c.spec.Lang == "python" }
