package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/index/manifest"
)

// Updater is the one writer that keeps an index up with its tree between
// builds: Update takes the paths that changed and, per file, deletes its
// symbols and rows, extracts them again and inserts them, all of a batch
// in one transaction. A query (DB, on its own read-only connection) sees
// the index before a batch or after it, never half of one, and a process
// killed during a batch leaves the index as it was before it.
//
// A change to a package manifest or an ignore file can change which
// package owns every file, or which files are indexed; Update then brings
// the whole index up to date as Build does.
//
// The database is switched to write-ahead logging, so queries go on while
// a batch is written. An Updater is safe for concurrent use; its batches
// run one at a time.
type Updater struct {
	root, dbPath string
	progress     func(done, total int)

	mu     sync.Mutex // held for a batch
	db     *sql.DB
	store  store           // what db is open on (open, reopen)
	dirs   map[string]bool // directories the build's walk enters, as far as known
	owners *owners
	// onDirs hears the directories a batch found newly indexed (the
	// watcher watches them).
	onDirs func([]string)
	// stamps are the modification times of the directories the walk
	// enters, as the last stat pass (Poll) saw them; nil before the first.
	stamps map[string]stamp

	stateMu sync.Mutex
	pending int           // batches asked for and not yet applied
	applied chan struct{} // closed when the next batch is applied
	batches uint64
}

// failBatch, set by tests, makes a batch fail with its error.
var failBatch func() error

// Root is the repository's root directory.
func (u *Updater) Root() string { return u.root }

// Path is the database file.
func (u *Updater) Path() string { return u.dbPath }

// Applied returns a channel closed when the next batch (Update or
// Refresh) has been applied or has failed. To wait for a change: take the
// channel, check the index, and wait on the channel only if the change
// is not there yet.
func (u *Updater) Applied() <-chan struct{} {
	u.stateMu.Lock()
	defer u.stateMu.Unlock()
	return u.applied
}

// Batches counts the batches applied (or failed) so far.
func (u *Updater) Batches() uint64 {
	u.stateMu.Lock()
	defer u.stateMu.Unlock()
	return u.batches
}

// Updating reports whether changes are waiting for a batch or being
// applied.
func (u *Updater) Updating() bool {
	u.stateMu.Lock()
	defer u.stateMu.Unlock()
	return u.pending > 0
}

// expect counts changes announced before they are applied (the watcher
// calls it as soon as it sees an event), so Updating covers them.
func (u *Updater) expect(n int) {
	u.stateMu.Lock()
	u.pending += n
	u.stateMu.Unlock()
}

// done ends a batch: the changes it covered are no longer pending and
// the waiters of Applied are woken.
func (u *Updater) done(n int) {
	u.stateMu.Lock()
	u.pending = max(u.pending-n, 0)
	u.batches++
	close(u.applied)
	u.applied = make(chan struct{})
	u.stateMu.Unlock()
}

// Update brings the index up to date for the given paths (files or
// directories, relative to the root or absolute inside it) that were
// created, changed or removed: a file the build's walk would index is
// parsed again if its size, modification time and content hash changed;
// a path gone or no longer indexed leaves the index with everything
// below it. It is one transaction.
func (u *Updater) Update(ctx context.Context, paths []string) (*Stats, error) {
	u.expect(1)
	defer u.done(1)
	return u.update(ctx, paths)
}

// Refresh brings the whole index up to date as Build does (a walk, a
// stat of every file, a parse of those that changed): the stat pass that
// stands in for watching where there is none.
func (u *Updater) Refresh(ctx context.Context) (*Stats, error) {
	u.expect(1)
	defer u.done(1)
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.refresh(ctx)
}

func (u *Updater) update(ctx context.Context, paths []string) (*Stats, error) {
	start := time.Now()
	u.mu.Lock()
	defer u.mu.Unlock()
	rels := u.rels(paths)
	st := &Stats{DB: u.dbPath}
	if len(rels) == 0 {
		return st, nil
	}
	if err := u.reopen(); err != nil {
		return nil, err
	}
	if failBatch != nil {
		if err := failBatch(); err != nil {
			return nil, err
		}
	}
	if err := u.load(ctx); err != nil {
		return nil, err
	}
	p := &planner{u: u, ctx: ctx, lists: map[string]*listing{}}
	for _, rel := range rels {
		full, err := p.add(rel)
		if err != nil {
			return nil, err
		}
		if full {
			return u.refresh(ctx)
		}
	}
	st.Problems = p.problems

	tx, err := u.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	defer tx.Rollback()
	w := &writer{ctx: ctx, tx: tx, st: st}
	stmts, err := w.prepare()
	if err != nil {
		return nil, err
	}
	defer stmts.close()
	old, err := w.filesUnder(rels)
	if err != nil {
		return nil, err
	}
	if len(p.files) == 0 && len(old) == 0 {
		// Nothing indexed changed (a file the index does not take, such
		// as the database itself when it lies in the tree): no write, so
		// no event of its own.
		st.Duration = time.Since(start)
		return st, nil
	}
	if err := w.index(u.root, stmts, p.files, old, u.owners, u.progress); err != nil {
		return nil, err
	}
	keep := make(map[string]bool, len(p.files))
	for _, f := range p.files {
		keep[f.Path] = true
	}
	for _, f := range slices.Sorted(mapKeys(old)) {
		if !keep[f] {
			if err := w.remove(stmts, f); err != nil {
				return nil, err
			}
		}
	}
	changed := st.Parsed + st.Removed
	if err := w.bump(u.root, changed); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	if err := u.checkpoint(ctx); err != nil {
		return nil, err
	}
	for _, g := range p.gone {
		for d := range u.dirs {
			if d == g || strings.HasPrefix(d, g+"/") {
				delete(u.dirs, d)
			}
		}
	}
	for _, d := range p.newDirs {
		u.dirs[d] = true
	}
	if u.onDirs != nil && len(p.newDirs) > 0 {
		u.onDirs(p.newDirs)
	}
	st.Files = len(p.files)
	st.Duration = time.Since(start)
	return st, nil
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// rels makes paths relative to the root, slash-separated and clean,
// without duplicates; paths outside the root are dropped.
func (u *Updater) rels(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if filepath.IsAbs(p) {
			r, err := filepath.Rel(u.root, p)
			if err != nil {
				continue
			}
			p = r
		}
		p = path.Clean(filepath.ToSlash(p))
		if p == ".." || strings.HasPrefix(p, "../") || p == "/" || strings.HasPrefix(p, "/") || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// load reads what a batch needs to know besides the files it touches:
// the directories holding indexed files (which the build's walk enters)
// and the packages that own files. They are kept until a whole rebuild.
func (u *Updater) load(ctx context.Context) error {
	if u.dirs != nil {
		return nil
	}
	dirs := map[string]bool{".": true}
	rows, err := u.db.QueryContext(ctx, "SELECT path FROM files")
	if err != nil {
		return fmt.Errorf("index: reading files: %w", err)
	}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			rows.Close()
			return fmt.Errorf("index: reading files: %w", err)
		}
		for d := path.Dir(p); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("index: reading files: %w", err)
	}
	var pkgs []manifest.Package
	rows, err = u.db.QueryContext(ctx, "SELECT name, path, kind FROM packages ORDER BY id")
	if err != nil {
		return fmt.Errorf("index: reading packages: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p manifest.Package
		var kind string
		if err := rows.Scan(&p.Name, &p.Path, &kind); err != nil {
			return fmt.Errorf("index: reading packages: %w", err)
		}
		p.Kind = manifest.Kind(kind)
		pkgs = append(pkgs, p)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("index: reading packages: %w", err)
	}
	u.dirs, u.owners = dirs, newOwners(pkgs)
	return nil
}

// Dirs lists the directories the build's walk enters, as far as the
// Updater knows them: those holding indexed files, their parents, and
// those updates found since.
func (u *Updater) Dirs(ctx context.Context) ([]string, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if err := u.load(ctx); err != nil {
		return nil, err
	}
	return slices.Sorted(mapKeys(u.dirs)), nil
}

// filesUnder reads the indexed files at the given paths or below them.
func (w *writer) filesUnder(rels []string) (map[string]fileRow, error) {
	out := map[string]fileRow{}
	q, err := w.tx.PrepareContext(w.ctx, "SELECT path, language, size, mtime, hash, package FROM files WHERE path = ? OR (path > ? AND path < ?)")
	if err != nil {
		return nil, fmt.Errorf("index: reading files: %w", err)
	}
	defer q.Close()
	for _, rel := range rels {
		// Below rel: paths from "rel/" up to "rel0" ('0' follows '/').
		lo, hi := rel+"/", rel+"0"
		if rel == "." {
			lo, hi = "", "\U0010FFFF"
		}
		rows, err := q.QueryContext(w.ctx, rel, lo, hi)
		if err != nil {
			return nil, fmt.Errorf("index: reading files: %w", err)
		}
		for rows.Next() {
			var p string
			var r fileRow
			if err := rows.Scan(&p, &r.lang, &r.size, &r.mtime, &r.hash, &r.pkg); err != nil {
				rows.Close()
				return nil, fmt.Errorf("index: reading files: %w", err)
			}
			out[p] = r
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("index: reading files: %w", err)
		}
	}
	return out, nil
}

// bump records an update: the commit checked out now and the files
// changed since the last build.
func (w *writer) bump(root string, changed int) error {
	if _, err := w.tx.ExecContext(w.ctx, "INSERT OR REPLACE INTO "+MetaTable+"(key, value) VALUES ('git_commit', ?)", gitCommit(root)); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if changed == 0 {
		return nil
	}
	var n string
	err := w.tx.QueryRowContext(w.ctx, "SELECT value FROM "+MetaTable+" WHERE key = 'files_changed'").Scan(&n)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("index: %w", err)
	}
	prev, _ := strconv.Atoi(n)
	if _, err := w.tx.ExecContext(w.ctx, "INSERT OR REPLACE INTO "+MetaTable+"(key, value) VALUES ('files_changed', ?)", strconv.Itoa(prev+changed)); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// planner decides what a batch does with each path: which files to
// index, and whether the whole index must be rebuilt.
type planner struct {
	u        *Updater
	ctx      context.Context
	lists    map[string]*listing // one-level listings by directory
	files    []search.File
	seen     map[string]bool
	newDirs  []string
	gone     []string // paths that no longer exist
	problems []string
}

// listing is what the build's walk takes from one directory: its files
// and its subdirectories.
type listing struct {
	files map[string]search.File
	dirs  map[string]bool
}

// list returns what the build's walk takes from directory dir (relative
// to the root): its files and subdirectories, with the ignore files of
// the directories above it applied. It walks dir's parent two levels deep
// (a walk's depth bound reports the directories it does not enter, so
// the subdirectories of each directory of the first level are all known,
// empty ones too), which lists dir's siblings at the same time. At the
// root, empty directories are not known.
func (p *planner) list(dir string) (*listing, error) {
	if l, ok := p.lists[dir]; ok {
		return l, nil
	}
	q := path.Dir(dir)
	views := map[string]*listing{}
	view := func(d string) *listing {
		if views[d] == nil {
			views[d] = &listing{files: map[string]search.File{}, dirs: map[string]bool{}}
		}
		return views[d]
	}
	view(q)
	files, skipped, err := search.Files(p.ctx, search.Options{Root: p.u.root, Paths: []string{filepath.Join(p.u.root, filepath.FromSlash(q))},
		AllFiles: true, MaxDepth: 1, MaxFileSize: search.DefaultMaxFileSize})
	if err != nil {
		return nil, fmt.Errorf("index: listing %s: %w", q, err)
	}
	for _, f := range files {
		d := path.Dir(f.Path)
		view(d).files[f.Path] = f
		if d != q {
			view(q).dirs[d] = true
		}
	}
	for _, s := range skipped {
		if s.Reason == search.SkipDepth {
			d := path.Dir(s.Path)
			view(d).dirs[s.Path] = true
			view(q).dirs[d] = true
		}
	}
	for sub := range view(q).dirs {
		p.lists[sub] = view(sub)
	}
	if dir == "." {
		p.lists["."] = view(".")
	}
	if _, ok := p.lists[dir]; !ok {
		p.lists[dir] = view(dir) // not walked, or empty
	}
	return p.lists[dir], nil
}

// subdirs lists the subdirectories of dir that a watch or a stat pass
// follows: those the build's walk enters and, at the root (where an
// empty one is not known to the walk), every directory that is not
// hidden, vendored or build output (a change in one the walk would pass
// over is passed over when it is planned).
func (p *planner) subdirs(dir string) ([]string, error) {
	l, err := p.list(dir)
	if err != nil {
		return nil, err
	}
	subs := map[string]bool{}
	for d := range l.dirs {
		if !inSkippedDir(d + "/x") {
			subs[d] = true
		}
	}
	if dir == "." {
		entries, err := os.ReadDir(p.u.root)
		if err != nil {
			return nil, fmt.Errorf("index: reading %s: %w", p.u.root, err)
		}
		for _, e := range entries {
			if n := e.Name(); e.IsDir() && !strings.HasPrefix(n, ".") && !skipDirs[n] {
				subs[n] = true
			}
		}
	}
	return slices.Sorted(mapKeys(subs)), nil
}

// walked reports whether the build's walk enters directory dir.
func (p *planner) walked(dir string) (bool, error) {
	if p.u.dirs[dir] || dir == "." {
		return true, nil
	}
	if inSkippedDir(dir + "/x") {
		return false, nil
	}
	parent := path.Dir(dir)
	ok, err := p.walked(parent)
	if err != nil || !ok {
		return false, err
	}
	l, err := p.list(parent)
	if err != nil {
		return false, err
	}
	return l.dirs[dir], nil
}

// add plans one changed path; full reports that the whole index must be
// rebuilt (a manifest or an ignore file changed).
func (p *planner) add(rel string) (full bool, err error) {
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	base := path.Base(rel)
	if base == ".gitignore" || base == ".ignore" {
		return true, nil
	}
	dirOK, err := p.walked(path.Dir(rel))
	if err != nil || !dirOK {
		return false, err
	}
	abs := filepath.Join(p.u.root, filepath.FromSlash(rel))
	fi, statErr := os.Lstat(abs)
	if manifest.IsManifest(rel) && !inSkippedDir(rel) {
		if errors.Is(statErr, fs.ErrNotExist) {
			return true, nil // a manifest deleted: perhaps a package gone
		}
		l, err := p.list(path.Dir(rel))
		if err != nil {
			return false, err
		}
		if _, ok := l.files[rel]; ok {
			return true, nil
		}
	}
	switch {
	case statErr != nil:
		p.gone = append(p.gone, rel) // its rows leave with the files not kept
		return false, nil
	case fi.IsDir():
		return p.addDir(rel)
	}
	l, err := p.list(path.Dir(rel))
	if err != nil {
		return false, err
	}
	if f, ok := l.files[rel]; ok {
		p.source(f)
	}
	return false, nil
}

// addDir plans a directory created or changed: every file below it the
// build's walk would index. A manifest or an ignore file among them
// rebuilds the whole index (full).
func (p *planner) addDir(rel string) (full bool, err error) {
	l, err := p.list(path.Dir(rel))
	if err != nil {
		return false, err
	}
	if !l.dirs[rel] {
		return false, nil
	}
	files, skipped, err := search.Files(p.ctx, search.Options{Root: p.u.root, Paths: []string{filepath.Join(p.u.root, filepath.FromSlash(rel))},
		AllFiles: true, MaxFileSize: search.DefaultMaxFileSize})
	if err != nil {
		return false, fmt.Errorf("index: listing %s: %w", rel, err)
	}
	for _, s := range skipped {
		if !inSkippedDir(s.Path) {
			p.problems = append(p.problems, s.String())
		}
	}
	dirs := map[string]bool{}
	for _, f := range files {
		if inSkippedDir(f.Path) {
			continue
		}
		if b := path.Base(f.Path); manifest.IsManifest(f.Path) || b == ".gitignore" || b == ".ignore" {
			return true, nil
		}
		for d := path.Dir(f.Path); d != "." && !p.u.dirs[d] && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
		p.source(f)
	}
	if !p.u.dirs[rel] {
		dirs[rel] = true
	}
	p.newDirs = append(p.newDirs, slices.Sorted(mapKeys(dirs))...)
	return false, nil
}

// source plans f when it is a source file the index takes.
func (p *planner) source(f search.File) {
	if p.seen[f.Path] || inSkippedDir(f.Path) || f.Lang == nil || !hasSymbols(f.Lang.Name()) {
		return
	}
	p.seen[f.Path] = true
	p.files = append(p.files, f)
}

// supported reports whether structural_analysis extracts symbols of the
// language.
func hasSymbols(lang string) bool { return slices.Contains(analysis.SupportedLanguages(), lang) }

// racyWindow is how recent a time stamp must be for a stat pass not to
// trust it.
const racyWindow = 2 * time.Second

// stamp is what a stat pass compares: a directory's modification time
// (it changes when an entry is added, removed or renamed in it).
type stamp = int64

// Poll is the stat pass that stands in for watching where there is none,
// run before a query: it stats each indexed file and each directory the
// build's walk enters, and updates the files whose size or modification
// time changed and the entries of the directories whose modification
// time changed, as Update does (with time stamps of the last two
// seconds taken as changed). The first pass rebuilds as Refresh does and
// records the directories. It costs a stat per file and directory, and
// parses no file that did not change.
func (u *Updater) Poll(ctx context.Context) (*Stats, error) {
	u.expect(1)
	defer u.done(1)
	u.mu.Lock()
	if err := u.reopen(); err != nil {
		u.mu.Unlock()
		return nil, err
	}
	if u.stamps == nil {
		defer u.mu.Unlock()
		st, err := u.refresh(ctx)
		if err != nil {
			return nil, err
		}
		stamps := map[string]stamp{}
		if err := u.stampTree(ctx, ".", stamps); err != nil {
			return nil, err
		}
		u.stamps = stamps
		return st, nil
	}
	changed, err := u.stat(ctx)
	u.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return u.update(ctx, changed)
}

// stampTree records the modification times of dir and of every
// directory below it the build's walk enters; u.mu is held.
func (u *Updater) stampTree(ctx context.Context, dir string, stamps map[string]stamp) error {
	p := &planner{u: u, ctx: ctx, lists: map[string]*listing{}}
	todo := []string{dir}
	for len(todo) > 0 {
		d := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		fi, err := os.Lstat(filepath.Join(u.root, filepath.FromSlash(d)))
		if err != nil {
			continue
		}
		stamps[d] = fi.ModTime().UnixNano()
		subs, err := p.subdirs(d)
		if err != nil {
			return err
		}
		todo = append(todo, subs...)
	}
	return nil
}

// stat finds what changed since the last pass: indexed files whose size
// or modification time differ, and the entries of directories whose
// modification time differs (their stamps renewed first, so a change
// made while they are read is found by the next pass); u.mu is held.
func (u *Updater) stat(ctx context.Context) ([]string, error) {
	var changed []string
	// A time stamp this recent may not show a change made within the
	// same tick of the file system's clock (a jiffy, or a second or two
	// on some file systems): such files are hashed and such directories
	// read again, as git treats its racy entries.
	racy := time.Now().Add(-racyWindow).UnixNano()
	rows, err := u.db.QueryContext(ctx, "SELECT path, size, mtime FROM files")
	if err != nil {
		return nil, fmt.Errorf("index: reading files: %w", err)
	}
	for rows.Next() {
		var p string
		var size, mtime int64
		if err := rows.Scan(&p, &size, &mtime); err != nil {
			rows.Close()
			return nil, fmt.Errorf("index: reading files: %w", err)
		}
		fi, err := os.Lstat(filepath.Join(u.root, filepath.FromSlash(p)))
		if err != nil || fi.Size() != size || !sameTime(mtime, fi.ModTime().UnixNano()) || mtime >= racy {
			changed = append(changed, p)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: reading files: %w", err)
	}
	for _, d := range slices.Sorted(mapKeys(u.stamps)) {
		abs := filepath.Join(u.root, filepath.FromSlash(d))
		fi, err := os.Lstat(abs)
		if err != nil {
			delete(u.stamps, d)
			changed = append(changed, d)
			continue
		}
		if m := fi.ModTime().UnixNano(); m == u.stamps[d] && m < racy {
			continue
		}
		u.stamps[d] = fi.ModTime().UnixNano()
		entries, err := os.ReadDir(abs)
		if err != nil {
			return nil, fmt.Errorf("index: reading %s: %w", d, err)
		}
		for _, e := range entries {
			p := path.Join(d, e.Name())
			if _, known := u.stamps[p]; known {
				continue // a directory of its own stamp
			}
			changed = append(changed, p)
			if e.IsDir() {
				if err := u.stampTree(ctx, p, u.stamps); err != nil {
					return nil, err
				}
			}
		}
		// Entries gone from d: its indexed files and directories below.
		for p := range u.stamps {
			if path.Dir(p) == d && p != d {
				if _, err := os.Lstat(filepath.Join(u.root, filepath.FromSlash(p))); err != nil {
					changed = append(changed, p)
				}
			}
		}
	}
	return changed, nil
}
