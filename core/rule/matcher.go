package rule

import (
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// matcher is a compiled rule node. match returns the node the match is
// about: the input node for most rules, but the related node for a bare
// relational rule (ast-grep labels that node). On false, env is unchanged.
type matcher interface {
	match(n tree.Node, env *match.Env, ec *evalCtx) (tree.Node, bool)
	// kinds returns the kinds a matching node can have; nil means any.
	kinds() match.KindSet
	// vars adds the metavariables the rule can bind to set.
	vars(set map[string]bool)
}

// evalCtx carries the state of parameterized utility calls through a
// match: the argument rules bound by the innermost call and the
// environment that collects the variables argument rules export.
type evalCtx struct {
	frame  *frame
	export *match.Env
}

type frame struct {
	args   map[string]matcher
	parent *frame
}

// secondaryLabel is the multi-variable under which relational rules record
// the nodes they related the match to, as ast-grep does.
const secondaryLabel = SecondaryLabel

// SecondaryLabel is the multi-metavariable under which relational rules
// record the nodes they related a match to. ast-grep's JSON shows it among
// the metavariables; it is not one a rule's author wrote.
const SecondaryLabel = "secondary"

// addLabel appends n to the secondary labels of env.
func addLabel(env *match.Env, n tree.Node) {
	old, _ := env.Multi(secondaryLabel)
	labels := make([]tree.Node, len(old), len(old)+1)
	copy(labels, old)
	env.BindMulti(secondaryLabel, append(labels, n))
}

// bindSingle binds name to n unless name already holds a different node.
func bindSingle(env *match.Env, name string, n tree.Node) bool {
	if old, ok := env.Single(name); ok && !match.SameNode(old, n) {
		return false
	}
	env.BindSingle(name, n)
	return true
}

// bindMulti binds name to ns unless name already holds different nodes.
func bindMulti(env *match.Env, name string, ns []tree.Node) bool {
	if old, ok := env.Multi(name); ok && !match.SameNodes(old, ns) {
		return false
	}
	env.BindMulti(name, ns)
	return true
}

// exportVars copies the named variables from one environment to another,
// failing (and leaving to unchanged) on a conflicting binding.
func exportVars(from, to *match.Env, names []string) bool {
	mark := to.Mark()
	for _, name := range names {
		if n, ok := from.Single(name); ok {
			if !bindSingle(to, name, n) {
				to.Rollback(mark)
				return false
			}
			continue
		}
		if ns, ok := from.Multi(name); ok && len(ns) > 0 {
			if !bindMulti(to, name, ns) {
				to.Rollback(mark)
				return false
			}
			continue
		}
		if s, ok := from.Transformed(name); ok {
			to.SetTransformed(name, s)
		}
	}
	return true
}
