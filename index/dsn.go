package index

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// dsn is the SQLite data source name of the database file at path with
// the driver's query (the driver opens it as a URI). The path is
// made absolute and percent-escaped: unescaped, a # would end it (a
// workspace named notes.db#ws would write into a sibling notes.db), a ?
// would start the query, and a % begin an escape.
func dsn(path, query string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("the database path %s: %w", path, err)
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/...
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: query}
	return u.String(), nil
}
