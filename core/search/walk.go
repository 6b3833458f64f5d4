package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/search/ignore"
	"github.com/loupe-dev/loupe/host"
	"github.com/loupe-dev/loupe/internal/safefs"
)

// Files returns the files a search with opts would look at, sorted by
// path, and the named paths and files passed over on the way (missing
// paths, files over the size cap, unreadable directories, symlinks out of
// the workspace). Reading file contents (binary, encoding) happens in
// Search. The error is fatal: invalid options, or a path outside the
// workspace, which is refused before anything is read.
func Files(ctx context.Context, opts Options) ([]File, []Skipped, error) {
	w, err := newWalker(&opts)
	if err != nil {
		return nil, nil, err
	}
	if w.root != nil {
		defer w.root.Close()
	}
	if err := w.run(ctx); err != nil {
		return nil, nil, err
	}
	if opts.Shard.Count > 1 {
		if opts.Shard.Index < 0 || opts.Shard.Index >= opts.Shard.Count {
			return nil, nil, fmt.Errorf("shard index %d out of range for %d shards", opts.Shard.Index, opts.Shard.Count)
		}
		w.files = opts.Shard.keep(w.files)
		w.skipped = slices.DeleteFunc(w.skipped, func(s Skipped) bool { return !opts.Shard.keepsPath(s.Path) })
	}
	return w.files, w.skipped, nil
}

type walker struct {
	opts *Options
	ws   *Workspace
	// root, with a workspace, is where directories are listed and
	// described: through handles opened inside it, never by a path a
	// concurrent swap could lead out.
	root     *safefs.Root
	override *ignore.Override
	langs    *LanguageTable
	hosts    []*language.Language // with Lang and Injections: the languages whose files may hold code of Lang
	cwd      string
	maxSize  int64
	roots    []walkRoot

	wg      sync.WaitGroup
	sem     chan struct{}
	mu      sync.Mutex
	files   []File
	skipped []Skipped
}

// walkRoot is one path argument, resolved.
type walkRoot struct {
	abs  string // absolute path
	disp string // display prefix ("" for the root)
	arg  string // as given
}

func newWalker(opts *Options) (*walker, error) {
	w := &walker{opts: opts, maxSize: host.MaxInput}
	if opts.MaxFileSize > 0 && opts.MaxFileSize < w.maxSize {
		w.maxSize = opts.MaxFileSize
	}
	var err error
	if w.override, err = ignore.NewOverride(opts.Globs); err != nil {
		return nil, fmt.Errorf("globs: %w", err)
	}
	if w.langs, err = NewLanguageTable(opts.LangGlobs); err != nil {
		return nil, err
	}
	if opts.Lang != nil && opts.Injections {
		w.hosts = language.Hosts(opts.Lang)
	}
	if opts.Root == "" {
		// Only needed to spell paths without a workspace; GOOS=js in a
		// browser has no working directory.
		if w.cwd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("working directory: %w", err)
		}
	}
	paths := opts.Paths
	if opts.Root != "" {
		ws, err := OpenWorkspace(opts.Root)
		if err != nil {
			return nil, err
		}
		w.ws = &ws
		if len(paths) == 0 {
			paths = []string{""}
		}
		// Every path is checked before any is walked.
		for _, p := range paths {
			abs, rel, err := ws.Resolve(p)
			if errors.Is(err, ErrOutsideWorkspace) {
				return nil, err
			}
			if err != nil {
				w.skip(displayArg(p), SkipMissing, unwrapPathErr(err))
				continue
			}
			w.roots = append(w.roots, walkRoot{abs: abs, disp: rel, arg: p})
		}
		if w.root, err = safefs.Open(ws.Root()); err != nil {
			return nil, fmt.Errorf("workspace root: %w", err)
		}
		return w, nil
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("path %q: %w", p, err)
		}
		w.roots = append(w.roots, walkRoot{abs: abs, disp: displayArg(p), arg: p})
	}
	return w, nil
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// displayArg is how a path argument prefixes the paths below it: "./"
// dropped, as ast-grep strips it.
func displayArg(p string) string {
	switch {
	case p == "." || p == "./":
		return ""
	case strings.HasPrefix(p, "./"):
		return strings.TrimLeft(p[2:], "/")
	}
	return filepath.ToSlash(p)
}

func joinDisp(prefix, name string) string {
	if prefix == "" {
		return name
	}
	if strings.HasSuffix(prefix, "/") {
		return prefix + name
	}
	return prefix + "/" + name
}

func (w *walker) skip(path string, r SkipReason, err error) {
	w.mu.Lock()
	w.skipped = append(w.skipped, Skipped{Path: path, Reason: r, Err: err})
	w.mu.Unlock()
}

func (w *walker) add(f File) {
	w.mu.Lock()
	w.files = append(w.files, f)
	w.mu.Unlock()
}

func (w *walker) run(ctx context.Context) error {
	w.sem = make(chan struct{}, w.opts.threads())
	for _, r := range w.roots {
		fi, err := w.stat(r.abs)
		if errors.Is(err, safefs.ErrOutside) {
			w.skip(r.disp, SkipOutside, nil)
			continue
		}
		if err != nil {
			w.skip(r.disp, SkipMissing, unwrapPathErr(err))
			continue
		}
		switch {
		case fi.Mode().IsRegular():
			w.namedFile(r, fi)
		case fi.IsDir():
			j := dirJob{abs: r.abs, disp: r.disp, parent: w.parentLevels(r.abs)}
			if w.opts.Follow {
				if j.real, err = filepath.EvalSymlinks(r.abs); err != nil {
					w.skip(r.disp, SkipUnreadable, unwrapPathErr(err))
					continue
				}
				j.ancestors = []string{j.real}
			}
			w.spawn(ctx, j)
		default:
			// A fifo, socket or device given by name: never opened (a
			// fifo would block the read until a writer came).
			w.skip(r.disp, SkipUnreadable, errNotRegular)
		}
	}
	w.wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("walk: %w", err)
	}
	sortFiles(w.files)
	w.files = dedupe(w.files)
	sort.SliceStable(w.skipped, func(i, j int) bool { return pathLess(w.skipped[i].Path, w.skipped[j].Path) })
	return nil
}

// namedFile handles a file given as a path argument: no ignore, glob or
// hidden rule applies, only the language.
func (w *walker) namedFile(r walkRoot, fi fs.FileInfo) {
	disp := r.disp
	if disp == "" {
		disp = filepath.Base(r.abs)
	}
	lang := w.langs.forName(filepath.Base(r.abs))
	if !w.wantLang(lang) {
		w.skip(disp, SkipLanguage, nil)
		return
	}
	if fi.Size() > w.maxSize {
		w.skip(disp, SkipTooLarge, nil)
		return
	}
	w.add(File{Path: disp, Abs: r.abs, Lang: lang, Size: fi.Size(), Named: true})
}

type dirJob struct {
	abs, disp string
	parent    *level
	depth     int // directory levels below the search path
	// With Follow: the directory's real path and those of the directories
	// above it, to refuse a link back up (a loop).
	real      string
	ancestors []string
}

func (w *walker) spawn(ctx context.Context, j dirJob) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		select {
		case w.sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		defer func() { <-w.sem }()
		if ctx.Err() != nil {
			return
		}
		w.walkDir(ctx, j)
	}()
}

// inRoot is real, a path with no link in it, relative to the workspace
// root.
func (w *walker) inRoot(real string) (string, error) {
	rel, ok := relTo(w.ws.Root(), real)
	if !ok {
		return "", safefs.ErrOutside
	}
	return filepath.FromSlash(rel), nil
}

// stat describes the file at real (a path with no link in it): through
// the workspace's root when there is one.
func (w *walker) stat(real string) (fs.FileInfo, error) {
	if w.root == nil {
		return os.Stat(real)
	}
	rel, err := w.inRoot(real)
	if err != nil {
		return nil, err
	}
	return w.root.Stat(rel)
}

// readDir lists the directory at real (a path with no link in it).
func (w *walker) readDir(real string) ([]fs.DirEntry, error) {
	if w.root == nil {
		return os.ReadDir(real)
	}
	rel, err := w.inRoot(real)
	if err != nil {
		return nil, err
	}
	return w.root.ReadDir(rel)
}

func (w *walker) walkDir(ctx context.Context, j dirJob) {
	dir := j.abs
	if j.real != "" {
		dir = j.real
	}
	entries, err := w.readDir(dir)
	if errors.Is(err, safefs.ErrOutside) {
		w.skip(j.disp, SkipOutside, nil)
		return
	}
	if err != nil && len(entries) == 0 {
		w.skip(j.disp, SkipUnreadable, unwrapPathErr(err))
		return
	}
	lvl := w.loadLevel(j.abs, j.parent, entries)
	for _, e := range entries {
		name := e.Name()
		abs := filepath.Join(j.abs, name)
		disp := joinDisp(j.disp, name)
		typ := e.Type()
		isDir := typ.IsDir()
		// special: a fifo, socket or device, never opened (a fifo would
		// wait for a writer) but reported when it would have been
		// searched as a file: nothing is skipped in silence.
		special := false
		real := ""
		if typ&fs.ModeSymlink != 0 {
			if !w.opts.Follow {
				continue
			}
			target, err := filepath.EvalSymlinks(abs)
			if err != nil {
				w.skip(disp, SkipUnreadable, unwrapPathErr(err))
				continue
			}
			if w.ws != nil && !w.ws.Contains(target) {
				w.skip(disp, SkipOutside, nil)
				continue
			}
			fi, err := w.stat(target)
			if errors.Is(err, safefs.ErrOutside) {
				w.skip(disp, SkipOutside, nil)
				continue
			}
			if err != nil {
				w.skip(disp, SkipUnreadable, unwrapPathErr(err))
				continue
			}
			isDir = fi.IsDir()
			special = !isDir && !fi.Mode().IsRegular()
			real = target
		} else if !isDir && !typ.IsRegular() {
			special = true
		}
		if isDir && (name == ".git" || (name == "node_modules" && !w.opts.NodeModules)) {
			continue
		}
		if !w.selected(lvl, abs, disp, name, isDir) {
			continue
		}
		if isDir {
			if w.opts.MaxDepth > 0 && j.depth >= w.opts.MaxDepth {
				w.skip(disp, SkipDepth, nil)
				continue
			}
			sub := dirJob{abs: abs, disp: disp, parent: lvl, depth: j.depth + 1}
			if w.opts.Follow {
				sub.real = real
				if sub.real == "" {
					sub.real = filepath.Join(j.real, name)
				}
				if loops(j.ancestors, sub.real) {
					continue
				}
				sub.ancestors = append(append([]string(nil), j.ancestors...), sub.real)
			}
			w.spawn(ctx, sub)
			continue
		}
		lang := w.langs.forName(name)
		if !w.wantLang(lang) {
			continue
		}
		if special {
			w.skip(disp, SkipUnreadable, errNotRegular)
			continue
		}
		var size int64
		if real != "" {
			fi, err := w.stat(real)
			if err != nil {
				w.skip(disp, SkipUnreadable, unwrapPathErr(err))
				continue
			}
			size = fi.Size()
		} else {
			fi, err := e.Info()
			if err != nil {
				w.skip(disp, SkipUnreadable, unwrapPathErr(err))
				continue
			}
			size = fi.Size()
		}
		if size > w.maxSize {
			w.skip(disp, SkipTooLarge, nil)
			continue
		}
		if real == "" {
			real = abs
			if j.real != "" {
				real = filepath.Join(j.real, name)
			}
		}
		w.add(File{Path: disp, Abs: real, Lang: lang, Size: size})
	}
}

// wantLang reports whether a file of lang (nil: none known) is selected.
func (w *walker) wantLang(lang *language.Language) bool {
	if w.opts.Lang != nil {
		return lang == w.opts.Lang || lang != nil && slices.Contains(w.hosts, lang)
	}
	return lang != nil || w.opts.AllFiles
}

func loops(ancestors []string, real string) bool {
	for _, a := range ancestors {
		if a == real {
			return true
		}
	}
	return false
}

// selected applies, in ripgrep's order of precedence: the globs, then
// the ignore files, then the language's file types, then the hidden rule,
// which a positive match of any earlier step overrides.
func (w *walker) selected(lvl *level, abs, disp, name string, isDir bool) bool {
	whitelisted := false
	switch w.override.Match(w.globPath(disp), isDir) {
	case ignore.Ignore:
		return false
	case ignore.Whitelist:
		whitelisted = true
	default:
		switch lvl.match(abs, isDir) {
		case ignore.Ignore:
			return false
		case ignore.Whitelist:
			whitelisted = true
		}
		if !isDir && w.opts.Lang != nil {
			if !w.selectsType(name) {
				return false
			}
			whitelisted = true
		}
	}
	if !whitelisted && !w.opts.Hidden && strings.HasPrefix(name, ".") {
		return false
	}
	return true
}

// selectsType reports whether name is of Lang's file types, or of those
// of a language whose files may hold code of Lang.
func (w *walker) selectsType(name string) bool {
	if w.langs.selects(w.opts.Lang, name) {
		return true
	}
	for _, h := range w.hosts {
		if w.langs.selects(h, name) {
			return true
		}
	}
	return false
}

// globPath is the path globs are matched against: File.Path, made
// relative to the working directory when it is an absolute path under it.
func (w *walker) globPath(disp string) string {
	if w.ws == nil && filepath.IsAbs(disp) {
		if rel, ok := relTo(w.cwd, filepath.FromSlash(disp)); ok {
			return rel
		}
	}
	return disp
}

// level holds the ignore rules of one directory; levels chain to the
// parent directory's.
type level struct {
	parent  *level
	dir     string
	dot     *ignore.Rules // .ignore
	git     *ignore.Rules // .gitignore
	exclude *ignore.Rules // .git/info/exclude
	hasGit  bool          // the directory holds .git: a repository root
	anyGit  bool          // hasGit here or in a parent
}

// match applies the ignore files from the nearest directory up: for each
// kind the nearest file that matches decides, .ignore before .gitignore
// before .git/info/exclude; git's files count only inside a repository
// and only up to its root.
func (l *level) match(abs string, isDir bool) ignore.Result {
	if l == nil {
		return ignore.None
	}
	var mDot, mGit, mExcl ignore.Result
	sawGit := false
	for c := l; c != nil; c = c.parent {
		if c.dot == nil && c.git == nil && c.exclude == nil {
			sawGit = sawGit || c.hasGit
			continue
		}
		rel, ok := relTo(c.dir, abs)
		if !ok {
			continue
		}
		if mDot == ignore.None && c.dot != nil {
			mDot = c.dot.Match(rel, isDir)
		}
		if l.anyGit && !sawGit {
			if mGit == ignore.None && c.git != nil {
				mGit = c.git.Match(rel, isDir)
			}
			if mExcl == ignore.None && c.exclude != nil {
				mExcl = c.exclude.Match(rel, isDir)
			}
		}
		sawGit = sawGit || c.hasGit
	}
	for _, m := range []ignore.Result{mDot, mGit, mExcl} {
		if m != ignore.None {
			return m
		}
	}
	return ignore.None
}

// loadLevel reads the ignore files of dir, given its entries.
func (w *walker) loadLevel(dir string, parent *level, entries []fs.DirEntry) *level {
	var has struct{ dot, git, gitDir bool }
	for _, e := range entries {
		switch e.Name() {
		case ".ignore":
			has.dot = true
		case ".gitignore":
			has.git = true
		case ".git":
			has.gitDir = true
		}
	}
	return w.newLevel(dir, parent, has.dot, has.git, has.gitDir)
}

func (w *walker) newLevel(dir string, parent *level, dot, git, gitDir bool) *level {
	l := &level{parent: parent, dir: dir, hasGit: gitDir}
	l.anyGit = gitDir || w.opts.NoRequireGit || (parent != nil && parent.anyGit)
	off := w.opts.NoIgnore
	if dot && off&IgnoreDot == 0 {
		l.dot = w.readRules(filepath.Join(dir, ".ignore"))
	}
	if git && off&IgnoreVCS == 0 {
		l.git = w.readRules(filepath.Join(dir, ".gitignore"))
	}
	if gitDir && off&(IgnoreVCS|IgnoreExclude) == 0 {
		l.exclude = w.readRules(filepath.Join(dir, ".git", "info", "exclude"))
	}
	if l.dot == nil && l.git == nil && l.exclude == nil && !l.hasGit {
		// Nothing here: share the parent's level.
		if parent != nil {
			return parent
		}
	}
	return l
}

// readRules reads an ignore file; a missing or unreadable one has no
// rules, and bad lines are dropped, as git does.
func (w *walker) readRules(path string) *ignore.Rules {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	r, _ := ignore.Parse(data)
	if r.Len() == 0 {
		return nil
	}
	return r
}

// parentLevels loads the ignore files of the directories above a search
// directory, from the file-system root down.
func (w *walker) parentLevels(dir string) *level {
	if w.opts.NoIgnore&IgnoreParent != 0 {
		return nil
	}
	var dirs []string
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	var l *level
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		l = w.newLevel(d, l, exists(filepath.Join(d, ".ignore")), exists(filepath.Join(d, ".gitignore")),
			exists(filepath.Join(d, ".git")))
	}
	return l
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// pathLess orders slash-separated paths component by component, so that
// "a/b" sorts before "a.ts" as a depth-first walk would list them.
func pathLess(a, b string) bool {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		if ca == '/' {
			return true
		}
		if cb == '/' {
			return false
		}
		return ca < cb
	}
	return len(a) < len(b)
}

func sortFiles(fs []File) {
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].Path != fs[j].Path {
			return pathLess(fs[i].Path, fs[j].Path)
		}
		return fs[i].Abs < fs[j].Abs
	})
}

// dedupe drops files reached twice (overlapping path arguments), keeping
// the first in order.
func dedupe(fs []File) []File {
	seen := make(map[string]bool, len(fs))
	out := fs[:0]
	for _, f := range fs {
		if seen[f.Abs] {
			continue
		}
		seen[f.Abs] = true
		out = append(out, f)
	}
	return out
}

// ComparePaths orders slash-separated paths as search results are ordered
// (component by component, see pathLess): -1, 0 or +1 as a sorts before,
// equal to or after b.
func ComparePaths(a, b string) int {
	switch {
	case a == b:
		return 0
	case pathLess(a, b):
		return -1
	}
	return 1
}
