package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/outline"
)

func init() {
	register(&command{
		name:    "outline",
		summary: "Explore code structure for symbols, imports, exports, and members",
		run:     runOutline,
	})
}

// runOutline is `loupe outline [PATHS]`, ast-grep's outline: the items
// (and with the digest and expanded views, the members) of each file.
func runOutline(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("outline")
	langF := fs.String('l', "lang", "LANG", "Parse only files of this language (required with --stdin)").suggest(outline.Languages()...)
	jsonF := fs.Optional("json", "STYLE", "pretty", "Print outline entries as JSON: pretty (default), stream or compact").choose("pretty", "stream", "compact")
	colour := fs.String(0, "color", "WHEN", "When to use colours: auto (default), always, ansi, never").choose(colourChoices...)
	items := fs.String(0, "items", "ITEMS", "Top-level items: auto (default: structure for files and stdin, exports for directories), structure, exports, imports, all").choose(outline.ItemChoices...)
	types := fs.String(0, "type", "TYPE[,TYPE...]", "Keep only top-level items of these symbol types (e.g. class,enum)")
	matchF := fs.String(0, "match", "REGEX", "Keep only top-level items whose name or signature matches REGEX")
	pubMembers := fs.Bool(0, "pub-members", "Show only public members in member views")
	view := fs.String(0, "view", "VIEW", "Text view: auto (default: digest for files and stdin, names for directories), names, signatures, digest, expanded").choose(outline.ViewChoices...)
	ruleFiles := fs.List(0, "outline-rules", "FILE", "Load more outline extractors from an outline rule file (repeatable)")
	noDefault := fs.Bool(0, "no-default-outline-rules", "Do not load the built-in outline extractors")
	walk := addWalkFlags(fs, "Outline code read from standard input (needs --lang)")
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return e.errorf("%v", err)
	}
	if help.set {
		var b strings.Builder
		b.WriteString("Explore code structure for symbols, imports, exports, and members\n\n")
		b.WriteString("Usage: loupe outline [OPTIONS] [PATHS]...\n\n")
		b.WriteString("Languages: " + strings.Join(outline.Languages(), ", ") + "\n\nOptions:\n")
		fs.usage(&b)
		fmt.Fprint(e.stdout, b.String())
		return exitMatch
	}
	var lang *language.Language
	if langF.set {
		l, err := language.Lookup(langF.value)
		if err != nil {
			return e.errorf("invalid value '%s' for '--lang <LANG>': %v", langF.value, err)
		}
		lang = l
	}
	if walk.stdin.set && lang == nil {
		return e.errorf("%v", errStdinLang)
	}
	dirInput := false
	if !walk.stdin.set {
		paths := fs.args
		if len(paths) == 0 {
			paths = []string{"."}
		}
		for _, p := range paths {
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				dirInput = true
			}
		}
	}
	q := outline.Query{Items: items.value, View: view.value, Types: types.value, PubMembers: pubMembers.set}
	if matchF.set {
		q.Match = &matchF.value
	}
	opts, v, err := q.Resolve(dirInput)
	if err != nil {
		return e.errorf("%v", err)
	}
	set := outline.Default()
	if noDefault.set {
		set = outline.Empty()
	}
	for _, f := range ruleFiles.values {
		src, err := os.ReadFile(f)
		if err != nil {
			return e.errorf("Cannot read outline rules %s: %v", f, err)
		}
		if err := set.Add(src); err != nil {
			return e.errorf("Cannot parse outline rules %s: %v", f, err)
		}
	}
	style := ""
	if jsonF.set {
		style = jsonF.value
	}
	o := outline.NewOutliner(set, opts)
	p := outline.NewPrinter(e.stdout, style, v)
	p.SetStyle(outline.Style{
		Colour:           useColour(colour.value, e),
		EmphasizeImports: opts.Imports != outline.Yes,
		EmphasizeExports: opts.Exported != outline.Yes,
	})
	if walk.stdin.set {
		return outlineStdin(ctx, e, o, lang, p)
	}
	if lang == nil && len(set.Languages()) == 0 {
		if err := p.Finish(); err != nil {
			return e.errorf("%v", err)
		}
		return exitMatch
	}
	sopts, err := walk.options(fs.args, lang)
	if err != nil {
		return e.errorf("%v", err)
	}
	sopts.Cache = walk.cache(e)
	defer closeTreeCache(sopts.Cache)
	st, err := o.Walk(ctx, sopts, outline.Walk{SkipEmpty: dirInput, Path: outline.ArgPaths(fs.args)}, p.File)
	reportSkipped(e.stderr, st.Skipped)
	if err != nil {
		return e.errorf("%v", err)
	}
	if err := p.Finish(); err != nil {
		return e.errorf("%v", err)
	}
	return exitMatch
}

// outlineStdin outlines the code on standard input as the file STDIN.
func outlineStdin(ctx context.Context, e *env, o *outline.Outliner, lang *language.Language, p *outline.Printer) int {
	src, err := io.ReadAll(e.stdin)
	if err != nil {
		return e.errorf("read standard input: %v", err)
	}
	t, err := lang.Parse(ctx, src)
	if err != nil {
		return e.errorf("parse standard input: %v", err)
	}
	its, err := o.Extract(ctx, lang, t)
	if err != nil {
		return e.errorf("%v", err)
	}
	if err := p.File(&outline.File{Path: "STDIN", Language: lang.Display(), Items: its}); err != nil {
		return e.errorf("%v", err)
	}
	if err := p.Finish(); err != nil {
		return e.errorf("%v", err)
	}
	return exitMatch
}
