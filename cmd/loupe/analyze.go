package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/analysis"
)

func init() {
	register(&command{
		name:    "analyze",
		summary: "Structural analysis: callers, callees, definitions, hierarchy, references, dependencies, exports",
		run:     runAnalyze,
	})
}

// runAnalyze is `loupe analyze MODE [SYMBOL | TARGET] [flags]`, the
// structural_analysis tool on the command line: the same parameters, the
// same text an LLM reads (or, with --json, the structured result).
func runAnalyze(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("analyze")
	lang := fs.String('l', "lang", "LANG", "Language of the code (required): "+strings.Join(analysis.SupportedLanguages(), ", ")).
		suggest(analysis.SupportedLanguages()...)
	pathF := fs.String('p', "path", "PATH", "File or directory to search (default: the workspace root)")
	depth := fs.String('d', "depth", "N", "Levels for callers, callees and hierarchy (default 1, max 5)")
	maxNodes := fs.String(0, "max-nodes", "N", "Maximum symbols visited, or items per reference category (default 50)")
	target := fs.String('t', "target", "TARGET", "File or directory for dependencies and exports (or give it after MODE)")
	reverse := fs.Bool('r', "reverse", "dependencies: also list the files importing the target")
	root := fs.String('w', "workspace", "DIR", "The workspace root no path may leave (default: the current directory)")
	timeout := fs.String(0, "timeout", "DURATION", "Time limit of the analysis (default 60s)")
	jsonOut := fs.Bool(0, "json", "Print the result as JSON")
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return e.errorf("%v", err)
	}
	if help.set {
		var b strings.Builder
		b.WriteString("Structural analysis over syntax trees: multi-hop, through imports, scope and the types code writes down, else by name (no type checker)\n\n")
		b.WriteString("Usage: loupe analyze MODE [SYMBOL | TARGET] --lang LANG [OPTIONS]\n\n")
		b.WriteString("Modes: " + strings.Join(analysis.Modes, ", ") + "\n")
		b.WriteString("SYMBOL names a function, method or type (callers, callees, definitions, hierarchy, references);\n")
		b.WriteString("TARGET a file or directory (dependencies, exports).\n\nOptions:\n")
		fs.usage(&b)
		fmt.Fprint(e.stdout, b.String())
		return exitMatch
	}
	if len(fs.args) == 0 || len(fs.args) > 2 {
		return e.errorf("usage: loupe analyze MODE [SYMBOL | TARGET] --lang LANG (modes: %s)", strings.Join(analysis.Modes, ", "))
	}
	p := analysis.Params{Mode: fs.args[0], Language: lang.value, Path: pathF.value, Target: target.value, Reverse: reverse.set}
	if len(fs.args) == 2 {
		if p.Mode == analysis.ModeDependencies || p.Mode == analysis.ModeExports {
			p.Target = fs.args[1]
		} else {
			p.Symbol = fs.args[1]
		}
	}
	var err error
	if p.Depth, err = depth.Int(); err != nil {
		return e.errorf("%v", err)
	}
	if p.MaxNodes, err = maxNodes.Int(); err != nil {
		return e.errorf("%v", err)
	}
	cfg := analysis.Config{Workspace: root.value}
	if cfg.Workspace == "" {
		if cfg.Workspace, err = os.Getwd(); err != nil {
			return e.errorf("%v", err)
		}
	}
	if timeout.set {
		if cfg.Timeout, err = time.ParseDuration(timeout.value); err != nil || cfg.Timeout <= 0 {
			return e.errorf("--timeout: expected a positive duration such as 30s, got %q", timeout.value)
		}
	}
	tool, err := analysis.New(cfg)
	if err != nil {
		return e.errorf("%v", err)
	}
	res, err := tool.Run(ctx, p)
	if err != nil {
		return e.errorf("%v", err)
	}
	if jsonOut.set {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return e.errorf("%v", err)
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		fmt.Fprint(e.stdout, res.Text())
	}
	if res.Empty() {
		return exitNoMatch
	}
	return exitMatch
}
