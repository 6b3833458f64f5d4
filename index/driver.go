package index

import (
	"github.com/ncruces/go-sqlite3"
	// The database/sql driver "sqlite3".
	_ "github.com/ncruces/go-sqlite3/driver"
	"github.com/ncruces/go-sqlite3/ext/fts5"
)

// driverName is the database/sql driver the index opens its files with:
// github.com/ncruces/go-sqlite3, SQLite compiled to wasm and translated
// to Go, which builds for every target loupe has, GOOS=js included (see
// RATIONALE.md, "One SQLite for every face").
const driverName = "sqlite3"

// FTS5 is an extension of that build: every connection registers it.
func init() { sqlite3.AutoExtension(fts5.Register) }
