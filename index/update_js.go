//go:build js

package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// Updater is the one writer that keeps an index up with its tree. Under
// GOOS=js there are no file locks, so no file is updated in place: each
// batch is a Build, which keeps the rows of every file whose size and
// modification time are unchanged, writes a private copy and renames it
// into place. A reader never sees half a batch, and a process killed
// during one leaves the index as it was.
type Updater struct {
	opts         Options
	root, dbPath string

	mu      sync.Mutex // held for a batch
	pending atomic.Int32
}

// NewUpdater opens the index of opts.Root (at opts.DB, else the default
// path) for updates. The index must exist (an error wrapping ErrNoIndex
// otherwise: build it first).
func NewUpdater(opts Options) (*Updater, error) {
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	dbPath := opts.DB
	if dbPath == "" {
		dbPath = DefaultPath(root)
	}
	if _, err := os.Stat(dbPath); err != nil {
		return nil, fmt.Errorf("%w at %s: %w", ErrNoIndex, dbPath, err)
	}
	opts.Root, opts.DB = root, dbPath
	return &Updater{opts: opts, root: root, dbPath: dbPath}, nil
}

// Root is the repository's root directory.
func (u *Updater) Root() string { return u.root }

// Path is the database file.
func (u *Updater) Path() string { return u.dbPath }

// Close waits for the batch under way; there is no connection to close.
func (u *Updater) Close() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	return nil
}

// Updating reports whether a batch is waiting or being applied.
func (u *Updater) Updating() bool { return u.pending.Load() > 0 }

// Update brings the index up to date for the given paths; under GOOS=js
// that is the whole tree, as Refresh does, at the cost of a stat of each
// file and a parse of those changed.
func (u *Updater) Update(ctx context.Context, paths []string) (*Stats, error) {
	return u.Refresh(ctx)
}

// Refresh brings the whole index up to date as Build does.
func (u *Updater) Refresh(ctx context.Context) (*Stats, error) {
	u.pending.Add(1)
	defer u.pending.Add(-1)
	u.mu.Lock()
	defer u.mu.Unlock()
	return Build(ctx, u.opts)
}

// Poll is the stat pass that stands in for watching: under GOOS=js, a
// Refresh (Build itself parses only the files whose size or time moved).
func (u *Updater) Poll(ctx context.Context) (*Stats, error) { return u.Refresh(ctx) }

// ErrNoWatch is Watch's error where the platform has no file watching.
var ErrNoWatch = errors.New("index: file watching is not available under GOOS=js")

// Watcher would apply the changes others make to a tree as they happen;
// under GOOS=js there is none (Watch fails with ErrNoWatch).
type Watcher struct{}

// Watch fails with ErrNoWatch under GOOS=js.
func Watch(u *Updater, report func(*Stats, error)) (*Watcher, error) { return nil, ErrNoWatch }

// Close does nothing: no Watcher is ever started under GOOS=js.
func (w *Watcher) Close() error { return nil }
