package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
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

// symKey identifies a type for cycle detection in hierarchies: its name
// and file.
type symKey struct{ name, file string }

// defKey identifies a definition of a call tree, for cycles and repeats:
// its file and index, -1 for a file's top level.
type defKey struct {
	file string
	i    int
}

// pending is a node whose children the next level finds.
type pending struct {
	node *callNode
	name string
	tgt  target
	// path holds the definitions on the path from the root: a node is a
	// cycle when its own definition is there, not another of its name.
	path map[defKey]bool
	// def, for callees: the definitions whose calls are the children.
	defs []defRef
}

// withKey returns a copy of path holding keys too.
func withKey(path map[defKey]bool, keys ...defKey) map[defKey]bool {
	out := make(map[defKey]bool, len(path)+len(keys))
	for x := range path {
		out[x] = true
	}
	for _, k := range keys {
		out[k] = true
	}
	return out
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
	visited := map[defKey]bool{}
	count := 0
	tgt := s.target(sym, owner)
	var asked []defRef
	for _, dr := range s.callableDefsOf(sym) {
		if tgt.matches(dr.f, dr.i) {
			asked = append(asked, dr)
		}
	}
	// A bare name several owners define (_parse) groups its callers by
	// the definition each binds to: each group's path is that definition.
	// Otherwise the definitions asked about are the path of every caller.
	grouped := owner == "" && len(ownerGroups(asked)) > 1
	rootPath := map[defKey]bool{}
	if !grouped {
		for _, dr := range asked {
			rootPath[defKey{dr.f.rel, dr.i}] = true
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
			sites, untyped := s.callSitesFor(p.tgt, grouped && p.node == nil)
			if p.node == nil {
				s.untyped += untyped // the symbol's own calls on untyped values
			}
			for _, m := range sites {
				f, k := m.f, m.f.calls[m.i]
				if grouped && p.node != nil && m.st == nameOnly && visited[defKey{f.rel, k.Caller}] && !p.path[defKey{f.rel, k.Caller}] {
					// Below a bare name's callers, a caller already shown
					// that calls by name only: every definition of the
					// name would list it again.
					continue
				}
				conf, why := callLabel(m.st, m.why)
				n := &callNode{CallNode: CallNode{File: f.rel, Via: f.lineText(k.Line, viaMax), ViaLine: k.Line,
					Confidence: conf, Reason: why}}
				key := defKey{f.rel, k.Caller}
				if k.Caller >= 0 {
					dd := f.defs[k.Caller]
					n.Name, n.Container, n.Line = dd.Name, dd.Container, dd.Line
				} else {
					n.Name, n.Line = callerName, k.Line
				}
				path := p.path
				if grouped && p.node == nil && m.st == resolved {
					if dr, ok := boundTo(m.defs, tgt); ok {
						n.Def = defLabel(dr.f, dr.i)
						path = withKey(path, defKey{dr.f.rel, dr.i})
					}
				}
				if grouped && p.node == nil && m.st == nameOnly && m.why == ReasonDispatch {
					if dr, ok := s.dispatchesTo(f, k, sym, asked); ok {
						n.Def = defLabel(dr.f, dr.i) // listed, dispatch, under the one it may reach
						path = withKey(path, defKey{dr.f.rel, dr.i})
					}
				}
				switch {
				case path[key] && k.Caller >= 0:
					n.Cycle = true
				case visited[key]:
					n.Repeated = true
				case count >= maxNodes:
					s.truncated = true
				default:
					visited[key] = true
					count++
					if d < depth && k.Caller >= 0 {
						next = append(next, pending{node: n, name: n.Name, path: withKey(path, key),
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
				if grouped {
					found = groupCalls(found)
				}
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

// boundTo returns the first of the definitions a call binds to that t asks
// about.
func boundTo(defs []defRef, t target) (defRef, bool) {
	for _, dr := range defs {
		if t.matches(dr.f, dr.i) {
			return dr, true
		}
	}
	return defRef{}, false
}

// groupCalls orders the callers of a bare name by the definition each
// binds to (Def): each definition's callers together, the groups in the
// order of their first caller; the callers attributed to none last.
func groupCalls(ns []*callNode) []*callNode {
	first := map[string]int{}
	for i, n := range ns {
		if _, ok := first[n.Def]; !ok && n.Def != "" {
			first[n.Def] = i
		}
	}
	out := slices.Clone(ns)
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a].Def, out[b].Def
		switch {
		case x == y:
			return false
		case x == "" || y == "":
			return y == ""
		}
		return first[x] < first[y]
	})
	return out
}

// rankCalls puts resolved nodes first, then dispatch, then name-only,
// keeping the order otherwise.
func rankCalls(ns []*callNode) []*callNode {
	rank := func(n *callNode) int {
		switch n.Confidence {
		case Resolved:
			return 0
		case Dispatch:
			return 1
		}
		return 2
	}
	out := slices.Clone(ns)
	slices.SortStableFunc(out, func(a, b *callNode) int { return rank(a) - rank(b) })
	return out
}

// callSitesOf returns every call of name, ordered by file and position;
// computed once per name and call.
func (s *session) callSitesOf(name string) []site {
	if ss, ok := s.sites[name]; ok {
		return ss
	}
	var out []site
	facts := s.factsWith(s.files, []string{name})
	for _, f := range facts {
		aliases := f.aliasesOf(name)
		for i, k := range f.calls {
			if !k.Literal && (k.Name == name || aliases[k.Name]) {
				out = append(out, site{f, i})
			}
		}
	}
	exportedAs := s.exportedFrom(facts, name)
	// export { stringType as string }, export { _regex as regex } from
	// './api': calls of the exported name (through a namespace,
	// z.string()) may call it too.
	if len(exportedAs) > 0 {
		for _, f := range s.factsWith(s.files, exportedAs) {
			for i, k := range f.calls {
				if !k.Literal && k.Name != name && contains(exportedAs, k.Name) {
					out = append(out, site{f, i})
				}
			}
		}
		slices.SortStableFunc(out, func(a, b site) int {
			return cmp.Or(strings.Compare(a.f.rel, b.f.rel), cmp.Compare(a.i, b.i))
		})
	}
	s.sites[name] = out
	return out
}

// exportedAs returns the other names the workspace's modules export name
// under (export { _null as null }, export { _regex as regex } from
// './api', export type { TypeOf as infer }).
func (s *session) exportedAs(name string) []string {
	if out, ok := s.aliasNames[name]; ok {
		return out
	}
	return s.exportedFrom(s.factsWith(s.files, []string{name}), name)
}

// exportedFrom is exportedAs, read from facts (the files holding name),
// computed once per name.
func (s *session) exportedFrom(facts []*fileFacts, name string) []string {
	if out, ok := s.aliasNames[name]; ok {
		return out
	}
	var out []string
	for _, f := range facts {
		for _, e := range f.exports {
			if e.Local == name && e.Name != name && !contains(out, e.Name) {
				out = append(out, e.Name)
			}
		}
	}
	s.aliasNames[name] = out
	return out
}

// aliasSites returns the call sites of name's export aliases (see
// callSitesOf) in TypeScript and JavaScript; none elsewhere.
func (s *session) aliasSites(name string) []site {
	if !s.main.spec.jsFamily() {
		return nil
	}
	return s.callSitesOf(name)
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
	st   status
	why  string   // why a name-only site was not resolved
	defs []defRef // the definitions the call binds to, when resolved
}

// callSitesFor returns, for each definition calling t (or, outside any,
// each file), its first resolved call of t, else its first name-only one;
// ordered by file and position. byDef keeps a caller's first resolved call
// of each definition of t it binds to (the callers of a bare name grouped
// by definition). untyped counts the calls of t's name on untyped values,
// left out (ReasonUntypedValue).
func (s *session) callSitesFor(t target, byDef bool) (out []match, untyped int) {
	type callerKey struct {
		f   *fileFacts
		def int
	}
	b := s.binder()
	idx := map[callerKey][]int{}
	judged := 0
	for _, st := range s.callSitesOf(t.name) {
		if s.stopAfter(&judged) {
			break
		}
		k := st.f.calls[st.i]
		status, why, defs := b.classifyBound(st.f, k, t)
		if byDef && status == nameOnly && why != ReasonDispatch && b.missesEach(st.f, k, t) {
			status, why = miss, "" // judged against each definition of the bare name, none keeps it
		}
		if k.Read && (status == nameOnly && why != ReasonDispatch || status == miss) {
			continue // a member read: listed only when types tie it, never counted
		}
		if status == miss {
			if why == ReasonUntypedValue {
				untyped++
			}
			continue
		}
		m := match{st, status, why, defs}
		key := callerKey{st.f, k.Caller}
		seen := idx[key]
		switch {
		case len(seen) == 0:
		case status != resolved:
			continue
		case out[seen[0]].st == nameOnly:
			out[seen[0]] = m
			continue
		case !byDef || sameBound(out, seen, defs, t):
			continue
		}
		idx[key] = append(seen, len(out))
		out = append(out, m)
	}
	return out, untyped
}

// missesEach reports whether call k of f, name-only for bare name t,
// is a miss judged against each of t's definitions alone (a mixin's
// super().init(...) that no definition's own answer keeps); false for a
// name with more than maxDispatchDefs definitions, which are not judged
// one by one.
func (b *binder) missesEach(f *fileFacts, k call, t target) bool {
	defs := b.targetDefs(t)
	if len(defs) < 2 || len(defs) > maxDispatchDefs {
		return false
	}
	for _, dr := range defs {
		if st, _, _ := b.classifyBound(f, k, target{name: t.name, exact: &dr}); st != miss {
			return false
		}
	}
	return true
}

// maxDispatchDefs bounds how many definitions of a bare name a dispatch
// site is judged against to find the one it may reach.
const maxDispatchDefs = 16

// dispatchesTo finds the one definition of asked (a bare name's) that
// call k of f, bound to a member it overrides or implements or to a
// sibling's, may reach by dispatch (Map.get in this.data_.get(k) reaching
// ObservableMap.get); ok is false when none or several may.
func (s *session) dispatchesTo(f *fileFacts, k call, sym string, asked []defRef) (defRef, bool) {
	if len(asked) > maxDispatchDefs {
		return defRef{}, false
	}
	b := s.binder()
	var out []defRef
	for _, dr := range asked {
		if st, why, _ := b.classifyBound(f, k, target{name: sym, exact: &dr}); st == nameOnly && why == ReasonDispatch {
			out = append(out, dr)
		}
	}
	if len(out) != 1 {
		return defRef{}, false
	}
	return out[0], true
}

// sameBound reports whether one of the matches at seen binds to the
// definition of t that defs hold.
func sameBound(out []match, seen []int, defs []defRef, t target) bool {
	dr, ok := boundTo(defs, t)
	for _, j := range seen {
		if x, okx := boundTo(out[j].defs, t); okx == ok && x == dr {
			return true
		}
	}
	return false
}

// callees lists the calls made by the definitions of sym (in owner, when
// set), and the calls of the functions those call up to depth. Chained
// subcalls are dropped: of two calls where one's source range holds the
// other's, only the outer one
// is listed.
func (s *session) callees(sym, owner string, depth, maxNodes int) []CallNode {
	roots := []*callNode{}
	visited := map[defKey]bool{}
	var level []pending
	tgt := s.target(sym, owner)
	for _, dr := range s.callableDefsOf(sym) {
		d := dr.f.defs[dr.i]
		if !tgt.matches(dr.f, dr.i) {
			continue
		}
		n := &callNode{CallNode: CallNode{Name: d.Name, Container: d.Container, File: dr.f.rel, Line: d.Line}}
		roots = append(roots, n)
		key := defKey{dr.f.rel, dr.i}
		visited[key] = true
		level = append(level, pending{node: n, name: sym, path: map[defKey]bool{key: true}, defs: []defRef{dr}})
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
					// A cycle calls a definition on the path: every one the
					// call may mean (those it binds to, else those of its
					// name) is there.
					if cands := orDefsOf(s, defs, k.Name); len(cands) > 0 && allOn(p.path, cands) {
						n.Cycle = true
						continue
					}
					next = append(next, pending{node: n, name: k.Name, path: p.path, defs: defs})
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
			var keys []defKey
			for _, dr := range cands {
				key := defKey{dr.f.rel, dr.i}
				if p.path[key] {
					continue // on the path: not expanded again
				}
				if visited[key] {
					p.node.Repeated = true
					continue
				}
				visited[key] = true
				fresh = append(fresh, dr)
				keys = append(keys, key)
			}
			if len(fresh) > 0 {
				p.node.Repeated = false
				p.defs = fresh
				p.path = withKey(p.path, keys...)
				level = append(level, p)
			}
		}
	}
	return exportNodes(roots)
}

// orDefsOf returns defs, else the callable definitions named name.
func orDefsOf(s *session, defs []defRef, name string) []defRef {
	if len(defs) > 0 {
		return defs
	}
	return s.callableDefsOf(name)
}

// allOn reports whether every one of defs is on path.
func allOn(path map[defKey]bool, defs []defRef) bool {
	for _, dr := range defs {
		if !path[defKey{dr.f.rel, dr.i}] {
			return false
		}
	}
	return true
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
		if !k.Literal && !k.Read && k.Start >= d.Start && k.End <= d.End {
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
