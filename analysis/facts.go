package analysis

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/analysis/internal/tstype"
	"github.com/loupe-dev/loupe/core/tree"
)

// fileFacts is what one walk over a file's tree finds: every definition,
// call, supertype, type reference, import and export. All modes read facts;
// none walks a tree itself. Facts are immutable once extracted, and shared
// between calls through the facts cache.
type fileFacts struct {
	rel string // workspace-relative path with '/'
	c   *compiled
	src []byte

	defs    []def
	calls   []call
	supers  []superFact
	types   []typeRef
	imports []importFact
	exports []exportFact
	typed   []typedName
	narrows []narrowFact
	// returns are the return values of TypeScript's and JavaScript's
	// functions (tsInferredReturn).
	returns []returnFact
	// loops are the byte ranges of Python's for and while statements
	// (pyReassigned); blocks those of its blocks, clauses those of the
	// clauses one of which runs in place of the others, and tries the
	// bodies of its try statements whose except clauses all leave, with
	// the statement's end (pyReaching).
	loops   [][2]int
	blocks  [][2]int
	clauses []pyClause
	tries   [][3]int
	// typeParams are TypeScript's type parameters, each typed by its
	// constraint (T extends ZodNumber has ZodNumber's members), visible
	// within [Start, Until): the declaration of its list. The walk records
	// one before any type name it holds (B in f<A, B>(b: B) references no
	// type B).
	typeParams []typedName
	packages   []string

	lineStarts []int // byte offset of each line
	// byName indexes defs by name (built once the walk ends; facts are
	// read-only after), so a lookup costs the definitions of its name,
	// not all of the file's.
	byName map[string][]int
}

// named returns the indexes of f's definitions named name, in order.
func (f *fileFacts) named(name string) []int { return f.byName[name] }

// def is one definition.
type def struct {
	Name, Label, Container string
	Line                   int // 1-based line of the name
	Start, End             int // byte range of the whole definition
	Callable               bool
	Parent                 int // enclosing definition, -1 at module level
	Exported, Default      bool
	container              bool // its members take its name
	// Lexical: the definition binds its name in the enclosing scope (a
	// function, class or variable), unlike a member (a method, a field, an
	// object-literal key), which is reached through its owner.
	Lexical bool
	// Static: a class's static member (TypeScript, JavaScript), reached
	// through the class, not its instances.
	Static bool
	// Augments, for a TypeScript declaration at the top of an ambient
	// module (declare module "zod/v4/mini" { interface ZodMiniType {} }),
	// is the module specifier whose declaration of its name it merges
	// with.
	Augments string
	kind     uint16
}

// call is one call or instantiation.
type call struct {
	Name string // called name; empty when the callee has none
	Recv string // identifier the receiver ends with, if any
	// RecvPlain: the receiver is that identifier alone (ns.f(), this.f(),
	// Owner.f()), not a longer chain ending with it; RecvSelf: it is a
	// field of this or self (this.registry.f()).
	RecvPlain, RecvSelf bool
	// Member: the call has a receiver (x.f(), f().g()); Element: it is a
	// JSX element.
	Member, Element bool
	// RecvNew: the receiver instantiates this class (new Service().init());
	// RecvBase: the receiver is a field Recv of this plain name (p.scanner
	// in p.scanner.next()).
	RecvNew, RecvBase string
	// RecvCall, when positive, is the start of the call the receiver is
	// (open() in open().get()).
	RecvCall int
	// RecvLit is the type of a literal receiver (str for "".join()).
	RecvLit string
	// RecvElem: the receiver is an element of Recv (x[i] in x[i].m()).
	RecvElem bool
	// RecvChainEnd, when positive, ends a receiver that is a chain of
	// fields and elements (a.b[i].c in a.b[i].c.m()), which starts at
	// RecvChainStart; in languages with Element kinds alone.
	RecvChainStart, RecvChainEnd int
	Line                         int
	Start, End                   int
	Caller                       int    // innermost enclosing callable definition, -1 if none
	New                          bool   // an instantiation (new X, X{...}, X.new)
	NewOf                        string // instantiated type for X.new / X::new
	Literal                      bool   // not a call (composite literal)
	// Read: a member named but not called there (TypeScript's and
	// JavaScript's x.m passed or assigned, x.m.bind(y)), which the
	// compiler's call hierarchy counts as a call site of m. Only the call
	// graph reads it, and lists it only when types tie it to the symbol.
	Read bool
	// TypeArgs are the compact forms (tstype) of the type arguments a
	// TypeScript call writes (atom<Vec>(), new ArraySet<Signal>()), and
	// Args the [start, end) of each argument it passes: what its
	// function's or class's type parameters are (typeFrame). A Python
	// call's Args are the values it passes, keyword or unpacked alike:
	// whether each is Unknown (pyUnknownArgs).
	TypeArgs []string
	Args     [][2]int
	// RecvAlts, for a TypeScript receiver a ?? b or a || b (as the grammar
	// reads (a ?? b)!.m()), are the [start, end) of its operands: it is
	// either one.
	RecvAlts [][2]int
}

// superFact says definition Def names Name as a supertype.
type superFact struct {
	Def      int
	Name     string
	Recv     string // its qualifier (io in io.Closer), if a plain name
	Relation string
	Line     int
	// Args are the compact forms (tstype) of the type arguments a
	// TypeScript heritage writes (extends Signal<Value, Diff>), or a
	// Python base (list[Token]).
	Args []string
}

// typeRef is a type name used in a type position.
type typeRef struct {
	Name       string
	Recv       string // its qualifier (pkg in pkg.Type), if a plain name
	Line       int
	Start, End int // range shown for it (the annotation); Start -1: its line
}

// typedName is a name declared with a written type (a parameter, a typed
// variable or field), visible inside definition Scope (-1: the file).
type typedName struct {
	Name, Type string
	// ValStart and ValEnd locate the initial value of a name declared
	// without a written type (Type empty).
	ValStart, ValEnd int
	TypeRecv         string // the type's qualifier (a in *a.Store), if a plain name
	// Expr is the written type's compact form (tstype), ValExpr the
	// initial value's when its syntax tells it: "this", "=name" for
	// another name's type, or a compact type. Typed by Expr: Type is empty.
	Expr, ValExpr string
	// Return: the type is a function's or method's return type; the
	// entry types calls of Name, not a variable.
	Return bool
	// Elem: the name is an element of its value (typedShape.Elem).
	Elem bool
	// Under: the entry is a defined type's underlying type (Go's type
	// list []T), not a name's.
	Under bool
	// Key: the name is a key of its value (Go's for k := range m), typed
	// by the key type the value's map type writes. KeyType and KeyRecv
	// are that key type, for a name whose written type is a map.
	Key              bool
	KeyType, KeyRecv string
	Scope            int
	Start            int
	// Index is which result the type is: of the function (Return), or of
	// the value's call (x, err := f() types err by f's result 1).
	Index int
	// Until, when set, ends where the name has this type: the name is
	// typed within [Start, Until) alone (a type switch's case).
	Until int
	// Param, for a parameter of definition Scope itself (not of a
	// function literal inside it), is its 1-based position among the
	// parameters a call passes (a this: parameter is not one); Sig, when
	// its written type is a function type, are that function type's
	// parameter types (tstype.Params): what a callback passed there
	// receives.
	Param int
	Sig   []string
	// Opt: the parameter (Param) may be left out: optional (x?: T) or
	// with a default value.
	Opt bool
	// Prop: an object literal's property (typedShape.Prop), read as a
	// field of the literal's type alone.
	Prop bool
	// Entry: an Elem name at position Index of a destructured entry
	// (typedShape.Entry).
	Entry bool
	// Splat: a Python *args or **kwargs written with no annotation,
	// typed as pyright reads it (Expr: a tuple or dict of Unknown), not
	// by anything written.
	Splat bool
	// FieldOf and Field: a name destructured from a parameter of a
	// written type (({ a: { b } }: Props)) is field chain Field (a.b) of
	// that type (compact form); Field alone, with Elem, a field of an
	// element (for (const { el } of xs)).
	FieldOf, Field string
	// Predicate is the type the type predicate of a function's return
	// (Return), or of a variable's function type, proves of its argument
	// (x is Map<K, V>).
	Predicate string
	// Constructs, for a parameter written as a constructor type (theClass:
	// new (...args: any[]) => T), is what it makes: T.
	Constructs string
	// Yields, for a parameter written as a function type (init: () => T),
	// is what it returns: T.
	Yields string
}

// importFact is one imported module specifier.
type importFact struct {
	Line       int
	Start, End int // the import statement
	Form       string
	Source     string
	Names      []boundName
	Resolve    string // resolution strategy
	Call       bool   // a call (require, import()): shown by its line
}

// boundName is a name an import binds, with its line.
type boundName struct {
	Name, Alias, Form string
	Line              int
}

// exportFact is one exported name.
type exportFact struct {
	Name, Label, Container string
	Line                   int
	Source                 string // re-exports
	Detail                 string // default export's value
	Replace                bool
	// Local is the local name an alias exports (other in export { other
	// as o }).
	Local string
}

// viaCall is the method a JavaScript or TypeScript callee calls through
// Function's call or apply (Owner.prototype.m in Owner.prototype.m.apply(x,
// args), Object.prototype.toString.call(x)): the call is one of it, as the
// compiler's call hierarchy counts it. Any other callee is itself (f.call(x)
// of a plain name stays a call of call: a file of thousands of them would
// each be judged against the name).
func viaCall(c *compiled, callee tree.Node) tree.Node {
	if !c.spec.jsFamily() || callee.Kind() != "member_expression" {
		return callee
	}
	if p := callee.ChildByField("property").Text(); p != "call" && p != "apply" {
		return callee
	}
	if o := callee.ChildByField("object"); o.Kind() == "member_expression" {
		return o
	}
	return callee
}

// shapeAt is the compact form of an object type or object literal n,
// read where it is written: {}@start:end (evalType reads it back).
func shapeAt(n tree.Node) string {
	return tstype.Anonymous + "@" + strconv.Itoa(n.StartByte()) + ":" + strconv.Itoa(n.EndByte())
}

// tsKeywordTypes are TypeScript's type keywords the grammar may read as a
// type name (bigint): never a reference to a declaration of that name.
var tsKeywordTypes = map[string]bool{"bigint": true, "any": true, "unknown": true, "never": true, "object": true,
	"symbol": true, "undefined": true, "void": true, "string": true, "number": true, "boolean": true}

// extract walks t once and collects its facts.
func extract(c *compiled, rel string, t *tree.Tree) *fileFacts {
	f := &fileFacts{rel: rel, c: c, src: t.Source()}
	var stack []int // open definitions, innermost last
	skip := map[int]bool{}
	needCtx := len(c.spec.TypeContext) > 0 || len(c.spec.TypeFields) > 0
	t.Root().Descendants(func(n tree.Node) bool {
		if !n.IsNamed() {
			return true
		}
		start, end := n.StartByte(), n.EndByte()
		for len(stack) > 0 {
			d := &f.defs[stack[len(stack)-1]]
			if d.Start <= start && end <= d.End {
				break
			}
			stack = stack[:len(stack)-1]
		}
		k := c.at(n.KindID())
		if k.defs != nil {
			if i := f.addDef(n, k.defs, stack, skip); i >= 0 {
				stack = append(stack, i)
			}
		}
		for _, cs := range k.calls {
			f.addCall(n, cs, stack, skip)
		}
		if c.spec.jsFamily() && n.Kind() == "member_expression" && memberRead(n) {
			f.addCall(n, &jsMemberRead, stack, skip)
		}
		if c.spec.Lang == "python" && n.Kind() == "attribute" && pyMemberRead(n) {
			f.addCall(n, &pyMemberReadShape, stack, skip)
		}
		for _, is := range k.imports {
			f.addImport(n, is)
		}
		for _, ef := range k.forms {
			f.addExportForm(n, ef)
		}
		for _, ts := range k.typed {
			f.addTyped(n, ts, stack)
		}
		if c.spec.jsFamily() {
			f.addReturn(n, stack)
		}
		if c.spec.Lang == "python" && n.Kind() == "parameters" {
			f.addPyParams(n, stack)
		}
		if c.spec.Lang == "python" && (n.Kind() == "for_statement" || n.Kind() == "while_statement") {
			f.loops = append(f.loops, [2]int{n.StartByte(), n.EndByte()})
		}
		if c.spec.Lang == "python" {
			f.addPyFlow(n, stack)
		}
		if c.spec.Lang == "python" && n.Kind() == "assignment" {
			f.addPyUnpack(n, stack) // a, b = untyped_param
		}
		if c.spec.Lang == "python" && n.Kind() == "lambda" {
			f.addPyLambda(n, stack) // sorted(xs, key=lambda x: ...)
		}
		if n.Kind() == "index_signature" && c.spec.jsFamily() {
			// { [key: string]: T[] }, { [K in S]: V }: what x[k] gives,
			// named [] among the type's fields.
			if ty := n.ChildByField("type"); !ty.IsZero() {
				f.typed = append(f.typed, typedName{Name: "[]", Expr: tstype.Expr(ty), Scope: f.scopeOf(n, stack),
					Start: n.StartByte(), ValStart: -1, ValEnd: -1})
			}
		}
		if n.Kind() == "type_parameter" && c.spec.jsFamily() {
			// Visible within the declaration of its list (f<T>(x: T), class K<T>).
			owner := n.Parent().Parent()
			f.typeParams = append(f.typeParams, typedName{Name: n.ChildByField("name").Text(),
				Expr: tstype.Expr(n.ChildByField("constraint")), Start: owner.StartByte(), Until: owner.EndByte()})
		}
		if c.spec.Narrows != nil {
			f.narrows = append(f.narrows, c.spec.Narrows(n)...)
		}
		for _, ps := range k.pkgs {
			if p := ps.Name.first(n); !p.IsZero() {
				f.packages = append(f.packages, compact(p.Text()))
			}
		}
		if k.flags&fType != 0 && n.NamedChildCount() == 0 && !skip[start] && !(c.spec.jsFamily() && tsKeywordTypes[n.Text()]) {
			if (!needCtx || c.inTypeContext(n)) && !f.namesTypeParam(n) {
				r := typeRef{Name: n.Text(), Line: n.StartPoint().Row + 1, Start: -1}
				if p := n.Parent(); !p.IsZero() {
					if nr := c.at(p.KindID()).name; nr != nil && len(nr.Receiver) > 0 {
						if q := nr.Receiver.first(p); !q.IsZero() && q.NamedChildCount() == 0 && q.StartByte() != start {
							r.Recv = q.Text()
						}
					}
				}
				for a, up := n.Parent(), 0; !a.IsZero() && up < 6; a, up = a.Parent(), up+1 {
					if c.is(a.KindID(), fShow) {
						r.Start, r.End = a.StartByte(), a.EndByte()
						break
					}
				}
				f.types = append(f.types, r)
			}
		}
		return true
	})
	f.finishExports()
	f.byName = make(map[string][]int, len(f.defs))
	for i, d := range f.defs {
		f.byName[d.Name] = append(f.byName[d.Name], i)
	}
	f.lineStarts = []int{0}
	for i, b := range f.src {
		if b == '\n' {
			f.lineStarts = append(f.lineStarts, i+1)
		}
	}
	return f
}

// addTyped records the written types of the names n declares.
func (f *fileFacts) addTyped(n tree.Node, s *typedShape, stack []int) {
	switch {
	case s.Token != "" && !hasToken(n, s.Token):
		return
	case s.Return && len(s.Type) > 0:
		// A function's results, each with its position: in (*T, error)
		// error is result 1, in (a, b int, err error) result 2.
		index := 0
		for _, tn := range s.Type.eval(n) {
			f.addTypedName(n, s, stack, s.Name.first(n), tree.Node{}, tn, index)
			index += max(1, len(path{"name"}.eval(tn.Parent())))
		}
		return
	case !s.AllNames && !s.Case:
		f.addTypedName(n, s, stack, s.Name.first(n), s.Value.first(n), s.Type.first(n), 0)
		return
	case s.Case && len(s.Type.eval(n)) != 1:
		return // case *A, *B: the name keeps the switch value's type
	}
	names, values := s.Name.eval(n), s.Value.eval(n)
	if s.Entry && len(names) > 0 && strings.Contains(strings.ReplaceAll(names[0].Parent().Text(), " ", ""), ",,") ||
		s.Entry && len(names) > 0 && strings.HasPrefix(strings.TrimLeft(names[0].Parent().Text(), "[ "), ",") {
		return // [, v]: a hole moves the positions
	}
	for i, nn := range names {
		var v tree.Node
		index := 0
		switch {
		case len(values) == len(names):
			v = values[i]
		case len(values) == 1:
			v, index = values[0], i // x, err := f(): err is what f returns second
		case len(s.Value) > 0:
			return
		}
		f.addTypedName(n, s, stack, nn, v, s.Type.first(n), index)
	}
}

// addTypedName records the written type tn of name nn that n declares,
// or v, its value, when the shape types names by their values; index is
// the result of v's call, or of the function, the type is.
func (f *fileFacts) addTypedName(n tree.Node, s *typedShape, stack []int, nn, v, tn tree.Node, index int) {
	if s.NameLeaf && !nn.IsZero() {
		nn, _ = f.c.nameLeaf(nn)
	}
	if nn.Kind() == "object_pattern" && f.c.spec.TypeExpr == nil && !s.Return && !s.Elem {
		f.addDestructured(n, s, stack, nn)
		return
	}
	if nn.Kind() == "object_pattern" && f.c.spec.jsFamily() && s.Elem && !s.Entry {
		// for (const { el, n: k } of xs): each name a field of an element.
		for _, p := range namedNonExtra(nn) {
			var id tree.Node
			field := ""
			switch p.Kind() {
			case "shorthand_property_identifier_pattern":
				id, field = p, p.Text()
			case "pair_pattern":
				if k, val := p.ChildByField("key"), p.ChildByField("value"); k.Kind() == "property_identifier" && val.Kind() == "identifier" {
					id, field = val, k.Text()
				}
			}
			if id.IsZero() {
				continue
			}
			before := len(f.typed)
			f.addTypedName(n, s, stack, id, v, tn, index)
			for i := before; i < len(f.typed); i++ {
				f.typed[i].Field = field
			}
		}
		return
	}
	name := strings.TrimLeft(nn.Text(), "$")
	if key := computedKey(nn); key != "" && f.c.spec.jsFamily() {
		name = key // [$mobx]: Administration, read by x[$mobx]
	} else if nn.IsZero() || nn.NamedChildCount() > 0 {
		return
	}
	var typ, typeRecv, keyType, keyRecv, expr, valExpr string
	valStart, valEnd := -1, -1
	if len(s.ValueExpr) > 0 && contains(f.c.spec.SelfNames, nn.Text()) && s.Expr.first(n).IsZero() {
		return // self = str.__new__(cls) keeps self the class's instance
	}
	if s.Return && len(s.Expr) > 0 && s.Expr.first(n).IsZero() {
		return // no written return type
	}
	if len(s.Expr) > 0 {
		typeExpr, valueType := tstype.Expr, func(v tree.Node) string { return valueExpr(v, 0) }
		if f.c.spec.TypeExpr != nil {
			typeExpr, valueType = f.c.spec.TypeExpr, f.c.spec.ValueType
		}
		expr = typeExpr(s.Expr.first(n))
		if v := s.ValueExpr.first(n); !v.IsZero() {
			for range 8 {
				if v.Kind() != "assignment" || f.c.spec.Lang != "python" || v.ChildByField("right").IsZero() {
					break
				}
				v = v.ChildByField("right") // a = b = c(): c()
			}
			valStart, valEnd = v.StartByte(), v.EndByte()
			valExpr = valueType(v)
		} else if expr == "" {
			valExpr = callbackParamExpr(n)
		}
		if f.c.spec.TypeExpr == nil && expr == tstype.Anonymous {
			if ot := objectType(s.Expr.first(n)); !ot.IsZero() {
				// { subs: Subscription }: its fields, read where it is written.
				expr = shapeAt(ot)
			}
		}
		if f.c.spec.TypeExpr == nil && expr == "" {
			expr = intersectionExpr(s.Expr.first(n))
		}
		if f.c.spec.TypeExpr == nil && expr == "" {
			if tn := s.Expr.first(n); tstype.IsAny(tn) || tn.IsZero() && s.Param && valStart < 0 && valExpr == "" && f.c.implicitAny(n) {
				expr = tstype.Any
			} else if tn.IsZero() && valStart < 0 && n.Kind() == "variable_declarator" && n.Parent().Parent().Kind() == "ambient_declaration" {
				expr = tstype.Any // declare const Symbol: no type, any
			}
		}
	} else if len(s.Value) > 0 {
		if v.IsZero() {
			return
		}
		valStart, valEnd = v.StartByte(), v.EndByte()
	} else {
		if tn.IsZero() {
			return
		}
		if k := f.c.spec.MapKey.first(tn); !k.IsZero() {
			if kl, kr := f.c.nameLeaf(k); !kl.IsZero() {
				keyType = kl.Text()
				if !kr.IsZero() && kr.NamedChildCount() == 0 {
					keyRecv = kr.Text()
				}
			}
		}
		leaf, recv := f.c.nameLeaf(tn)
		switch {
		case !leaf.IsZero():
			typ = leaf.Text()
			if !recv.IsZero() && recv.NamedChildCount() == 0 {
				typeRecv = recv.Text()
			}
		case keyType != "":
			typ = tstype.Anonymous // map[*conn]struct{}: its keys alone are typed
		default:
			return
		}
	}
	scope := f.scopeOf(n, stack)
	if len(s.SelfField) > 0 {
		if r := s.SelfField.first(n); r.IsZero() || !contains(f.c.spec.SelfNames, r.Text()) {
			return
		}
	}
	if (len(s.Field) > 0 && !s.Field.first(n).IsZero() || s.FieldToken != "" && hasToken(n, s.FieldToken) ||
		len(s.SelfField) > 0) && scope >= 0 {
		if s.Param {
			// constructor(public editor: Editor): a parameter of the
			// constructor as well as a field of its class.
			param := *s
			param.Field, param.FieldToken = nil, ""
			f.addTypedName(n, &param, stack, nn, v, tn, index)
		}
		scope = f.defs[scope].Parent // the constructor's class
		if scope < 0 {
			return
		}
	}
	t := typedName{Name: name, Type: typ, TypeRecv: typeRecv, Scope: scope, Start: n.StartByte(),
		ValStart: valStart, ValEnd: valEnd, Expr: expr, ValExpr: valExpr, Return: s.Return, Elem: s.Elem, Entry: s.Entry, Index: index,
		Key: s.Key, KeyType: keyType, KeyRecv: keyRecv, Under: s.Under, Prop: s.Prop}
	if f.c.spec.TypeExpr == nil && len(s.Expr) > 0 {
		t.Predicate = tstype.Predicate(s.Expr.first(n))
		if s.Param {
			t.Constructs = tstype.Constructs(s.Expr.first(n))
			t.Yields = tstype.Yields(s.Expr.first(n))
		}
		if v := s.ValueExpr.first(n); t.Predicate == "" && v.Kind() == "as_expression" {
			t.Predicate = tstype.Predicate(namedNonExtra(v)[len(namedNonExtra(v))-1])
		}
	}
	if s.Param {
		fn := n.Parent().Parent() // the function of the parameter list
		switch fn.Kind() {
		case "function_type", "constructor_type":
			return // a function type's parameter names no variable
		}
		if pos := paramPosition(n); pos > 0 && scope >= 0 && (sameRange(fn, f.defs[scope]) || sameRange(fn.Parent(), f.defs[scope])) {
			t.Param = pos
			t.Opt = n.Kind() == "optional_parameter" || valStart >= 0
			if f.c.spec.TypeExpr == nil {
				t.Sig = tstype.Params(s.Expr.first(n))
			}
		}
	}
	if s.Case {
		t.Until = n.EndByte()
	} else if len(f.c.spec.Blocks) > 0 && scope >= 0 {
		// The innermost block around the declaration inside its scope.
		for a := n.Parent(); !a.IsZero() && a.StartByte() >= f.defs[scope].Start; a = a.Parent() {
			if a.StartByte() == f.defs[scope].Start && a.EndByte() == f.defs[scope].End {
				break
			}
			if contains(f.c.spec.Blocks, a.Kind()) {
				t.Until = a.EndByte()
				break
			}
		}
	}
	f.typed = append(f.typed, t)
}

// namesTypeParam reports whether the type name n names a type parameter
// of a declaration around it, which references no type of that name.
func (f *fileFacts) namesTypeParam(n tree.Node) bool {
	if len(f.typeParams) == 0 {
		return false
	}
	_, ok := typeParamAt(f, n.Text(), n.StartByte())
	return ok
}

// implicitAny reports whether the TypeScript parameter n, written with no
// type and no default value, is one the compiler types any: a parameter of
// a function or generator declaration, of a class's method (not a set
// accessor, typed by its get), or of a function literal or object literal
// method held by a variable declared with no type. Elsewhere (a callback
// passed to a call, a value returned or assigned) a context may type it.
func (c *compiled) implicitAny(n tree.Node) bool {
	if c.spec.Lang != "typescript" && c.spec.Lang != "tsx" {
		return false
	}
	fn := n.Parent().Parent()
	switch fn.Kind() {
	case "function_declaration", "generator_function_declaration":
		return true
	case "method_definition":
		if hasToken(fn, "set") {
			return false
		}
		switch fn.Parent().Kind() {
		case "class_body":
			return true
		case "object":
			holder := fn.Parent().Parent()
			if holder.Kind() == "as_expression" && constAssertion(holder) {
				holder = holder.Parent() // { ... } as const: a const assertion types no parameter
			}
			return untypedVariable(holder)
		}
	case "arrow_function", "function_expression", "generator_function":
		return untypedVariable(fn.Parent())
	}
	return false
}

// objectType returns the object type literal the type annotation n
// writes ({ a: A; b(): void }), or the zero Node.
func objectType(n tree.Node) tree.Node {
	for depth := 0; !n.IsZero() && depth < 4; depth++ {
		switch n.Kind() {
		case "type_annotation", "parenthesized_type", "readonly_type":
			n = firstNamedNonExtra(n)
			continue
		case "object_type":
			return n
		case "union_type":
			// { … } | null: the object type, when it is the one member
			// that is not null or undefined.
			var only tree.Node
			for _, c := range namedNonExtra(n) {
				switch {
				case tstype.Nullish(c):
				case !only.IsZero():
					return tree.Node{}
				default:
					only = c
				}
			}
			n = only
			continue
		}
		break
	}
	return tree.Node{}
}

// fieldChain returns v, a TypeScript chain of fields (this.a.b, x?.y!.z,
// this.#c), in plain dotted form; "" when v is anything else (a call, an
// element, a literal).
func fieldChain(v string) string {
	v = strings.ReplaceAll(strings.ReplaceAll(strings.Join(strings.Fields(v), ""), "?.", "."), "!.", ".")
	v = strings.TrimSuffix(v, "!")
	for _, seg := range strings.Split(v, ".") {
		if !isField(seg) {
			return ""
		}
	}
	return v
}

// constAssertion reports whether the as_expression n is x as const.
func constAssertion(n tree.Node) bool {
	var last tree.Node
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		last = c
	}
	return !last.IsZero() && last.Kind() == "const"
}

// untypedVariable reports whether n is a variable declarator written
// with no type (its value is typed by nothing but itself).
func untypedVariable(n tree.Node) bool {
	return n.Kind() == "variable_declarator" && n.ChildByField("type").IsZero()
}

// intersectionExpr is the compact form of a TypeScript intersection type
// (Promise<T> & { resolve(v: T): void }): Intersection<A,B>, an object
// type among its parts read where it is written; "" for any other type or
// a part that names nothing.
func intersectionExpr(n tree.Node) string {
	for n.Kind() == "type_annotation" || n.Kind() == "parenthesized_type" {
		n = firstNamedNonExtra(n)
	}
	if n.Kind() != "intersection_type" {
		return ""
	}
	var parts []string
	for _, p := range namedNonExtra(n) {
		x := tstype.Expr(p)
		if ot := objectType(p); !ot.IsZero() && x == tstype.Anonymous {
			x = shapeAt(ot)
		} else if p.Kind() == "intersection_type" {
			x = intersectionExpr(p)
		}
		if x == "" || strings.HasPrefix(x, tstype.Intersection) {
			return "" // an unknown part, or an intersection nested unparenthesized
		}
		parts = append(parts, x)
	}
	return tstype.Intersection + "<" + strings.Join(parts, ",") + ">"
}

// calledInner reports whether the object of a member receiver is a call,
// bare or asserted non-null (open().store, m.get(k)!.moving), or a value
// in parentheses ((doc ?? getDocument()).fonts).
func calledInner(c *compiled, inner tree.Node) bool {
	for range 2 {
		if inner.IsZero() || inner.Kind() != "non_null_expression" {
			break
		}
		inner = firstNamedNonExtra(inner)
	}
	return !inner.IsZero() && (len(c.at(inner.KindID()).calls) > 0 || inner.Kind() == "parenthesized_expression")
}

// jsMemberRead is the shape of a member named but not called (Read).
var jsMemberRead = callShape{Kind: "member_expression", Read: true}

// memberRead reports whether member expression n names its property
// without calling it: passed, assigned, returned or bound (x.m.bind(y)),
// not called (x.m(), new x.M(), x.m.call(y)), not the object of another
// member, an element or an update, not in a type.
func memberRead(n tree.Node) bool {
	p := n.Parent()
	same := func(m tree.Node) bool { return sameSpan(m, n) }
	switch p.Kind() {
	case "call_expression":
		return !same(p.ChildByField("function"))
	case "member_expression":
		return same(p.ChildByField("object")) && p.ChildByField("property").Text() == "bind"
	case "new_expression", "subscript_expression", "parenthesized_expression", "non_null_expression",
		"update_expression", "augmented_assignment_expression", "type_query", "decorator":
		return false
	}
	return !p.IsZero()
}

// sameSpan reports whether nodes a and b cover the same bytes (the node
// itself, met again as a field of its parent).
func sameSpan(a, b tree.Node) bool {
	return a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte()
}

// pyMemberReadShape is the shape of a Python attribute named but not
// called (Read).
var pyMemberReadShape = callShape{Kind: "attribute", Read: true}

// pyMemberRead reports whether Python attribute n names its attribute
// without calling it: passed, assigned, returned or stored
// (validators[name] = setting.ValidateMSVS), not called (x.m()), not
// the object of another attribute or a subscript, not assigned to, not a
// decorator.
func pyMemberRead(n tree.Node) bool {
	p := n.Parent()
	same := func(m tree.Node) bool { return sameSpan(m, n) }
	switch p.Kind() {
	case "call":
		return !same(p.ChildByField("function"))
	case "attribute", "subscript":
		return !same(p.ChildByField("object")) && !same(p.ChildByField("value"))
	case "assignment", "augmented_assignment":
		return !same(p.ChildByField("left"))
	case "decorator", "delete_statement", "pattern_list", "tuple_pattern", "list_pattern":
		return false
	}
	return !p.IsZero()
}

// callAt returns the call spanning [start, end) of f.
func (f *fileFacts) callAt(start, end int) (call, bool) {
	for _, k := range f.calls {
		if k.Start == start && k.End == end && !k.Read {
			return k, true
		}
	}
	return call{}, false
}

// scopeOf is the innermost definition of stack around declaration n, not
// the one n makes itself (a typed variable or field); -1 at the top.
func (f *fileFacts) scopeOf(n tree.Node, stack []int) int {
	for i := len(stack) - 1; i >= 0; i-- {
		if d := f.defs[stack[i]]; d.Start != n.StartByte() || d.End != n.EndByte() {
			return stack[i]
		}
	}
	return -1
}

// addDestructured records the names an object pattern declares from a
// value that is a name or a chain of fields (const { kind, name: key } =
// context): each has the type of that field of the value.
func (f *fileFacts) addDestructured(n tree.Node, s *typedShape, stack []int, pattern tree.Node) {
	if ty := s.Expr.first(n); len(s.Expr) > 0 && !ty.IsZero() {
		// ({ textEditor }: Props): each name is a field of the written
		// type.
		if x := tstype.Expr(ty); x != "" && x != tstype.Anonymous {
			f.addPattern(n, f.scopeOf(n, stack), pattern, "", 0, x)
		}
		return
	}
	v := s.ValueExpr.first(n)
	if v.IsZero() {
		return
	}
	from := strings.Join(strings.Fields(v.Text()), "")
	for _, seg := range strings.Split(from, ".") {
		if !isField(seg) {
			return
		}
	}
	f.addPattern(n, f.scopeOf(n, stack), pattern, from, 0, "")
}

// addPattern declares the names object pattern binds from the value at
// chain from (another name's fields): { a, b: c } gives a from.a and c
// from.b; { e: { i: { k } } } gives k from.e.i.k. With typ, the value is
// of that written type (a parameter's), and from the chain of its fields.
func (f *fileFacts) addPattern(n tree.Node, scope int, pattern tree.Node, from string, depth int, typ string) {
	for _, p := range namedNonExtra(pattern) {
		var name, field string
		switch p.Kind() {
		case "shorthand_property_identifier_pattern":
			name, field = p.Text(), p.Text()
		case "pair_pattern":
			k, val := p.ChildByField("key"), p.ChildByField("value")
			switch {
			case k.Kind() != "property_identifier":
			case val.Kind() == "identifier":
				name, field = val.Text(), k.Text()
			case val.Kind() == "object_pattern" && depth < 4:
				f.addPattern(n, scope, val, strings.TrimPrefix(from+"."+k.Text(), "."), depth+1, typ)
			}
		}
		switch {
		case name == "":
		case typ != "":
			f.typed = append(f.typed, typedName{Name: name, FieldOf: typ, Field: strings.TrimPrefix(from+"."+field, "."),
				Scope: scope, Start: n.StartByte(), ValStart: -1, ValEnd: -1})
		default:
			f.typed = append(f.typed, typedName{Name: name, ValExpr: "=" + from + "." + field, Scope: scope,
				Start: n.StartByte(), ValStart: -1, ValEnd: -1})
		}
	}
}

// paramPosition is the 1-based position of parameter n among the
// parameters a call passes (a this: parameter is not one), 0 for a this:
// parameter.
func paramPosition(n tree.Node) int {
	pos := 0
	for _, p := range namedNonExtra(n.Parent()) {
		if p.ChildByField("pattern").Kind() == "this" {
			if p.StartByte() == n.StartByte() {
				return 0
			}
			continue
		}
		pos++
		if p.StartByte() == n.StartByte() {
			return pos
		}
	}
	return 0
}

// augmented returns the module specifier an ambient module declaration
// names (declare module "spec" { … }) when n is one of its top-level
// declarations (exported or not); "" otherwise.
func augmented(n tree.Node) string {
	p := n.Parent()
	if p.Kind() == "export_statement" {
		p = p.Parent()
	}
	if p.Kind() != "statement_block" {
		return ""
	}
	m := p.Parent()
	if m.Kind() != "module" {
		return ""
	}
	if name := m.ChildByField("name"); name.Kind() == "string" {
		return strings.Trim(name.Text(), "\"'`")
	}
	return ""
}

// sameRange reports whether node n spans definition d.
func sameRange(n tree.Node, d def) bool {
	return !n.IsZero() && n.StartByte() == d.Start && n.EndByte() == d.End
}

// valueExpr types a JavaScript or TypeScript value from its syntax alone:
// a literal, a function, an assertion (x as Foo, <Foo>x), this, another
// name ("=name"), or the first typed side of x ?? y, x || y and c ? x :
// y. Calls and instantiations are typed later, from what they call.
func valueExpr(v tree.Node, depth int) string {
	if v.IsZero() || depth > 6 {
		return ""
	}
	switch v.Kind() {
	case "string", "template_string":
		return "String"
	case "number":
		return "Number"
	case "true", "false":
		return "Boolean"
	case "regex":
		return "RegExp"
	case "array":
		// [new Subject<T>()]: an array of that class; else of elements
		// not told.
		elem := ""
		for i, c := range namedNonExtra(v) {
			ctor := c.ChildByField("constructor")
			if c.Kind() != "new_expression" || ctor.Kind() != "identifier" || i > 0 && ctor.Text() != elem {
				return "Array"
			}
			elem = ctor.Text()
		}
		if elem != "" {
			return "Array<" + elem + ">"
		}
		return "Array"
	case "object":
		for _, c := range v.NamedChildren() {
			if c.Kind() == "spread_element" {
				return "" // { ...schemas }: members of unknown types
			}
		}
		// Its properties, typed by their values, are read where it is
		// written (typedShape.Prop).
		return shapeAt(v)
	case "arrow_function", "function_expression", "function", "generator_function", "class":
		return "Function"
	case "this":
		return "this"
	case "identifier":
		if t := v.Text(); t != "undefined" {
			return "=" + t
		}
	case "as_expression":
		switch cs := v.NamedChildren(); len(cs) {
		case 1: // x as const
			return valueExpr(cs[0], depth+1)
		case 2:
			if tstype.IsAny(cs[1]) {
				return tstype.Any // x as any
			}
			return tstype.Expr(cs[1])
		}
	case "type_assertion":
		if cs := v.NamedChildren(); len(cs) == 2 && cs[0].Kind() == "type_arguments" {
			if ts := cs[0].NamedChildren(); len(ts) == 1 {
				return tstype.Expr(ts[0])
			}
		}
	case "assignment_expression":
		// (subject = subject ?? make()): the assigned name's type.
		if l := v.ChildByField("left"); l.Kind() == "identifier" {
			return "=" + l.Text()
		}
	case "satisfies_expression", "parenthesized_expression", "non_null_expression":
		if cs := v.NamedChildren(); len(cs) > 0 {
			return valueExpr(cs[0], depth+1)
		}
	case "member_expression", "subscript_expression":
		if valueExpr(v.ChildByField("object"), depth+1) == tstype.Any {
			return tstype.Any // (source as any)._connection
		}
	case "binary_expression":
		if op := v.ChildByField("operator"); !op.IsZero() && (op.Text() == "??" || op.Text() == "||") {
			if t := valueExpr(v.ChildByField("left"), depth+1); t != "" {
				return t
			}
			return valueExpr(v.ChildByField("right"), depth+1)
		}
	case "ternary_expression":
		if t := valueExpr(v.ChildByField("consequence"), depth+1); t != "" {
			return t
		}
		return valueExpr(v.ChildByField("alternative"), depth+1)
	}
	return ""
}

// inCallable reports whether a definition on the stack is callable.
func (f *fileFacts) inCallable(stack []int) bool {
	for _, i := range stack {
		if f.defs[i].Callable {
			return true
		}
	}
	return false
}

// inFuncLiteral reports whether n sits inside a function literal of one
// of funcKinds (test("...", () => { const a = ... })).
func inFuncLiteral(n tree.Node, funcKinds []string) bool {
	for a := n.Parent(); !a.IsZero(); a = a.Parent() {
		if contains(funcKinds, a.Kind()) {
			return true
		}
	}
	return false
}

// wrapsFunc reports whether v is a call passing a function literal (memo(()
// => ...), forwardRef(function (p, ref) {...}), debounce(track(() => ...))):
// the definition v is assigned to is then that function.
func (c *compiled) wrapsFunc(v tree.Node, funcKinds []string, depth int) bool {
	if depth > 3 {
		return false
	}
	for _, a := range c.spec.Unwrap.eval(v) {
		if contains(funcKinds, a.Kind()) || c.wrapsFunc(a, funcKinds, depth+1) {
			return true
		}
	}
	return false
}

// isMemberLabel reports whether a shape's label names a member, reached
// through its owner rather than bound in a scope.
func isMemberLabel(label string) bool {
	switch label {
	case lMethod, lProperty, lField, lSignature, lCtor:
		return true
	}
	return false
}

// inTypeContext reports whether a leaf sits in a type position: below a
// TypeContext node or under a TypeFields field, a few levels up at most.
func (c *compiled) inTypeContext(n tree.Node) bool {
	for a, k := n, 0; !a.IsZero() && k < 4; a, k = a.Parent(), k+1 {
		if c.is(a.KindID(), fTypeCtx) || c.typeFld[a.Field()] {
			return true
		}
	}
	return false
}

func (f *fileFacts) addDef(n tree.Node, shapes []*defShape, stack []int, skip map[int]bool) int {
	first := -1
	for _, s := range shapes {
		var nameNodes []tree.Node
		if s.AllNames {
			nameNodes = s.Name.eval(n)
		} else if nn := s.Name.first(n); !nn.IsZero() {
			nameNodes = []tree.Node{nn}
		}
		for _, nn := range nameNodes {
			if i := f.addDefNamed(n, nn, s, stack, skip); i >= 0 && first < 0 {
				first = i
			}
		}
		// Shapes naming several bindings (a destructuring's kinds of
		// names) all apply; other shapes are alternatives.
		if first >= 0 && !s.AllNames {
			return first
		}
	}
	return first
}

// addDefNamed adds the definition n of shape s named by nameNode, and
// returns its index, or -1 when the shape does not apply.
func (f *fileFacts) addDefNamed(n, nameNode tree.Node, s *defShape, stack []int, skip map[int]bool) int {
	c := f.c
	if len(s.NameKinds) > 0 && !contains(s.NameKinds, nameNode.Kind()) {
		return -1
	}
	leaf, recv := c.nameLeaf(nameNode)
	name := leaf.Text()
	if leaf.IsZero() && nameNode.Kind() == "computed_property_name" && s.Callable {
		// [Symbol.iterator]() { ... }: a method named by its key's text,
		// which no call names, so that its calls have their caller.
		leaf, name = nameNode, strings.Join(strings.Fields(nameNode.Text()), "")
	}
	if leaf.IsZero() {
		return -1
	}
	d := def{Name: name, Label: s.Label, Line: leaf.StartPoint().Row + 1,
		Start: n.StartByte(), End: n.EndByte(), Callable: s.Callable, Parent: -1, container: s.Container,
		kind: n.KindID()}
	if c.spec.jsFamily() {
		d.Augments = augmented(n)
	}
	if len(s.Value) > 0 {
		v := s.Value.first(n)
		isFunc := !v.IsZero() && contains(s.FuncKinds, v.Kind())
		// Outside functions only, named or not: inside one, x = run(() =>
		// ...) passes a callback, and its calls stay the function's.
		if !isFunc && !v.IsZero() && len(c.spec.Unwrap) > 0 && !f.inCallable(stack) && !inFuncLiteral(n, s.FuncKinds) {
			isFunc = c.wrapsFunc(v, s.FuncKinds, 0)
		}
		if s.FuncOnly && !isFunc {
			return -1
		}
		if isFunc {
			d.Callable = true
			d.Label = lFunction
		}
		if !v.IsZero() {
			if label, ok := s.ValueLabels[v.Kind()]; ok {
				d.Label = label
			}
		}
	}
	for tok, label := range s.Tokens {
		if hasToken(n, tok) {
			d.Label = label
		}
	}
	if p := leaf.Parent(); !p.IsZero() && s.Relabel != nil {
		if label, ok := s.Relabel[p.Kind()]; ok {
			d.Label = label
		}
	}
	if s.ArgOfCaller && n.Parent().Kind() == "arguments" && len(stack) > 0 {
		if w := f.defs[stack[len(stack)-1]]; w.Callable && w.Name != d.Name && sameRange(n.Parent().Parent().Parent(), w) {
			d.Callable = false // its calls are the wrapping variable's
		}
	}
	if s.NoCaller || s.ConstCaller && !(n.Parent().Kind() == "lexical_declaration" && hasToken(n.Parent(), "const")) {
		d.Callable = false // its calls are the enclosing function's, or the file's
	}
	d.Lexical = !isMemberLabel(s.Label)
	d.Static = c.spec.jsFamily() && hasToken(n, "static")
	if len(stack) > 0 {
		d.Parent = stack[len(stack)-1]
		p := f.defs[d.Parent]
		if d.Label == lFunction && p.container && p.Label != lNamespace && p.Label != lModule {
			d.Label = lMethod
		}
		if p.container && !c.is(p.kind, fScope) && p.Label != lNamespace && p.Label != lModule {
			d.Lexical = false
		}
	}
	switch {
	case len(s.Owner) > 0:
		d.Container = c.nameOf(s.Owner.first(n))
	case !recv.IsZero():
		// A qualified name (C++'s void Foo::run() {}) defines a member.
		if d.Container = c.nameOf(recv); d.Container != "" && d.Label == lFunction {
			d.Label = lMethod
		}
	}
	if isMemberLabel(d.Label) {
		d.Lexical = false
	}
	if n.Kind() == "function_signature" && (d.Parent < 0 || !f.defs[d.Parent].container || f.defs[d.Parent].Label == lNamespace) &&
		(n.Parent().Kind() == "ambient_declaration" || strings.HasSuffix(f.rel, ".d.ts")) {
		d.Lexical = true // declare function isMap(x: any): x is Map<K, V>: a function in scope, its body elsewhere
	}
	if d.Parent < 0 && c.spec.ImplicitSelf {
		d.Lexical = true // Ruby's top-level methods
	}
	if d.Container == "" {
		for i := len(stack) - 1; i >= 0; i-- {
			if p := f.defs[stack[i]]; p.container {
				d.Container = p.Name
				break
			}
		}
	}
	skip[leaf.StartByte()] = true
	i := len(f.defs)
	f.defs = append(f.defs, d)
	f.exportDef(n, i)
	for _, ps := range s.Heritage {
		for _, pn := range ps.Path.eval(n) {
			if contains(ps.Skip, pn.Kind()) {
				continue
			}
			pl, q := c.nameLeaf(pn)
			if pl.IsZero() {
				continue
			}
			skip[pl.StartByte()] = true
			sf := superFact{Def: i, Name: pl.Text(), Relation: ps.Relation, Line: pn.StartPoint().Row + 1}
			if !q.IsZero() && q.NamedChildCount() == 0 {
				sf.Recv = q.Text()
			}
			if c.spec.jsFamily() {
				sf.Args = heritageTypeArgs(pn)
			}
			if c.spec.Lang == "python" && pn.Kind() == "subscript" {
				sf.Args = pySubscriptTypes(pn) // list[Token]
			}
			f.supers = append(f.supers, sf)
		}
	}
	return i
}

func (f *fileFacts) addCall(n tree.Node, s *callShape, stack []int, skip map[int]bool) {
	c := f.c
	var leaf, recv tree.Node
	if s.Read {
		leaf, recv = c.nameLeaf(n)
	} else if len(s.Name) > 0 {
		leaf, _ = c.nameLeaf(s.Name.first(n))
		recv = s.Receiver.first(n)
	} else {
		leaf, recv = c.nameLeaf(viaCall(c, s.Callee.first(n)))
	}
	if s.Component {
		if leaf.IsZero() {
			return
		}
		if r, _ := utf8.DecodeRuneInString(leaf.Text()); recv.IsZero() && !unicode.IsUpper(r) {
			return
		}
	}
	// A receiver wrapped without a name of its own (s!.get(), (s).get())
	// is what it wraps.
	elem := false
	for range 4 {
		if recv.IsZero() {
			break
		}
		r := c.at(recv.KindID()).name
		if r != nil && contains(c.spec.Element, recv.Kind()) {
			recv, elem = r.Name.first(recv), true // x[i].m(): typed by x's elements
			continue
		}
		if r == nil || len(r.Receiver) > 0 || len(r.Name) != 1 || r.Name[0] != "^" {
			break
		}
		inner := r.Name.first(recv)
		if inner.IsZero() {
			break
		}
		recv = inner
	}
	k := call{Line: n.StartPoint().Row + 1, Start: n.StartByte(), End: n.EndByte(), Caller: -1,
		New: s.New, Literal: s.Literal, Read: s.Read, Recv: c.receiverName(recv), Member: !recv.IsZero(), Element: s.Component,
		RecvElem: elem}
	lit := ""
	switch {
	case recv.IsZero():
	case c.spec.ValueType != nil:
		if lit = c.spec.ValueType(recv); strings.HasPrefix(lit, "=") {
			lit = "" // a name: typed as a plain receiver
		}
	case c.spec.jsFamily():
		// TypeScript and JavaScript: a literal ([1].forEach(), "".split())
		// or an assignment, typed by what it assigns ((m ??= new
		// Map()).set()).
		v := recv
		if v.Kind() == "assignment_expression" || v.Kind() == "augmented_assignment_expression" {
			v = v.ChildByField("right")
		}
		switch v.Kind() {
		case "string", "template_string", "number", "regex", "array", "as_expression", "satisfies_expression":
			// (x as Store).get() and (x as any).get(): the written type.
			if lit = valueExpr(v, 0); strings.HasPrefix(lit, "=") {
				lit = "" // x as const: a name, not followed here
			}
		case "subscript_expression", "await_expression":
			// xs[i].m(): an element of xs; (await p).m(): what p gives.
			k.RecvChainStart, k.RecvChainEnd = v.StartByte(), v.EndByte()
		case "binary_expression":
			if op := v.ChildByField("operator"); op.Kind() == "??" || op.Kind() == "||" {
				for _, side := range []string{"left", "right"} {
					if o := v.ChildByField(side); !o.IsZero() {
						k.RecvAlts = append(k.RecvAlts, [2]int{o.StartByte(), o.EndByte()})
					}
				}
			}
		case "new_expression":
			if l, _ := c.nameLeaf(v.ChildByField("constructor")); !l.IsZero() && v.StartByte() != recv.StartByte() {
				k.RecvNew = l.Text()
			}
		}
	}
	switch {
	case recv.IsZero():
	case lit != "":
		k.RecvLit = lit
	case recv.NamedChildCount() == 0:
		k.RecvPlain = true
	case c.spec.Lang == "python" && (recv.Kind() == "subscript" || recv.Kind() == "parenthesized_expression"):
		// d["x"].m(): an element of d; (fmt % args).m(): what it holds.
		k.RecvChainStart, k.RecvChainEnd = recv.StartByte(), recv.EndByte()
	case recv.Kind() == c.spec.Assertion:
		// x.(*T).m(): a T; x.(*pkg.T).m(): typed through pkg as a chain.
		if l, q := c.nameLeaf(path{"type"}.first(recv)); !l.IsZero() && q.IsZero() {
			k.RecvNew = l.Text()
		} else if !l.IsZero() {
			k.RecvChainStart, k.RecvChainEnd = recv.StartByte(), recv.EndByte() // x.(pkg.T): typed as written
		} else {
			k.RecvLit = tstype.Anonymous // x.(interface{ Pos() }): a type literal's member
		}
	case len(c.at(recv.KindID()).calls) > 0:
		// new Service().init(): the receiver is an instance of Service;
		// open().get(): it is what open returns.
		for _, cs := range c.at(recv.KindID()).calls {
			if l, _ := c.nameLeaf(cs.Callee.first(recv)); cs.New && !l.IsZero() {
				k.RecvNew = l.Text()
			}
		}
		if k.RecvNew == "" {
			k.RecvCall = recv.StartByte()
		}
	case c.at(recv.KindID()).name != nil && len(c.at(recv.KindID()).name.Receiver) > 0:
		inner := c.at(recv.KindID()).name.Receiver.first(recv)
		for range 4 { // q[0].field.m(): a field of q's elements
			if inner.IsZero() || !contains(c.spec.Element, inner.Kind()) {
				break
			}
			inner = c.at(inner.KindID()).name.Name.first(inner)
		}
		if !inner.IsZero() && inner.NamedChildCount() == 0 {
			if base := strings.TrimLeft(inner.Text(), "$"); contains(c.spec.SelfNames, base) {
				k.RecvSelf = true
			} else {
				k.RecvBase = base
			}
		} else if len(c.spec.Element) > 0 || c.spec.jsFamily() && (fieldChain(recv.Text()) != "" || calledInner(c, inner)) ||
			c.spec.Lang == "python" && (pyAttributeChain(recv) || calledInner(c, inner)) {
			// r.xs[i].f.m() in Go; this.user.prefs.get(), a.b?.c!.m() or
			// open().store.get() in TypeScript; self.policy.linesep.encode()
			// or Store().policy.encode() in Python: typed field by field.
			k.RecvChainStart, k.RecvChainEnd = recv.StartByte(), recv.EndByte()
		}
	}
	if !leaf.IsZero() {
		k.Name = leaf.Text()
		// The call's line is its name's: in a chain split over lines, the
		// line holding the called name, not the chain's first.
		k.Line = leaf.StartPoint().Row + 1
		if s.New {
			skip[leaf.StartByte()] = true
		}
	}
	if c.spec.jsFamily() {
		if ta := n.ChildByField("type_arguments"); !ta.IsZero() {
			for _, a := range namedNonExtra(ta) {
				x := tstype.Expr(a)
				if ot := objectType(a); !ot.IsZero() && x == tstype.Anonymous {
					// new Map<K, { subscription: Subscription }>(): its
					// fields, read where it is written.
					x = shapeAt(ot)
				}
				k.TypeArgs = append(k.TypeArgs, x)
			}
		}
		if as := n.ChildByField("arguments"); !as.IsZero() && as.Kind() == "arguments" {
			for _, a := range namedNonExtra(as) {
				k.Args = append(k.Args, [2]int{a.StartByte(), a.EndByte()})
			}
		}
	}
	if as := n.ChildByField("arguments"); c.spec.Lang == "python" && as.Kind() == "argument_list" {
		// The value each argument passes: f(x, key=v, *xs, **kw) passes
		// x, v, xs and kw.
		for _, a := range namedNonExtra(as) {
			switch a.Kind() {
			case "keyword_argument":
				a = a.ChildByField("value")
			case "list_splat", "dictionary_splat", "parenthesized_list_splat":
				a = firstNamedNonExtra(a)
			}
			if !a.IsZero() {
				k.Args = append(k.Args, [2]int{a.StartByte(), a.EndByte()})
			}
		}
	}
	if nm := c.spec.NewMethod; nm != "" && k.Name == nm && !recv.IsZero() {
		if r := c.nameOf(recv); r != "" {
			k.New, k.NewOf = true, r
		}
	}
	for i := len(stack) - 1; i >= 0; i-- {
		d := f.defs[stack[i]]
		if d.Callable {
			k.Caller = stack[i]
			break
		}
		if c.spec.jsFamily() && d.container && isType(d) && d.Label == lClass {
			// A field's initializer (min = this.gte) runs for the class:
			// the compiler's call hierarchy names the class its caller.
			k.Caller = stack[i]
			break
		}
	}
	f.calls = append(f.calls, k)
}

func (f *fileFacts) addImport(n tree.Node, s *importShape) {
	if len(s.Require) > 0 && s.Require.first(n).IsZero() {
		return
	}
	if len(s.Forbid) > 0 && !s.Forbid.first(n).IsZero() {
		return
	}
	if len(s.Callee) > 0 {
		cn := s.Callee.first(n)
		if cn.IsZero() || !contains(s.CalleeText, cn.Text()) {
			return
		}
	}
	var stmtNames []boundName
	for _, b := range s.Names {
		if !b.FromSource {
			stmtNames = append(stmtNames, b.read(n)...)
		}
	}
	for _, sn := range s.Source.eval(n) {
		text := sn
		if len(s.SourceText) > 0 {
			if t := s.SourceText.first(sn); !t.IsZero() {
				text = t
			}
		}
		src, quoted := unquote(text.Text())
		if len(s.Callee) > 0 && !quoted {
			continue // import(x) with a computed specifier
		}
		imp := importFact{Line: n.StartPoint().Row + 1, Start: n.StartByte(), End: n.EndByte(),
			Form: s.Form, Source: compact(src), Resolve: s.Resolve, Call: len(s.Callee) > 0}
		imp.Names = append(imp.Names, stmtNames...)
		for _, b := range s.Names {
			if b.FromSource {
				imp.Names = append(imp.Names, b.read(sn)...)
			}
		}
		if s.Split {
			f.split(&imp)
		}
		f.imports = append(f.imports, imp)
	}
}

// split turns an import of a.b.C into module a.b binding C (keeping an
// alias), unless it is a wildcard import of a.b.
func (f *fileFacts) split(imp *importFact) {
	alias := ""
	for _, b := range imp.Names {
		switch {
		case b.Name == "*":
			return
		case b.Form == "alias":
			alias = b.Name
		}
	}
	sep := f.c.spec.Sep
	if i := strings.LastIndex(imp.Source, sep); sep != "" && i > 0 {
		imp.Names = []boundName{{Name: imp.Source[i+len(sep):], Alias: alias, Form: "named"}}
		imp.Source = imp.Source[:i]
	}
}

// read evaluates a bound-name shape from n.
func (b boundShape) read(n tree.Node) []boundName {
	var out []boundName
	for _, bn := range b.Path.eval(n) {
		name := bn
		if len(b.Name) > 0 {
			name = b.Name.first(bn)
		}
		if name.IsZero() {
			continue
		}
		x := boundName{Name: compact(name.Text()), Form: b.Form, Line: name.StartPoint().Row + 1}
		if strings.HasSuffix(x.Name, "*") {
			x.Name = "*"
		}
		if a := b.Alias.first(bn); !a.IsZero() {
			x.Alias = a.Text()
		}
		out = append(out, x)
	}
	return out
}

func (f *fileFacts) addExportForm(n tree.Node, s *exportForm) {
	if len(s.Require) > 0 && s.Require.first(n).IsZero() {
		return
	}
	if len(s.Forbid) > 0 && !s.Forbid.first(n).IsZero() {
		return
	}
	if s.Token != "" && !hasToken(n, s.Token) {
		return
	}
	line := n.StartPoint().Row + 1
	base := exportFact{Label: s.Label, Line: line, Replace: s.Replace}
	if len(s.Source) > 0 {
		if sn := s.Source.first(n); !sn.IsZero() {
			base.Source, _ = unquote(sn.Text())
		}
	}
	if len(s.Assign) > 0 {
		f.addAssignExport(n, s, base)
		return
	}
	if s.Label == "default" {
		e := base
		e.Name = "default"
		if v := s.Names.first(n); !v.IsZero() {
			e.Detail = firstLine(v.Text(), 60)
		}
		f.exports = append(f.exports, e)
		return
	}
	found := false
	for _, bn := range s.Names.eval(n) {
		name := bn
		if len(s.Name) > 0 {
			name = s.Name.first(bn)
		}
		local := ""
		if a := s.Alias.first(bn); !a.IsZero() {
			if !name.IsZero() {
				local = f.c.nameOf(name)
			}
			name = a
		}
		if name.IsZero() {
			continue
		}
		text := f.c.nameOf(name)
		if text == "" {
			text, _ = unquote(name.Text())
		}
		if text == "" {
			continue
		}
		e := base
		e.Name = text
		if local != text {
			e.Local = local
		}
		f.exports = append(f.exports, e)
		found = true
	}
	if !found && s.Whole != "" {
		e := base
		e.Name = s.Whole
		f.exports = append(f.exports, e)
	}
}

func (f *fileFacts) addAssignExport(n tree.Node, s *exportForm, base exportFact) {
	left := s.Left.first(n)
	if left.IsZero() {
		return
	}
	lt := compact(left.Text())
	for _, a := range s.Assign {
		switch {
		case lt == a:
			right := s.Right.first(n)
			if right.IsZero() {
				return
			}
			var names []string
			if isCollection(right) {
				for _, el := range right.NamedChildren() {
					if el.IsExtra() {
						continue
					}
					key := el
					if k := el.ChildByField("key"); !k.IsZero() {
						key = k
					} else if k := el.ChildByField("name"); !k.IsZero() {
						key = k
					}
					if t, ok := unquote(key.Text()); t != "" && (ok || key.NamedChildCount() == 0) {
						names = append(names, t)
					}
				}
			}
			if len(names) == 0 && !isCollection(right) {
				e := base
				e.Name, e.Detail = "default", firstLine(right.Text(), 60)
				f.exports = append(f.exports, e)
				return
			}
			for _, nm := range names {
				e := base
				e.Name = nm
				f.exports = append(f.exports, e)
			}
			return
		case strings.HasPrefix(lt, a+"."):
			rest := lt[len(a)+1:]
			if i := strings.IndexByte(rest, '.'); i >= 0 {
				rest = rest[:i]
			}
			e := base
			e.Name = rest
			f.exports = append(f.exports, e)
			return
		}
	}
}

// isCollection reports whether n is an object, list or tuple literal.
func isCollection(n tree.Node) bool {
	switch n.Kind() {
	case "object", "list", "tuple", "array", "set":
		return true
	}
	return false
}

// exportDef decides whether definition i, just added, is exported.
func (f *fileFacts) exportDef(n tree.Node, i int) {
	c := f.c
	rules := &c.spec.Exports
	d := &f.defs[i]
	member := false
	if d.Parent >= 0 {
		p := f.defs[d.Parent]
		switch {
		case c.is(p.kind, fScope):
		case p.Exported && contains(rules.Members, p.Label):
			member = true
		default:
			return
		}
	}
	v := rules.Visibility
	ok := v.All
	switch {
	case v.Wrapped:
		if member {
			return
		}
		p := n.Parent()
		for !p.IsZero() && c.is(p.KindID(), fPass) {
			p = p.Parent()
		}
		if !p.IsZero() && c.is(p.KindID(), fWrap) {
			ok = true
			d.Default = hasToken(p, "default")
		}
	case v.Capitalized:
		r, _ := utf8.DecodeRuneInString(d.Name)
		ok = unicode.IsUpper(r)
	case v.NoUnderscore:
		ok = !strings.HasPrefix(d.Name, "_")
	case len(v.Modifiers) > 0:
		mods := v.Modifiers.eval(n)
		ok = true
		if len(v.Need) > 0 {
			ok = hasAnyToken(mods, v.Need)
		}
		if ok && len(v.Deny) > 0 {
			ok = !hasAnyToken(mods, v.Deny)
		}
	}
	d.Exported = ok
}

// finishExports turns exported definitions into export facts, unless a
// replacing form (__all__) lists the exports itself.
func (f *fileFacts) finishExports() {
	var listed []exportFact
	for _, e := range f.exports {
		if e.Replace {
			listed = append(listed, e)
		}
	}
	if len(listed) > 0 {
		byName := map[string]def{}
		for _, d := range f.defs {
			if d.Parent < 0 {
				if _, ok := byName[d.Name]; !ok {
					byName[d.Name] = d
				}
			}
		}
		var out []exportFact
		for _, e := range f.exports {
			if !e.Replace {
				out = append(out, e)
				continue
			}
			if d, ok := byName[e.Name]; ok {
				e.Label, e.Line = d.Label, d.Line
			}
			out = append(out, e)
		}
		f.exports = out
		return
	}
	var out []exportFact
	for _, d := range f.defs {
		// A namespace scope (C++, C#) groups exports; it is not one. A
		// TypeScript namespace is a value, exported by name.
		if !d.Exported || d.Label == lNamespace && f.c.is(d.kind, fScope) {
			continue
		}
		// Members show their container, except the namespace or module
		// a module-level definition sits in.
		container := d.Container
		if d.Parent >= 0 {
			p := f.defs[d.Parent]
			if (p.Label == lNamespace || p.Label == lModule) && f.c.is(p.kind, fScope) && p.Name == container {
				container = ""
			}
		}
		out = append(out, exportFact{Name: d.Name, Label: d.Label, Container: container, Line: d.Line})
		if d.Default {
			out[len(out)-1].Detail = "default"
		}
	}
	f.exports = append(out, f.exports...)
}

// importText shows an import: its statement, or for a call its line.
func (f *fileFacts) importText(imp importFact) string {
	if imp.Call {
		return f.lineText(imp.Line, 120)
	}
	return oneLine(string(f.src[imp.Start:imp.End]), 120)
}

// lineText returns the trimmed text of a 1-based line, cut to max bytes.
func (f *fileFacts) lineText(line, max int) string {
	if line < 1 || line > len(f.lineStarts) {
		return ""
	}
	s := f.lineStarts[line-1]
	e := len(f.src)
	if line < len(f.lineStarts) {
		e = f.lineStarts[line] - 1
	}
	return clip(strings.TrimSpace(string(bytes.TrimRight(f.src[s:e], "\r"))), max)
}

// text returns the source text of a byte range as one line: its first line,
// with "...)" standing for the rest, cut to max bytes.
func (f *fileFacts) text(start, end, max int) string {
	return firstLine(string(f.src[start:end]), max)
}

// firstLine keeps the first line of s, marking what it dropped.
func firstLine(s string, max int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		rest := strings.TrimSpace(s[i+1:])
		s = strings.TrimRight(s[:i], "\r \t") + "..."
		if strings.HasSuffix(rest, ")") {
			s += ")"
		}
	}
	return clip(s, max)
}

// clip cuts s to at most max bytes on a rune boundary, marking the cut.
func clip(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// unquote strips a string literal's quotes (and C's angle brackets); ok
// reports whether s was quoted.
func unquote(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		switch a, b := s[0], s[len(s)-1]; {
		case (a == '"' || a == '\'' || a == '`') && b == a, a == '<' && b == '>':
			return s[1 : len(s)-1], true
		}
	}
	return s, false
}

// compact removes whitespace from a qualified name split over lines.
func compact(s string) string {
	if !strings.ContainsAny(s, " \t\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), "")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
