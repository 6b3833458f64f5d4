//go:build js

package index

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/ncruces/go-sqlite3/vfs/memdb"
)

// Under GOOS=js there are no file locks (Node's fs has none), so no
// database file another process may write is ever opened in place: a
// reader loads a consistent copy of the file into memory (memdb), and a
// build writes a private copy, renamed into place when committed. A
// query never sees a half-applied update, and a process killed during a
// build leaves the index as it was.

// writeQuery is the driver query of a build's opening of its private
// copy: no other process opens it, so it needs no locks; temporary files
// (a large statement's journal) stay in memory, since a browser's file
// system has no place for them (a build there failed with "disk I/O
// error" once symbols went in 256 rows a statement).
const writeQuery = "nolock=1&_pragma=foreign_keys(1)&_pragma=temp_store(memory)&_txlock=immediate"

// sqliteHeader is the size of a SQLite database's header; the file change
// counter, which each commit in place increments, is its bytes 24 to 27.
const (
	sqliteHeader  = 100
	changeCounter = 24
)

// snapshotTries bounds how many times a reader reads a file that changes
// while it reads before it gives up.
const snapshotTries = 5

// fileState tells that the index file changed: another file, or the same
// one written in place (its size, modification time or change counter).
type fileState struct {
	fi      os.FileInfo
	counter [4]byte
}

// stateOf reads the state of the file at path.
func stateOf(path string) (fileState, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileState{}, err
	}
	s := fileState{fi: fi}
	f, err := os.Open(path)
	if err != nil {
		return fileState{}, err
	}
	defer f.Close()
	if _, err := f.ReadAt(s.counter[:], changeCounter); err != nil && !errors.Is(err, io.EOF) {
		return fileState{}, err
	}
	return s, nil
}

// same reports whether s and o are the same file with the same content.
func (s fileState) same(o fileState) bool {
	return os.SameFile(s.fi, o.fi) && s.fi.Size() == o.fi.Size() && s.fi.ModTime().Equal(o.fi.ModTime()) && s.counter == o.counter
}

// snapshot reads the database file at path whole, as of one commit: no
// rollback journal beside it before or after the read (a writer creates
// one before it changes the file and removes it once committed) and the
// same size and change counter after as before. A WAL-mode file is read
// as of its last checkpoint (memdb takes it as a rollback-journal one).
func snapshot(path string) ([]byte, error) {
	journal := path + "-journal"
	for range snapshotTries {
		if _, err := os.Stat(journal); err == nil {
			continue
		}
		before, err := stateOf(path)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		after, err := stateOf(path)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(journal); err == nil || !before.same(after) || int64(len(data)) != after.fi.Size() {
			continue
		}
		if len(data) >= sqliteHeader && !bytes.Equal(data[changeCounter:changeCounter+4], after.counter[:]) {
			continue
		}
		return data, nil
	}
	return nil, fmt.Errorf("%w: %s changed while it was read, or a journal (%s) is beside it; try again once the update is done (a journal left by a killed build is rolled back by the next loupe index)", errBusy, path, journal)
}

// memSeq names the in-memory databases.
var memSeq atomic.Int64

// openRead opens a consistent copy of the index file at path, in
// memory, named mem; drop frees that memory once the database is closed.
// Queries wait for a batch an Updater is writing to the copy.
func openRead(path string) (db *sql.DB, drop func(), mem string, err error) {
	data, err := snapshot(path)
	if err != nil {
		return nil, nil, "", fmt.Errorf("opening the index: %w", err)
	}
	mem = fmt.Sprintf("loupe-index-%d", memSeq.Add(1))
	memdb.Create(mem, data)
	db, err = sql.Open(driverName, "file:/"+mem+"?vfs=memdb&mode=ro&_pragma=busy_timeout(10000)&_pragma=query_only(1)")
	if err != nil {
		memdb.Delete(mem)
		return nil, nil, "", fmt.Errorf("opening the index %s: %w", path, err)
	}
	return db, func() { memdb.Delete(mem) }, mem, nil
}

// openIndexes are the indexes open in this process by their files' paths: an
// Updater writes the copy in memory the queries of its file's DB read.
var (
	openMu      sync.Mutex
	openIndexes = map[string]*DB{}
)

// track records d as the open index of its file.
func track(d *DB) {
	openMu.Lock()
	defer openMu.Unlock()
	openIndexes[absPath(d.path)] = d
}

// untrack forgets d once closed.
func untrack(d *DB) {
	openMu.Lock()
	defer openMu.Unlock()
	if p := absPath(d.path); openIndexes[p] == d {
		delete(openIndexes, p)
	}
}

// tracked is the open index of the file at path, if any.
func tracked(path string) *DB {
	openMu.Lock()
	defer openMu.Unlock()
	return openIndexes[absPath(path)]
}

// absPath is path made absolute and clean, as the indexes are known.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// writeTarget is the file a build writes: always a private copy of the
// index (a consistent one, or none for a first build), renamed into place
// once committed.
func writeTarget(dbPath string, fresh bool) (path string, staged bool, err error) {
	path = stagingPath(dbPath)
	if fresh {
		return path, true, nil
	}
	data, err := snapshot(dbPath)
	if err != nil {
		return "", false, fmt.Errorf("index: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", false, fmt.Errorf("index: %w", err)
	}
	return path, true, nil
}
