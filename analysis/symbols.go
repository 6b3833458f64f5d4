package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// definitions lists the definition sites of sym (in owner, when set), by
// file and line.
func (s *session) definitions(sym, owner string, maxNodes int) []Definition {
	out := []Definition{}
	tgt := s.target(sym, owner)
	for _, f := range s.factsWith(s.files, []string{sym}) {
		for i, d := range f.defs {
			if !tgt.matches(f, i) {
				continue
			}
			if len(out) >= maxNodes {
				s.truncated = true
				return out
			}
			out = append(out, f.definition(d))
		}
	}
	// Declarations merged with them by module augmentation (declare
	// module "spec" { interface X {} }) declare the same type.
	var merged []defRef
	for dr := range s.binder().mergedDefs(tgt) {
		if !tgt.matches(dr.f, dr.i) {
			merged = append(merged, dr)
		}
	}
	slices.SortFunc(merged, func(a, c defRef) int {
		return cmp.Or(strings.Compare(a.f.rel, c.f.rel), cmp.Compare(a.i, c.i))
	})
	for _, dr := range merged {
		if len(out) >= maxNodes {
			s.truncated = true
			return out
		}
		out = append(out, dr.f.definition(dr.f.defs[dr.i]))
	}
	return out
}

func (f *fileFacts) definition(d def) Definition {
	return Definition{Name: d.Name, Kind: d.Label, Container: d.Container, File: f.rel, Line: d.Line,
		Text: f.lineText(d.Line, viaMax), Exported: d.Exported}
}

// isType reports whether a definition can take part in a hierarchy.
func isType(d def) bool {
	switch d.Label {
	case lClass, lInterface, lStruct, lTrait, lEnum, lImpl, lObject, lRecord, lType, lModule:
		return true
	}
	return false
}

// typeDefs indexes the type definitions of facts by name.
func typeDefs(facts []*fileFacts) map[string][]defRef {
	out := map[string][]defRef{}
	for _, f := range facts {
		for i, d := range f.defs {
			if isType(d) {
				out[d.Name] = append(out[d.Name], defRef{f, i})
			}
		}
	}
	return out
}

// hierarchy finds sym's supertypes and subtypes (of the types in owner,
// when set), each up to depth levels.
func (s *session) hierarchy(sym, owner string, depth, maxNodes int) *Hierarchy {
	h := &Hierarchy{Definitions: []Definition{}, Supertypes: []TypeNode{}, Subtypes: []TypeNode{}}
	facts := s.factsWith(s.files, []string{sym})
	tgt := s.target(sym, owner)
	for _, dr := range typeDefs(facts)[sym] {
		d := dr.f.defs[dr.i]
		if d.Label != lImpl && tgt.matches(dr.f, dr.i) {
			h.Definitions = append(h.Definitions, dr.f.definition(d))
		}
	}
	count := 0
	h.Supertypes = s.walkTypes(tgt, depth, maxNodes, &count, true)
	h.Subtypes = s.walkTypes(tgt, depth, maxNodes, &count, false)
	if len(h.Definitions) == 0 && len(h.Subtypes) == 0 {
		s.notes = append(s.notes, fmt.Sprintf("no type named %s is defined or extended in %s", qualified(owner, sym),
			displayPath(s.req.scopeRel)))
	}
	return h
}

// typeNode is a TypeNode under construction.
type typeNode struct {
	TypeNode
	kids []*typeNode
}

func (n *typeNode) export() TypeNode {
	out := n.TypeNode
	for _, k := range n.kids {
		out.Children = append(out.Children, k.export())
	}
	return out
}

// typeEdge is one supertype or subtype found, with the target its own
// expansion looks for.
type typeEdge struct {
	node TypeNode
	next target
}

// walkTypes goes up (supertypes) or down (subtypes) from the types t
// names, breadth first, sharing the maxNodes budget in count. A type
// whose definition was resolved is followed exactly; one matched by name,
// by its name.
func (s *session) walkTypes(t target, depth, maxNodes int, count *int, up bool) []TypeNode {
	type item struct {
		node *typeNode
		tgt  target
		path map[string]bool
	}
	var roots []*typeNode
	visited := map[symKey]bool{}
	level := []item{{tgt: t, path: map[string]bool{t.name: true}}}
	for d := 1; d <= depth && len(level) > 0 && !s.truncated && !s.done(); d++ {
		var next []item
	level:
		for _, it := range level {
			var found []typeEdge
			if up {
				found = s.supertypesOf(it.tgt)
			} else {
				found = s.subtypesOf(it.tgt)
			}
			var ranked []*typeNode
			for _, e := range found {
				tn := e.node
				n := &typeNode{TypeNode: tn}
				key := symKey{tn.Name, tn.File}
				switch {
				case it.path[tn.Name]:
					n.Cycle = true
				case visited[key]:
					n.Repeated = true
				case *count >= maxNodes:
					s.truncated = true
				default:
					*count++
					visited[key] = true
					path := map[string]bool{tn.Name: true}
					for x := range it.path {
						path[x] = true
					}
					next = append(next, item{n, e.next, path})
				}
				if s.truncated {
					break
				}
				ranked = append(ranked, n)
			}
			for _, pass := range []bool{true, false} {
				for _, n := range ranked {
					if (n.Confidence == Resolved) != pass {
						continue
					}
					if it.node == nil {
						roots = append(roots, n)
					} else {
						it.node.kids = append(it.node.kids, n)
					}
				}
			}
			if s.truncated {
				break level
			}
		}
		level = next
	}
	out := make([]TypeNode, 0, len(roots))
	for _, r := range roots {
		out = append(out, r.export())
	}
	return out
}

// subtypesOf finds the types naming t as a supertype: through the scope
// and imports of their file (resolved) or by the name alone.
func (s *session) subtypesOf(t target) []typeEdge {
	var out []typeEdge
	type seenKey struct {
		name, file string
		line       int
	}
	seen := map[seenKey]bool{}
	b := s.binder()
	for _, f := range s.factsWith(s.files, []string{t.name}) {
		for _, sf := range f.supers {
			if sf.Name != t.name {
				continue
			}
			d := f.defs[sf.Def]
			st := b.classifyName(f, sf.Name, d.Start, t)
			if st == miss {
				continue
			}
			k := seenKey{d.Name, f.rel, d.Line}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, typeEdge{TypeNode{Name: d.Name, Relation: sf.Relation, Kind: d.Label,
				File: f.rel, Line: d.Line, Confidence: st.label()}, target{name: d.Name, exact: &defRef{f, sf.Def}}})
		}
	}
	return out
}

// supertypesOf finds what the types t names extend or implement, each
// supertype located at the definition its name resolves to, else at the
// first type of that name in scope.
func (s *session) supertypesOf(t target) []typeEdge {
	type edge struct {
		parent, relation string
	}
	var out []typeEdge
	seen := map[edge]bool{}
	b := s.binder()
	facts := s.factsWith(s.files, []string{t.name})
	if t.exact != nil {
		facts = []*fileFacts{t.exact.f}
	}
	for _, f := range facts {
		for _, sf := range f.supers {
			if !t.matches(f, sf.Def) {
				continue
			}
			e := edge{sf.Name, sf.Relation}
			bd := b.lookup(f, sf.Name, f.defs[sf.Def].Start, 0)
			tn := TypeNode{Name: sf.Name, Relation: sf.Relation, Confidence: NameOnly}
			next := target{name: sf.Name}
			for _, dr := range bd.defs {
				if d := dr.f.defs[dr.i]; isType(d) && d.Label != lImpl {
					tn.Kind, tn.File, tn.Line, tn.Confidence = d.Label, dr.f.rel, d.Line, Resolved
					next = target{name: sf.Name, exact: &defRef{dr.f, dr.i}}
					e.parent += "@" + dr.f.rel
					break
				}
			}
			if seen[e] {
				continue
			}
			seen[e] = true
			if tn.Confidence == NameOnly && !bd.external {
				for _, dr := range typeDefs(s.factsWith(s.files, []string{sf.Name}))[sf.Name] {
					if d := dr.f.defs[dr.i]; d.Label != lImpl {
						tn.Kind, tn.File, tn.Line = d.Label, dr.f.rel, d.Line
						break
					}
				}
			}
			out = append(out, typeEdge{tn, next})
		}
	}
	return out
}

// references finds every structural reference to sym (to its definitions
// in owner, when set), by category. Within a category, references
// resolved to the symbol's definitions come first.
func (s *session) references(sym, owner string, maxNodes int) *References {
	cats := refCategories()
	byID := map[string]*RefCategory{}
	for _, c := range cats {
		byID[c.ID] = c
	}
	folded := fold(sym)
	words := identWords(sym)
	s.load(s.files)
	var cands []*file
	for _, f := range s.files {
		if !f.skip && f.loaded && containsFold(f.src, folded) {
			cands = append(cands, f)
		}
	}
	s.ensure(cands)
	facts := collectFacts(cands)
	classCall := false
	if s.main.spec.ClassCalls {
		for _, f := range facts {
			for _, d := range f.defs {
				if d.Name == sym && isType(d) {
					classCall = true
				}
			}
		}
	}
	tgt := s.target(sym, owner)
	b := s.binder()
	// A bare name several classes or files define: each call says which
	// definition it binds to.
	var asked []defRef
	for _, f := range facts {
		for i := range f.defs {
			if tgt.matches(f, i) {
				asked = append(asked, defRef{f, i})
			}
		}
	}
	grouped := owner == "" && len(ownerGroups(asked)) > 1
	type lineKey struct {
		cat, file string
		line      int
	}
	seen := map[lineKey]int{}
	def := "" // the definition the last call classified binds to, for the next add
	add := func(cat string, f *fileFacts, line int, text string, st status, reason string) {
		d := def
		def = ""
		if st == miss {
			return
		}
		c := byID[cat]
		conf := st.label()
		if c.Heuristic {
			conf, reason = Heuristic, ""
		}
		if st != nameOnly {
			reason = ""
		}
		if c.Heuristic || st != resolved {
			d = ""
		}
		k := lineKey{cat, f.rel, line}
		if i, ok := seen[k]; ok {
			if st == resolved && !c.Heuristic && c.Items[i].Confidence != Resolved {
				c.Items[i].Confidence, c.Items[i].Reason, c.Items[i].Def = Resolved, "", d
			}
			return
		}
		seen[k] = len(c.Items)
		c.Items = append(c.Items, Ref{File: f.rel, Line: line, Text: text, Confidence: conf, Reason: reason, Def: d})
	}
	call := func(f *fileFacts, k call) (status, string) {
		st, why, defs := b.classifyBound(f, k, tgt)
		switch {
		case st == miss && why == ReasonUntypedValue:
			s.untyped++
		case st == nameOnly && why == ReasonDispatch:
			// A reference of a member the symbol overrides or implements,
			// or of a sibling's: not the symbol's own (callers lists it).
			s.related++
			st = miss
		}
		def = ""
		if dr, ok := boundTo(defs, tgt); ok && grouped {
			def = defLabel(dr.f, dr.i)
		}
		return st, why
	}
	named := func(st status) (status, string) { return st, why(st) }
	judged := 0
	for _, f := range facts {
		if s.done() {
			break
		}
		aliases := f.aliasesOf(sym)
		for _, k := range f.calls {
			if s.stopAfter(&judged) {
				break
			}
			text := func() string { return f.text(k.Start, k.End, 100) }
			if k.Read {
				// A member read types tie to a method or function
				// (validators[k] = v.ValidateMSVS) is a reference, as it is
				// a call site in the call graph; one by name alone is
				// neither, nor counted. A class or constant read through a
				// namespace (schemas.ZodBigInt) is the value's use.
				if k.Name != sym {
					continue
				}
				if st, _, defs := b.classifyBound(f, k, tgt); st == resolved {
					if dr, ok := boundTo(defs, tgt); ok && dr.f.defs[dr.i].Callable {
						if grouped {
							def = defLabel(dr.f, dr.i)
						}
						add(RefDirectCalls, f, k.Line, text(), st, "")
					}
				}
				continue
			}
			switch {
			case aliases[k.Name] && !k.Member:
				st, why := call(f, k)
				add(RefDirectCalls, f, k.Line, text(), st, why)
			case k.New && k.NewOf == sym:
				st, why := named(b.classifyName(f, sym, k.Start, tgt))
				add(RefInstantiations, f, k.Line, text(), st, why)
			case k.New && k.Name == sym, k.Name == sym && classCall:
				st, why := call(f, k)
				add(RefInstantiations, f, k.Line, text(), st, why)
			case k.Name == sym:
				st, why := call(f, k)
				add(RefDirectCalls, f, k.Line, text(), st, why)
			}
			if !k.New && !k.Element && k.Recv != "" && k.Name != "" && containsWords(identWords(k.Recv), words) {
				add(RefInstanceCalls, f, k.Line, text(), nameOnly, "")
			}
		}
		for _, t := range f.types {
			if t.Name == sym {
				text := f.lineText(t.Line, 100)
				if t.Start >= 0 {
					text = f.text(t.Start, t.End, 100)
				}
				pos := f.lineStarts[t.Line-1]
				st := b.classifyName(f, sym, pos, tgt)
				if t.Recv != "" {
					st = b.judge(b.member(b.lookup(f, t.Recv, pos, 0), sym), tgt)
				}
				add(RefTypes, f, t.Line, text, st, why(st))
			}
		}
		for _, sf := range f.supers {
			if sf.Name == sym {
				d := f.defs[sf.Def]
				st := b.classifyName(f, sym, d.Start, tgt)
				if sf.Recv != "" {
					st = b.judge(b.superType(f, sf, d.Start), tgt) // extends ns.Types<…>, class X(mod.Base)
				}
				add(RefHeritage, f, sf.Line, f.lineText(sf.Line, viaMax), st, why(st)) // the line naming it (extends on a line of its own)
			}
		}
		for _, e := range f.exports {
			if e.Local == sym && e.Source == "" && e.Line > 0 {
				// export { _null as null }: the local name exported
				// under another, which the compiler counts as a
				// reference of it.
				st := b.classifyName(f, sym, f.lineStarts[e.Line-1], tgt)
				add(RefReExports, f, e.Line, f.lineText(e.Line, viaMax), st, why(st))
			}
		}
		for _, imp := range f.imports {
			if !importsName(imp, sym, s.main.spec.Sep) {
				continue
			}
			cat := RefImports
			if imp.Form == "re-export" {
				cat = RefReExports
			}
			// A statement split over lines shows the line naming sym.
			line, text := imp.Line, f.importText(imp)
			for _, bn := range imp.Names {
				if (bn.Name == sym || bn.Alias == sym) && bn.Line > imp.Line {
					line, text = bn.Line, f.lineText(bn.Line, 100)
				}
			}
			st := b.classifyImport(f, imp, tgt)
			add(cat, f, line, text, st, why(st))
		}
	}
	// export { _null as null }: calls of the exported name (z.null()),
	// in files that may not hold the symbol's own name (TypeScript and
	// JavaScript alone export under another name).
	for _, st := range s.aliasSites(sym) {
		if k := st.f.calls[st.i]; k.Name != sym && !st.f.aliasesOf(sym)[k.Name] {
			st2, why := call(st.f, k)
			add(RefDirectCalls, st.f, k.Line, st.f.text(k.Start, k.End, 100), st2, why)
		}
	}
	// export type { TypeOf as infer }: types named by the exported name
	// through a namespace (z.infer<typeof s>).
	if s.main.spec.jsFamily() {
		if as := s.exportedAs(sym); len(as) > 0 {
			for _, f := range s.factsWith(s.files, as) {
				for _, t := range f.types {
					if t.Recv == "" || !contains(as, t.Name) || s.done() {
						continue
					}
					pos := f.lineStarts[t.Line-1]
					st := b.judge(b.member(b.lookup(f, t.Recv, pos, 0), t.Name), tgt)
					text := f.lineText(t.Line, 100)
					if t.Start >= 0 {
						text = f.text(t.Start, t.End, 100)
					}
					add(RefTypes, f, t.Line, text, st, why(st))
				}
			}
		}
	}
	refs := &References{}
	for _, c := range cats {
		sort.SliceStable(c.Items, func(a, b int) bool {
			x, y := c.Items[a], c.Items[b]
			if (x.Confidence == Resolved) != (y.Confidence == Resolved) {
				return x.Confidence == Resolved
			}
			if x.File != y.File {
				return x.File < y.File
			}
			return x.Line < y.Line
		})
		c.Count = len(c.Items)
		for _, it := range c.Items {
			if it.Confidence != Resolved {
				c.NameOnly++
			}
		}
		if len(c.Items) > maxNodes {
			c.Items = c.Items[:maxNodes]
			s.truncated = true
		}
		refs.Total += c.Count
		if !c.Heuristic {
			refs.Resolved += c.Count - c.NameOnly
			refs.NameOnly += c.NameOnly
		}
		refs.Categories = append(refs.Categories, *c)
	}
	return refs
}

// refCategories returns the reference categories, empty, in output order.
func refCategories() []*RefCategory {
	cats := []*RefCategory{
		{ID: RefInstanceCalls, Label: "Method calls on instances", Heuristic: true},
		{ID: RefDirectCalls, Label: "Direct calls"},
		{ID: RefInstantiations, Label: "Instantiations"},
		{ID: RefTypes, Label: "Type annotations"},
		{ID: RefHeritage, Label: "Extends/implements"},
		{ID: RefImports, Label: "Imports"},
		{ID: RefReExports, Label: "Re-exports"},
	}
	for _, c := range cats {
		c.Items = []Ref{}
	}
	return cats
}

// identWords splits an identifier into its lower-cased words: camelCase,
// PascalCase, snake_case, kebab-case and digits (toolRegistry, HTTPServer,
// _subscribe -> subscribe).
func identWords(s string) []string {
	var words []string
	var cur []rune
	rs := []rune(s)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prevUpper := unicode.IsUpper(cur[len(cur)-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if !prevUpper || nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// containsWords reports whether want occurs as consecutive words of have.
func containsWords(have, want []string) bool {
	if len(want) == 0 {
		return false
	}
	for i := 0; i+len(want) <= len(have); i++ {
		ok := true
		for j, w := range want {
			if have[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// importsName reports whether an import binds sym, or imports a module
// whose last segment is sym.
func importsName(imp importFact, sym, sep string) bool {
	for _, b := range imp.Names {
		if b.Name == sym || b.Alias == sym {
			return true
		}
	}
	return lastSegment(imp.Source, sep) == sym
}
