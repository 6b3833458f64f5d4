//go:build js

package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Under GOOS=js there are no file locks, so an Updater never writes the
// index file another process may read or write: it writes the copy in
// memory that the index's DB answers queries from (openRead), per file
// as natively, one transaction per batch. The file stays as the last
// build left it; the changes reach it with the next `loupe index` or a
// server's pass, and a process that opens it again catches up with its
// first stat pass. When the file changes (another process updated it),
// the DB reads the new copy and the Updater writes that one, its first
// pass bringing it up to date with the tree again.

// store is the copy of the index an Updater writes: the current copy of
// d, held (a use of d) until the Updater moves to another.
type store struct {
	d   *DB
	own bool // d was opened by the Updater, which closes it
	h   *handle
}

// NewUpdater opens the index of opts.Root (at opts.DB, else the default
// path) for updates. The index must exist (an error wrapping ErrNoIndex
// otherwise: build it first). The updates go to the copy in memory the
// process's open DB of that file reads (one is opened when none is).
func NewUpdater(opts Options) (*Updater, error) {
	root, dbPath, err := opts.paths()
	if err != nil {
		return nil, err
	}
	u := &Updater{root: root, dbPath: dbPath, progress: opts.Progress, applied: make(chan struct{})}
	d, own := tracked(dbPath), false
	if d == nil {
		if d, err = Open(dbPath); err != nil {
			return nil, err
		}
		own = true
	}
	u.store = store{d: d, own: own}
	if err := u.open(); err != nil {
		if own {
			d.Close()
		}
		return nil, err
	}
	return u, nil
}

// open opens a connection on the copy the DB reads now, in place of the
// one open.
func (u *Updater) open() error {
	h, err := u.store.d.acquire()
	if err != nil {
		return err
	}
	db, err := sql.Open(driverName, "file:/"+h.mem+"?vfs=memdb&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=temp_store(memory)&_txlock=immediate")
	if err != nil {
		u.store.d.release(h)
		return fmt.Errorf("index: opening the copy of %s: %w", u.dbPath, err)
	}
	db.SetMaxOpenConns(1)
	if u.db != nil {
		u.db.Close()
		u.store.d.release(u.store.h)
	}
	u.db, u.store.h = db, h
	u.dirs, u.owners, u.stamps = nil, nil, nil
	return nil
}

// reopen moves to the copy the DB reads now when it read the file anew
// (another process changed it); u.mu is held.
func (u *Updater) reopen() error {
	h, err := u.store.d.acquire()
	if err != nil {
		return err
	}
	u.store.d.release(h)
	if h == u.store.h {
		return nil
	}
	return u.open()
}

// Close closes the connection, after the batch under way, and the DB
// when the Updater opened it.
func (u *Updater) Close() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	err := u.db.Close()
	u.store.d.release(u.store.h)
	if u.store.own {
		err = errors.Join(err, u.store.d.Close())
	}
	if err != nil {
		return fmt.Errorf("index: closing %s: %w", u.dbPath, err)
	}
	return nil
}

// checkpoint has nothing to do: the copy in memory keeps no log.
func (u *Updater) checkpoint(context.Context) error { return nil }

// refresh brings the whole copy up to date with the tree as Build does,
// as an update (indexed_at stays; nothing is written when nothing
// changed); u.mu is held.
func (u *Updater) refresh(ctx context.Context) (*Stats, error) {
	start := time.Now()
	if err := u.reopen(); err != nil {
		return nil, err
	}
	st := &Stats{DB: u.dbPath}
	t, err := scan(ctx, u.root, st)
	if err != nil {
		return nil, err
	}
	if _, err := t.write(ctx, u.db, st, u.progress, false, true); err != nil {
		return nil, err
	}
	u.dirs, u.owners, u.stamps = nil, nil, nil
	st.Duration = time.Since(start)
	return st, nil
}

// ErrNoWatch is Watch's error where the platform has no file watching.
var ErrNoWatch = errors.New("index: file watching is not available under GOOS=js")

// Watcher would apply the changes others make to a tree as they happen;
// under GOOS=js there is none (Watch fails with ErrNoWatch): a stat pass
// (Poll) before each query stands in for it.
type Watcher struct{}

// Watch fails with ErrNoWatch under GOOS=js.
func Watch(u *Updater, report func(*Stats, error)) (*Watcher, error) { return nil, ErrNoWatch }

// Close does nothing: no Watcher is ever started under GOOS=js.
func (w *Watcher) Close() error { return nil }
