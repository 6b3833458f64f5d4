package analysis

import (
	"bytes"
	_ "embed"
	pathpkg "path"
	"slices"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/analysis/internal/tstype"

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
	case "list":
		if len(namedNonExtra(v)) == 0 {
			return "list<" + tstype.Any + ">" // []: elements pyright types Unknown
		}
		return "list"
	case "list_comprehension":
		return "" // typed by its element (pyComprehension)
	case "dictionary", "dictionary_comprehension":
		if v.Kind() == "dictionary" && len(namedNonExtra(v)) == 0 {
			return "dict<" + tstype.Any + "," + tstype.Any + ">" // {}: keys and values Unknown
		}
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
	case "binary_operator":
		// "%s: %s" % (k, v): a string formatted is a string (bytes for
		// b"...").
		if op := v.ChildByField("operator"); op.Text() == "%" {
			if left := pyValueType(v.ChildByField("left")); left == "str" || left == "bytes" {
				return left
			}
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

// pyLibModule reports whether Python binding bd is a module outside the
// workspace, imported (import socket), not one of its attributes.
func pyLibModule(bd binding) bool {
	return bd.external && bd.pkg != "" && bd.typeName == "" && bd.lib == nil && bd.member == "" && len(bd.defs) == 0 &&
		len(bd.files) == 0
}

// pyLibFunc types a call of name, a standard library module's function
// that called names (base64.b64encode(x), from binascii import
// b2a_base64, or a class attribute holding socket.create_connection): what
// the table says that module's function returns; nothing for anything
// else.
func pyLibFunc(called binding, name string) binding {
	if called.member != "" {
		name = called.member // self._connect(...) with self._connect = socket.create_connection
	}
	if !called.external || called.lib != nil || called.typeName != "" || called.pkg == "" || pyClassLike(name) {
		return binding{}
	}
	if typ, ok := pyLibrary().funcs[strings.TrimPrefix(called.pkg, "_")+"."+name]; ok {
		return libEval(pyLibrary(), parseTyx(typ), nil, binding{}, 0)
	}
	return binding{}
}

// pyBuiltinValues are the builtin classes whose call, the name bound to
// nothing of the workspace, gives an instance pyright types by the class
// alone (str(part) is a str): no type arguments to infer.
var pyBuiltinValues = map[string]bool{"str": true, "bytes": true, "bytearray": true, "int": true, "float": true}

// pyLibClass types call k of f that instantiates a class of the standard
// library through its module (io.BytesIO(), subprocess.Popen(...)), or a
// builtin value class by its bare name (str(part), pyBuiltinValues):
// called is what k names, a member of a module outside the workspace; the
// result is an instance of the table's class of that name. Nothing for
// other calls, lowercase names (functions), or names the table lacks.
func (b *binder) pyLibClass(f *fileFacts, k call, called binding) binding {
	if f.c.spec.Lang == "python" && !k.Member && !called.found() && pyBuiltinValues[k.Name] {
		return binding{external: true, typeName: k.Name, lib: pyLibrary()} // str(part), bytes(x)
	}
	if f.c.spec.Lang == "python" {
		if ty := pyLibFunc(called, k.Name); ty.found() {
			return ty
		}
	}
	if f.c.spec.Lang == "python" && !k.Member && called.external && called.lib == nil && called.typeName == "" &&
		pyClassLike(k.Name) && pytype.StubModule(called.pkg) && pyLibrary().types[k.Name] != nil {
		return binding{external: true, typeName: k.Name, lib: pyLibrary()} // from io import StringIO; StringIO()
	}
	if f.c.spec.Lang != "python" || !k.Member || !k.RecvPlain || !called.external || called.member != k.Name ||
		called.lib != nil || called.typeName != "" || !pyClassLike(k.Name) {
		return binding{}
	}
	lib := pyLibrary()
	if lib.types[k.Name] == nil {
		return binding{}
	}
	return binding{external: true, typeName: k.Name, lib: lib}
}

// pyNominal reports whether f is Python's, whose classes are nominal: a
// call bound to a class's member reaches that member or an override in a
// subclass, so it may dispatch to the symbol asked about only when the
// symbol's class inherits the bound member's class, never when the two
// classes are siblings or the bound one is the symbol's subclass (unlike
// TypeScript's structural types, where a sibling's instance fits).
func pyNominal(f *fileFacts) bool { return f.c.spec.Lang == "python" }

// pyInferredReturn types what the Python def dr returns when no
// annotation (-> T) says: the type every `return value` in its own body gives
// (a class instantiated, a typed local, a call whose return type is
// known), bare returns and return None aside; the union of them when
// they differ, as pyright infers it (a workspace class's members bind
// in it; a union of library types is a library value). Nothing when one
// value cannot be typed, or when the def is a generator, has no return
// value or more than pyMaxReturns returns.
func (b *binder) pyInferredReturn(dr defRef) binding {
	return b.pyInferredReturnWith(dr, false)
}

// pyUnknownArgsReturn types Python call k of f, to the one def called
// names, when every value it passes is Unknown: pyright infers the return
// per call from the arguments (call-site return type inference), so the
// returns that give what an untyped parameter gives are Unknown there,
// as those from self's fields are (pyInferredReturn). Nothing for another
// call.
func (b *binder) pyUnknownArgsReturn(f *fileFacts, k call, called binding) binding {
	if !pyNominal(f) || len(called.defs) != 1 || b.depth > maxTypeDepth {
		return binding{}
	}
	b.depth++
	defer func() { b.depth-- }()
	for _, a := range k.Args {
		if !b.valueTypeAt(f, a[0], a[1], 0).isAny() {
			return binding{}
		}
	}
	return b.pyInferredReturnWith(called.defs[0], true)
}

// pyInferredReturnWith is pyInferredReturn; with unknownArgs, a return
// giving Unknown from the def's parameters is Unknown (the call passes
// only Unknown values), not left untold.
func (b *binder) pyInferredReturnWith(dr defRef, unknownArgs bool) binding {
	f, d := dr.f, dr.f.defs[dr.i]
	if f.c.spec.Lang != "python" || !d.Callable || b.depth > maxTypeDepth {
		return binding{}
	}
	for _, t := range f.typed {
		if t.Return && t.Name == d.Name && t.Start == d.Start && t.Expr != "" {
			return binding{} // an annotation says
		}
	}
	body := string(f.src[d.Start:d.End])
	if !strings.HasPrefix(body, "def ") && !strings.HasPrefix(body, "async ") {
		return binding{}
	}
	var alts []binding  // the types the returns give, each once
	var modules binding // or the modules they give
	unknown := false    // a return gives Unknown from self's fields
	for i, n := 0, 0; i < len(body); n++ {
		if n == pyMaxReturns {
			return binding{} // too many returns to type each one
		}
		j := pyKeywordAt(body, i, "return")
		if j < 0 {
			break
		}
		if pyKeywordAt(body, 0, "yield") >= 0 {
			return binding{} // a generator
		}
		start := d.Start + j + len("return")
		end := d.Start + pyStatementEnd(body, j)
		i = end - d.Start
		if b.pyNested(f, dr.i, start) {
			continue // a nested function's return
		}
		v := strings.TrimSpace(string(f.src[start:end]))
		if v == "" || v == "None" {
			continue
		}
		for start < end && (f.src[start] == ' ' || f.src[start] == '\t') {
			start++
		}
		for end > start && (f.src[end-1] == ' ' || f.src[end-1] == '\t' || f.src[end-1] == '\r') {
			end--
		}
		b.depth++
		ty := b.valueTypeAt(f, start, end, 0)
		if lit := pyLiteralType(string(f.src[start:end])); lit != "" {
			ty = b.evalType(f, parseTyx(lit), start, 0) // return b"", return 0
		}
		b.depth--
		if len(ty.files) > 0 && len(alts) == 0 {
			// return email.base64mime: a module, or one of several.
			for _, g := range ty.files {
				if !slices.Contains(modules.files, g) {
					modules.files = append(modules.files, g)
				}
			}
			continue
		}
		if ty.isAny() && len(modules.files) == 0 && (unknownArgs || pySelfRooted(f, v, start)) {
			unknown = true // return self._properties[k]: Unknown whatever the call passes
			continue
		}
		if !ty.found() || ty.isAny() || len(ty.files) > 0 || len(modules.files) > 0 {
			return binding{} // an Unknown parameter returned: pyright infers it per call
		}
		if !slices.ContainsFunc(alts, func(a binding) bool { return sameType(a, ty) }) {
			alts = append(alts, ty)
		}
	}
	switch {
	case len(modules.files) > 0:
		return modules
	case len(alts) == 0 && unknown:
		return anyType
	case len(alts) == 0:
		return binding{}
	case len(alts) == 1:
		return alts[0]
	}
	return eitherOf(alts)
}

// pyLiteralType types the text of a value that is one literal: a string
// or bytes (with its prefix: b"x", rb"x", f"x"), a number, True or False, a
// list, dict or set display; "" for anything else ("x".encode(), [a][0]).
func pyLiteralType(v string) string {
	if v == "" {
		return ""
	}
	if q := strings.IndexAny(v, "'\""); q >= 0 && q <= 2 && strings.Trim(strings.ToLower(v[:q]), "bruf") == "" {
		if pySkipString(v, q) != len(v)-1 {
			return "" // a call or an operation on the string
		}
		if strings.ContainsRune(strings.ToLower(v[:q]), 'b') {
			return "bytes"
		}
		return "str"
	}
	switch {
	case v == "True" || v == "False":
		return "bool"
	case v[0] >= '0' && v[0] <= '9':
		if strings.Trim(strings.ToLower(v), "0123456789_.ex") != "" {
			return ""
		}
		if strings.ContainsAny(v, ".eE") && !strings.HasPrefix(v, "0x") {
			return "float"
		}
		return "int"
	case v[0] == '[' || v[0] == '{':
		if _, end, ok := pySplitArgs(v); !ok || end != len(v)-1 {
			return "" // [a][0]: an element
		}
		switch {
		case v[0] == '[':
			return "list"
		case v == "{}" || strings.Contains(v, ":"):
			return "dict"
		}
		return "set"
	}
	return ""
}

// pyMaxReturns bounds the return statements pyInferredReturn types in one
// def; a def with more is left untyped.
const pyMaxReturns = 32

// sameType reports whether two bindings name the same types.
func sameType(a, b binding) bool {
	if a.external != b.external || a.typeName != b.typeName || len(a.defs) != len(b.defs) {
		return false
	}
	for i := range a.defs {
		if a.defs[i] != b.defs[i] {
			return false
		}
	}
	return true
}

// pyNested reports whether pos of f lies in a function or class nested in
// definition outer.
func (b *binder) pyNested(f *fileFacts, outer, pos int) bool {
	for i, d := range f.defs {
		if i != outer && (d.Callable || d.container) && d.Start > f.defs[outer].Start && d.Start <= pos && pos < d.End {
			return true
		}
	}
	return false
}

// pyKeywordAt finds keyword kw as a statement's first word in text from
// i on, outside strings and comments: the index of the keyword, or -1.
func pyKeywordAt(text string, i int, kw string) int {
	for i < len(text) {
		switch c := text[i]; {
		case c == '\'' || c == '"':
			j := pySkipString(text, i)
			if j < 0 {
				return -1
			}
			i = j + 1
		case c == '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case strings.HasPrefix(text[i:], kw) && (i == 0 || !pyWordByte(text[i-1])) &&
			(i+len(kw) == len(text) || !pyWordByte(text[i+len(kw)])):
			return i
		default:
			i++
		}
	}
	return -1
}

func pyWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// pyStatementEnd finds the end of the statement holding text[i]: the
// first newline outside brackets, strings and a line continuation, or a
// semicolon or comment at the top level.
func pyStatementEnd(text string, i int) int {
	depth := 0
	for ; i < len(text); i++ {
		switch c := text[i]; c {
		case '\'', '"':
			j := pySkipString(text, i)
			if j < 0 {
				return i
			}
			i = j
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '\\':
			i++
		case '#', ';':
			if depth == 0 {
				return i
			}
		case '\n':
			if depth <= 0 {
				return i
			}
		}
	}
	return len(text)
}

// pySubscriptTypes returns the compact types of the arguments of Python
// subscript n (list[Token] gives Token), "any" for one that is no type.
func pySubscriptTypes(n tree.Node) []string {
	var out []string
	for _, a := range n.ChildrenByField("subscript") {
		t := pyTypeExpr(a)
		if t == "" {
			t = tstype.Any
		}
		out = append(out, t)
	}
	return out
}

// pyContainers are the library containers whose elements are Unknown in
// a class derived from the bare name (class TokenList(list)).
var pyContainers = map[string]bool{"list": true, "dict": true, "set": true, "frozenset": true, "tuple": true}

// pyUnknownElements reports whether the Python classes ty names derive,
// themselves or through the workspace's classes, from a library container
// written without type arguments (class TokenList(list)): pyright types
// their elements Unknown (self[0], for t in self).
func (b *binder) pyUnknownElements(ty binding) bool {
	if b.depth > maxTypeDepth {
		return false
	}
	b.depth++
	defer func() { b.depth-- }()
	for _, dr := range ty.defs {
		d := dr.f.defs[dr.i]
		if !pyNominal(dr.f) || !isType(d) {
			continue
		}
		for _, sf := range dr.f.supers {
			if sf.Def != dr.i {
				continue
			}
			sup := b.superType(dr.f, sf, d.Start)
			if sf.Recv == "" && len(sf.Args) == 0 && pyContainers[sf.Name] && len(sup.defs) == 0 {
				return true
			}
			if b.pyUnknownElements(b.types(sup)) {
				return true
			}
		}
	}
	return false
}

// pyCollections are the library collections a call of the bare name
// makes from one iterable, each with the collection it gives (sorted
// gives a list).
var pyCollections = map[string]string{"list": "list", "set": "set", "frozenset": "frozenset", "tuple": "tuple", "sorted": "list",
	"enumerate": "enumerate"}

// pyCollectionOf types list(x), set(x), frozenset(x), tuple(x),
// sorted(x) or enumerate(x), call k of f, by the elements of x: a collection of Unknown
// for an Unknown x or one of Unknown elements (list(self) in a class
// TokenList(list)), of T for a collection of T. Nothing for another call,
// or an x whose elements are not told.
func (b *binder) pyCollectionOf(f *fileFacts, k call, called binding) binding {
	coll := pyCollections[k.Name]
	if !pyNominal(f) || k.Member || coll == "" || called.found() && !called.external || b.depth > maxTypeDepth {
		return binding{}
	}
	v := string(f.src[k.Start:k.End])
	open := strings.IndexByte(v, '(')
	if open < 0 {
		return binding{}
	}
	items, _, ok := pySplitArgs(v[open:])
	if !ok || len(items) == 0 || strings.HasPrefix(items[0], "*") || pyKeyword(items[0]) != "" {
		return binding{}
	}
	for _, it := range items[1:] {
		if pyKeyword(it) == "" {
			return binding{} // sorted(xs, key) is not a call Python accepts
		}
	}
	at := strings.Index(v[open:], items[0])
	if at < 0 {
		return binding{}
	}
	start := k.Start + open + at
	b.depth++
	defer func() { b.depth-- }()
	x := b.valueTypeAt(f, start, start+len(items[0]), 0)
	elem, ok := b.pyIterElem(x)
	if !ok {
		return binding{}
	}
	return binding{external: true, typeName: coll, lib: pyLibrary(), typeArgs: []binding{elem}}
}

// pyIterElem types what iterating Python value x gives: Unknown for an
// Unknown x or one of Unknown elements (a class TokenList(list)), else
// what the library type's __iter__ yields (list[T]: T, dict[K, V]: K,
// dict_items[K, V]: tuple[K, V]); ok is false when that is not told.
func (b *binder) pyIterElem(x binding) (binding, bool) {
	switch {
	case x.isAny() || len(x.defs) > 0 && b.pyUnknownElements(x):
		return anyType, true
	case x.external && x.lib != nil && len(x.typeArgs) > 0:
		it, ok := libMember(x, "__iter__")
		if ok && it.typeName == x.typeName {
			return libMember(x, "__next__") // an iterator itself (enumerate): what __next__ gives
		}
		if ok && len(it.typeArgs) == 1 && it.typeArgs[0].found() {
			return it.typeArgs[0], true
		}
	}
	return binding{}, false
}

// pyProperty reports whether dr is a Python method read as a field: one
// decorated @property, @functools.cached_property or @cached_property.
func pyProperty(dr defRef) bool {
	f, d := dr.f, dr.f.defs[dr.i]
	if f.c.spec.Lang != "python" || !d.Callable {
		return false
	}
	for _, dec := range pyDecorators(f.src, d.Start) {
		switch dec {
		case "property", "functools.cached_property", "cached_property":
			return true
		}
	}
	return false
}

// pyAttributeChain reports whether Python expression n is a chain of
// attributes over a name (self.policy.linesep), or over one element of
// such a chain (self[0].value, parts[-1].token_type).
func pyAttributeChain(n tree.Node) bool {
	indexed := false
	for range 16 {
		switch n.Kind() {
		case "identifier":
			return true
		case "attribute":
			n = n.ChildByField("object")
		case "subscript":
			if indexed {
				return false
			}
			indexed = true
			n = n.ChildByField("value")
		default:
			return false
		}
	}
	return false
}

// pyFormatted types Python value [start, end) of f (for pyValueAt) that
// formats a string with % (fmt % args, (self.fmt % {...})) when the
// format is a str or bytes, as str.__mod__ gives: that type; ok is false
// for another value.
func (b *binder) pyFormatted(f *fileFacts, start, end int) (ty binding, ok bool) {
	if b.depth > maxTypeDepth {
		return binding{}, false
	}
	op := pyOperatorAt(f.src[start:end], '%')
	if op <= 0 {
		return binding{}, false
	}
	ls, le := trimSpace(f.src, start, start+op)
	if chain := strings.Split(string(f.src[ls:le]), "."); ls == le || slices.ContainsFunc(chain, func(s string) bool { return !isField(s) }) {
		return binding{}, false // "%s" % x is a literal's (pyValueType); f(x) % y is not told
	}
	b.depth++
	defer func() { b.depth-- }()
	left := b.valueTypeAt(f, ls, le, 0)
	if left.external && left.lib != nil && (left.typeName == "str" || left.typeName == "bytes") && len(left.defs) == 0 {
		return binding{external: true, typeName: left.typeName, lib: left.lib}, true
	}
	return binding{}, false
}

// pyClosing returns the index of the bracket closing the one v starts
// with, strings skipped; -1 when none does.
func pyClosing(v []byte) int {
	at := -1
	pyScan(v, func(i, depth int) bool {
		if depth == 0 {
			at = i
			return false
		}
		return true
	})
	return at
}

// pyOperatorAt returns the index of the first op in v outside brackets
// and strings; -1 when there is none.
func pyOperatorAt(v []byte, op byte) int {
	at := -1
	pyScan(v, func(i, depth int) bool {
		if depth == 0 && v[i] == op {
			at = i
			return false
		}
		return true
	})
	return at
}

// pyScan calls visit with each byte of Python source v outside string
// literals, and the depth of brackets around it once the byte is read;
// it stops when visit returns false, or at a string left open.
func pyScan(v []byte, visit func(i, depth int) bool) {
	text := string(v)
	scanBrackets(v, func(_ []byte, i int) (int, bool) {
		if v[i] != '\'' && v[i] != '"' {
			return i, false
		}
		if j := pySkipString(text, i); j >= 0 {
			return j, true
		}
		return len(v), true // a string left open: nothing after it is read
	}, visit)
}

// pyConditional types Python value [start, end) of f (for pyValueAt)
// that is a conditional expression (a if test else b) by the join of its
// two values (pyJoin); ok is false for another value.
func (b *binder) pyConditional(f *fileFacts, start, end int) (ty binding, ok bool) {
	if b.depth > maxTypeDepth {
		return binding{}, false
	}
	v := f.src[start:end]
	at, els := -1, -1
	pyScan(v, func(i, depth int) bool {
		if depth != 0 || i > 0 && pyWordByte(v[i-1]) {
			return true
		}
		switch {
		case at < 0 && bytes.HasPrefix(v[i:], []byte("if")) && i+2 < len(v) && isSpace(v[i+2]):
			at = i
		case at >= 0 && bytes.HasPrefix(v[i:], []byte("else")) && i+4 < len(v) && isSpace(v[i+4]):
			els = i
			return false
		}
		return true
	})
	if at <= 0 || els < 0 {
		return binding{}, false
	}
	side := func(s, e int) typedName {
		s, e = trimSpace(f.src, s, e)
		return typedName{Scope: -1, Start: s, ValStart: s, ValEnd: e}
	}
	b.depth++
	defer func() { b.depth-- }()
	return b.pyJoin(f, []typedName{side(start, start+at), side(start+els+len("else"), end)}, start), true
}

// pyValueAt types Python value v, [start, end) of f, by the forms only
// Python writes: a parenthesized value is what it holds, a list
// comprehension a list of its element, type(self)(…) an instance of
// self's class, fmt % args a string, a if test else b their join, and
// self[0].value a field of an element; ok is false for another value.
func (b *binder) pyValueAt(f *fileFacts, start, end int, v string) (binding, bool) {
	if !pyNominal(f) || b.depth > maxTypeDepth {
		return binding{}, false
	}
	b.depth++
	defer func() { b.depth-- }()
	if end-start >= 2 && f.src[start] == '(' && pyClosing(f.src[start:end]) == end-start-1 {
		is, ie := trimSpace(f.src, start+1, end-1)
		return b.valueTypeAt(f, is, ie, 0), true
	}
	if ty, ok := b.pyComprehension(f, start, end); ok {
		return ty, true
	}
	for _, p := range []string{"type(self)", "self.__class__"} {
		if rest := v[min(len(p), len(v)):]; strings.HasPrefix(v, p) && len(rest) > 0 && pyClosing([]byte(rest)) == len(rest)-1 {
			return b.enclosingClass(f, start), true
		}
	}
	if ty, ok := b.pyFormatted(f, start, end); ok {
		return ty, true
	}
	if ty, ok := b.pyConditional(f, start, end); ok {
		return ty, true
	}
	if elem, fields, ok := pyIndexedFields(v); ok {
		ty := b.indexed(f, elem, start)
		for _, field := range fields {
			ty = b.fieldOf(ty, field)
		}
		return ty, true
	}
	return binding{}, false
}

// pyIndexedFields splits Python value v that reads fields of an element
// (self[0].value, parts[-1].token_type) into the element and the fields;
// ok is false for any other value.
func pyIndexedFields(v string) (elem string, fields []string, ok bool) {
	i := strings.LastIndexByte(v, ']')
	if i < 0 || i+1 >= len(v) || v[i+1] != '.' {
		return "", nil, false
	}
	fields = strings.Split(v[i+2:], ".")
	if slices.ContainsFunc(fields, func(s string) bool { return !isField(s) }) {
		return "", nil, false
	}
	return v[:i+1], fields, true
}

// pyComprehension types Python list comprehension [e for x in xs], the
// value [start, end) of f, by its element e: a list of what e gives, a
// list when e is not told; ok is false for another value.
func (b *binder) pyComprehension(f *fileFacts, start, end int) (ty binding, ok bool) {
	if !pyNominal(f) || end-start < 2 || f.src[start] != '[' || f.src[end-1] != ']' {
		return binding{}, false
	}
	at := pyKeywordAt(string(f.src[start:end]), 1, "for")
	if at < 0 {
		return binding{}, false
	}
	es, ee := trimSpace(f.src, start+1, start+at)
	list := binding{external: true, typeName: "list", lib: pyLibrary()}
	if es == ee || b.depth > maxTypeDepth {
		return list, true
	}
	b.depth++
	defer func() { b.depth-- }()
	if et := b.valueTypeAt(f, es, ee, 0); et.found() && len(et.files) == 0 {
		list.typeArgs = []binding{et}
	}
	return list, true
}

// pySelfRooted reports whether Python value v, at pos, starts from self
// or cls, itself or through the locals it starts with (configuration in
// for configuration in self._properties["items"]): what it gives does
// not change with what a call passes, so pyright's inference per call
// keeps it.
func pySelfRooted(f *fileFacts, v string, pos int) bool {
	return pyTraces(f, v, pos, func(v string) bool { r := pyRoot(v); return r == "self" || r == "cls" })
}

// pyTraces reports whether hit holds for Python value v, assigned or used
// at pos, or for the value the local it starts with was last assigned
// before that, through a few locals (p = self.policy; policy = p.clone()).
func pyTraces(f *fileFacts, v string, pos int, hit func(v string) bool) bool {
	for range 4 {
		if hit(v) {
			return true
		}
		next, at := pyLocalValue(f, pyRoot(v), pos)
		if next == "" {
			return false
		}
		v, pos = next, at
	}
	return false
}
