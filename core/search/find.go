package search

import (
	"context"
	"fmt"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// Match is one match: the matched node and its metavariable bindings.
type Match struct {
	Node tree.Node
	Env  *match.Env
	// Lang is the language of the code matched: the file's, or that of
	// the injected region the match is in. Search and FindFile set it;
	// FindAll leaves it nil.
	Lang *language.Language
}

// checkEvery is how many nodes FindAll visits between looks at ctx.
const checkEvery = 4096

// FindAll returns every node of t that m matches, in pre-order (document
// order, an outer node before the nodes inside it; nested matches are all
// reported, as ast-grep's run does). Nodes whose kind is not in m.Kinds()
// are skipped without calling Match. It stops with ctx's error when ctx
// is done, also in the middle of one node's match, and with an error
// wrapping match.ErrBudget when a match goes over the limits ctx carries
// (match.WithLimits; defaults otherwise).
func FindAll(ctx context.Context, t *tree.Tree, m match.Matcher) ([]Match, error) {
	kinds := m.Kinds()
	budget := match.NewBudget(ctx)
	env := match.NewEnv(budget)
	var out []Match
	done := ctx.Done()
	// The records are read directly: most nodes are of a kind the
	// matcher cannot start at, and are passed over by their symbol alone.
	records := t.Nodes()
	for i := range records {
		if i%checkEvery == checkEvery-1 && done != nil {
			select {
			case <-done:
				return out, fmt.Errorf("match: %w", ctx.Err())
			default:
			}
		}
		if !kinds.Has(records[i].Symbol) {
			continue
		}
		node := t.Node(i)
		budget.Begin()
		if m.Match(node, env) {
			out = append(out, Match{Node: node, Env: env.Clone()})
			env.Reset()
		}
		if err := budget.Err(); err != nil {
			return out, fmt.Errorf("match at line %d: %w", node.StartPoint().Row+1, err)
		}
	}
	return out, nil
}
