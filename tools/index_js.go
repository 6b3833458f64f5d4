//go:build js

package tools

// indexTools is empty under GOOS=js: the project index's SQLite
// (modernc.org/sqlite) does not build there, so the npm package serves
// no project-index tools.
var indexTools []entry
