package index

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/index/manifest"
)

// Options configure a build.
type Options struct {
	// Root is the repository's root directory (required).
	Root string
	// DB is the database file; "" means DefaultPath(Root).
	DB string
	// Progress, when set, hears how many source files of total are done,
	// from the goroutine that writes the index.
	Progress func(done, total int)
}

// paths are the repository's root, absolute, and the database file.
func (o Options) paths() (root, dbPath string, err error) {
	if root, err = filepath.Abs(o.Root); err != nil {
		return "", "", fmt.Errorf("index: %w", err)
	}
	if dbPath = o.DB; dbPath == "" {
		dbPath = DefaultPath(root)
	}
	return root, dbPath, nil
}

// Stats describe a build.
type Stats struct {
	// Files is the number of source files indexed (of a language
	// structural_analysis supports); Parsed of them were read and parsed
	// by this build (new or changed), the rest kept from the previous
	// index; Removed files were in the previous index and are gone.
	Files, Parsed, Removed int
	Packages, Symbols      int
	// Problems are the manifests that could not be taken in whole (see
	// manifest.Problem), and source files skipped (binary, too large,
	// failed in the grammar).
	Problems []string
	Duration time.Duration
	// DB is the database written.
	DB string
}

// skipDirs are directories of build output and vendored code, left out
// besides what the walk skips (hidden directories, node_modules, ignore
// files).
var skipDirs = map[string]bool{"vendor": true, "target": true, "node_modules": true}

// fileRow is a source file as the index records it.
type fileRow struct {
	lang, hash, pkg string
	size, mtime     int64
}

// parsedFile is the work a build does on one file, delivered in order.
type parsedFile struct {
	path    string
	row     fileRow
	changed bool // the symbols are new
	touched bool // only size or mtime changed
	symbols []analysis.Symbol
	problem string
}

// openWrite opens the database file at path for a build, on one
// connection.
func openWrite(path string) (*sql.DB, error) {
	name, err := dsn(path, writeQuery)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	db, err := sql.Open(driverName, name)
	if err != nil {
		return nil, fmt.Errorf("index: opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// stagingPath is a new file beside the index at dbPath for a build to
// write and rename into place: named by the process and a random number,
// as the npm package's instances share one process.
func stagingPath(dbPath string) string {
	return fmt.Sprintf("%s.%d-%s.tmp", dbPath, os.Getpid(), rand.Text()[:8])
}

// Build creates the index of opts.Root, or brings an existing one up to
// date: manifests are read again, and only the source files whose size,
// modification time and then content hash changed are parsed again, in
// parallel; files gone from the repository leave it. Everything is
// written in one transaction (a first build into a new file renamed into
// place), so a build that is interrupted, by a cancelled ctx or a killed
// process, leaves the previous index as it was. A build sets indexed_at.
func Build(ctx context.Context, opts Options) (*Stats, error) {
	return build(ctx, opts, false)
}

// build is Build; as an update (an Updater's whole pass), it keeps
// indexed_at, adds the files it changed to files_changed, and writes
// nothing when nothing changed.
func build(ctx context.Context, opts Options, update bool) (*Stats, error) {
	start := time.Now()
	root, dbPath, err := opts.paths()
	if err != nil {
		return nil, err
	}
	st := &Stats{DB: dbPath}
	tree, err := scan(ctx, root, st)
	if err != nil {
		return nil, err
	}
	fresh := false
	if _, err := os.Stat(dbPath); errors.Is(err, fs.ErrNotExist) {
		fresh = true
	}
	if fresh {
		if err := os.MkdirAll(filepath.Dir(dbPath), 0o755); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		ignoreLoupeDir(root, dbPath)
	}
	writePath, staged, err := writeTarget(dbPath, fresh)
	if err != nil {
		return nil, err
	}
	if staged {
		defer os.Remove(writePath)
	}
	db, err := openWrite(writePath)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if !fresh && !current(ctx, db) {
		// An index of another schema: start afresh in a new file.
		db.Close()
		fresh, staged = true, true
		writePath = stagingPath(dbPath)
		defer os.Remove(writePath)
		if db, err = openWrite(writePath); err != nil {
			return nil, err
		}
		defer db.Close()
	}
	wrote, err := tree.write(ctx, db, st, opts.Progress, fresh, update && !fresh)
	if err != nil {
		return nil, err
	}
	if staged && wrote {
		if err := db.Close(); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		if err := os.Rename(writePath, dbPath); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
	}
	st.Duration = time.Since(start)
	return st, nil
}

// tree is what a whole pass takes from the repository: its root, the
// source files of the languages symbols are read from, and its packages.
type tree struct {
	root    string
	sources []search.File
	found   *manifest.Result
}

// scan walks the repository at root as a build does and reads its
// manifests; st hears the files and manifests it could not take.
func scan(ctx context.Context, root string, st *Stats) (*tree, error) {
	files, skipped, err := search.Files(ctx, search.Options{Root: root, AllFiles: true, MaxFileSize: search.DefaultMaxFileSize})
	if err != nil {
		return nil, fmt.Errorf("index: listing %s: %w", root, err)
	}
	var rels []string
	t := &tree{root: root}
	supported := map[string]bool{}
	for _, l := range analysis.SupportedLanguages() {
		supported[l] = true
	}
	for _, f := range files {
		if inSkippedDir(f.Path) {
			continue
		}
		rels = append(rels, f.Path)
		if f.Lang != nil && supported[f.Lang.Name()] {
			t.sources = append(t.sources, f)
		}
	}
	for _, s := range skipped {
		if !inSkippedDir(s.Path) {
			st.Problems = append(st.Problems, s.String())
		}
	}
	rootFS, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	defer rootFS.Close()
	t.found = manifest.Discover(rootFS.FS(), filepath.Base(root), rels)
	for _, p := range t.found.Problems {
		st.Problems = append(st.Problems, p.Error())
	}
	return t, nil
}

// write brings the database db up to date with the tree in one
// transaction (creating the tables first when fresh) and reports whether
// it committed. A build records itself in the metadata (indexed_at); an
// update adds the files it changed to files_changed and, when it changed
// nothing (no package, file row or symbol), rolls back, so the file and
// its metadata stay as they were.
func (t *tree) write(ctx context.Context, db *sql.DB, st *Stats, progress func(int, int), fresh, update bool) (bool, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("index: %w", err)
	}
	defer tx.Rollback()
	if fresh {
		if _, err := tx.ExecContext(ctx, schema); err != nil {
			return false, fmt.Errorf("index: creating the tables: %w", err)
		}
	}
	w := &writer{ctx: ctx, tx: tx, st: st}
	var before string
	if update {
		if before, err = w.packagesDigest(); err != nil {
			return false, err
		}
	}
	if err := w.packages(t.found.Packages); err != nil {
		return false, err
	}
	old, err := w.files()
	if err != nil {
		return false, err
	}
	if err := w.sources(t.root, t.sources, old, newOwners(t.found.Packages), progress); err != nil {
		return false, err
	}
	st.Packages = len(t.found.Packages)
	if update {
		after, err := w.packagesDigest()
		if err != nil {
			return false, err
		}
		if after == before && w.rows == 0 && st.Removed == 0 {
			return false, nil
		}
		if err := w.bump(t.root, st.Parsed+st.Removed); err != nil {
			return false, err
		}
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO "+MetaTable+"(key, value) VALUES ('package_count', ?)", strconv.Itoa(st.Packages)); err != nil {
			return false, fmt.Errorf("index: %w", err)
		}
	} else if err := w.meta(t.root, st.Packages); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("index: %w", err)
	}
	return true, nil
}

// packagesDigest sums the packages and dependencies the transaction
// sees, to tell whether a pass changed them.
func (w *writer) packagesDigest() (string, error) {
	h := sha256.New()
	for _, q := range []string{
		"SELECT name, path, kind, version, description, metadata, manifest FROM packages ORDER BY id",
		"SELECT package_id, name, version, kind, is_internal FROM dependencies ORDER BY package_id, rowid",
	} {
		rows, err := w.tx.QueryContext(w.ctx, q)
		if err != nil {
			return "", fmt.Errorf("index: reading packages: %w", err)
		}
		cols, err := rows.Columns()
		if err != nil {
			rows.Close()
			return "", fmt.Errorf("index: reading packages: %w", err)
		}
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return "", fmt.Errorf("index: reading packages: %w", err)
			}
			for _, v := range vals {
				fmt.Fprintf(h, "%t%d:%s", v.Valid, len(v.String), v.String)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return "", fmt.Errorf("index: reading packages: %w", err)
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sameTime reports whether a file's modification time seen now (in
// nanoseconds) is the one the index recorded: the same, or the same
// millisecond where the index recorded a time of whole milliseconds. The
// npm package sees times to the millisecond (Node's stat under GOOS=js),
// the CLI to the nanosecond, and either reads the other's index without
// taking every file for changed.
func sameTime(recorded, seen int64) bool {
	const ms = int64(1e6)
	return recorded == seen || recorded%ms == 0 && recorded == seen-seen%ms ||
		seen%ms == 0 && seen == recorded-recorded%ms
}

// inSkippedDir reports whether a path lies below a directory of build
// output or vendored code.
func inSkippedDir(rel string) bool {
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		if skipDirs[path.Base(d)] {
			return true
		}
	}
	return false
}

// ignoreLoupeDir keeps the index out of version control: a .gitignore of
// "*" in the .loupe directory holding it, when it is the default one.
func ignoreLoupeDir(root, dbPath string) {
	dir := filepath.Dir(dbPath)
	if dir != filepath.Join(root, ".loupe") {
		return
	}
	gi := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(gi); errors.Is(err, fs.ErrNotExist) {
		// A missing .gitignore only risks the index showing in git status.
		_ = os.WriteFile(gi, []byte("# loupe's project index (loupe index): not for version control\n*\n"), 0o644)
	}
}

// current reports whether db holds an index of this schema version.
func current(ctx context.Context, db *sql.DB) bool {
	var v string
	err := db.QueryRowContext(ctx, "SELECT value FROM "+MetaTable+" WHERE key = 'schema_version'").Scan(&v)
	return err == nil && v == schemaVersion
}

// writer writes one build's transaction.
type writer struct {
	ctx context.Context
	tx  *sql.Tx
	st  *Stats
	// rows counts the file rows written (new, parsed or touched).
	rows int
}

// packages replaces the packages and their dependencies.
func (w *writer) packages(pkgs []manifest.Package) error {
	if _, err := w.tx.ExecContext(w.ctx, "DELETE FROM dependencies; DELETE FROM packages"); err != nil {
		return fmt.Errorf("index: clearing packages: %w", err)
	}
	insP, err := w.tx.PrepareContext(w.ctx, "INSERT INTO packages(name, path, kind, version, description, metadata, manifest) VALUES (?, ?, ?, ?, ?, ?, ?)")
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer insP.Close()
	insD, err := w.tx.PrepareContext(w.ctx, "INSERT INTO dependencies(package_id, name, version, kind, is_internal) VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer insD.Close()
	for _, p := range pkgs {
		meta, err := json.Marshal(p.Metadata)
		if err != nil {
			return fmt.Errorf("index: metadata of %s: %w", p.Name, err)
		}
		res, err := insP.ExecContext(w.ctx, p.Name, p.Path, string(p.Kind), p.Version, p.Description, string(meta), p.Manifest)
		if err != nil {
			return fmt.Errorf("index: package %s: %w", p.Name, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("index: package %s: %w", p.Name, err)
		}
		for _, d := range p.Dependencies {
			if _, err := insD.ExecContext(w.ctx, id, d.Name, d.Version, string(d.Kind), d.Internal); err != nil {
				return fmt.Errorf("index: dependency %s of %s: %w", d.Name, p.Name, err)
			}
		}
	}
	return nil
}

// files reads the previous build's files.
func (w *writer) files() (map[string]fileRow, error) {
	rows, err := w.tx.QueryContext(w.ctx, "SELECT path, language, size, mtime, hash, package FROM files")
	if err != nil {
		return nil, fmt.Errorf("index: reading files: %w", err)
	}
	defer rows.Close()
	out := map[string]fileRow{}
	for rows.Next() {
		var p string
		var r fileRow
		if err := rows.Scan(&p, &r.lang, &r.size, &r.mtime, &r.hash, &r.pkg); err != nil {
			return nil, fmt.Errorf("index: reading files: %w", err)
		}
		out[p] = r
	}
	return out, rows.Err()
}

// statements are the prepared statements that write files and symbols.
type statements map[string]*sql.Stmt

// prepare prepares the statements of a transaction; close them after it.
func (w *writer) prepare() (statements, error) {
	stmts := statements{}
	for name, q := range map[string]string{
		"delSyms": "DELETE FROM symbols WHERE file_path = ?",
		"putFile": "INSERT OR REPLACE INTO files(path, language, size, mtime, hash, package) VALUES (?, ?, ?, ?, ?, ?)",
		"delFile": "DELETE FROM files WHERE path = ?",
		"setPkg":  "UPDATE symbols SET package = ? WHERE file_path = ?",
	} {
		s, err := w.tx.PrepareContext(w.ctx, q)
		if err != nil {
			stmts.close()
			return nil, fmt.Errorf("index: %w", err)
		}
		stmts[name] = s
	}
	return stmts, nil
}

// close closes the statements.
func (s statements) close() {
	for _, st := range s {
		st.Close()
	}
}

// sources brings the files and their symbols up to date.
func (w *writer) sources(root string, files []search.File, old map[string]fileRow, owners *owners, progress func(int, int)) error {
	stmts, err := w.prepare()
	if err != nil {
		return err
	}
	defer stmts.close()
	if err := w.index(root, stmts, files, old, owners, progress); err != nil {
		return err
	}
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		seen[f.Path] = true
	}
	for p := range old {
		if seen[p] {
			continue
		}
		if err := w.remove(stmts, p); err != nil {
			return err
		}
	}
	w.st.Files = len(files)
	return w.tx.QueryRowContext(w.ctx, "SELECT count(*) FROM symbols").Scan(&w.st.Symbols)
}

// remove takes one file and its symbols out of the index.
func (w *writer) remove(stmts statements, p string) error {
	if _, err := stmts["delSyms"].ExecContext(w.ctx, p); err != nil {
		return fmt.Errorf("index: removing %s: %w", p, err)
	}
	if _, err := stmts["delFile"].ExecContext(w.ctx, p); err != nil {
		return fmt.Errorf("index: removing %s: %w", p, err)
	}
	w.st.Removed++
	return nil
}

// index parses the files that changed since old, in parallel, and
// writes them in order; progress hears each file written.
func (w *writer) index(root string, stmts statements, files []search.File, old map[string]fileRow, owners *owners, progress func(int, int)) error {
	reader, err := search.NewReader(search.Options{Root: root, MaxFileSize: search.DefaultMaxFileSize})
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	defer reader.Close()
	var failed error
	done := 0
	search.Ordered(w.ctx, len(files), search.OrderedLimits{}, func(ctx context.Context, i int) (parsedFile, int64) {
		pf := w.parse(ctx, root, reader, files[i], old, owners)
		return pf, int64(len(pf.symbols)) * 256
	}, func(i int, pf parsedFile) bool {
		if failed != nil {
			return false
		}
		failed = w.put(stmts, pf, old)
		done++
		if progress != nil {
			progress(done, len(files))
		}
		return failed == nil
	})
	if failed != nil {
		return failed
	}
	if err := w.ctx.Err(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// parse decides whether a file changed and, if it did, reads and parses
// it. It runs on the pipeline's worker goroutines.
func (w *writer) parse(ctx context.Context, root string, reader *search.Reader, f search.File, old map[string]fileRow, owners *owners) parsedFile {
	pf := parsedFile{path: f.Path}
	pf.row.lang = f.Lang.Name()
	pf.row.pkg = owners.of(f.Path, pf.row.lang)
	prev, had := old[f.Path]
	if fi, err := os.Lstat(f.Abs); err == nil {
		pf.row.size, pf.row.mtime = fi.Size(), fi.ModTime().UnixNano()
	}
	if had && prev.size == pf.row.size && sameTime(prev.mtime, pf.row.mtime) && prev.lang == pf.row.lang {
		pf.row.hash, pf.row.mtime = prev.hash, prev.mtime
		return pf
	}
	src, skip := reader.Read(f)
	if skip != nil && skip.Reason != search.SkipEmpty {
		pf.problem = skip.String()
		return pf
	}
	sum := sha256.Sum256(src)
	pf.row.hash = hex.EncodeToString(sum[:])
	if had && prev.hash == pf.row.hash && prev.lang == pf.row.lang {
		pf.touched = true
		return pf
	}
	pf.changed = true
	if len(src) == 0 {
		return pf
	}
	t, err := f.Lang.Parse(ctx, src)
	if err != nil {
		pf.problem = fmt.Sprintf("%s: %s (%v)", f.Path, search.SkipParse, err)
		return pf
	}
	if pf.symbols, err = analysis.FileSymbols(ctx, pf.row.lang, t); err != nil {
		pf.problem = err.Error()
	}
	return pf
}

// put writes what parse found about one file.
func (w *writer) put(stmts statements, pf parsedFile, old map[string]fileRow) error {
	ctx := w.ctx
	if pf.problem != "" {
		w.st.Problems = append(w.st.Problems, pf.problem)
	}
	prev, had := old[pf.path]
	if pf.changed {
		w.st.Parsed++
		if had {
			if _, err := stmts["delSyms"].ExecContext(ctx, pf.path); err != nil {
				return fmt.Errorf("index: %s: %w", pf.path, err)
			}
		}
		if err := w.insertSymbols(pf); err != nil {
			return err
		}
	} else if had && prev.pkg != pf.row.pkg {
		if _, err := stmts["setPkg"].ExecContext(ctx, pf.row.pkg, pf.path); err != nil {
			return fmt.Errorf("index: %s: %w", pf.path, err)
		}
	}
	if pf.changed || pf.touched || !had || prev != pf.row {
		r := pf.row
		if _, err := stmts["putFile"].ExecContext(ctx, pf.path, r.lang, r.size, r.mtime, r.hash, r.pkg); err != nil {
			return fmt.Errorf("index: %s: %w", pf.path, err)
		}
		w.rows++
	}
	return nil
}

// symbolRows is how many symbols one INSERT statement writes (9
// parameters each, within SQLite's default bound of 32,766).
const symbolRows = 256

// insertSymbols writes a file's symbols, many rows per statement: each
// statement's savepoint makes FTS5 flush its pending terms, so a
// statement per symbol cost a flush (and a segment merge) per symbol.
func (w *writer) insertSymbols(pf parsedFile) error {
	const cols = "INSERT INTO symbols(name, kind, container, signature, package, file_path, line, return_type, parameters) VALUES "
	for rest := pf.symbols; len(rest) > 0; {
		n := min(len(rest), symbolRows)
		var q strings.Builder
		q.WriteString(cols)
		args := make([]any, 0, n*9)
		for i, s := range rest[:n] {
			if i > 0 {
				q.WriteByte(',')
			}
			q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, s.Name, s.Kind, s.Container, s.Signature, pf.row.pkg, pf.path, s.Line, s.ReturnType, s.Parameters)
		}
		if _, err := w.tx.ExecContext(w.ctx, q.String(), args...); err != nil {
			return fmt.Errorf("index: %s: %w", pf.path, err)
		}
		rest = rest[n:]
	}
	return nil
}

// meta records when and from which commit the index was built.
func (w *writer) meta(root string, packages int) error {
	for k, v := range map[string]string{
		"schema_version": schemaVersion,
		"indexed_at":     time.Now().UTC().Format(time.RFC3339),
		"git_commit":     gitCommit(root),
		"package_count":  strconv.Itoa(packages),
		"files_changed":  "0",
		"root":           root,
	} {
		if _, err := w.tx.ExecContext(w.ctx, "INSERT OR REPLACE INTO "+MetaTable+"(key, value) VALUES (?, ?)", k, v); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}

// gitCommit reads the commit checked out in root's git repository ("" if
// none), from .git/HEAD and the ref it names, without running git.
func gitCommit(root string) string {
	gitDir := filepath.Join(root, ".git")
	if b, err := os.ReadFile(gitDir); err == nil {
		// A worktree or submodule: "gitdir: PATH".
		if d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: "); ok {
			if !filepath.IsAbs(d) {
				d = filepath.Join(root, d)
			}
			gitDir = d
		}
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	ref, isRef := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
	if !isRef {
		return ref
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = filepath.Join(gitDir, strings.TrimSpace(string(b)))
	}
	for _, dir := range []string{gitDir, common} {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ref))); err == nil {
			return strings.TrimSpace(string(b))
		}
	}
	if b, err := os.ReadFile(filepath.Join(common, "packed-refs")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if sha, name, ok := strings.Cut(line, " "); ok && name == ref {
				return sha
			}
		}
	}
	return ""
}

// owners finds the package a file belongs to: the package of the nearest
// directory above it holding one, preferring the kind its language is
// written in when a directory holds several.
type owners struct {
	byDir map[string][]manifest.Package
}

func newOwners(pkgs []manifest.Package) *owners {
	o := &owners{byDir: map[string][]manifest.Package{}}
	for _, p := range pkgs {
		o.byDir[p.Path] = append(o.byDir[p.Path], p)
	}
	return o
}

// kindOf is the package kind each language's files usually belong to.
var kindOf = map[string][]manifest.Kind{
	"go": {manifest.Go}, "rust": {manifest.Cargo}, "python": {manifest.Python},
	"java": {manifest.Maven, manifest.Gradle}, "kotlin": {manifest.Gradle, manifest.Maven},
	"javascript": {manifest.NPM}, "typescript": {manifest.NPM}, "tsx": {manifest.NPM},
}

func (o *owners) of(rel, lang string) string {
	for d := path.Dir(rel); ; d = path.Dir(d) {
		if ps := o.byDir[d]; len(ps) > 0 {
			for _, k := range kindOf[lang] {
				if i := slices.IndexFunc(ps, func(p manifest.Package) bool { return p.Kind == k }); i >= 0 {
					return ps[i].Name
				}
			}
			return ps[0].Name
		}
		if d == "." || d == "/" {
			return ""
		}
	}
}
