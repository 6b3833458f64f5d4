//go:build js

package index

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loupe-dev/loupe/core/search"
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
	// last is the tree as the last batch began (nil before the first),
	// and racy is set when a file of it had been modified too recently
	// for its stamp to tell a later change of the same size.
	last map[string]stamp
	racy bool
}

// stamp is what a stat pass compares of a file.
type stamp struct{ size, mtime int64 }

// racyWindow is how recent a modification makes a stamp untrustworthy
// (file systems keep coarse times; git takes the same care).
const racyWindow = 2 * time.Second

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
	return u.batch(ctx, true)
}

// Poll is the stat pass that stands in for watching: the tree is listed
// and each file's size and modification time compared with the last
// batch's; only a difference (or a stamp too recent to trust) runs a
// Refresh.
func (u *Updater) Poll(ctx context.Context) (*Stats, error) {
	return u.batch(ctx, false)
}

// batch lists the tree and, when always is set or it differs from the
// last batch's listing, builds.
func (u *Updater) batch(ctx context.Context, always bool) (*Stats, error) {
	u.pending.Add(1)
	defer u.pending.Add(-1)
	u.mu.Lock()
	defer u.mu.Unlock()
	now, racy, err := u.list(ctx)
	if err != nil {
		return nil, err
	}
	if !always && u.last != nil && !u.racy && maps.Equal(now, u.last) {
		return &Stats{DB: u.dbPath}, nil
	}
	st, err := Build(ctx, u.opts)
	if err != nil {
		return nil, err
	}
	u.last, u.racy = now, racy
	return st, nil
}

// list stamps the files a build would walk.
func (u *Updater) list(ctx context.Context) (map[string]stamp, bool, error) {
	files, _, err := search.Files(ctx, search.Options{Root: u.root, AllFiles: true, MaxFileSize: search.DefaultMaxFileSize})
	if err != nil {
		return nil, false, fmt.Errorf("index: listing %s: %w", u.root, err)
	}
	recent := time.Now().Add(-racyWindow).UnixNano()
	racy := false
	stamps := make(map[string]stamp, len(files))
	for _, f := range files {
		if inSkippedDir(f.Path) {
			continue
		}
		fi, err := os.Stat(f.Abs)
		if err != nil {
			continue // gone since the walk: the build sees it so
		}
		s := stamp{fi.Size(), fi.ModTime().UnixNano()}
		racy = racy || s.mtime >= recent
		stamps[f.Path] = s
	}
	return stamps, racy, nil
}

// ErrNoWatch is Watch's error where the platform has no file watching.
var ErrNoWatch = errors.New("index: file watching is not available under GOOS=js")

// Watcher would apply the changes others make to a tree as they happen;
// under GOOS=js there is none (Watch fails with ErrNoWatch), and a
// server runs Poll before each query instead.
type Watcher struct{}

// Watch fails with ErrNoWatch under GOOS=js.
func Watch(u *Updater, report func(*Stats, error)) (*Watcher, error) { return nil, ErrNoWatch }

// Close does nothing: no Watcher is ever started under GOOS=js.
func (w *Watcher) Close() error { return nil }
