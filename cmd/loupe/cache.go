package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/treecache"
)

func init() {
	register(&command{
		name:        "cache",
		summary:     "Show or clear the persistent tree cache",
		run:         runCache,
		subcommands: cacheActions,
	})
}

// cacheActions are what `loupe cache` does.
var cacheActions = []subcommand{
	{"clear", "Remove every cached tree"},
	{"show", "Print where the cache is, its size and entries (the default)"},
}

func runCache(_ context.Context, e *env, args []string) int {
	fs := newFlagSet("cache")
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return e.errorf("%v", err)
	}
	if help.set {
		var b strings.Builder
		b.WriteString("Show or clear the persistent tree cache\n\n")
		b.WriteString("run and scan keep the trees they parse in a folder, keyed by grammar and file content,\n")
		b.WriteString("so that a later search of unchanged files reads them instead of parsing them again.\n")
		b.WriteString("It holds no source text. " + treecache.EnvDir + " names the folder (default: loupe/trees\n")
		b.WriteString("in the user cache folder); " + treecache.EnvOff + "=1 or --no-cache turns it off.\n\n")
		b.WriteString("Usage: loupe cache [show|clear]\n\nCommands:\n")
		for _, a := range cacheActions {
			fmt.Fprintf(&b, "  %-6s %s\n", a.name, a.summary)
		}
		b.WriteString("\nOptions:\n")
		fs.usage(&b)
		fmt.Fprint(e.stdout, b.String())
		return exitMatch
	}
	action := "show"
	switch len(fs.args) {
	case 0:
	case 1:
		action = fs.args[0]
	default:
		return e.errorf("loupe cache takes one command: show or clear")
	}
	dir, err := treecache.DefaultDir(e.getenv)
	if err != nil {
		return e.errorf("%v", err)
	}
	switch action {
	case "show", "clear":
	default:
		return e.errorf("unknown cache command %q: use show or clear", action)
	}
	st, err := treecache.Open(dir, treecache.DefaultLimit)
	if err != nil {
		return e.errorf("%v", err)
	}
	if action == "clear" {
		if err := st.Clear(); err != nil {
			return e.errorf("%v", err)
		}
		fmt.Fprintf(e.stdout, "Cleared %s\n", dir)
		return exitMatch
	}
	u, err := st.Usage()
	if err != nil {
		return e.errorf("%v", err)
	}
	state := "on"
	if treecache.Off(e.getenv) {
		state = "off (" + treecache.EnvOff + " is set)"
	}
	fmt.Fprintf(e.stdout, "Tree cache: %s\nLocation: %s\nEntries: %d\nSize: %s of %s\n",
		state, dir, u.Entries, mebibytes(u.Bytes), mebibytes(st.Limit()))
	return exitMatch
}

// mebibytes renders n bytes in MiB with one decimal.
func mebibytes(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// treeCache returns the tree cache run and scan search through: the
// persistent store under a cache that keeps nothing in memory (each file
// is searched once), or nil (parse every file) with --no-cache, when the
// environment turns the store off, or when it cannot be opened (which
// only costs parsing). The store is also the languages' name store
// (language.SetNameStore; none without it), and is trimmed by
// closeTreeCache.
func treeCache(e *env, noCache bool) *search.Cache {
	var st *treecache.Store
	if !noCache {
		st, _ = treecache.OpenDefault(e.getenv)
	}
	if st == nil {
		language.SetNameStore(nil)
		return nil
	}
	c := search.NewCache(0)
	c.SetStore(st)
	language.SetNameStore(st)
	return c
}

// closeTreeCache trims the store under c, if any, as its last user in
// this process.
func closeTreeCache(c *search.Cache) {
	if c == nil || c.Store() == nil {
		return
	}
	// A store that cannot be trimmed is trimmed by the next process.
	_ = c.Store().Close()
}
