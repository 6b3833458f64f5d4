package analysis

import (
	"fmt"
	"sort"
)

// viaMax bounds the call-site line shown with a caller.
const viaMax = 160

// callerName names the pseudo-caller of calls made outside any function.
const callerName = "<module>"

// callNode is a CallNode under construction (children by pointer, so a
// level can be extended while the next is built).
type callNode struct {
	CallNode
	kids []*callNode
}

func (n *callNode) export() CallNode {
	out := n.CallNode
	for _, k := range n.kids {
		out.Children = append(out.Children, k.export())
	}
	return out
}

func exportNodes(ns []*callNode) []CallNode {
	out := make([]CallNode, 0, len(ns))
	for _, n := range ns {
		out = append(out, n.export())
	}
	return out
}

// symKey identifies a symbol for cycle detection: its name and file.
type symKey struct{ name, file string }

// pending is a node whose children the next level finds.
type pending struct {
	node *callNode
	name string
	tgt  target
	path map[symKey]bool // symbols on the path from the root, for cycles
	// def, for callees: the definitions whose calls are the children.
	defs []defRef
}

// defRef points at one definition.
type defRef struct {
	f *fileFacts
	i int
}

// callers finds the functions calling sym (in owner, when set), and their
// callers up to depth, breadth first, stopping after maxNodes distinct
// symbols. A caller found at one level is the exact target of the next.
// Names are looked up one at a time, so a traversal cut by maxNodes parses
// no file it does not need.
func (s *session) callers(sym, owner string, depth, maxNodes int) []CallNode {
	roots := []*callNode{}
	visited := map[symKey]bool{}
	count := 0
	tgt := s.target(sym, owner)
	rootPath := map[symKey]bool{}
	for _, dr := range s.callableDefsOf(sym) {
		if tgt.matches(dr.f, dr.i) {
			rootPath[symKey{sym, dr.f.rel}] = true
		}
	}
	level := []pending{{name: sym, tgt: tgt, path: rootPath}}
	// The first level runs whatever happened before: the sites of the
	// files parsed before a stop are results too.
	for d := 1; d <= depth && len(level) > 0 && !s.truncated && (d == 1 || !s.done()); d++ {
		var next []pending
	level:
		for _, p := range level {
			// The sites of the files parsed before a stop are results
			// too: a stop ends the search for more, not what was found.
			var found []*callNode
			for _, m := range s.callSitesFor(p.tgt) {
				f, k := m.f, m.f.calls[m.i]
				n := &callNode{CallNode: CallNode{File: f.rel, Via: f.lineText(k.Line, viaMax), ViaLine: k.Line,
					Confidence: m.st.label(), Reason: m.why}}
				key := symKey{callerName, f.rel}
				if k.Caller >= 0 {
					dd := f.defs[k.Caller]
					n.Name, n.Container, n.Line = dd.Name, dd.Container, dd.Line
					key.name = dd.Name
				} else {
					n.Name, n.Line = callerName, k.Line
				}
				switch {
				case p.path[key] && k.Caller >= 0:
					n.Cycle = true
				case visited[key]:
					n.Repeated = true
				case count >= maxNodes:
					s.truncated = true
				default:
					visited[key] = true
					count++
					if d < depth && k.Caller >= 0 {
						path := make(map[symKey]bool, len(p.path)+1)
						for x := range p.path {
							path[x] = true
						}
						path[key] = true
						next = append(next, pending{node: n, name: n.Name, path: path,
							tgt: target{name: n.Name, exact: &defRef{f, k.Caller}}})
					}
				}
				if s.truncated {
					break
				}
				found = append(found, n)
			}
			found = rankCalls(found)
			if p.node == nil {
				roots = append(roots, found...)
			} else {
				p.node.kids = append(p.node.kids, found...)
			}
			if s.truncated {
				break level
			}
		}
		level = next
	}
	return exportNodes(roots)
}

// rankCalls puts resolved nodes first, keeping the order otherwise.
func rankCalls(ns []*callNode) []*callNode {
	out := make([]*callNode, 0, len(ns))
	for _, pass := range []bool{true, false} {
		for _, n := range ns {
			if (n.Confidence == Resolved) == pass {
				out = append(out, n)
			}
		}
	}
	return out
}

// callSitesOf returns every call of name, ordered by file and position;
// computed once per name and call.
func (s *session) callSitesOf(name string) []site {
	if ss, ok := s.sites[name]; ok {
		return ss
	}
	var out []site
	for _, f := range s.factsWith(s.files, []string{name}) {
		aliases := f.aliasesOf(name)
		for i, k := range f.calls {
			if !k.Literal && (k.Name == name || aliases[k.Name]) {
				out = append(out, site{f, i})
			}
		}
	}
	s.sites[name] = out
	return out
}

// aliasesOf returns the local names under which f imports name
// (import { refCount as higherOrderRefCount }): calls of them may call it.
func (f *fileFacts) aliasesOf(name string) map[string]bool {
	var out map[string]bool
	for _, imp := range f.imports {
		if imp.Form == "re-export" {
			continue
		}
		for _, bn := range imp.Names {
			if bn.Name == name && bn.Alias != "" && bn.Alias != name && bn.Form == "named" {
				if out == nil {
					out = map[string]bool{}
				}
				out[bn.Alias] = true
			}
		}
	}
	return out
}

// site is one call in one file.
type site struct {
	f *fileFacts
	i int
}

// match is a call site that may call a target, and how sure that is.
type match struct {
	site
	st  status
	why string // why a name-only site was not resolved
}

// callSitesFor returns, for each definition calling t (or, outside any,
// each file), its first resolved call of t, else its first name-only one;
// ordered by file and position.
func (s *session) callSitesFor(t target) []match {
	type callerKey struct {
		f   *fileFacts
		def int
	}
	b := s.binder()
	idx := map[callerKey]int{}
	var out []match
	for _, st := range s.callSitesOf(t.name) {
		k := st.f.calls[st.i]
		status, why := b.classifyWhy(st.f, k, t)
		if status == miss {
			continue
		}
		key := callerKey{st.f, k.Caller}
		if j, ok := idx[key]; ok {
			if out[j].st == nameOnly && status == resolved {
				out[j] = match{st, status, why}
			}
			continue
		}
		idx[key] = len(out)
		out = append(out, match{st, status, why})
	}
	return out
}

// callees lists the calls made by the definitions of sym (in owner, when
// set), and the calls of the functions those call up to depth. Chained
// subcalls are dropped: of two calls where one's source range holds the
// other's, only the outer one
// is listed.
func (s *session) callees(sym, owner string, depth, maxNodes int) []CallNode {
	roots := []*callNode{}
	visited := map[symKey]bool{}
	var level []pending
	tgt := s.target(sym, owner)
	for _, dr := range s.callableDefsOf(sym) {
		d := dr.f.defs[dr.i]
		if !tgt.matches(dr.f, dr.i) {
			continue
		}
		n := &callNode{CallNode: CallNode{Name: d.Name, Container: d.Container, File: dr.f.rel, Line: d.Line}}
		roots = append(roots, n)
		visited[symKey{d.Name, dr.f.rel}] = true
		level = append(level, pending{node: n, name: sym, path: map[symKey]bool{{name: sym}: true}, defs: []defRef{dr}})
	}
	if len(roots) == 0 && !s.stopped {
		s.notes = append(s.notes, fmt.Sprintf("no function or method named %s is defined in %s", qualified(owner, sym),
			displayPath(s.req.scopeRel)))
	}
	b := s.binder()
	count := 0
	for d := 1; d <= depth && len(level) > 0 && !s.truncated && !s.done(); d++ {
		var next []pending
	level:
		for _, p := range level {
			for _, dr := range p.defs {
				for _, ci := range outermostCalls(dr.f, dr.f.defs[dr.i]) {
					k := dr.f.calls[ci]
					if count >= maxNodes {
						s.truncated = true
						break level
					}
					count++
					n := &callNode{CallNode: CallNode{Name: k.Name, File: dr.f.rel, Line: k.Line,
						Text: dr.f.text(k.Start, k.End, 100), Confidence: NameOnly}}
					var defs []defRef
					for _, x := range b.resolveCall(dr.f, k).defs {
						n.Confidence = Resolved
						if x.f.defs[x.i].Callable {
							defs = append(defs, x)
						}
					}
					p.node.kids = append(p.node.kids, n)
					if d == depth || k.Name == "" {
						continue
					}
					if p.path[symKey{name: k.Name}] {
						n.Cycle = true
						continue
					}
					path := map[symKey]bool{{name: k.Name}: true}
					for x := range p.path {
						path[x] = true
					}
					next = append(next, pending{node: n, name: k.Name, path: path, defs: defs})
				}
			}
		}
		if s.truncated {
			break
		}
		// The definitions of the next level's names, each expanded once:
		// a resolved call's own definitions, else every one of its name.
		level = level[:0]
		for _, p := range next {
			if s.done() {
				break
			}
			cands := p.defs
			if len(cands) == 0 {
				cands = s.callableDefsOf(p.name)
			}
			var fresh []defRef
			for _, dr := range cands {
				key := symKey{p.name, dr.f.rel}
				if visited[key] {
					p.node.Repeated = true
					continue
				}
				visited[key] = true
				fresh = append(fresh, dr)
			}
			if len(fresh) > 0 {
				p.node.Repeated = false
				p.defs = fresh
				level = append(level, p)
			}
		}
	}
	return exportNodes(roots)
}

// callableDefsOf returns the callable definitions named name, ordered by
// file and line; computed once per name and call.
func (s *session) callableDefsOf(name string) []defRef {
	if ds, ok := s.defsByName[name]; ok {
		return ds
	}
	var out []defRef
	for _, f := range s.factsWith(s.files, []string{name}) {
		for i, d := range f.defs {
			if d.Callable && d.Name == name {
				out = append(out, defRef{f, i})
			}
		}
	}
	s.defsByName[name] = out
	return out
}

// outermostCalls returns the calls inside d (not literals), in source order,
// dropping every call whose range lies inside another's.
func outermostCalls(f *fileFacts, d def) []int {
	var in []int
	for i, k := range f.calls {
		if !k.Literal && k.Start >= d.Start && k.End <= d.End {
			in = append(in, i)
		}
	}
	sort.SliceStable(in, func(a, b int) bool {
		ka, kb := f.calls[in[a]], f.calls[in[b]]
		if ka.Start != kb.Start {
			return ka.Start < kb.Start
		}
		return ka.End > kb.End
	})
	var out []int
	end := -1
	for _, i := range in {
		k := f.calls[i]
		if end >= 0 && k.End <= end {
			continue // inside the last kept call
		}
		out = append(out, i)
		end = k.End
	}
	return out
}
