package language

import (
	"context"
	"sync/atomic"

	"github.com/loupe-dev/loupe/host"
)

// Names returns the grammar's symbol and field table, from the name
// store for a built-in language whose module is not loaded yet (see
// SetNameStore), else loading the grammar module if needed. Callers must
// not modify it.
func (l *Language) Names(ctx context.Context) (*host.Names, error) {
	s, err := l.index(ctx)
	if err != nil {
		return nil, err
	}
	return s.names, nil
}

// A NameStore keeps grammars' name tables across processes (a tree cache
// does, treecache.Store), by the SHA-256 of the module, so that a process
// whose trees come from a tree cache need not load the grammar module to
// know the names they use.
type NameStore interface {
	// LoadNames returns the table saved for the module whose hash is
	// grammar, or false.
	LoadNames(grammar string) (*host.Names, bool)
	// SaveNames saves the table of the module whose hash is grammar.
	SaveNames(grammar string, names *host.Names) error
}

var nameStore atomic.Pointer[NameStore]

// SetNameStore makes s the name store of built-in languages (nil: none).
// A language whose module is not loaded takes its names from s, and a
// module loaded saves its names there.
func SetNameStore(s NameStore) {
	if s == nil {
		nameStore.Store(nil)
		return
	}
	nameStore.Store(&s)
}

func currentNameStore() NameStore {
	if p := nameStore.Load(); p != nil {
		return *p
	}
	return nil
}
