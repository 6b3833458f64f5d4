//go:build loupe_modernc

package index

// The database/sql driver "sqlite", with FTS5.
import _ "modernc.org/sqlite"

// driverName under the loupe_modernc tag is modernc.org/sqlite, kept only
// to measure it against the default driver (RATIONALE.md).
const driverName = "sqlite"
