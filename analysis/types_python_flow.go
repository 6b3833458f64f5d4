package analysis

import (
	"slices"

	"github.com/loupe-dev/loupe/analysis/internal/tstype"
	"github.com/loupe-dev/loupe/core/tree"
)

// pyClause is one clause of a Python statement whose clauses run one in
// place of another: the body of an if and each elif or else after it, or
// each except and the else of a try. Group is the statement's start.
type pyClause struct {
	Group, Start, End int
}

// addPyFlow records the blocks and the clauses of Python statement n that
// pyReaching reads the flow of a function by, and the variable of a
// comprehension's for clause.
func (f *fileFacts) addPyFlow(n tree.Node, stack []int) {
	switch n.Kind() {
	case "block":
		f.blocks = append(f.blocks, [2]int{n.StartByte(), n.EndByte()})
	case "for_in_clause":
		// [e for x in xs]: x is an element of xs in the whole
		// comprehension, e before the clause included.
		comp := n.Parent()
		if left, right := n.ChildByField("left"), n.ChildByField("right"); left.Kind() == "identifier" && !right.IsZero() {
			f.typed = append(f.typed, typedName{Name: left.Text(), Scope: f.scopeOf(comp, stack), Start: comp.StartByte(),
				Until: comp.EndByte(), ValStart: right.StartByte(), ValEnd: right.EndByte(), Elem: true})
		}
	case "if_statement":
		g := n.StartByte()
		if c := n.ChildByField("consequence"); !c.IsZero() {
			f.clauses = append(f.clauses, pyClause{g, c.StartByte(), c.EndByte()})
		}
		for _, c := range namedNonExtra(n) {
			if c.Kind() == "elif_clause" || c.Kind() == "else_clause" {
				f.clauses = append(f.clauses, pyClause{g, c.StartByte(), c.EndByte()})
			}
		}
	case "try_statement":
		// The body runs before any except or else; an except runs in
		// place of the others and of the else.
		g := n.StartByte()
		leave, excepts := true, 0
		for _, c := range namedNonExtra(n) {
			if k := c.Kind(); k == "except_clause" || k == "except_group_clause" || k == "else_clause" {
				f.clauses = append(f.clauses, pyClause{g, c.StartByte(), c.EndByte()})
			}
			if k := c.Kind(); k == "except_clause" || k == "except_group_clause" {
				excepts++
				leave = leave && pyLeaves(c)
			}
		}
		if body := n.ChildByField("body"); leave && excepts > 0 && !body.IsZero() {
			f.tries = append(f.tries, [3]int{body.StartByte(), body.EndByte(), n.EndByte()})
		}
	}
}

// pyLeaves reports whether Python clause c always leaves the code after
// its statement: its block ends in raise, return, continue or break.
func pyLeaves(c tree.Node) bool {
	var block tree.Node
	for _, k := range namedNonExtra(c) {
		if k.Kind() == "block" {
			block = k
		}
	}
	if block.IsZero() {
		return false
	}
	body := namedNonExtra(block)
	if len(body) == 0 {
		return false
	}
	switch body[len(body)-1].Kind() {
	case "raise_statement", "return_statement", "continue_statement", "break_statement":
		return true
	}
	return false
}

// pyDominates reports whether code at pos of a Python function runs only
// after the statement at at, on every way there: pos lies later in the
// block holding at, or after the try statement whose body holds at in its
// own block, when each except clause of that try leaves.
func pyDominates(f *fileFacts, at, pos int) bool {
	if at >= pos {
		return false
	}
	bl := pyBlockAt(f, at)
	if bl[0] <= pos && pos < bl[1] {
		return true
	}
	for _, t := range f.tries {
		if t[0] == bl[0] && t[1] == bl[1] && pos >= t[2] {
			return pyDominates(f, t[0]-1, pos)
		}
	}
	return false
}

// pyExclusive reports whether code at a and code at b are in clauses of
// one statement that run one in place of the other, with no loop around
// both that could run each in turn.
func pyExclusive(f *fileFacts, a, b int) bool {
	if pyInLoopWith(f, a, b) {
		return false
	}
	// The clauses around a and those around b, as deep as the nesting:
	// one scan of the file's clauses, not one per clause around a.
	var atA, atB []pyClause
	for _, c := range f.clauses {
		if c.Start <= a && a < c.End {
			atA = append(atA, c)
		}
		if c.Start <= b && b < c.End {
			atB = append(atB, c)
		}
	}
	for _, ca := range atA {
		for _, cb := range atB {
			if cb.Group == ca.Group && cb.Start != ca.Start {
				return true
			}
		}
	}
	return false
}

// pyBlockAt returns the innermost block holding pos, or the whole file.
func pyBlockAt(f *fileFacts, pos int) [2]int {
	best := [2]int{0, len(f.src)}
	for _, bl := range f.blocks {
		if bl[0] <= pos && pos < bl[1] && bl[0] >= best[0] {
			best = bl
		}
	}
	return best
}

// pyInLoopWith reports whether one loop holds all of the positions.
func pyInLoopWith(f *fileFacts, ps ...int) bool {
	for _, l := range f.loops {
		all := true
		for _, p := range ps {
			all = all && l[0] <= p && p < l[1]
		}
		if all {
			return true
		}
	}
	return false
}

// pyReaching finds the type of a Python name at pos from the assignments
// of it that may reach pos, as pyright narrows a name on assignment: the
// union of what they give. An assignment is left out where the flow of
// the function cannot reach pos from it: in another clause of the if or
// try that holds pos, or before a later assignment that pos is sure to
// follow (one in the block holding pos). Assignments giving Unknown or
// None add nothing to the union when another gives a type (pyright ties
// a call on C | Unknown to C's member); when all of them do, the name is
// any. t is the assignment declAt found; ok is false when t is the only
// assignment that reaches pos (unless it gives Unknown, no isinstance
// test of the name being near: then the name is any, though a later
// assignment in a loop exists), or when the flow is not read: a name
// with a written type, or one of another scope.
func (b *binder) pyReaching(f *fileFacts, t typedName, pos int) (ty binding, ok bool) {
	if f.c.spec.Lang != "python" || t.Scope < 0 || !f.defs[t.Scope].Callable || b.depth > maxTypeDepth {
		return binding{}, false
	}
	fn := pyFuncAt(f, pos)
	if fn != t.Scope {
		return binding{}, false // a name of an outer function, used in a nested one
	}
	if t.Until > 0 {
		return binding{}, false // a comprehension's variable
	}
	var all []typedName
	for _, o := range f.typed {
		if o.Name != t.Name || o.Scope != t.Scope || o.Return || o.Under || o.Prop || o.Until > 0 {
			continue
		}
		if o.Type != "" || o.Expr != "" && o.Expr != tstype.Any && !o.Splat {
			return binding{}, false // a written type holds throughout
		}
		all = append(all, o)
	}
	if len(all) < 2 {
		return binding{}, false
	}
	// The assignments before pos (not the one whose value holds pos), and
	// those after it in a loop around both.
	var reach []typedName
	dom := -1 // the last assignment before pos in the block holding pos
	for _, o := range all {
		end := o.ValEnd
		if end < o.Start {
			end = o.Start
		}
		switch {
		case o.Start <= pos && pos < end:
			continue // x = x.decode(): the value's x is an earlier one
		case o.Start > pos && !pyInLoopWith(f, o.Start, pos):
			continue
		case pyExclusive(f, o.Start, pos):
			continue
		}
		reach = append(reach, o)
		if pyDominates(f, o.Start, pos) && (dom < 0 || o.Start > reach[dom].Start) {
			dom = len(reach) - 1
		}
	}
	if dom >= 0 {
		d := reach[dom]
		kept := reach[:0:0]
		for _, o := range reach {
			if o.Start < d.Start || o.Start > pos && pyInLoopWith(f, d.Start, o.Start, pos) {
				continue // overwritten by d on every way to pos
			}
			kept = append(kept, o)
		}
		reach = kept
	}
	b.depth++
	defer func() { b.depth-- }()
	if len(reach) == 1 && reach[0].Start == t.Start {
		if !pyNarrowedNear(f, t.Name, pos) && b.declType(f, t, pos).isAny() {
			return anyType, true // for s in self._chunks: s = ... later in the loop does not reach
		}
		return binding{}, false
	}
	ty = b.pyJoin(f, reach, pos)
	if ty.isAny() && pyNarrowedNear(f, t.Name, pos) {
		jt, ok := b.pyJoined(f, t.Name, pos)
		switch {
		case ok && jt.isAny():
			return anyType, true // in the branch of if not isinstance(x, C): still Unknown
		case ok && pyTestedAfter(f, t.Name, pos, reach):
			return jt, true // C | Unknown after if not isinstance(x, C): x = x.decode()
		}
		return binding{}, true // a test's type undone by a later assignment, or not told
	}
	return ty, true
}

// pyJoin finds what a Python value assigned by each of entries of f names,
// as pyright joins their types: Unknown and None add nothing beside a
// type; the workspace's classes among them, if any (a call binds to their
// members, as narrowed does); else one library type, or a library value
// for several; any when each is Unknown or None; nothing when one cannot
// be told, unless it builds the name from itself (parts = list(part) +
// parts adds nothing; beside None alone it still tells nothing). pos is
// where the value is used.
func (b *binder) pyJoin(f *fileFacts, entries []typedName, pos int) binding {
	var out binding
	var libs []binding
	unknown, static := false, true
	none, selfBuilt := false, false
	for _, o := range entries {
		if o.ValStart >= 0 && string(f.src[o.ValStart:o.ValEnd]) == "None" {
			none = true
			continue
		}
		oty := b.declType(f, o, pos)
		switch {
		case oty.isAny():
			unknown = true
		case !oty.found() && o.Name != "" && o.ValStart >= 0 && pyNames(string(f.src[o.ValStart:o.ValEnd]), o.Name):
			// parts = list(part) + parts: built from the name itself, it
			// adds no type its other assignments do not give.
			selfBuilt = true
		case !oty.found() || len(oty.files) > 0:
			return binding{} // one that cannot be told
		case len(oty.defs) > 0 && !oty.external:
			static = static && oty.static // cls = PBXNativeTarget: a class, called to make one
			for _, dr := range oty.defs {
				if !slices.Contains(out.defs, dr) {
					out.defs = append(out.defs, dr)
				}
			}
		default:
			if len(libs) == 0 || !sameType(libs[0], oty) {
				libs = append(libs, oty)
			}
		}
	}
	switch {
	case len(out.defs) > 0:
		out.static = static
		return out
	case len(libs) == 1:
		return libs[0]
	case len(libs) > 1:
		return binding{external: true} // library types alone
	case unknown, none && !selfBuilt:
		return anyType
	}
	return binding{} // x = None; x = make(x): what make gives is not told
}

// pyFieldJoin types field name of Python class cls of f that no
// annotation types and more than one assignment sets (self.t = None in
// __init__, self.t = Tok() in another method): pyright declares it the
// join of what they all give (pyJoin), leaving out those that take the
// field's own value. ok is false for another field.
func (b *binder) pyFieldJoin(f *fileFacts, cls int, name string) (ty binding, ok bool) {
	if !pyNominal(f) || b.depth > maxTypeDepth {
		return binding{}, false
	}
	var all []typedName
	cycles := false
	for _, t := range f.typed {
		if t.Name != name || t.Scope != cls || t.Return || t.Prop || t.Under {
			continue
		}
		if t.Type != "" || t.Expr != "" {
			return binding{}, false // a written type holds throughout
		}
		if t.ValStart >= 0 && pyFromField(f, string(f.src[t.ValStart:t.ValEnd]), "self."+name, t.Start) {
			cycles = true
			continue // self.fp = oldfp with oldfp = self.fp: adds nothing
		}
		all = append(all, t)
	}
	if len(all) == 0 || len(all) == 1 && !cycles {
		return binding{}, false // none (pyFieldCycle), or the one assignment
	}
	b.depth++
	defer func() { b.depth-- }()
	return b.pyJoin(f, all, f.defs[cls].Start), true
}

// pyFromField reports whether Python value v, assigned at pos, takes its
// value from field self (self.policy): it names it, or the local it
// starts with was last assigned, before pos, a value that does, through
// a few locals (p = self.policy; policy = p.clone(); self.policy =
// policy.clone()).
func pyFromField(f *fileFacts, v, self string, pos int) bool {
	return pyTraces(f, v, pos, func(v string) bool { return pyNames(v, self) })
}
