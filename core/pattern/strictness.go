package pattern

import (
	"fmt"

	"github.com/loupe-dev/loupe/core/tree"
)

// Strictness says which nodes of a candidate a pattern may skip, as
// ast-grep's strictness levels do. The zero value is Smart, the default.
type Strictness int

// The strictness levels, from ast-grep.
const (
	// Smart matches every pattern node; the candidate may have extra
	// anonymous tokens and comments that the pattern does not spell out.
	Smart Strictness = iota
	// Cst matches every node of pattern and candidate, tokens included.
	Cst
	// Ast matches named nodes only; anonymous tokens on either side are
	// skipped, comments are not.
	Ast
	// Relaxed is Ast that also skips comments.
	Relaxed
	// Signature is Relaxed that compares the kinds of leaves, not their text.
	Signature
	// Template is Smart that ignores the kinds of inner nodes and compares
	// leaves by text.
	Template
)

var strictnessNames = [...]string{Smart: "smart", Cst: "cst", Ast: "ast", Relaxed: "relaxed", Signature: "signature", Template: "template"}

// String returns the level's name as ast-grep spells it, e.g. "smart".
func (s Strictness) String() string {
	if s < 0 || int(s) >= len(strictnessNames) {
		return fmt.Sprintf("Strictness(%d)", int(s))
	}
	return strictnessNames[s]
}

// ParseStrictness reads a level name: cst, smart, ast, relaxed, signature
// or template.
func ParseStrictness(s string) (Strictness, error) {
	for i, name := range strictnessNames {
		if s == name {
			return Strictness(i), nil
		}
	}
	return Smart, fmt.Errorf("invalid strictness %q: valid levels are cst, smart, ast, relaxed, signature, template", s)
}

// skipsComments reports whether the level lets comments (extras) of the
// candidate go unmatched.
func (s Strictness) skipsComments() bool {
	return s != Cst && s != Ast
}

// skipsTrailing reports whether candidate children left over after the
// last pattern child may be ignored.
func (s Strictness) skipsTrailing(c tree.Node) bool {
	switch s {
	case Cst:
		return false
	case Smart:
		return true
	case Ast:
		return !c.IsNamed()
	case Relaxed, Signature:
		return !c.IsNamed() || c.IsExtra()
	default: // Template
		return c.IsExtra()
	}
}

// skipsGoal reports whether a pattern child left over when the candidate's
// children ran out may be ignored.
func (s Strictness) skipsGoal(g *node) bool {
	switch s {
	case Cst:
		return false
	case Smart, Template:
		return g.isEllipsis()
	default: // Ast, Relaxed, Signature
		switch g.kind {
		case metaVarNode:
			return g.isEllipsis() || !g.named
		case terminalNode:
			return !g.named
		}
		return false
	}
}
