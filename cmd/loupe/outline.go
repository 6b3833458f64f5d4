package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/outline"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

func init() {
	register(&command{
		name:    "outline",
		summary: "Explore code structure for symbols, imports, exports, and members",
		run:     runOutline,
	})
}

// outlineItems are the values of --items.
var outlineItems = []string{"auto", "structure", "exports", "imports", "all"}

// outlineViews are the values of --view.
var outlineViews = []string{"auto", "names", "signatures", "digest", "expanded"}

// runOutline is `loupe outline [PATHS]`, ast-grep's outline: the items
// (and with the digest and expanded views, the members) of each file.
func runOutline(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet("outline")
	langF := fs.String('l', "lang", "LANG", "Parse only files of this language (required with --stdin)").suggest(outline.Languages()...)
	jsonF := fs.Optional("json", "STYLE", "pretty", "Print outline entries as JSON: pretty (default), stream or compact").choose("pretty", "stream", "compact")
	colour := fs.String(0, "color", "WHEN", "When to use colours: auto (default), always, ansi, never").choose(colourChoices...)
	items := fs.String(0, "items", "ITEMS", "Top-level items: auto (default: structure for files and stdin, exports for directories), structure, exports, imports, all").choose(outlineItems...)
	types := fs.String(0, "type", "TYPE[,TYPE...]", "Keep only top-level items of these symbol types (e.g. class,enum)")
	matchF := fs.String(0, "match", "REGEX", "Keep only top-level items whose name or signature matches REGEX")
	pubMembers := fs.Bool(0, "pub-members", "Show only public members in member views")
	view := fs.String(0, "view", "VIEW", "Text view: auto (default: digest for files and stdin, names for directories), names, signatures, digest, expanded").choose(outlineViews...)
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
	opts, v, err := outlineOptions(items.value, view.value, types.value, matchF, pubMembers.set, dirInput)
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
	o := &outliner{set: set, opts: opts, byLang: map[*language.Language]*outlineLang{}}
	p := outline.NewPrinter(e.stdout, style, v)
	p.SetStyle(outline.Style{
		Colour:           useColour(colour.value, e),
		EmphasizeImports: opts.Imports != outline.Yes,
		EmphasizeExports: opts.Exported != outline.Yes,
	})
	if walk.stdin.set {
		return o.stdin(ctx, e, lang, p)
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
	origins := newPathOrigins(fs.args)
	st, err := search.Run(ctx, sopts, search.Job[*outline.File]{
		Want: func(f search.File) (bool, error) { return lang != nil || f.Named || set.Has(f.Lang), nil },
		Visit: func(ctx context.Context, f search.File, t *tree.Tree) (*outline.File, int64, error) {
			its, err := o.extract(ctx, f.Lang, t)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %w", f.Path, err)
			}
			if dirInput && len(its) == 0 {
				return nil, 0, nil
			}
			return &outline.File{Path: origins.spell(f), Language: f.Lang.Display(), Items: its}, int64(len(its)) * 256, nil
		},
		Deliver: func(_ search.File, f *outline.File) error {
			if f == nil {
				return nil
			}
			return p.File(f)
		},
	})
	reportSkipped(e.stderr, st.Skipped)
	if err != nil {
		return e.errorf("%v", err)
	}
	if err := p.Finish(); err != nil {
		return e.errorf("%v", err)
	}
	return exitMatch
}

// outlineOptions resolves --items, --view, --type, --match and
// --pub-members as ast-grep does: auto is structure and digest for files
// and standard input, exports and names when a directory is given.
func outlineOptions(items, view, types string, matchF *flagSpec, pub, dirInput bool) (outline.Options, outline.View, error) {
	var o outline.Options
	if items == "" || items == "auto" {
		items = map[bool]string{true: "exports", false: "structure"}[dirInput]
	}
	if view == "" || view == "auto" {
		view = map[bool]string{true: "names", false: "digest"}[dirInput]
	}
	v, err := outline.ParseView(view)
	if err != nil {
		return o, 0, err
	}
	switch items {
	case "structure":
		o.Imports = outline.No
	case "imports":
		o.Imports = outline.Yes
	case "exports":
		o.Exported = outline.Yes
	}
	if types != "" {
		o.Types = []string{}
		for _, raw := range strings.Split(types, ",") {
			s, ok := outline.ParseSymbolType(strings.TrimSpace(raw))
			if !ok {
				return o, 0, fmt.Errorf("Unknown outline symbol type `%s`", strings.TrimSpace(raw))
			}
			o.Types = append(o.Types, s)
		}
	}
	if matchF.set {
		re, err := regexp.Compile(matchF.value)
		if err != nil {
			return o, 0, fmt.Errorf("Cannot parse outline item matcher: %w", err)
		}
		o.Match = re
	}
	o.ItemSignatures = v != outline.Names
	o.Members = v == outline.Digest || v == outline.Expanded
	o.MemberSignatures = v == outline.Expanded
	if pub {
		o.Public = outline.Yes
	}
	return o, v, nil
}

// outliner compiles the extractors of each language once, on first use;
// it is safe for concurrent use.
type outliner struct {
	set    *outline.RuleSet
	opts   outline.Options
	mu     sync.Mutex
	byLang map[*language.Language]*outlineLang
}

type outlineLang struct {
	once sync.Once
	x    *outline.Extractor
	err  error
}

// extract returns the items of t, none for a language without
// extractors.
func (o *outliner) extract(ctx context.Context, lang *language.Language, t *tree.Tree) ([]outline.Item, error) {
	o.mu.Lock()
	c := o.byLang[lang]
	if c == nil {
		c = &outlineLang{}
		o.byLang[lang] = c
	}
	o.mu.Unlock()
	c.once.Do(func() { c.x, c.err = o.set.Compile(ctx, lang, o.opts) })
	if c.err != nil || c.x == nil {
		return nil, c.err
	}
	return c.x.Extract(ctx, t)
}

func (o *outliner) stdin(ctx context.Context, e *env, lang *language.Language, p *outline.Printer) int {
	src, err := io.ReadAll(e.stdin)
	if err != nil {
		return e.errorf("read standard input: %v", err)
	}
	t, err := lang.Parse(ctx, src)
	if err != nil {
		return e.errorf("parse standard input: %v", err)
	}
	its, err := o.extract(ctx, lang, t)
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

// pathOrigins spells a file's path as ast-grep's outline prints it: the
// path argument it was found under joined with the path below it, as
// written ("./" kept: `outline .` prints ./a.go), where run drops the
// leading "./".
type pathOrigins struct {
	args, abs []string
}

func newPathOrigins(args []string) *pathOrigins {
	if len(args) == 0 {
		args = []string{"."}
	}
	o := &pathOrigins{}
	for _, a := range args {
		abs, err := filepath.Abs(a)
		if err != nil {
			continue
		}
		o.args, o.abs = append(o.args, a), append(o.abs, abs)
	}
	return o
}

func (o *pathOrigins) spell(f search.File) string {
	for i, abs := range o.abs {
		if f.Abs == abs {
			return o.args[i]
		}
		rel, ok := strings.CutPrefix(f.Abs, abs+string(filepath.Separator))
		if abs == string(filepath.Separator) {
			rel, ok = strings.CutPrefix(f.Abs, abs)
		}
		if !ok {
			continue
		}
		a := o.args[i]
		if !strings.HasSuffix(a, "/") {
			a += "/"
		}
		return a + filepath.ToSlash(rel)
	}
	return f.Path
}
