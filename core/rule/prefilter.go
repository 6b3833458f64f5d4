package rule

// Alternative is texts a file holds all of when one way of matching a rule
// is possible in it: Literals as substrings, and Words (among the
// Literals) as whole words at least once (see pattern.Pattern.WordLiterals).
type Alternative struct {
	Literals, Words []string
}

// Requirement is a condition on a file's bytes that holds in every file
// where a rule can match: each of its clauses holds, a clause holding when
// one of its alternatives does. A file where it does not hold need not be
// parsed. It is only ever weaker than the rule (a rule part it cannot read
// as texts, such as kind, regex or not, requires nothing), so an empty
// requirement holds everywhere.
type Requirement [][]Alternative

// Requirement returns what a file must hold for the core to match in it:
// the texts of the patterns its rule needs, through all, any, relational
// rules and utilities. Constraints are left out (they only narrow).
func (c *Core) Requirement() Requirement {
	return requirement(c.rule, map[any]bool{})
}

// Requirement returns what a file must hold for the rule to match in it.
func (c *Config) Requirement() Requirement { return c.Core.Requirement() }

// requirement reads m; seen guards against utilities that refer to
// themselves.
func requirement(m matcher, seen map[any]bool) Requirement {
	switch m := m.(type) {
	case *patternM:
		if lits := m.p.Literals(); len(lits) > 0 {
			return Requirement{{{Literals: lits, Words: m.p.WordLiterals()}}}
		}
	case *allM:
		var out Requirement
		for _, r := range m.rules {
			out = append(out, requirement(r, seen)...)
		}
		return out
	case *anyM:
		return anyRequirement(m.rules, seen)
	case *insideM:
		// The related node is in the same file, so what its rule
		// needs, the file holds.
		return requirement(m.outer, seen)
	case *hasM:
		return requirement(m.inner, seen)
	case *siblingM:
		return requirement(m.other, seen)
	case *localRef:
		if m.u.m == nil || seen[m.u] {
			return nil
		}
		seen[m.u] = true
		defer delete(seen, m.u)
		return requirement(m.u.m, seen)
	case *globalRef:
		return globalRequirement(m.u, seen)
	case *callM:
		return globalRequirement(m.u, seen)
	}
	return nil
}

func globalRequirement(u *globalUtil, seen map[any]bool) Requirement {
	if u.core == nil || seen[u] {
		return nil
	}
	seen[u] = true
	defer delete(seen, u)
	return requirement(u.core.rule, seen)
}

// anyRequirement is one clause with an alternative for each sub-rule:
// the conjunction of a sub-rule's single-alternative clauses, or else the
// alternatives of its first clause. A sub-rule that requires nothing
// makes the whole requirement empty.
func anyRequirement(rules []matcher, seen map[any]bool) Requirement {
	var clause []Alternative
	for _, r := range rules {
		req := requirement(r, seen)
		if len(req) == 0 {
			return nil
		}
		var all Alternative
		for _, c := range req {
			if len(c) == 1 {
				all.Literals = append(all.Literals, c[0].Literals...)
				all.Words = append(all.Words, c[0].Words...)
			}
		}
		if len(all.Literals) > 0 {
			clause = append(clause, all)
		} else {
			clause = append(clause, req[0]...)
		}
	}
	if len(clause) == 0 {
		return nil
	}
	return Requirement{clause}
}
