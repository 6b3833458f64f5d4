//go:build js

package tools

import "context"

// indexTools is empty under GOOS=js: the project index's SQLite
// (modernc.org/sqlite) does not build there, so the npm package serves
// no project-index tools.
var indexTools []entry

// afterWrite has no project index to keep under GOOS=js.
func afterWrite(context.Context, Config, string) error { return nil }
