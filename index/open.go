//go:build !js

package index

import (
	"database/sql"
	"fmt"
	"os"
)

// writeQuery is the driver query of a build's opening of the database
// file: SQLite's own file locks keep readers of a file updated in place
// off a half-written transaction.
const writeQuery = "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_txlock=immediate"

// fileState is what tells that the index file at a path is no longer the
// one a handle has open: natively, another file (one renamed into place);
// one updated in place is read as it changes, under SQLite's locks.
type fileState struct{ fi os.FileInfo }

// stateOf reads the state of the file at path.
func stateOf(path string) (fileState, error) {
	fi, err := os.Stat(path)
	return fileState{fi}, err
}

// same reports whether s and o are the same file.
func (s fileState) same(o fileState) bool { return os.SameFile(s.fi, o.fi) }

// openRead opens the index file at path read-only, in place; drop, run
// after the database is closed, has nothing to free here, and there is
// no copy in memory (mem is "").
func openRead(path string) (db *sql.DB, drop func(), mem string, err error) {
	name, err := dsn(path, "mode=ro&_pragma=busy_timeout(10000)&_pragma=query_only(1)")
	if err != nil {
		return nil, nil, "", fmt.Errorf("opening the index: %w", err)
	}
	db, err = sql.Open(driverName, name)
	if err != nil {
		return nil, nil, "", fmt.Errorf("opening the index %s: %w", path, err)
	}
	return db, func() {}, "", nil
}

// track and untrack keep the open indexes known where an Updater writes
// the copy a DB reads (GOOS=js); natively an Updater opens the file.
func track(*DB)   {}
func untrack(*DB) {}

// writeTarget is the file a build writes: a new file renamed into place
// for a first build (staged), else the index itself, updated in place in
// one transaction.
func writeTarget(dbPath string, fresh bool) (path string, staged bool, err error) {
	if !fresh {
		return dbPath, false, nil
	}
	return stagingPath(dbPath), true, nil
}
