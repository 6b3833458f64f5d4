package language

import (
	"context"

	"github.com/loupe-dev/loupe/host"
)

// Names returns the grammar's symbol and field table, loading the grammar
// module if needed. Callers must not modify it.
func (l *Language) Names(ctx context.Context) (*host.Names, error) {
	s, err := l.load(ctx)
	if err != nil {
		return nil, err
	}
	return s.grammar.Names(), nil
}
