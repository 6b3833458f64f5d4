package analysis

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
)

// A path walks from a node to related nodes, one step at a time. Each step
// maps every current node to zero or more nodes:
//
//	"field"   children under that field name
//	"field+"  follow the field repeatedly, keeping the deepest node reached
//	"#kind"   named children of that kind
//	"*"       every named, non-extra child
//	"^"       the first named, non-extra child
//	"^2"      the second named, non-extra child
//	"$"       the last named, non-extra child
//	"?field"  keep the node only if it has a child under that field
//	"!field"  keep the node only if it has no child under that field
//	"=kind"   keep the node only if it is of that kind
//	".."      the parent
//
// Paths are data in the language tables; a test checks every field and kind
// they name against the grammar.
type path []string

// eval applies p to n and returns the nodes reached, in document order.
func (p path) eval(n tree.Node) []tree.Node {
	cur := []tree.Node{n}
	for _, step := range p {
		var next []tree.Node
		for _, c := range cur {
			next = applyStep(step, c, next)
		}
		cur = next
		if len(cur) == 0 {
			return nil
		}
	}
	return cur
}

// first applies p to n and returns the first node reached, or the zero Node.
func (p path) first(n tree.Node) tree.Node {
	if len(p) == 0 {
		return tree.Node{}
	}
	if r := p.eval(n); len(r) > 0 {
		return r[0]
	}
	return tree.Node{}
}

func applyStep(step string, n tree.Node, out []tree.Node) []tree.Node {
	switch {
	case step == "..":
		if p := n.Parent(); !p.IsZero() {
			out = append(out, p)
		}
	case step == "*":
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			if c.IsNamed() && !c.IsExtra() {
				out = append(out, c)
			}
		}
	case step == "^":
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			if c.IsNamed() && !c.IsExtra() {
				return append(out, c)
			}
		}
	case step == "^2":
		seen := 0
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			if c.IsNamed() && !c.IsExtra() {
				if seen++; seen == 2 {
					return append(out, c)
				}
			}
		}
	case step == "$":
		var last tree.Node
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			if c.IsNamed() && !c.IsExtra() {
				last = c
			}
		}
		if !last.IsZero() {
			out = append(out, last)
		}
	case step[0] == '#':
		kind := step[1:]
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			if c.IsNamed() && c.Kind() == kind {
				out = append(out, c)
			}
		}
	case step[0] == '=':
		if n.Kind() == step[1:] {
			out = append(out, n)
		}
	case step[0] == '?':
		if !n.ChildByField(step[1:]).IsZero() {
			out = append(out, n)
		}
	case step[0] == '!':
		if n.ChildByField(step[1:]).IsZero() {
			out = append(out, n)
		}
	case strings.HasSuffix(step, "+"):
		field := step[:len(step)-1]
		cur := n.ChildByField(field)
		if cur.IsZero() {
			break
		}
		for {
			next := cur.ChildByField(field)
			if next.IsZero() {
				break
			}
			cur = next
		}
		out = append(out, cur)
	default:
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			if c.Field() == step {
				out = append(out, c)
			}
		}
	}
	return out
}

// names returns the field and kind names a path refers to.
func (p path) names() (fields, kinds []string) {
	for _, step := range p {
		switch {
		case step == "*" || step == "^" || step == "^2" || step == "$" || step == "..":
		case step[0] == '#' || step[0] == '=':
			kinds = append(kinds, step[1:])
		case step[0] == '?' || step[0] == '!':
			fields = append(fields, step[1:])
		case strings.HasSuffix(step, "+"):
			fields = append(fields, step[:len(step)-1])
		default:
			fields = append(fields, step)
		}
	}
	return fields, kinds
}

// Labels of definitions, as shown to the user.
const (
	lFunction  = "function"
	lMethod    = "method"
	lCtor      = "constructor"
	lClass     = "class"
	lInterface = "interface"
	lStruct    = "struct"
	lTrait     = "trait"
	lEnum      = "enum"
	lType      = "type"
	lVariable  = "variable"
	lConst     = "constant"
	lProperty  = "property"
	lField     = "field"
	lModule    = "module"
	lNamespace = "namespace"
	lImpl      = "impl"
	lObject    = "object"
	lRecord    = "record"
	lMacro     = "macro"
	lSignature = "signature"
)

// defShape describes one kind of definition.
type defShape struct {
	Kind  string
	Name  path   // from the definition to its name node
	Label string // what the definition is (lFunction, lClass, ...)
	// NameKinds, when set, restricts the kind of the name node (Python's
	// assignment defines only plain identifiers, not self.x).
	NameKinds []string
	// AllNames makes one definition per node Name reaches (Go's
	// var a, b = 1, 2), instead of the first only.
	AllNames bool
	// Callable marks bodies that hold calls: functions, methods, constructors.
	Callable bool
	// Value and FuncKinds make a variable-like definition callable when its
	// value is a function literal (const f = () => ...); its label becomes
	// lFunction then. FuncOnly drops the definition otherwise (object
	// literal pairs are definitions only when they hold a function).
	Value     path
	FuncKinds []string
	FuncOnly  bool
	// ValueLabels relabels the definition by the kind of the node at
	// Value (a Go type_spec of a struct_type is a struct).
	ValueLabels map[string]string
	// ArgOfCaller: a definition passed as the argument of a call that is
	// the value of a variable of another name (const tracked =
	// track(function Tracked() {...})) is not a caller of its own: its
	// calls belong to the variable. Of the same name (const X =
	// memo(function X() {...})), or passed anywhere else
	// (useCallback(async function print() {...}) in a function), it is
	// one, as in the compiler's call hierarchy.
	ArgOfCaller bool
	// NoCaller: the definition is not a caller of its own: its calls
	// belong to the enclosing function, or to the file. ConstCaller: so
	// unless it is a const declaration.
	NoCaller, ConstCaller bool
	// Container marks class-like definitions whose members get its name as
	// their container.
	Container bool
	// Owner, when set, reads the container's name from the definition itself
	// (a Go method's receiver type).
	Owner path
	// Tokens relabels the definition when it has an anonymous child of the
	// given kind (Kotlin's class_declaration with an `interface` token).
	Tokens map[string]string
	// Relabel relabels the definition by the kind of its name node's parent
	// (a C declaration whose name sits in a function_declarator is a
	// prototype, not a variable).
	Relabel map[string]string
	// Heritage lists where the definition names its supertypes.
	Heritage []parentShape
}

// parentShape is one place where a type names its supertypes.
type parentShape struct {
	Path     path   // from the type definition to the supertype nodes
	Relation string // extends, implements, base, embeds
	// Skip lists node kinds met on Path that are not supertypes (C++'s
	// access_specifier).
	Skip []string
}

// callShape describes one kind of call (or instantiation).
type callShape struct {
	Kind   string
	Callee path // from the call to the callee expression, whose name nameLeaf reads
	// Name and Receiver, when set, read the called name and its receiver
	// directly from the call (Java's method_invocation, Ruby's call).
	Name     path
	Receiver path
	New      bool // an instantiation: new X(...), X{...}
	// Component: a JSX element, a call of its component only when the
	// name is capitalized or qualified (<Button />, <ui.Button />), not
	// an intrinsic element (<div>).
	Component bool
	// Literal marks instantiations that are not calls (Go composite
	// literals, Rust struct expressions): references count them, the call
	// graph does not.
	Literal bool
	// Read: the node is a member named, not called (call.Read).
	Read bool
}

// nameRule says how to read the name of an expression of one kind: the
// name is at Name (read again, recursively), the receiver or qualifier at
// Receiver.
type nameRule struct {
	Kind     string
	Name     path
	Receiver path
}

// importShape describes one import form.
type importShape struct {
	Kind string
	Form string // form label when no Names entry matched: side-effect, module, include, ...
	// Source reads the module specifier(s); one import is recorded per
	// node. SourceText, when it reaches a node from the source, gives the
	// specifier's text instead (Python's `import a.b as c` reads a.b).
	Source     path
	SourceText path
	// Callee and CalleeText restrict call-shaped imports: the node at
	// Callee must read one of CalleeText (require, import, require_relative).
	Callee     path
	CalleeText []string
	// Names lists the bound names and their forms.
	Names []boundShape
	// Require must reach a node, and Forbid must not, for the shape to
	// apply (a re-export needs a source).
	Require path
	Forbid  path
	// Split turns each source a.b.C into module a.b importing name C
	// (Java, Kotlin, PHP use), with the language's Sep.
	Split bool
	// Resolve names the strategy that maps the specifier to files.
	Resolve string
}

// boundShape is one set of names an import binds.
type boundShape struct {
	Path  path // from the import to each binding node
	Name  path // from the binding node to the imported name (the node itself if empty)
	Alias path // from the binding node to the local alias, if any
	Form  string
	// FromSource evaluates Path from each source node rather than from
	// the import statement.
	FromSource bool
}

// exportRules describe which definitions a file exports.
type exportRules struct {
	// Wrappers are statement kinds that export the definitions directly
	// inside them (TS export_statement); PassThrough are kinds between
	// the wrapper and the definition (lexical_declaration).
	Wrappers    []string
	PassThrough []string
	// Scopes are definition kinds whose members are still module level
	// (namespaces, Ruby modules, C++ namespaces).
	Scopes []string
	// Members lists container labels whose visible members are exported
	// too (public methods of a public Java class).
	Members []string
	// Visibility decides for each module-level definition.
	Visibility visibility
	// Forms are statement-level export forms (export lists, re-exports,
	// CommonJS assignments, Python's __all__).
	Forms []exportForm
}

// visibility decides whether a definition is exported.
type visibility struct {
	All          bool     // every module-level definition
	Wrapped      bool     // only definitions inside a Wrapper
	Capitalized  bool     // names starting with an upper-case letter (Go)
	NoUnderscore bool     // names not starting with _ (Python)
	Modifiers    path     // where the modifiers are
	Need         []string // one of these tokens must be among the modifiers
	Deny         []string // none of these tokens may be among the modifiers
}

// exportForm is a statement-level export.
type exportForm struct {
	Kind    string
	Require path   // must reach a node
	Forbid  path   // must reach no node
	Token   string // must have this anonymous child (default)
	// Names reaches each exported binding; Name, from the binding, its
	// name (the binding itself when empty) and Alias its exported alias.
	Names  path
	Name   path
	Alias  path
	Source path   // re-export source
	Label  string // named, default, re-export, commonjs, export=
	// Whole names the export by a fixed name when Names finds nothing
	// ("*" for export * from).
	Whole string
	// Assign matches assignments (CommonJS, __all__): the text at Left must
	// be one of these, or start with one followed by '.' (exports.x = ...).
	// An exact match exports the keys or elements of the value at Right,
	// or "default" when it is not a collection.
	Assign []string
	Left   path
	Right  path
	// Replace: when this form is present, it alone lists the file's
	// exports (Python's __all__ overrides the naming convention).
	Replace bool
}

// langSpec is everything loupe knows about the shapes of one language.
type langSpec struct {
	Lang string
	// Scope lists the languages whose files one analysis covers, this one
	// first (TypeScript covers .tsx too); ExtraExts are further extensions
	// parsed with this language (C++ headers named .h).
	Scope     []string
	ExtraExts []string

	Defs  []defShape
	Calls []callShape
	Names []nameRule

	// TypeLeaves are the kinds of type names; when TypeContext is set, a
	// leaf is a type reference only below a node of one of those kinds or
	// under one of TypeFields (Python's identifiers inside `type`).
	TypeLeaves  []string
	TypeContext []string
	TypeFields  []string
	// TypeShow lists the ancestor kinds whose text shows a type reference
	// (`: ToolRegistry` for TypeScript's type_annotation).
	TypeShow []string

	Imports []importShape
	Exports exportRules

	// NewMethod is the method name that instantiates its receiver
	// (Ruby's X.new, Rust's X::new).
	NewMethod string
	// ClassCalls: calling a class by name instantiates it (Python, Kotlin).
	ClassCalls bool
	// SelfNames are the receivers naming the enclosing class's instance
	// (this, self): a call on one resolves to the class's own member.
	SelfNames []string
	// Unwrap leads from a definition's value to the arguments of the call
	// it is, when that call wraps a function literal (const Panel =
	// memo(() => ...)): the definition is then callable, and the calls in
	// the literal are its own.
	Unwrap path
	// Typed lists the declarations of names with a written type
	// (parameters, typed variables and fields): a method called on such a
	// name resolves to the type's member.
	Typed []typedShape
	// ImplicitSelf: an unqualified call inside a class may call one of its
	// own methods (Java, C#, Kotlin, Ruby, C++).
	ImplicitSelf bool
	// Library is the language's standard library table: its types
	// (a written Map is the library's), members' types and globals.
	Library func() *libTable
	// TypeExpr and ValueType, when set, replace TypeScript's readers of a
	// written type (tstype.Expr) and of a value's type from its syntax
	// (valueExpr) for the Expr and ValueExpr of the Typed shapes; ValueType
	// also types a call's literal receiver (b''.join(), "".join()).
	TypeExpr  func(tree.Node) string
	ValueType func(tree.Node) string
	// Narrows, when set, reads the narrowings a node makes (a test and
	// the branch it guards).
	Narrows func(tree.Node) []narrowFact
	// Repair, when set, returns a tree with errors' source repaired where
	// the grammar misreads it (same length and lines), to be parsed again
	// and walked instead; nil when it has nothing to repair.
	Repair func(*tree.Tree) []byte
	// DirScope: the files of one directory share a scope (Go's and Java's
	// packages), so an unqualified name may be defined in a sibling file.
	DirScope bool
	// Element are the kinds of expression whose value is an element of
	// their operand (Go's x[i]): a method called on one is called on a
	// value of the operand's element type, which the operand's written
	// type gives (a Names rule reads []T, map[K]T as T).
	Element []string
	// MapKey leads from a written type to a map's key type (Go's
	// map[K]V), which types the keys a range gives.
	MapKey path
	// Blocks are the kinds that open a scope inside a function (Go's
	// block, if, for, switch, func literal): a name typed inside one is
	// typed there alone.
	Blocks []string
	// Assertion is the kind of a type assertion (Go's x.(*T)), whose
	// value has the type its "type" field names: x.(*T).M() calls T's M.
	Assertion string
	// Builtins are the functions the language predeclares (Go's len,
	// close, ...): an unqualified call of one that nothing in scope
	// declares is the language's, never a workspace method's.
	Builtins []string
	// TypeArgs are the predeclared functions whose value has the type
	// their first argument writes (Go's make([]*T, n), new(T)).
	TypeArgs []string

	// Sep separates module path segments in import specifiers ("." for
	// Java, "::" for Rust, "\\" for PHP).
	Sep string
	// Package reads the package or namespace a file declares (Java, Kotlin,
	// C#, PHP), for package-based reverse dependencies.
	Package []packageShape
	// Exts are the extensions tried when resolving file-based imports, in
	// order; Index are the file names standing for a directory.
	Exts  []string
	Index []string
}

// typedShape is one declaration of a name with a written type: the name
// at Name, the type at Type (read through the name rules, so Foo<T>, *Foo
// and pkg.Foo give Foo); or, with Value instead of Type, a name declared
// by its initial value (Go's x := New()), typed by what the value calls.
//
// TypeScript's shapes set Expr instead: the whole written type, kept in
// its compact form (tstype), and the declaration is recorded even without
// one (an untyped parameter still hides a global of its name); ValueExpr
// is the initial value, typed from its syntax when it is a literal, an
// assertion (x as Foo), this or another name. Field marks a constructor's
// parameter property (constructor(private s: Store)): a field of the
// class, as does FieldToken (constructor(readonly s: Store)). Return marks a function's or method's return type, which types
// its calls, not a variable.
type typedShape struct {
	Kind       string
	Name       path
	Type       path
	Value      path
	Expr       path
	ValueExpr  path
	Field      path
	FieldToken string
	// SelfField, when set, leads to the receiver of an attribute the
	// declaration assigns (self in self.x = Foo()): when it is one of
	// SelfNames, the name is a field of the enclosing method's class.
	SelfField path
	// Elem: the name is an element of the value (for x in xs, Go's for
	// _, x := range xs): typed by the value's first type argument
	// (list[Store] gives Store) or, in Go, by the element type a written
	// []T reads as; never as a named container type (type list []T).
	Elem bool
	// Entry: with Elem, the names are the positions of an entry
	// destructured (for (const [k, v] of map)): a Map's key and value.
	Entry  bool
	Return bool
	// Under: the declaration defines a type (Name) over an underlying
	// type (Type), whose fields and elements it has (Go's type T u).
	Under bool
	// Key: the name is a key of the value (Go's for k := range m): typed
	// by the key type of the value's written map type.
	Key bool
	// AllNames: every name Name reaches is declared (Go's a, b *T and
	// x, y := f(), g()): each has the written type, or the value at its
	// own position among Value's nodes. When the values are fewer than
	// the names (x, err := f()), the first name takes the first value.
	AllNames bool
	// NameLeaf: the name is the leaf name of the node Name reaches (Go's
	// embedded field *pkg.T is named T).
	NameLeaf bool
	// Case: the declaration is a type switch's case, which types the
	// switch's name (Name) inside the case alone, when the case lists
	// exactly one type (Go's switch x := v.(type) { case *T: ... }).
	Case bool
	// Param: the declaration is a parameter in a parameter list (Node's
	// parent): its position and, for a written function type, the types
	// it gives a callback's parameters are kept (typedName.Param, Sig).
	Param bool
	// Token, when set, is a token the node must have for the shape to
	// declare anything (of in TypeScript's for (x of xs), not in).
	Token string
	// Prop: the name is a property of an object literal ({ a: f() }),
	// typed by its value: a field of the literal, never a variable.
	Prop bool
}

// packageShape reads a package declaration.
type packageShape struct {
	Kind string
	Name path
}

// jsFamily reports whether the table is TypeScript's or JavaScript's:
// the TypeScript library table without another language's type readers.
func (s *langSpec) jsFamily() bool {
	return s.Library != nil && s.TypeExpr == nil
}

// modes reports which modes the table supports.
func (s *langSpec) modes() []string {
	var out []string
	hasCallable := false
	for _, d := range s.Defs {
		if d.Callable || len(d.FuncKinds) > 0 {
			hasCallable = true
		}
	}
	if hasCallable && len(s.Calls) > 0 {
		out = append(out, ModeCallers, ModeCallees)
	}
	if len(s.Defs) > 0 {
		out = append(out, ModeDefinitions)
	}
	for _, d := range s.Defs {
		if len(d.Heritage) > 0 {
			out = append(out, ModeHierarchy)
			break
		}
	}
	if len(s.Calls) > 0 || len(s.Defs) > 0 {
		out = append(out, ModeReferences)
	}
	if len(s.Imports) > 0 {
		out = append(out, ModeDependencies)
	}
	e := s.Exports
	v := e.Visibility
	if v.All || v.Wrapped || v.Capitalized || v.NoUnderscore || len(v.Modifiers) > 0 || len(e.Forms) > 0 {
		out = append(out, ModeExports)
	}
	return out
}

// compiled is a langSpec bound to its grammar, with shapes indexed by
// symbol id for the per-node dispatch of the fact walk.
type compiled struct {
	spec    *langSpec
	lang    *language.Language
	kinds   []kindInfo // by symbol id
	typeFld map[string]bool
}

// kindInfo is what the tables say about one node kind.
type kindInfo struct {
	defs    []*defShape
	calls   []*callShape
	imports []*importShape
	forms   []*exportForm
	pkgs    []*packageShape
	typed   []*typedShape
	name    *nameRule
	flags   kindFlag
}

// kindFlag marks the roles of a node kind.
type kindFlag uint8

const (
	fType    kindFlag = 1 << iota // a type name leaf
	fTypeCtx                      // a type context
	fShow                         // shows a type reference
	fWrap                         // an export wrapper
	fPass                         // between an export wrapper and a definition
	fScope                        // a scope whose members are module level
)

var noKind kindInfo

// at returns the info of a symbol id (ERROR nodes and unknown ids have
// none).
func (c *compiled) at(id uint16) *kindInfo {
	if int(id) < len(c.kinds) {
		return &c.kinds[id]
	}
	return &noKind
}

func (c *compiled) is(id uint16, f kindFlag) bool { return c.at(id).flags&f != 0 }

var (
	compileMu sync.Mutex
	compileBy = map[string]*compiled{}
)

// compileSpec binds the table of language name to its grammar, once.
func compileSpec(ctx context.Context, name string) (*compiled, error) {
	compileMu.Lock()
	defer compileMu.Unlock()
	if c, ok := compileBy[name]; ok {
		return c, nil
	}
	s, ok := specs[name]
	if !ok {
		return nil, fmt.Errorf("no analysis table for language %s", name)
	}
	l, err := language.Lookup(name)
	if err != nil {
		return nil, err
	}
	c := &compiled{spec: s, lang: l, typeFld: map[string]bool{}}
	// each calls fn with the info of every symbol id of kind.
	each := func(kind string, fn func(k *kindInfo)) error {
		ids, err := l.KindIDs(ctx, kind)
		if err != nil {
			return err
		}
		for _, id := range ids {
			for int(id) >= len(c.kinds) {
				c.kinds = append(c.kinds, kindInfo{})
			}
			fn(&c.kinds[id])
		}
		return nil
	}
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	for i := range s.Defs {
		d := &s.Defs[i]
		add(each(d.Kind, func(k *kindInfo) { k.defs = append(k.defs, d) }))
	}
	for i := range s.Calls {
		cs := &s.Calls[i]
		add(each(cs.Kind, func(k *kindInfo) { k.calls = append(k.calls, cs) }))
	}
	for i := range s.Names {
		nr := &s.Names[i]
		add(each(nr.Kind, func(k *kindInfo) { k.name = nr }))
	}
	for i := range s.Imports {
		is := &s.Imports[i]
		add(each(is.Kind, func(k *kindInfo) { k.imports = append(k.imports, is) }))
	}
	for i := range s.Exports.Forms {
		f := &s.Exports.Forms[i]
		add(each(f.Kind, func(k *kindInfo) { k.forms = append(k.forms, f) }))
	}
	for i := range s.Typed {
		ts := &s.Typed[i]
		add(each(ts.Kind, func(k *kindInfo) { k.typed = append(k.typed, ts) }))
	}
	for i := range s.Package {
		p := &s.Package[i]
		add(each(p.Kind, func(k *kindInfo) { k.pkgs = append(k.pkgs, p) }))
	}
	for _, x := range []struct {
		flag  kindFlag
		kinds []string
	}{
		{fType, s.TypeLeaves}, {fTypeCtx, s.TypeContext}, {fShow, s.TypeShow},
		{fWrap, s.Exports.Wrappers}, {fPass, s.Exports.PassThrough}, {fScope, s.Exports.Scopes},
	} {
		for _, kind := range x.kinds {
			add(each(kind, func(k *kindInfo) { k.flags |= x.flag }))
		}
	}
	for _, f := range s.TypeFields {
		c.typeFld[f] = true
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("language %s: %w", name, errs[0])
	}
	compileBy[name] = c
	return c, nil
}

// nameLeaf finds the leaf naming an expression, following the language's
// name rules through member access, qualification and generics. It also
// returns the receiver (qualifier) met on the way, if any. The leaf is the
// zero Node when the expression has no name (a call of a call).
func (c *compiled) nameLeaf(n tree.Node) (leaf, recv tree.Node) {
	for range 12 {
		if n.IsZero() {
			return tree.Node{}, recv
		}
		r := c.at(n.KindID()).name
		if r == nil {
			break
		}
		if recv.IsZero() && len(r.Receiver) > 0 {
			recv = r.Receiver.first(n)
		}
		n = r.Name.first(n)
	}
	if n.IsZero() || n.NamedChildCount() > 0 || !n.IsNamed() {
		return tree.Node{}, recv
	}
	return n, recv
}

// nameOf is nameLeaf's text.
func (c *compiled) nameOf(n tree.Node) string {
	leaf, _ := c.nameLeaf(n)
	if leaf.IsZero() {
		return ""
	}
	return leaf.Text()
}

// receiverName reads the identifier a receiver expression ends with:
// toolRegistry for this.toolRegistry, $reg for PHP's $reg.
func (c *compiled) receiverName(n tree.Node) string {
	for range 12 {
		if n.IsZero() {
			return ""
		}
		if r := c.at(n.KindID()).name; r != nil {
			n = r.Name.first(n)
			continue
		}
		if n.NamedChildCount() == 1 {
			n = n.NamedChildren()[0]
			continue
		}
		break
	}
	if n.IsZero() || n.NamedChildCount() > 0 {
		return ""
	}
	return strings.TrimLeft(n.Text(), "$@")
}

// hasToken reports whether n has an anonymous child of kind tok.
func hasToken(n tree.Node, tok string) bool {
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		if !c.IsNamed() && c.Kind() == tok {
			return true
		}
	}
	return false
}

// hasAnyToken reports whether any node of ns, or any of their descendants,
// is a token (or a leaf whose text is) one of toks.
func hasAnyToken(ns []tree.Node, toks []string) bool {
	found := false
	for _, n := range ns {
		n.Descendants(func(d tree.Node) bool {
			if d.ChildCount() == 0 {
				for _, t := range toks {
					if d.Kind() == t || d.Text() == t {
						found = true
						return false
					}
				}
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// specs holds every language table by language name.
var specs = map[string]*langSpec{}

// register adds language tables; each lang_*.go file calls it from init.
func register(ss ...*langSpec) {
	for _, s := range ss {
		specs[s.Lang] = s
	}
}

// SupportedLanguages returns the languages structural analysis has tables
// for, sorted.
func SupportedLanguages() []string {
	var out []string
	for name := range specs {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// SupportedModes returns the modes structural analysis supports for a
// language (by name or alias), in the order of Modes.
func SupportedModes(lang string) []string {
	l, err := language.Lookup(lang)
	if err != nil {
		return nil
	}
	s, ok := specs[l.Name()]
	if !ok {
		return nil
	}
	have := map[string]bool{}
	for _, m := range s.modes() {
		have[m] = true
	}
	var out []string
	for _, m := range Modes {
		if have[m] {
			out = append(out, m)
		}
	}
	return out
}
