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
	path map[string]bool // names on the path from the root, for cycles
	// def, for callees: the definitions whose calls are the children.
	defs []defRef
}

// defRef points at one definition.
type defRef struct {
	f *fileFacts
	i int
}

// callers finds the functions calling sym, and their callers up to depth,
// breadth first, stopping after maxNodes distinct symbols. Names are
// looked up one at a time, so a traversal cut by maxNodes parses no file
// it does not need.
func (s *session) callers(sym string, depth, maxNodes int) []CallNode {
	roots := []*callNode{}
	visited := map[symKey]bool{}
	count := 0
	level := []pending{{name: sym, path: map[string]bool{sym: true}}}
	for d := 1; d <= depth && len(level) > 0 && !s.truncated && !s.done(); d++ {
		var next []pending
	level:
		for _, p := range level {
			// The sites of the files parsed before a stop are results
			// too: a stop ends the search for more, not what was found.
			for _, site := range s.callSitesOf(p.name) {
				f, k := site.f, site.f.calls[site.i]
				n := &callNode{CallNode: CallNode{File: f.rel, Via: f.lineText(k.Line, viaMax), ViaLine: k.Line}}
				key := symKey{callerName, f.rel}
				if k.Caller >= 0 {
					dd := f.defs[k.Caller]
					n.Name, n.Container, n.Line = dd.Name, dd.Container, dd.Line
					key.name = dd.Name
				} else {
					n.Name, n.Line = callerName, k.Line
				}
				switch {
				case p.path[n.Name] && k.Caller >= 0:
					n.Cycle = true
				case visited[key]:
					n.Repeated = true
				default:
					if count >= maxNodes {
						s.truncated = true
						break level
					}
					visited[key] = true
					count++
					if d < depth && k.Caller >= 0 {
						next = append(next, pending{node: n, name: n.Name, path: extendPath(p.path, n.Name)})
					}
				}
				if p.node == nil {
					roots = append(roots, n)
				} else {
					p.node.kids = append(p.node.kids, n)
				}
			}
		}
		level = next
	}
	return exportNodes(roots)
}

func extendPath(path map[string]bool, name string) map[string]bool {
	out := make(map[string]bool, len(path)+1)
	for x := range path {
		out[x] = true
	}
	out[name] = true
	return out
}

// callSitesOf returns the first call of name in each calling definition
// (or, outside any, the first per file), ordered by file and position;
// computed once per name and call.
func (s *session) callSitesOf(name string) []site {
	if ss, ok := s.sites[name]; ok {
		return ss
	}
	var out []site
	type callerKey struct {
		f   *fileFacts
		def int
	}
	seen := map[callerKey]bool{}
	for _, f := range s.factsWith(s.files, []string{name}) {
		for i, k := range f.calls {
			if k.Literal || k.Name != name || seen[callerKey{f, k.Caller}] {
				continue
			}
			seen[callerKey{f, k.Caller}] = true
			out = append(out, site{f, i})
		}
	}
	s.sites[name] = out
	return out
}

// site is one call in one file.
type site struct {
	f *fileFacts
	i int
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
	for _, dr := range s.callableDefsOf(sym) {
		d := dr.f.defs[dr.i]
		if owner != "" && d.Container != owner {
			continue
		}
		n := &callNode{CallNode: CallNode{Name: d.Name, Container: d.Container, File: dr.f.rel, Line: d.Line}}
		roots = append(roots, n)
		visited[symKey{d.Name, dr.f.rel}] = true
		level = append(level, pending{node: n, name: sym, path: map[string]bool{sym: true}, defs: []defRef{dr}})
	}
	if len(roots) == 0 && !s.stopped {
		s.notes = append(s.notes, fmt.Sprintf("no function or method named %s is defined in %s", qualified(owner, sym),
			displayPath(s.req.scopeRel)))
	}
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
						Text: dr.f.text(k.Start, k.End, 100)}}
					p.node.kids = append(p.node.kids, n)
					if d == depth || k.Name == "" {
						continue
					}
					if p.path[k.Name] {
						n.Cycle = true
						continue
					}
					next = append(next, pending{node: n, name: k.Name, path: extendPath(p.path, k.Name)})
				}
			}
		}
		if s.truncated {
			break
		}
		// The definitions of the next level's names, each expanded once.
		level = level[:0]
		for _, p := range next {
			if s.done() {
				break
			}
			var fresh []defRef
			for _, dr := range s.callableDefsOf(p.name) {
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
