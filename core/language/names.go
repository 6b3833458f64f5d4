package language

import (
	"context"

	"github.com/loupe-dev/loupe/host"
)

// Names returns the grammar's symbol and field table, loading the grammar
// module if needed. Callers must not modify it.
func (l *Language) Names(ctx context.Context) (*host.Names, error) {
	if err := l.load(ctx); err != nil {
		return nil, err
	}
	return l.grammar.Names(), nil
}
