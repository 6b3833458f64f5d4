package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/loupe-dev/loupe/index"
)

func init() {
	register(&command{
		name:    "index",
		summary: "Build or update the project index (packages, dependencies, symbols) the MCP tools read",
		run:     runIndex,
	})
}

// stallEnv is a test hook: when set to N, loupe index stops after
// writing N files inside its transaction, says so on stderr and waits
// until it is interrupted (or killed), so tests can interrupt a build
// half-way.
const stallEnv = "LOUPE_INDEX_TEST_STALL"

func runIndex(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("index")
	dbFlag := fs.String(0, "db", "PATH", "The database to write (default: DIR/.loupe/index.db)")
	watch := fs.Bool(0, "watch", "After the build, keep the index up with the tree: apply each change as it happens, until interrupted")
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return e.errorf("%v", err)
	}
	if help.set {
		var b strings.Builder
		b.WriteString("Build or update the project index of DIR (default: the current directory): its packages and\ndependencies from every manifest and the symbols of its source files, in SQLite, for the\nproject-index tools of `loupe mcp`. A rebuild parses only the files that changed; with --watch\nthe index then follows every change to the tree until interrupted.\n\nUsage: loupe index [OPTIONS] [DIR]\n\nOptions:\n")
		fs.usage(&b)
		fmt.Fprint(e.stdout, b.String())
		return exitMatch
	}
	if len(fs.args) > 1 {
		return e.errorf("loupe index takes one directory (got %q)", fs.args)
	}
	dir := "."
	if len(fs.args) == 1 {
		dir = fs.args[0]
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return e.errorf("%s is not a directory", dir)
	}
	opts := index.Options{Root: dir, DB: dbFlag.value}
	var bar *progressBar
	if e.stderr == os.Stderr && isTerminal(os.Stderr) {
		bar = &progressBar{e: e}
		opts.Progress = bar.update
	}
	if n, err := strconv.Atoi(e.getenv(stallEnv)); err == nil && n > 0 {
		inner := opts.Progress
		opts.Progress = func(done, total int) {
			if inner != nil {
				inner(done, total)
			}
			if done == n {
				fmt.Fprintln(e.stderr, "loupe index: stalled by "+stallEnv)
				<-ctx.Done()
			}
		}
	}
	st, err := index.Build(ctx, opts)
	bar.clear()
	if err != nil {
		if ctx.Err() != nil {
			return e.errorf("loupe index was interrupted; the previous index is unchanged")
		}
		return e.errorf("%v", err)
	}
	for _, p := range st.Problems {
		fmt.Fprintf(e.stderr, "warning: %s\n", p)
	}
	db := st.DB
	if rel, err := filepath.Rel(".", db); err == nil && !strings.HasPrefix(rel, "..") {
		db = rel
	}
	fmt.Fprintf(e.stdout, "Indexed %d files (%d parsed, %d removed), %d packages, %d symbols in %s: %s\n",
		st.Files, st.Parsed, st.Removed, st.Packages, st.Symbols, st.Duration.Round(time.Millisecond), db)
	if watch.set {
		return watchIndex(ctx, e, opts)
	}
	return exitMatch
}

// watchIndex keeps the index of opts up with its tree until ctx ends,
// saying on stdout what each batch of changes did.
func watchIndex(ctx context.Context, e *env, opts index.Options) int {
	opts.Progress = nil
	u, err := index.NewUpdater(opts)
	if err != nil {
		return e.errorf("%v", err)
	}
	defer u.Close()
	var mu sync.Mutex // the watcher's goroutine reports; e's writers are not shared
	w, err := index.Watch(u, func(st *index.Stats, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			fmt.Fprintf(e.stderr, "warning: %v\n", err)
			return
		}
		for _, p := range st.Problems {
			fmt.Fprintf(e.stderr, "warning: %s\n", p)
		}
		if st.Parsed+st.Removed > 0 {
			fmt.Fprintf(e.stdout, "Updated %d files (%d parsed, %d removed) in %s\n", st.Parsed+st.Removed, st.Parsed, st.Removed, st.Duration.Round(time.Millisecond))
		}
	})
	if err != nil {
		return e.errorf("cannot watch %s: %v", opts.Root, err)
	}
	mu.Lock()
	fmt.Fprintf(e.stdout, "Watching %d directories of %s for changes (interrupt to stop)\n", w.Watched(), opts.Root)
	mu.Unlock()
	<-ctx.Done()
	if err := w.Close(); err != nil {
		return e.errorf("%v", err)
	}
	return exitMatch
}

// progressBar draws a build's progress on a terminal's stderr, at most
// every 100 ms.
type progressBar struct {
	e     *env
	last  time.Time
	shown bool
}

func (b *progressBar) update(done, total int) {
	if now := time.Now(); done == total || now.Sub(b.last) >= 100*time.Millisecond {
		b.last = now
		const width = 30
		filled := width * done / max(total, 1)
		fmt.Fprintf(b.e.stderr, "\rindexing [%s%s] %d/%d files", strings.Repeat("=", filled), strings.Repeat(" ", width-filled), done, total)
		b.shown = true
	}
}

// clear erases the bar (nothing when there is none).
func (b *progressBar) clear() {
	if b != nil && b.shown {
		fmt.Fprint(b.e.stderr, "\r\033[K")
	}
}
