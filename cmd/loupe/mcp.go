package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/cmd/loupe/mcp"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools"
)

func init() {
	register(&command{
		name:    "mcp",
		summary: "Serve loupe's tools over MCP (stdio)",
		run:     runMCP,
	})
}

func runMCP(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("mcp")
	root := fs.String('w', "workspace", "DIR", "The workspace root no path may leave (default: the current directory)")
	agTimeout := fs.String(0, "ast-grep-timeout", "DURATION", "Time limit of one ast_grep call (default 30s)")
	saTimeout := fs.String(0, "analysis-timeout", "DURATION", "Time limit of one structural_analysis call (default 60s)")
	indexFlag := fs.String(0, "index", "PATH", "The project index the project-index tools read (default: WORKSPACE/.loupe/index.db when it exists; build it with `loupe index`)")
	readOnly := fs.Bool(0, "read-only", "Serve only the tools that change nothing (for a client that does not ask its user before a write)")
	noCache := fs.Bool(0, "no-cache", "Keep parsed trees in memory only, not in the tree cache (see loupe cache)")
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return e.errorf("%v", err)
	}
	if help.set {
		var b strings.Builder
		b.WriteString("Serve loupe's tools over MCP on stdin/stdout; the server stops when stdin closes\n\nUsage: loupe mcp [OPTIONS]\n\nOptions:\n")
		fs.usage(&b)
		fmt.Fprint(e.stdout, b.String())
		return exitMatch
	}
	if len(fs.args) > 0 {
		return e.errorf("loupe mcp takes no arguments (got %q)", fs.args)
	}
	cfg := tools.Config{Workspace: root.value}
	if cfg.Workspace == "" {
		wd, err := os.Getwd()
		if err != nil {
			return e.errorf("%v", err)
		}
		cfg.Workspace = wd
	}
	for _, t := range []struct {
		flag *flagSpec
		dst  *time.Duration
	}{{agTimeout, &cfg.AstGrepTimeout}, {saTimeout, &cfg.AnalysisTimeout}} {
		if !t.flag.set {
			continue
		}
		d, err := time.ParseDuration(t.flag.value)
		if err != nil || d <= 0 {
			return e.errorf("--%s: expected a positive duration such as 30s, got %q", t.flag.long, t.flag.value)
		}
		*t.dst = d
	}
	serveIndex := true
	if indexFlag.set {
		cfg.Index = indexFlag.value
		if _, err := os.Stat(cfg.Index); err != nil {
			return e.errorf("no project index at %s: build it first with `loupe index --db %s %s`", cfg.Index, cfg.Index, cfg.Workspace)
		}
	} else if path := tools.IndexPath(cfg); !fileExists(path) {
		// No index to serve: the project-index tools, which could only
		// fail, are left out (and so out of the instructions).
		serveIndex = false
		fmt.Fprintf(e.stderr, "loupe mcp: no project index at %s (run `loupe index` to build one); serving without the project-index tools\n", path)
	}
	// The index served keeps up with the tree: the file tools' writes
	// update it before they return, and the changes of others are
	// watched (or found by a stat pass before each query).
	cfg.WatchIndex = serveIndex
	defer tools.CloseIndexes()
	ts, err := tools.New(cfg)
	if err != nil {
		return e.errorf("%v", err)
	}
	if !serveIndex {
		ts = slices.DeleteFunc(ts, func(t *tools.Tool) bool { return t.Category == tools.ProjectIndex })
	}
	// The tools parse through search.Default: with the persistent store
	// under it, the server starts warm on code parsed before.
	if c := treeCache(e, noCache.set); c != nil {
		search.Default.SetStore(c.Store())
		defer func() {
			search.Default.SetStore(nil)
			closeTreeCache(c)
		}()
	}
	if readOnly.set {
		ts = slices.DeleteFunc(ts, func(t *tools.Tool) bool { return !t.Hints().ReadOnly })
	}
	err = mcp.NewServer(buildVersion(), ts).Run(ctx, mcp.NewTransport(e.stdin, e.stdout, 0))
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return e.errorf("%v", err)
	}
	return exitMatch
}
