package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/loupe-dev/loupe/cmd/loupe/lsp"
	"github.com/loupe-dev/loupe/core/project"
)

func init() {
	register(&command{
		name:    "lsp",
		summary: "Start the language server (ast-grep's, over stdio)",
		run:     runLSP,
	})
}

func runLSP(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("lsp")
	config := fs.String('c', "config", "CONFIG_FILE", "The project configuration file (default: the sgconfig.yml found upwards)")
	customLangs := addCustomLanguagesFlag(fs)
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return e.errorf("%v", err)
	}
	if help.set {
		var b strings.Builder
		b.WriteString("Start the language server: the project's rule diagnostics, quick fixes and notes for an editor,\n")
		b.WriteString("over LSP on stdin/stdout (ast-grep's `lsp`)\n\nUsage: loupe lsp [OPTIONS]\n\nOptions:\n")
		fs.usage(&b)
		b.WriteString("\nThe rules come from the sgconfig.yml found in the current folder or a parent.\n")
		fmt.Fprint(e.stdout, b.String())
		return exitMatch
	}
	if len(fs.args) > 0 {
		return e.errorf("loupe lsp takes no arguments (got %q)", fs.args)
	}
	proj, err := project.Find(config.value, ".")
	if errors.Is(err, project.ErrNotFound) {
		return e.noProject()
	}
	if err != nil {
		return e.errorf("%v", err)
	}
	applyCustomLanguages(customLangs, proj)
	checkCustomLanguages(ctx, e, proj)
	wd, err := os.Getwd()
	if err != nil {
		return e.errorf("working directory: %v", err)
	}
	return lsp.Serve(ctx, stdio{e.stdin, e.stdout}, lsp.Config{
		Project: proj,
		Dir:     wd,
		Name:    "loupe language server",
		Version: buildVersion(),
	})
}

// stdio is the server's stream: it reads the client's messages from r
// and writes its own to w.
type stdio struct {
	r io.Reader
	w io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.r.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.w.Write(p) }

// Close closes standard input, so that a read under way ends.
func (s stdio) Close() error {
	if c, ok := s.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
