package analysis

import (
	"fmt"
	"sort"
)

// definitions lists the definition sites of sym (in owner, when set), by
// file and line.
func (s *session) definitions(sym, owner string, maxNodes int) []Definition {
	out := []Definition{}
	for _, f := range s.factsWith(s.files, []string{sym}) {
		for _, d := range f.defs {
			if d.Name != sym || (owner != "" && d.Container != owner) {
				continue
			}
			if len(out) >= maxNodes {
				s.truncated = true
				return out
			}
			out = append(out, f.definition(d))
		}
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

// hierarchy finds sym's supertypes and subtypes, each up to depth levels.
func (s *session) hierarchy(sym string, depth, maxNodes int) *Hierarchy {
	h := &Hierarchy{Definitions: []Definition{}, Supertypes: []TypeNode{}, Subtypes: []TypeNode{}}
	facts := s.factsWith(s.files, []string{sym})
	own := typeDefs(facts)[sym]
	for _, dr := range own {
		d := dr.f.defs[dr.i]
		if d.Label != lImpl {
			h.Definitions = append(h.Definitions, dr.f.definition(d))
		}
	}
	count := 0
	h.Supertypes = s.walkTypes(sym, depth, maxNodes, &count, true)
	h.Subtypes = s.walkTypes(sym, depth, maxNodes, &count, false)
	if len(h.Definitions) == 0 && len(h.Subtypes) == 0 {
		s.notes = append(s.notes, fmt.Sprintf("no type named %s is defined or extended in %s", sym,
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

// walkTypes goes up (supertypes) or down (subtypes) from sym, breadth
// first, sharing the maxNodes budget in count.
func (s *session) walkTypes(sym string, depth, maxNodes int, count *int, up bool) []TypeNode {
	type item struct {
		node *typeNode
		name string
		path map[string]bool
	}
	var roots []*typeNode
	visited := map[symKey]bool{}
	level := []item{{name: sym, path: map[string]bool{sym: true}}}
	for d := 1; d <= depth && len(level) > 0 && !s.truncated && !s.done(); d++ {
		var names []string
		for _, it := range level {
			names = append(names, it.name)
		}
		facts := s.factsWith(s.files, names)
		var found map[string][]TypeNode
		if up {
			found = s.supertypesOf(facts, names)
		} else {
			found = subtypesOf(facts, names)
		}
		var next []item
	level:
		for _, it := range level {
			for _, tn := range found[it.name] {
				n := &typeNode{TypeNode: tn}
				key := symKey{tn.Name, tn.File}
				switch {
				case it.path[tn.Name]:
					n.Cycle = true
				case visited[key]:
					n.Repeated = true
				default:
					if *count >= maxNodes {
						s.truncated = true
						break level
					}
					*count++
					visited[key] = true
					path := map[string]bool{tn.Name: true}
					for x := range it.path {
						path[x] = true
					}
					next = append(next, item{n, tn.Name, path})
				}
				if it.node == nil {
					roots = append(roots, n)
				} else {
					it.node.kids = append(it.node.kids, n)
				}
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

// subtypesOf finds the types naming each of names as a supertype.
func subtypesOf(facts []*fileFacts, names []string) map[string][]TypeNode {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string][]TypeNode{}
	type seenKey struct {
		parent, name, file string
		line               int
	}
	seen := map[seenKey]bool{}
	for _, f := range facts {
		for _, sf := range f.supers {
			if !want[sf.Name] {
				continue
			}
			d := f.defs[sf.Def]
			k := seenKey{sf.Name, d.Name, f.rel, d.Line}
			if seen[k] {
				continue
			}
			seen[k] = true
			out[sf.Name] = append(out[sf.Name], TypeNode{Name: d.Name, Relation: sf.Relation, Kind: d.Label,
				File: f.rel, Line: d.Line})
		}
	}
	return out
}

// supertypesOf finds what each of names extends or implements, locating
// each supertype's definition when it is in scope.
func (s *session) supertypesOf(facts []*fileFacts, names []string) map[string][]TypeNode {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	type edge struct {
		child, parent, relation string
	}
	var edges []edge
	seen := map[edge]bool{}
	var parents []string
	for _, f := range facts {
		for _, sf := range f.supers {
			d := f.defs[sf.Def]
			if !want[d.Name] {
				continue
			}
			e := edge{d.Name, sf.Name, sf.Relation}
			if seen[e] {
				continue
			}
			seen[e] = true
			edges = append(edges, e)
			parents = append(parents, sf.Name)
		}
	}
	defs := typeDefs(s.factsWith(s.files, parents))
	out := map[string][]TypeNode{}
	for _, e := range edges {
		tn := TypeNode{Name: e.parent, Relation: e.relation}
		for _, dr := range defs[e.parent] {
			if d := dr.f.defs[dr.i]; d.Label != lImpl {
				tn.Kind, tn.File, tn.Line = d.Label, dr.f.rel, d.Line
				break
			}
		}
		out[e.child] = append(out[e.child], tn)
	}
	return out
}

// references finds every structural reference to sym, by category.
func (s *session) references(sym string, maxNodes int) *References {
	cats := []*RefCategory{
		{ID: RefInstanceCalls, Label: "Method calls on instances", Heuristic: true},
		{ID: RefDirectCalls, Label: "Direct calls"},
		{ID: RefInstantiations, Label: "Instantiations"},
		{ID: RefTypes, Label: "Type annotations"},
		{ID: RefHeritage, Label: "Extends/implements"},
		{ID: RefImports, Label: "Imports"},
		{ID: RefReExports, Label: "Re-exports"},
	}
	byID := map[string]*RefCategory{}
	for _, c := range cats {
		byID[c.ID] = c
		c.Items = []Ref{}
	}
	folded := fold(sym)
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
	type lineKey struct {
		cat, file string
		line      int
	}
	seen := map[lineKey]bool{}
	add := func(cat string, f *fileFacts, line int, text string) {
		k := lineKey{cat, f.rel, line}
		if seen[k] {
			return
		}
		seen[k] = true
		c := byID[cat]
		c.Count++
		if len(c.Items) < maxNodes {
			c.Items = append(c.Items, Ref{File: f.rel, Line: line, Text: text})
		} else {
			s.truncated = true
		}
	}
	for _, f := range facts {
		for _, k := range f.calls {
			text := func() string { return f.text(k.Start, k.End, 100) }
			switch {
			case k.New && (k.Name == sym || k.NewOf == sym):
				add(RefInstantiations, f, k.Line, text())
			case k.Name == sym && classCall:
				add(RefInstantiations, f, k.Line, text())
			case k.Name == sym:
				add(RefDirectCalls, f, k.Line, text())
			}
			if !k.New && k.Recv != "" && k.Name != "" && containsFold([]byte(k.Recv), folded) {
				add(RefInstanceCalls, f, k.Line, text())
			}
		}
		for _, t := range f.types {
			if t.Name == sym {
				text := f.lineText(t.Line, 100)
				if t.Start >= 0 {
					text = f.text(t.Start, t.End, 100)
				}
				add(RefTypes, f, t.Line, text)
			}
		}
		for _, sf := range f.supers {
			if sf.Name == sym {
				add(RefHeritage, f, f.defs[sf.Def].Line, f.lineText(f.defs[sf.Def].Line, viaMax))
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
			add(cat, f, imp.Line, f.importText(imp))
		}
	}
	refs := &References{}
	for _, c := range cats {
		sort.SliceStable(c.Items, func(a, b int) bool {
			if c.Items[a].File != c.Items[b].File {
				return c.Items[a].File < c.Items[b].File
			}
			return c.Items[a].Line < c.Items[b].Line
		})
		refs.Total += c.Count
		refs.Categories = append(refs.Categories, *c)
	}
	return refs
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
