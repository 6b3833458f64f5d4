package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/printer"
	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/core/wire"
)

func init() {
	register(&command{
		name:    "parse",
		summary: "Print the syntax tree of a file",
		run:     runParse,
	})
}

func runParse(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("parse")
	langFlag := fs.String('l', "lang", "LANG", "The language of the file (default: from its extension)").suggest(languageNames()...)
	format := fs.String(0, "format", "FORMAT", "Output format: sexp (default), json, ast or cst").choose("sexp", "json", "ast", "cst")
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return e.errorf("%v", err)
	}
	if help.set {
		var b strings.Builder
		b.WriteString("Print the syntax tree of a file\n\nUsage: loupe parse [OPTIONS] FILE\n\nOptions:\n")
		fs.usage(&b)
		fmt.Fprint(e.stdout, b.String())
		return exitMatch
	}
	if len(fs.args) != 1 {
		return e.errorf("loupe parse takes exactly one FILE (\"-\" for standard input with --lang)")
	}
	path := fs.args[0]
	// The project around, if any, adds its custom languages.
	if proj, err := project.Find("", "."); err == nil {
		printProjectWarnings(e, proj)
	}
	var lang *language.Language
	if langFlag.set {
		l, err := language.Lookup(langFlag.value)
		if err != nil {
			return e.errorf("%v", err)
		}
		lang = l
	} else if path != "-" {
		l, ok := language.ForPath(filepath.Base(path))
		if !ok {
			return e.errorf("cannot tell the language of %s from its extension; pass --lang", path)
		}
		lang = l
	} else {
		return e.errorf("reading standard input needs --lang")
	}
	var src []byte
	var err error
	if path == "-" {
		src, err = io.ReadAll(e.stdin)
	} else {
		src, err = os.ReadFile(path)
	}
	if err != nil {
		return e.errorf("read %s: %v", path, err)
	}
	t, err := lang.Parse(ctx, src)
	if err != nil {
		return e.errorf("parse %s: %v", path, err)
	}
	switch format.value {
	case "json":
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(newTreeJSON(t.Root())); err != nil {
			return e.errorf("%v", err)
		}
	case "ast", "cst":
		fmt.Fprint(e.stdout, printer.Tree(t.Root(), format.value == "ast", printer.Palette{}))
	default:
		fmt.Fprintln(e.stdout, t.Root().SExp())
	}
	return exitMatch
}

// treeJSON is a subtree as nested objects: kind, named, field (when the
// node has one), missing (when inserted by error recovery), range (as in
// run --json) and children (when any).
type treeJSON struct {
	Kind     string     `json:"kind"`
	Named    bool       `json:"named"`
	Field    string     `json:"field,omitempty"`
	Missing  bool       `json:"missing,omitempty"`
	Range    wire.Range `json:"range"`
	Children []treeJSON `json:"children,omitempty"`
}

func newTreeJSON(n tree.Node) treeJSON {
	t := treeJSON{Kind: n.Kind(), Named: n.IsNamed(), Field: n.Field(), Missing: n.IsMissing(), Range: wire.NodeRange(n)}
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		t.Children = append(t.Children, newTreeJSON(c))
	}
	return t
}
