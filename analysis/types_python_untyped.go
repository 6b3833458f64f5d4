package analysis

import (
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/analysis/internal/tstype"
	"github.com/loupe-dev/loupe/core/tree"
)

// Untyped Python parameters and isinstance narrowing. A parameter written
// with no annotation and no default value, or with the default None, is
// typed by nothing pyright reads (Unknown, or Unknown | None), so a
// method called on it, or on a member or result of it, is tied to no
// definition: the answer leaves it out and counts it (ReasonUntypedValue),
// as for TypeScript's any. A
// method overriding one whose parameters are annotated, or a base class's
// out of reach, is left alone (pyright types its parameters from the
// overridden method's), and so are self and cls and a lambda's
// parameters. *args is a tuple of Unknown, **kwargs a dict of str to
// Unknown. Inside if isinstance(x, C) (and after and), x is a C.

// addPyParams records the untyped parameters of the function definition
// whose parameter list is n.
func (f *fileFacts) addPyParams(n tree.Node, stack []int) {
	fn := n.Parent()
	if fn.Kind() != "function_definition" || len(stack) == 0 {
		return
	}
	scope := stack[len(stack)-1]
	if d := f.defs[scope]; d.Start != fn.StartByte() || d.End != fn.EndByte() {
		return
	}
	holder := fn.Parent()
	if holder.Kind() == "decorated_definition" {
		holder = holder.Parent()
	}
	inClass := holder.Kind() == "block" && holder.Parent().Kind() == "class_definition"
	first := true
	for _, p := range namedNonExtra(n) {
		var name tree.Node
		switch p.Kind() {
		case "identifier":
			if !(inClass && first) {
				name = p
			}
		case "default_parameter":
			// x=None: pyright types it Unknown | None, which no call binds.
			if nm := p.ChildByField("name"); nm.Kind() == "identifier" && p.ChildByField("value").Kind() == "none" {
				name = nm
			}
		case "positional_separator", "keyword_separator":
			continue
		case "list_splat_pattern", "dictionary_splat_pattern":
			// *args: tuple[Unknown, ...]; **kw: dict[str, Unknown].
			if nm := firstNamedNonExtra(p); nm.Kind() == "identifier" {
				x := "tuple<" + tstype.Any + ">"
				if p.Kind() == "dictionary_splat_pattern" {
					x = "dict<str," + tstype.Any + ">"
				}
				f.typed = append(f.typed, typedName{Name: nm.Text(), Expr: x, Scope: scope, Start: p.StartByte(),
					ValStart: -1, ValEnd: -1, Splat: true})
			}
		}
		if !name.IsZero() {
			f.typed = append(f.typed, typedName{Name: name.Text(), Expr: tstype.Any, Scope: scope, Start: p.StartByte(),
				ValStart: -1, ValEnd: -1})
		}
		first = false
	}
}

// addPyUnpack records the names a tuple assignment unpacks from an
// untyped parameter (name, address = pair with pair untyped): pyright
// types each of them Unknown, so calls on them are left out and counted.
// n is an assignment whose left side is a pattern.
func (f *fileFacts) addPyUnpack(n tree.Node, stack []int) {
	left, right := n.ChildByField("left"), n.ChildByField("right")
	if len(stack) == 0 || right.Kind() != "identifier" {
		return
	}
	switch left.Kind() {
	case "pattern_list", "tuple_pattern", "list_pattern":
	default:
		return
	}
	scope := stack[len(stack)-1]
	untyped := false
	for _, t := range f.typed {
		if t.Name == right.Text() && t.Scope == scope && !t.Return {
			untyped = t.Expr == tstype.Any && t.ValStart < 0 // a parameter, not another assignment
			if !untyped {
				return
			}
		}
	}
	if !untyped {
		return
	}
	for _, c := range namedNonExtra(left) {
		if c.Kind() == "identifier" {
			f.typed = append(f.typed, typedName{Name: c.Text(), Expr: tstype.Any, Scope: scope, Start: n.StartByte(),
				ValStart: -1, ValEnd: -1})
		}
	}
}

// pyNarrows returns the narrowings node n makes: an if statement's or
// elif clause's condition over its consequence, and a and b's left side
// over its right; an if not isinstance(...) that always leaves narrows
// after itself too (pyNarrowsAfter), and the elif and else clauses of an
// if isinstance(x, C) prove x is not a C (pyElseNarrows).
func pyNarrows(n tree.Node) []narrowFact {
	out := branchNarrows(n, []string{"if_statement", "elif_clause"}, "boolean_operator", "and", pyTests)
	if n.Kind() == "if_statement" {
		out = append(out, pyNarrowsAfter(n, n.ChildByField("condition"))...)
		out = append(out, pyElseNarrows(n)...)
	}
	return out
}

// pyElseNarrows returns the narrowings over the elif and else clauses of
// if statement n whose whole condition is isinstance(x, C): x is not a C
// there, which tells no type (an Unknown x stays Unknown). A condition
// joining tests with and is left out: its else holds the C where another
// test failed.
func pyElseNarrows(n tree.Node) []narrowFact {
	test := n.ChildByField("condition")
	for test.Kind() == "parenthesized_expression" {
		test = firstNamedNonExtra(test)
	}
	if test.Kind() != "call" {
		return nil
	}
	var out []narrowFact
	for _, c := range namedNonExtra(n) {
		if c.Kind() != "elif_clause" && c.Kind() != "else_clause" {
			continue
		}
		var inner []narrowFact
		pyTests(test, c.StartByte(), c.EndByte(), 0, &inner)
		for _, nf := range inner {
			nf.Not = true
			out = append(out, nf)
		}
	}
	return out
}

// pyNarrowsAfter returns the narrowings an if statement with no else
// makes after itself in its block: if not isinstance(x, C) whose branch
// always leaves (continue, break, return, raise) makes x a C from the end
// of the if to the end of the block, or to the next statement that
// assigns x.
func pyNarrowsAfter(n, test tree.Node) []narrowFact {
	for test.Kind() == "parenthesized_expression" {
		test = firstNamedNonExtra(test)
	}
	if test.Kind() != "not_operator" {
		return nil
	}
	return narrowsAfter(n, test.ChildByField("argument"), []string{"continue_statement", "break_statement",
		"return_statement", "raise_statement"}, pyTests, func(s tree.Node, name string) bool { return pyAssigns(s, name, 0) })
}

// pyAssigns reports whether statement n assigns the name (x = ..., x +=
// ..., for x in ..., with ... as x, x := ...) anywhere inside it.
func pyAssigns(n tree.Node, name string, depth int) bool {
	if n.IsZero() || depth > 64 {
		return false
	}
	switch n.Kind() {
	case "assignment", "augmented_assignment", "for_statement", "named_expression":
		left := n.ChildByField("left")
		if n.Kind() == "named_expression" {
			left = n.ChildByField("name")
		}
		if pyBinds(left, name, 0) {
			return true
		}
	case "as_pattern_target":
		if pyBinds(n, name, 0) {
			return true
		}
	}
	for _, c := range n.NamedChildren() {
		if pyAssigns(c, name, depth+1) {
			return true
		}
	}
	return false
}

// pyBinds reports whether the target n (a name, or a tuple or list of
// them) binds name.
func pyBinds(n tree.Node, name string, depth int) bool {
	if n.IsZero() || depth > 16 {
		return false
	}
	switch n.Kind() {
	case "identifier":
		return n.Text() == name
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list",
		"parenthesized_expression", "list_splat_pattern", "as_pattern_target":
	default:
		return false // x.a = ..., x[k] = ... do not rebind x
	}
	for _, c := range n.NamedChildren() {
		if pyBinds(c, name, depth+1) {
			return true
		}
	}
	return false
}

// pyTests adds the narrowings test proves over [start, end): each side of
// an and, and isinstance(x, C) or isinstance(x, (C, D)).
func pyTests(test tree.Node, start, end, depth int, out *[]narrowFact) {
	if test.IsZero() || depth > 8 {
		return
	}
	switch test.Kind() {
	case "parenthesized_expression":
		pyTests(firstNamedNonExtra(test), start, end, depth+1, out)
	case "boolean_operator":
		if op := test.ChildByField("operator"); !op.IsZero() && op.Text() == "and" {
			pyTests(test.ChildByField("left"), start, end, depth+1, out)
			pyTests(test.ChildByField("right"), start, end, depth+1, out)
		}
	case "not_operator":
		// not isinstance(x, C): no type in its branch, but the test makes
		// x typed after the branches meet (pyNarrowedNear).
		var inner []narrowFact
		pyTests(test.ChildByField("argument"), start, end, depth+1, &inner)
		for _, nf := range inner {
			nf.Not = true
			*out = append(*out, nf)
		}
	case "call":
		if test.ChildByField("function").Text() != "isinstance" {
			return
		}
		args := namedNonExtra(test.ChildByField("arguments"))
		if len(args) != 2 || args[0].Kind() != "identifier" {
			return
		}
		types := []tree.Node{args[1]}
		if args[1].Kind() == "tuple" {
			types = namedNonExtra(args[1])
		}
		nf := narrowFact{Name: args[0].Text(), Start: start, End: end}
		for _, t := range types {
			if t.Kind() != "identifier" && t.Kind() != "attribute" {
				return // a type the test computes
			}
			nf.Alts = append(nf.Alts, narrowFact{Name: nf.Name, Start: start, End: end,
				Type: strings.Join(strings.Fields(t.Text()), "")})
		}
		if len(nf.Alts) == 1 {
			nf = nf.Alts[0]
		}
		*out = append(*out, nf)
	}
}

// pyBaseTyped reports whether the Python method scope of f overrides a
// method of a base class that annotates its parameters, or has a base
// class out of reach (one of the library table's that has the method, or
// one the table lacks): pyright may type its untyped parameters from it.
func (b *binder) pyBaseTyped(f *fileFacts, scope int) bool {
	if scope < 0 || b.depth > maxTypeDepth {
		return false
	}
	d := f.defs[scope]
	if d.Parent < 0 || !f.defs[d.Parent].container {
		return false
	}
	b.depth++
	defer func() { b.depth-- }()
	for _, sf := range f.supers {
		if sf.Def != d.Parent || sf.Name == "object" {
			continue
		}
		st := b.superType(f, sf, f.defs[d.Parent].Start)
		if st.lib != nil {
			if _, ok := libMember(st, d.Name); !ok {
				continue // a library class (io.BufferedIOBase) without the method: nothing to type them from
			}
		}
		sup := b.types(st)
		if len(sup.defs) == 0 {
			return true // a library's or unresolved base class
		}
		for _, c := range sup.defs {
			for _, m := range b.membersOf(c, d.Name, 0) {
				for _, t := range m.f.typed {
					if t.Scope == m.i && !t.Return && !t.Splat && t.Expr != "" && t.Expr != tstype.Any {
						return true
					}
				}
			}
		}
	}
	return false
}

// pyReassigned reports whether the Python name t declares by its value
// (not a parameter) is assigned elsewhere in the same scope in a way that
// may reach a use at pos: its type there is then the union of what they
// give. An assignment after pos reaches it only through a loop holding
// both; t, the scope's first assignment of the name, is then the only one
// that reaches pos (name, address = pair; name.encode(); name = sub(…)).
func pyReassigned(f *fileFacts, t typedName, pos int) bool {
	if f.c.spec.Lang != "python" || t.Expr == tstype.Any {
		return false
	}
	for _, o := range f.typed {
		if o.Name != t.Name || o.Scope != t.Scope || o.Start == t.Start || o.Return || o.Under || o.Until > 0 ||
			o.Start <= pos && pos < o.ValEnd {
			continue // x = x.decode(): the value's x is an earlier one
		}
		if o.Start < t.Start || pos < 0 || o.Start < pos {
			return true
		}
		for _, l := range f.loops {
			if l[0] <= pos && pos < l[1] && l[0] <= o.Start && o.Start < l[1] {
				return true
			}
		}
	}
	return false
}

// pyNarrowedNear reports whether an isinstance test on the Python name
// lies in the function around pos, before pos or in a loop with it, even
// one not enclosing pos: after the branches meet, pyright types the name
// by the union of what each gives (PBXVariantGroup | Unknown after if
// isinstance(x, PBXVariantGroup)).
func pyNarrowedNear(f *fileFacts, name string, pos int) bool {
	if f.c.spec.Lang != "python" {
		return false
	}
	start, end := pyFuncSpan(f, pos)
	for _, nf := range f.narrows {
		if nf.Name == name && nf.Start >= start && nf.Start < end && !pyLaterTest(f, name, nf.Start, pos) {
			return true
		}
	}
	return false
}

// pyFieldCycle reports whether every assignment of the Python field name
// in class scope (self.name = v in its methods) takes its value from the
// field itself: v names self.name, or a local the method assigned from
// self.name (child = self._properties["children"][0];
// self._properties = child._properties), through a few locals
// (pyFromField). pyright types such a field
// Unknown by the cycle, so calls on it are left out and counted.
func pyFieldCycle(f *fileFacts, scope int, name string) bool {
	if f.c.spec.Lang != "python" {
		return false
	}
	self := "self." + name
	seen := false
	for _, t := range f.typed {
		if t.Name != name || t.Scope != scope || t.Return || t.Prop || t.Under {
			continue
		}
		if t.Expr != "" || t.ValStart < 0 {
			return false // annotated, or typed by no value
		}
		if !pyFromField(f, string(f.src[t.ValStart:t.ValEnd]), self, t.Start) {
			return false
		}
		seen = true
	}
	return seen
}

// pyRoot returns the name a Python value expression starts with (child
// in child._properties), or "".
func pyRoot(v string) string {
	i := 0
	for i < len(v) && v[i] != '.' && pyWordByte(v[i]) {
		i++
	}
	return v[:i]
}

// pyLocalValue returns the text of the value the function around pos last
// assigned to the local name before pos, or "", with where that
// assignment starts.
func pyLocalValue(f *fileFacts, name string, pos int) (v string, at int) {
	if name == "" || name == "self" {
		return "", -1
	}
	fn := pyFuncAt(f, pos)
	at = -1
	for _, t := range f.typed {
		if t.Name == name && t.Scope == fn && fn >= 0 && t.Start < pos && t.ValStart >= 0 && !t.Return {
			v, at = string(f.src[t.ValStart:t.ValEnd]), t.Start
		}
	}
	return v, at
}

// pyNames reports whether Python text v holds the dotted name ref
// (self._properties) as a whole name, not a prefix of a longer one.
func pyNames(v, ref string) bool {
	for i := 0; ; {
		j := strings.Index(v[i:], ref)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(ref)
		if (at == 0 || !pyWordByte(v[at-1])) && (end == len(v) || v[end] == '.' || !pyWordByte(v[end])) {
			return true
		}
		i = end
	}
}

// pyJoined returns the type a Python name typed Unknown has at pos after
// the branches of isinstance tests in its function have met: the union
// of the types the tests prove (x is PBXVariantGroup | Unknown after if
// isinstance(x, PBXVariantGroup): ..., and pyright's call hierarchy ties
// x.Name() to PBXVariantGroup's Name), the way around a not isinstance(x,
// C) holding a C. The workspace's classes win over library types, as in
// pyJoin. A test after pos is left out unless a loop may bring it before
// pos (pyLaterTest), and so is one in a branch exclusive of pos's. ok is
// false where that cannot be told: a test holding pos or in such a loop,
// one whose type is computed or out of reach, or none. Within the branch
// of a not isinstance(x, C), or the else of an isinstance(x, C), and no
// earlier test, the name is any: Unknown, known not to be a C, is still
// Unknown.
func (b *binder) pyJoined(f *fileFacts, name string, pos int) (ty binding, ok bool) {
	if f.c.spec.Lang != "python" {
		return binding{}, false
	}
	inNot := false
	var libs []binding
	start, end := pyFuncSpan(f, pos)
	for _, nf := range f.narrows {
		if nf.Name != name || nf.Start < start || nf.Start >= end {
			continue
		}
		if nf.Not && nf.Start <= pos && pos < nf.End {
			inNot = true
			continue
		}
		if pyExclusive(f, nf.Start, pos) || pyLaterTest(f, name, nf.Start, pos) {
			continue // a branch pos does not follow: the if of an else holding pos, or a later test
		}
		if nf.End > pos {
			return binding{}, false
		}
		nf.Not = false // the way around the branch of a not isinstance(x, C) holds a C
		t, applies := b.narrowedBy(f, nf, nf.Start)
		switch {
		case !applies || !t.found() || len(t.files) > 0:
			return binding{}, false
		case len(t.defs) == 0:
			if t.lib == nil {
				return binding{}, false // a type out of reach
			}
			libs = append(libs, t) // isinstance(s, str): str's members
		}
		for _, dr := range t.defs {
			if !slices.Contains(ty.defs, dr) {
				ty.defs = append(ty.defs, dr)
			}
		}
	}
	switch {
	case len(ty.defs) > 0:
		return ty, true
	case len(libs) == 1:
		return libs[0], true
	case len(libs) > 1:
		return binding{external: true}, true // one of several library types
	case inNot:
		return anyType, true
	}
	return binding{}, false
}

// pyLaterTest reports whether an isinstance test of the Python name at
// test, after pos, tells nothing at pos: no loop holds both, or the name
// is assigned anew in each turn of the loop before pos (the loop's own
// variable, for x in xs).
func pyLaterTest(f *fileFacts, name string, test, pos int) bool {
	if test <= pos {
		return false
	}
	for _, l := range f.loops {
		if !(l[0] <= test && test < l[1] && l[0] <= pos && pos < l[1]) {
			continue
		}
		for _, t := range f.typed {
			if t.Name == name && !t.Return && l[0] <= t.Start && t.Start < pos && pyDominates(f, t.Start, pos) {
				return true // assigned in the loop before pos, on every way there
			}
		}
		return false
	}
	return true
}

// pyTestedAfter reports whether each of the assignments reach of a Python
// name comes before the end of every isinstance test of the name that
// pos follows: no assignment between a test's branch and pos undoes what
// pyJoined reads from the tests.
func pyTestedAfter(f *fileFacts, name string, pos int, reach []typedName) bool {
	start, end := pyFuncSpan(f, pos)
	for _, nf := range f.narrows {
		if nf.Name != name || nf.Start < start || nf.Start >= end || nf.End > pos {
			continue
		}
		for _, o := range reach {
			if o.Start >= nf.End {
				return false
			}
		}
	}
	return true
}

// addPyLambda records the parameter of a lambda passed as key= to sorted,
// or to min or max over one iterable, or to a sort method: pyright types
// it as an element of what the call sorts (the first argument, or the
// object sort is called on), within the lambda alone. Over an Unknown
// list (sorted(self._properties["refs"], key=lambda x: x["Ref"].Name()))
// the parameter is Unknown, and calls on it are left out and counted.
// n is a lambda.
func (f *fileFacts) addPyLambda(n tree.Node, stack []int) {
	kw := n.Parent()
	if kw.Kind() != "keyword_argument" || kw.ChildByField("name").Text() != "key" || len(stack) == 0 {
		return
	}
	args := kw.Parent()
	call := args.Parent()
	if args.Kind() != "argument_list" || call.Kind() != "call" {
		return
	}
	var positional []tree.Node
	for _, a := range namedNonExtra(args) {
		switch a.Kind() {
		case "keyword_argument":
		case "list_splat", "dictionary_splat":
			return // sorted(*xs, key=...): what it sorts is not told
		default:
			positional = append(positional, a)
		}
	}
	var iter tree.Node
	switch fn := call.ChildByField("function"); {
	case fn.Kind() == "identifier" && (fn.Text() == "sorted" || fn.Text() == "min" || fn.Text() == "max") && len(positional) == 1:
		iter = positional[0]
	case fn.Kind() == "attribute" && fn.ChildByField("attribute").Text() == "sort" && len(positional) == 0:
		iter = fn.ChildByField("object")
	default:
		return
	}
	ps := namedNonExtra(n.ChildByField("parameters"))
	if len(ps) != 1 || ps[0].Kind() != "identifier" {
		return
	}
	f.typed = append(f.typed, typedName{Name: ps[0].Text(), Scope: stack[len(stack)-1], Start: n.StartByte(),
		Until: n.EndByte(), ValStart: iter.StartByte(), ValEnd: iter.EndByte(), Elem: true})
}

// pyFuncAt returns the innermost function or method of f around pos, or
// -1 at the top level.
func pyFuncAt(f *fileFacts, pos int) int {
	fn := -1
	for i, d := range f.defs {
		if d.Callable && d.Start <= pos && pos < d.End && (fn < 0 || d.Start >= f.defs[fn].Start) {
			fn = i
		}
	}
	return fn
}

// pyFuncSpan returns the byte range of the innermost function or method of
// f around pos, or the whole file at the top level.
func pyFuncSpan(f *fileFacts, pos int) (start, end int) {
	if fn := pyFuncAt(f, pos); fn >= 0 {
		return f.defs[fn].Start, f.defs[fn].End
	}
	return 0, len(f.src)
}
