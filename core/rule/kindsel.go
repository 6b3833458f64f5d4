package rule

import (
	"context"
	"fmt"

	"github.com/loupe-dev/loupe/core/language"
)

// ParseKind compiles an ESQuery-style kind selector for lang, as
// `ast-grep run --kind` does: a kind name ("call_expression"), combined
// with the combinators " " (descendant), ">" (child), "+" (next sibling)
// and "~" (later sibling), the pseudo-classes :has(), :not(), :is(),
// :nth-child() and :nth-last-child(), and "," for alternatives. It is the
// syntax a rule's `kind` accepts, and matches the same nodes. An empty
// selector matches nothing, as in ast-grep.
//
// The error of a bad selector says what is wrong in one line (an unknown
// kind, an unexpected token, an unknown pseudo-class), without the
// selector itself.
func ParseKind(ctx context.Context, lang *language.Language, selector string) (*Core, error) {
	c, err := newCompiler(ctx, lang, newRegistry(nil))
	if err != nil {
		return nil, fmt.Errorf("load the %s grammar's kinds: %w", lang.Display(), err)
	}
	m, err := c.parseSelector(selector)
	if err != nil {
		return nil, err
	}
	return &Core{lang: lang, rule: m, reg: c.reg, ks: m.kinds(), constraints: map[string]matcher{}}, nil
}
