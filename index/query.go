package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// ErrEmptyQuery is a search for nothing (an empty or blank query).
var ErrEmptyQuery = errors.New("Search query must not be empty")

// ErrNULQuery is a search for text with a NUL character, which no
// indexed name or text holds and FTS5 cannot take.
var ErrNULQuery = errors.New("Search query must not contain a NUL character (\\u0000)")

// errBusy is an index file that could not be read as of one commit: it
// was being written. Only a reader that copies the file (GOOS=js, where
// there are no file locks) meets it; a query then uses the copy it has.
var errBusy = errors.New("the index is being updated")

// ErrNoIndex is the error of Open when there is no index at the path.
var ErrNoIndex = errors.New("no project index")

// Limits of the searches.
const (
	MaxPackageResults = 20
	MaxSymbolResults  = 50
	// MaxGraphDepth bounds DependencyGraph's depth.
	MaxGraphDepth = 20
	// DefaultGraphDepth is DependencyGraph's depth when none is given.
	DefaultGraphDepth = 3
)

// DB is an index opened read-only. Before each query it checks that the
// file at its path is still the one it has open: an index built afresh
// is renamed into place, a new file, which it then opens instead (one
// rebuilt in place is the same file, read as it changes).
type DB struct {
	path string

	mu  sync.Mutex
	cur *handle // the file open now
}

// handle is one opening of the index file, closed once it is replaced
// and no query uses it.
type handle struct {
	db      *sql.DB
	drop    func() // frees what the opening holds, once db is closed
	mem     string // the in-memory copy db reads (GOOS=js), else ""
	file    fileState
	users   int
	retired bool
}

// close closes the database and frees what its opening holds.
func (h *handle) close() {
	h.db.Close()
	h.drop()
}

// Open opens the index at path read-only. A missing file is an error
// wrapping ErrNoIndex (and fs.ErrNotExist); so is a database that is not
// a loupe index.
func Open(path string) (*DB, error) {
	h, err := openHandle(path)
	if err != nil {
		return nil, err
	}
	d := &DB{path: path, cur: h}
	track(d)
	return d, nil
}

// openHandle opens the file at path, checking it is a loupe index of
// this version.
func openHandle(path string) (*handle, error) {
	fi, err := stateOf(path)
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %w", ErrNoIndex, path, err)
	}
	db, drop, mem, err := openRead(path)
	if err != nil {
		return nil, err
	}
	h := &handle{db: db, drop: drop, mem: mem, file: fi}
	if !current(context.Background(), db) {
		h.close()
		return nil, fmt.Errorf("%w at %s: not a loupe index of this version (run loupe index again)", ErrNoIndex, path)
	}
	return h, nil
}

// acquire returns the database a query uses, opening the file at the
// path anew when it is not the one open (the old one is closed once its
// queries are done); release it after the query. When the path holds no
// file, the one open is used (it is the last index there was).
func (d *DB) acquire() (*handle, error) {
	fi, statErr := stateOf(d.path)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cur == nil {
		return nil, fmt.Errorf("the index %s is closed", d.path)
	}
	if statErr == nil && !fi.same(d.cur.file) {
		h, err := openHandle(d.path)
		switch {
		case errors.Is(err, errBusy):
			// Being written: the one open is the last consistent index.
		case err != nil:
			return nil, err
		default:
			d.retire(d.cur)
			d.cur = h
		}
	}
	d.cur.users++
	return d.cur, nil
}

// release ends a query's use of h.
func (d *DB) release(h *handle) {
	d.mu.Lock()
	defer d.mu.Unlock()
	h.users--
	if h.retired && h.users == 0 {
		h.close()
	}
}

// retire closes h once no query uses it; d.mu is held.
func (d *DB) retire(h *handle) {
	h.retired = true
	if h.users == 0 {
		h.close()
	}
}

// IsNoIndex reports whether err says there is no index (Open's error).
func IsNoIndex(err error) bool { return errors.Is(err, ErrNoIndex) || errors.Is(err, fs.ErrNotExist) }

// Close closes the database (once the queries under way are done).
func (d *DB) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cur != nil {
		d.retire(d.cur)
		d.cur = nil
		untrack(d)
	}
	return nil
}

// Path is the database file.
func (d *DB) Path() string { return d.path }

// Package is a package as the queries return it.
type Package struct {
	Name        string         `json:"name"`
	Path        string         `json:"path"`
	Kind        string         `json:"kind"`
	Version     string         `json:"version"`
	Description string         `json:"description"`
	Metadata    map[string]any `json:"metadata"`
}

// PackageDetail is a package with its manifest and dependencies.
type PackageDetail struct {
	Name         string         `json:"name"`
	Path         string         `json:"path"`
	Kind         string         `json:"kind"`
	Version      string         `json:"version"`
	Description  string         `json:"description"`
	Metadata     map[string]any `json:"metadata"`
	Manifest     string         `json:"manifest"`
	Dependencies []Dependency   `json:"dependencies"`
}

// Dependency is one declared dependency.
type Dependency struct {
	// Package is the package declaring it.
	Package    string `json:"package"`
	Name       string `json:"name"`
	Version    string `json:"version"`
	Kind       string `json:"kind"`
	IsInternal bool   `json:"is_internal"`
}

// Edge is one edge of a dependency graph: package From depends on To.
type Edge struct {
	From    string `json:"from"`
	To      string `json:"to"`
	DepKind string `json:"dep_kind"`
}

// Symbol is one symbol of the index.
type Symbol struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Container  string `json:"container,omitempty"`
	Signature  string `json:"signature"`
	Package    string `json:"package"`
	FilePath   string `json:"file_path"`
	Line       int    `json:"line"`
	ReturnType string `json:"return_type"`
	Parameters string `json:"parameters"`
}

// Status is the index's metadata.
type Status struct {
	// IndexedAt is when the last whole build (Build) ran, UTC RFC 3339.
	IndexedAt string `json:"indexed_at"`
	// GitCommit is the commit checked out at the last build or update.
	GitCommit    string `json:"git_commit"`
	PackageCount int    `json:"package_count"`
	// FilesChanged counts the source files updated (changed, added or
	// removed) by incremental updates (Updater) since IndexedAt.
	FilesChanged int `json:"files_changed" desc:"Source files updated since indexed_at: the index follows edits."`
	// Updating is set while changes seen are still being applied (by the
	// Updater of this process).
	Updating bool `json:"updating,omitempty" desc:"Changes are being applied; answers may lag them."`
}

// ftsQuery makes q one FTS5 string: wrapped in double quotes, inner
// quotes doubled, so no character of it is FTS5 syntax. A blank q is
// ErrEmptyQuery and one with a NUL ErrNULQuery (FTS5 would end the string
// there, and fail on the syntax).
func ftsQuery(q string) (string, error) {
	switch {
	case strings.TrimSpace(q) == "":
		return "", ErrEmptyQuery
	case strings.IndexByte(q, 0) >= 0:
		return "", ErrNULQuery
	}
	return `"` + strings.ReplaceAll(q, `"`, `""`) + `"`, nil
}

const packageCols = "p.name, p.path, p.kind, p.version, p.description, p.metadata"

func scanPackages(rows *sql.Rows, err error) ([]Package, error) {
	if err != nil {
		return nil, fmt.Errorf("querying the index: %w", err)
	}
	defer rows.Close()
	out := []Package{}
	for rows.Next() {
		var p Package
		var meta string
		if err := rows.Scan(&p.Name, &p.Path, &p.Kind, &p.Version, &p.Description, &meta); err != nil {
			return nil, fmt.Errorf("querying the index: %w", err)
		}
		if err := json.Unmarshal([]byte(meta), &p.Metadata); err != nil {
			return nil, fmt.Errorf("metadata of %s: %w", p.Name, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// SearchPackages finds at most MaxPackageResults packages whose name,
// description or path match q (FTS5, best first). The query is taken as
// one phrase: its quotes and operators are text. An empty or blank q is
// ErrEmptyQuery, one with a NUL ErrNULQuery.
func (d *DB) SearchPackages(ctx context.Context, q string) ([]Package, error) {
	h, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release(h)
	match, err := ftsQuery(q)
	if err != nil {
		return nil, err
	}
	return scanPackages(h.db.QueryContext(ctx, "SELECT "+packageCols+
		" FROM packages_fts f JOIN packages p ON p.id = f.rowid WHERE packages_fts MATCH ? ORDER BY f.rank, p.name LIMIT ?",
		match, MaxPackageResults))
}

// Package returns the package named name with its dependencies, nil
// when there is none. When several packages share the name (of
// different kinds), the first by path is returned.
func (d *DB) Package(ctx context.Context, name string) (*PackageDetail, error) {
	h, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release(h)
	var p PackageDetail
	var meta string
	err = h.db.QueryRowContext(ctx, "SELECT "+packageCols+", p.manifest FROM packages p WHERE p.name = ? ORDER BY p.path, p.kind LIMIT 1", name).
		Scan(&p.Name, &p.Path, &p.Kind, &p.Version, &p.Description, &meta, &p.Manifest)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("querying the index: %w", err)
	}
	if err := json.Unmarshal([]byte(meta), &p.Metadata); err != nil {
		return nil, fmt.Errorf("metadata of %s: %w", p.Name, err)
	}
	if p.Dependencies, err = d.Dependencies(ctx, name, false); err != nil {
		return nil, err
	}
	return &p, nil
}

func scanDeps(rows *sql.Rows, err error) ([]Dependency, error) {
	if err != nil {
		return nil, fmt.Errorf("querying the index: %w", err)
	}
	defer rows.Close()
	out := []Dependency{}
	for rows.Next() {
		var dep Dependency
		if err := rows.Scan(&dep.Package, &dep.Name, &dep.Version, &dep.Kind, &dep.IsInternal); err != nil {
			return nil, fmt.Errorf("querying the index: %w", err)
		}
		out = append(out, dep)
	}
	return out, rows.Err()
}

// Dependencies lists what the package named name declares it depends
// on (only the internal ones when internalOnly), by kind and name.
func (d *DB) Dependencies(ctx context.Context, name string, internalOnly bool) ([]Dependency, error) {
	h, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release(h)
	q := "SELECT p.name, d.name, d.version, d.kind, d.is_internal FROM dependencies d JOIN packages p ON p.id = d.package_id WHERE p.name = ?"
	if internalOnly {
		q += " AND d.is_internal = 1"
	}
	return scanDeps(h.db.QueryContext(ctx, q+" ORDER BY d.kind, d.name", name))
}

// Dependents lists the packages declaring a dependency on name, by
// package name.
func (d *DB) Dependents(ctx context.Context, name string) ([]Dependency, error) {
	h, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release(h)
	return scanDeps(h.db.QueryContext(ctx,
		"SELECT p.name, d.name, d.version, d.kind, d.is_internal FROM dependencies d JOIN packages p ON p.id = d.package_id WHERE d.name = ? ORDER BY p.name, d.kind", name))
}

// HasPackage reports whether a package is named name.
func (d *DB) HasPackage(ctx context.Context, name string) (bool, error) {
	h, err := d.acquire()
	if err != nil {
		return false, err
	}
	defer d.release(h)
	var n int
	if err := h.db.QueryRowContext(ctx, "SELECT count(*) FROM packages WHERE name = ?", name).Scan(&n); err != nil {
		return false, fmt.Errorf("querying the index: %w", err)
	}
	return n > 0, nil
}

// ClampDepth is the depth DependencyGraph uses for depth: at least 1 (0
// means DefaultGraphDepth) and at most MaxGraphDepth.
func ClampDepth(depth int) int {
	switch {
	case depth == 0:
		return DefaultGraphDepth
	case depth < 1:
		return 1
	case depth > MaxGraphDepth:
		return MaxGraphDepth
	}
	return depth
}

// DependencyGraph walks the dependencies breadth-first from the package
// named root, depth levels deep (ClampDepth), and returns each edge
// once, in the order met: a package's edges to every dependency,
// followed further when the dependency is itself a package of the index.
func (d *DB) DependencyGraph(ctx context.Context, root string, depth int) ([]Edge, error) {
	depth = ClampDepth(depth)
	edges := []Edge{}
	seenEdge := map[Edge]bool{}
	visited := map[string]bool{root: true}
	frontier := []string{root}
	for level := 0; level < depth && len(frontier) > 0; level++ {
		var next []string
		for _, name := range frontier {
			deps, err := d.Dependencies(ctx, name, false)
			if err != nil {
				return nil, err
			}
			for _, dep := range deps {
				e := Edge{From: name, To: dep.Name, DepKind: dep.Kind}
				if !seenEdge[e] {
					seenEdge[e] = true
					edges = append(edges, e)
				}
				if !visited[dep.Name] && dep.IsInternal {
					visited[dep.Name] = true
					next = append(next, dep.Name)
				}
			}
		}
		frontier = next
	}
	return edges, nil
}

// Packages lists the packages by name (then path), only those of kind
// when kind is not "".
func (d *DB) Packages(ctx context.Context, kind string) ([]Package, error) {
	h, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release(h)
	q := "SELECT " + packageCols + " FROM packages p"
	args := []any{}
	if kind != "" {
		q += " WHERE p.kind = ?"
		args = append(args, kind)
	}
	return scanPackages(h.db.QueryContext(ctx, q+" ORDER BY p.name, p.path", args...))
}

// Root reads the root directory of the repository the index is of.
func (d *DB) Root(ctx context.Context) (string, error) {
	h, err := d.acquire()
	if err != nil {
		return "", err
	}
	defer d.release(h)
	var root string
	if err := h.db.QueryRowContext(ctx, "SELECT value FROM "+MetaTable+" WHERE key = 'root'").Scan(&root); err != nil {
		return "", fmt.Errorf("reading the index's root: %w", err)
	}
	return root, nil
}

// Status reads the index's metadata.
func (d *DB) Status(ctx context.Context) (*Status, error) {
	h, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release(h)
	rows, err := h.db.QueryContext(ctx, "SELECT key, value FROM "+MetaTable+" WHERE key IN ('indexed_at', 'git_commit', 'package_count', 'files_changed')")
	if err != nil {
		return nil, fmt.Errorf("querying the index: %w", err)
	}
	defer rows.Close()
	s := &Status{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("querying the index: %w", err)
		}
		switch k {
		case "indexed_at":
			s.IndexedAt = v
		case "git_commit":
			s.GitCommit = v
		case "package_count":
			fmt.Sscan(v, &s.PackageCount)
		case "files_changed":
			fmt.Sscan(v, &s.FilesChanged)
		}
	}
	return s, rows.Err()
}

const symbolCols = "s.name, s.kind, s.container, s.signature, s.package, s.file_path, s.line, s.return_type, s.parameters"

func scanSymbols(rows *sql.Rows, err error) ([]Symbol, error) {
	if err != nil {
		return nil, fmt.Errorf("querying the index: %w", err)
	}
	defer rows.Close()
	out := []Symbol{}
	for rows.Next() {
		var s Symbol
		if err := rows.Scan(&s.Name, &s.Kind, &s.Container, &s.Signature, &s.Package, &s.FilePath, &s.Line, &s.ReturnType, &s.Parameters); err != nil {
			return nil, fmt.Errorf("querying the index: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// SearchSymbols finds at most MaxSymbolResults symbols whose name or
// signature match q (FTS5, best first, q taken as one phrase), only those
// of package pkg and of kind when they are not "". An empty or blank q is
// ErrEmptyQuery, one with a NUL ErrNULQuery.
func (d *DB) SearchSymbols(ctx context.Context, q, pkg, kind string) ([]Symbol, error) {
	h, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release(h)
	match, err := ftsQuery(q)
	if err != nil {
		return nil, err
	}
	sqlq := "SELECT " + symbolCols + " FROM symbols_fts f JOIN symbols s ON s.id = f.rowid WHERE symbols_fts MATCH ?"
	args := []any{match}
	if pkg != "" {
		sqlq += " AND s.package = ?"
		args = append(args, pkg)
	}
	if kind != "" {
		sqlq += " AND s.kind = ?"
		args = append(args, kind)
	}
	args = append(args, MaxSymbolResults)
	return scanSymbols(h.db.QueryContext(ctx, sqlq+" ORDER BY f.rank, s.file_path, s.line LIMIT ?", args...))
}

// PackageSymbols lists the symbols of package pkg by file path then line,
// only those of kind when it is not "".
func (d *DB) PackageSymbols(ctx context.Context, pkg, kind string) ([]Symbol, error) {
	h, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release(h)
	q := "SELECT " + symbolCols + " FROM symbols s WHERE s.package = ?"
	args := []any{pkg}
	if kind != "" {
		q += " AND s.kind = ?"
		args = append(args, kind)
	}
	return scanSymbols(h.db.QueryContext(ctx, q+" ORDER BY s.file_path, s.line", args...))
}

// Symbols lists the symbols named exactly name, only those of package pkg
// when it is not "", by package, file path and line.
func (d *DB) Symbols(ctx context.Context, name, pkg string) ([]Symbol, error) {
	h, err := d.acquire()
	if err != nil {
		return nil, err
	}
	defer d.release(h)
	q := "SELECT " + symbolCols + " FROM symbols s WHERE s.name = ?"
	args := []any{name}
	if pkg != "" {
		q += " AND s.package = ?"
		args = append(args, pkg)
	}
	return scanSymbols(h.db.QueryContext(ctx, q+" ORDER BY s.package, s.file_path, s.line", args...))
}
