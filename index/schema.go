// Package index builds and queries loupe's project index: a repository's
// packages and their dependencies (package manifest) and the symbols of
// its source files (analysis.FileSymbols, on loupe's own grammars), in a
// SQLite database with FTS5 full-text search over package names,
// descriptions and paths and symbol names and signatures.
//
// Build creates or updates the database (incrementally: only files whose
// content changed are parsed again, in parallel; one transaction, so an
// interrupted build leaves the previous index as it was). Open opens it
// read-only for the queries the ten project-index tools answer.
//
// SQLite is github.com/ncruces/go-sqlite3 (no cgo, and it builds for
// GOOS=js; see RATIONALE.md). Under GOOS=js, where there are no file
// locks, a reader queries a consistent copy of the file in memory, an
// Updater writes that copy (update_js.go), and a build writes a private
// copy renamed into place (open_js.go), so the npm package and the CLI
// share one index file.
package index

import "path/filepath"

// DefaultPath is where the index of the repository at root lives unless
// told otherwise: root/.loupe/index.db.
func DefaultPath(root string) string { return filepath.Join(root, ".loupe", "index.db") }

// MetaTable is the table of the index's metadata (indexed_at,
// git_commit, package_count, …), one key and value per row.
const MetaTable = "loupe_meta"

// schemaVersion changes when the tables change; a build over an index of
// another version starts afresh.
const schemaVersion = "1"

// schema creates the tables. symbols_fts and packages_fts are
// external-content FTS5 tables kept in step by triggers.
const schema = `
CREATE TABLE loupe_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE packages(
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	path TEXT NOT NULL,
	kind TEXT NOT NULL,
	version TEXT NOT NULL,
	description TEXT NOT NULL,
	metadata TEXT NOT NULL,
	manifest TEXT NOT NULL
);
CREATE INDEX packages_name ON packages(name);
CREATE TABLE dependencies(
	package_id INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	version TEXT NOT NULL,
	kind TEXT NOT NULL,
	is_internal INTEGER NOT NULL
);
CREATE INDEX dependencies_package ON dependencies(package_id);
CREATE INDEX dependencies_name ON dependencies(name);
CREATE TABLE files(
	path TEXT PRIMARY KEY,
	language TEXT NOT NULL,
	size INTEGER NOT NULL,
	mtime INTEGER NOT NULL,
	hash TEXT NOT NULL,
	package TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE symbols(
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	kind TEXT NOT NULL,
	container TEXT NOT NULL,
	signature TEXT NOT NULL,
	package TEXT NOT NULL,
	file_path TEXT NOT NULL,
	line INTEGER NOT NULL,
	return_type TEXT NOT NULL,
	parameters TEXT NOT NULL
);
CREATE INDEX symbols_name ON symbols(name);
CREATE INDEX symbols_file ON symbols(file_path);
CREATE INDEX symbols_package ON symbols(package, file_path, line);
CREATE VIRTUAL TABLE symbols_fts USING fts5(name, signature, content='symbols', content_rowid='id');
CREATE TRIGGER symbols_ai AFTER INSERT ON symbols BEGIN
	INSERT INTO symbols_fts(rowid, name, signature) VALUES (new.id, new.name, new.signature);
END;
CREATE TRIGGER symbols_ad AFTER DELETE ON symbols BEGIN
	INSERT INTO symbols_fts(symbols_fts, rowid, name, signature) VALUES ('delete', old.id, old.name, old.signature);
END;
CREATE VIRTUAL TABLE packages_fts USING fts5(name, description, path, content='packages', content_rowid='id');
CREATE TRIGGER packages_ai AFTER INSERT ON packages BEGIN
	INSERT INTO packages_fts(rowid, name, description, path) VALUES (new.id, new.name, new.description, new.path);
END;
CREATE TRIGGER packages_ad AFTER DELETE ON packages BEGIN
	INSERT INTO packages_fts(packages_fts, rowid, name, description, path) VALUES ('delete', old.id, old.name, old.description, old.path);
END;
`
