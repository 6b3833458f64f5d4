// Package match holds what every matcher shares: the Matcher interface,
// the metavariable environment a match fills, and kind sets used to skip
// nodes (and files) that cannot match. Patterns (core/pattern) and YAML
// rules (core/rule) both implement Matcher.
package match

import (
	"github.com/loupe-dev/loupe/core/tree"
)

// Matcher decides whether a node matches.
type Matcher interface {
	// Match reports whether n matches, binding metavariables in env. When
	// it returns false, env is exactly as it was before the call.
	Match(n tree.Node, env *Env) bool
	// Kinds returns the node kinds a match can have, or nil when any kind
	// may match. Searches use it to skip nodes without calling Match.
	Kinds() KindSet
}

// KindSet is a set of grammar symbol ids. A nil KindSet means "any kind".
type KindSet []uint64

// NewKindSet returns a set holding ids.
func NewKindSet(ids ...uint16) KindSet {
	var s KindSet
	for _, id := range ids {
		s = s.With(id)
	}
	if s == nil {
		s = KindSet{}
	}
	return s
}

// With returns s with id added; s itself may be modified.
func (s KindSet) With(id uint16) KindSet {
	w := int(id) / 64
	for len(s) <= w {
		s = append(s, 0)
	}
	s[w] |= 1 << (id % 64)
	return s
}

// Has reports whether id is in s; a nil s has every id.
func (s KindSet) Has(id uint16) bool {
	if s == nil {
		return true
	}
	w := int(id) / 64
	return w < len(s) && s[w]&(1<<(id%64)) != 0
}

// Union returns the ids in either set (nil if either is nil).
func Union(a, b KindSet) KindSet {
	if a == nil || b == nil {
		return nil
	}
	out := make(KindSet, max(len(a), len(b)))
	copy(out, a)
	for i, w := range b {
		out[i] |= w
	}
	return out
}

// Intersect returns the ids in both sets (the other one if either is nil).
func Intersect(a, b KindSet) KindSet {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := make(KindSet, min(len(a), len(b)))
	for i := range out {
		out[i] = a[i] & b[i]
	}
	return out
}
