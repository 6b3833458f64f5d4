package astgrep

import (
	"context"
	"errors"

	"github.com/loupe-dev/loupe/core/language"
)

func compileRule(ctx context.Context, lang *language.Language, rule any) (*query, error) {
	return nil, errors.New("ast_grep: rules are not available yet")
}
