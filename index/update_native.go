//go:build !js

package index

import (
	"context"
	"fmt"
	"os"
)

// store is the file an Updater's connection has open.
type store struct{ file os.FileInfo }

// NewUpdater opens the index of opts.Root (at opts.DB, else the default
// path) for updates. The index must exist (an error wrapping ErrNoIndex
// otherwise: build it first). opts.Progress, when set, hears the files
// of each batch written, inside its transaction.
func NewUpdater(opts Options) (*Updater, error) {
	root, dbPath, err := opts.paths()
	if err != nil {
		return nil, err
	}
	u := &Updater{root: root, dbPath: dbPath, progress: opts.Progress, applied: make(chan struct{})}
	if err := u.open(); err != nil {
		return nil, err
	}
	return u, nil
}

// open opens the database file for updates, in write-ahead logging.
func (u *Updater) open() error {
	dbPath := u.dbPath
	fi, err := os.Stat(dbPath)
	if err != nil {
		return fmt.Errorf("%w at %s: %w", ErrNoIndex, dbPath, err)
	}
	db, err := openWrite(dbPath)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if !current(ctx, db) {
		db.Close()
		return fmt.Errorf("%w at %s: not a loupe index of this version (run loupe index again)", ErrNoIndex, dbPath)
	}
	// Readers go on reading while a batch is written; the mode stays with
	// the file.
	// A commit in WAL mode with synchronous=NORMAL is not synced to disk
	// at once: a killed process loses nothing committed, and a power cut
	// at most the last batches, never the index's consistency.
	for _, pragma := range []string{"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL"} {
		if _, err := db.ExecContext(ctx, pragma); err != nil {
			db.Close()
			return fmt.Errorf("index: %s: %s: %w", dbPath, pragma, err)
		}
	}
	u.db, u.store = db, store{fi}
	u.dirs, u.owners, u.stamps = nil, nil, nil
	return nil
}

// reopen opens the file at the index's path again when it is not the one
// open (an index built afresh is renamed into place); u.mu is held.
func (u *Updater) reopen() error {
	fi, err := os.Stat(u.dbPath)
	if err != nil || os.SameFile(fi, u.store.file) {
		return nil // gone: the one open is the last index there was
	}
	old := u.db
	if err := u.open(); err != nil {
		return err
	}
	old.Close()
	return nil
}

// Close closes the database connection, after the batch under way.
func (u *Updater) Close() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if err := u.db.Close(); err != nil {
		return fmt.Errorf("index: closing %s: %w", u.dbPath, err)
	}
	return nil
}

// checkpoint moves a committed batch from the write-ahead log into the
// file: a reader that copies the file whole (the npm package, which has
// no file locks) sees what the file holds, not the log. What readers in
// flight hold back stays in the log until the next batch's checkpoint or
// the last close.
func (u *Updater) checkpoint(ctx context.Context) error {
	if _, err := u.db.ExecContext(context.WithoutCancel(ctx), "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
		return fmt.Errorf("index: checkpoint of %s: %w", u.dbPath, err)
	}
	return nil
}

// refresh brings the whole index up to date as Build does, as an update
// (indexed_at stays; nothing is written when nothing changed); u.mu is
// held.
func (u *Updater) refresh(ctx context.Context) (*Stats, error) {
	st, err := build(ctx, Options{Root: u.root, DB: u.dbPath, Progress: u.progress}, true)
	u.dirs, u.owners, u.stamps = nil, nil, nil
	return st, err
}
