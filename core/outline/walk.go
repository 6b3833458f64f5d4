package outline

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// The values of Query.Items and Query.View, as ast-grep's --items and
// --view take them.
var (
	ItemChoices = []string{"auto", "structure", "exports", "imports", "all"}
	ViewChoices = []string{"auto", "names", "signatures", "digest", "expanded"}
)

// Query is what an outline is asked for, in the words of ast-grep's
// flags: every face (the CLI, the outline tool) resolves it here.
type Query struct {
	// Items is auto (structure for files, exports for directories),
	// structure, exports, imports or all.
	Items string
	// View is auto (digest for files, names for directories), names,
	// signatures, digest or expanded.
	View string
	// Types keeps only items of these symbol types, comma-separated
	// ("class,enum"); "" keeps all.
	Types string
	// Match, when not nil, keeps only items whose name or signature this
	// regular expression matches (the empty one, every item, still makes
	// items carry their signatures).
	Match *string
	// PubMembers keeps only public members.
	PubMembers bool
}

// Resolve returns the Options and View q asks for, auto resolved as
// ast-grep does: structure and digest when files (or standard input) are
// outlined, exports and names when a directory is.
func (q Query) Resolve(dirInput bool) (Options, View, error) {
	var o Options
	items, view := q.Items, q.View
	if items == "" || items == "auto" {
		items = map[bool]string{true: "exports", false: "structure"}[dirInput]
	}
	if view == "" || view == "auto" {
		view = map[bool]string{true: "names", false: "digest"}[dirInput]
	}
	v, err := ParseView(view)
	if err != nil {
		return o, 0, err
	}
	switch items {
	case "structure":
		o.Imports = No
	case "imports":
		o.Imports = Yes
	case "exports":
		o.Exported = Yes
	case "all":
	default:
		return o, 0, fmt.Errorf("unknown outline items %q (%s)", items, strings.Join(ItemChoices, ", "))
	}
	if q.Types != "" {
		o.Types = []string{}
		for _, raw := range strings.Split(q.Types, ",") {
			s, ok := ParseSymbolType(strings.TrimSpace(raw))
			if !ok {
				return o, 0, fmt.Errorf("Unknown outline symbol type `%s`", strings.TrimSpace(raw))
			}
			o.Types = append(o.Types, s)
		}
	}
	if q.Match != nil {
		re, err := regexp.Compile(*q.Match)
		if err != nil {
			return o, 0, fmt.Errorf("Cannot parse outline item matcher: %w", err)
		}
		o.Match = re
	}
	o.ItemSignatures = v != Names
	o.Members = v == Digest || v == Expanded
	o.MemberSignatures = v == Expanded
	if q.PubMembers {
		o.Public = Yes
	}
	return o, v, nil
}

// Outliner outlines trees and files with a rule set's extractors for one
// Options, compiling each language's extractors once, on first use. It is
// safe for concurrent use.
type Outliner struct {
	set    *RuleSet
	opts   Options
	mu     sync.Mutex
	byLang map[*language.Language]*compiledLang
}

type compiledLang struct {
	once sync.Once
	x    *Extractor
	err  error
}

// NewOutliner returns an Outliner of set's extractors for opts.
func NewOutliner(set *RuleSet, opts Options) *Outliner {
	return &Outliner{set: set, opts: opts, byLang: map[*language.Language]*compiledLang{}}
}

// Extract returns the items of t, a tree of lang; none for a language
// without extractors.
func (o *Outliner) Extract(ctx context.Context, lang *language.Language, t *tree.Tree) ([]Item, error) {
	o.mu.Lock()
	c := o.byLang[lang]
	if c == nil {
		c = &compiledLang{}
		o.byLang[lang] = c
	}
	o.mu.Unlock()
	c.once.Do(func() { c.x, c.err = o.set.Compile(ctx, lang, o.opts) })
	if c.err != nil || c.x == nil {
		return nil, c.err
	}
	return c.x.Extract(ctx, t)
}

// Walk is how a set of files is outlined.
type Walk struct {
	// SkipEmpty leaves out files without items, as ast-grep does when a
	// directory is outlined.
	SkipEmpty bool
	// Path spells a delivered file's path; nil keeps search.File.Path.
	Path func(search.File) string
}

// Walk outlines the files opts selects through the one per-file pipeline
// (core/search: walk, ignore files, screen, tree cache, parse) and
// delivers each one's outline in path order. Files of a language without
// extractors are not read, unless opts.Lang is set or the file is named
// in opts.Paths (they are then outlined as having no items). What the
// pipeline passes over is in the returned Stats.Skipped.
func (o *Outliner) Walk(ctx context.Context, opts search.Options, w Walk, deliver func(*File) error) (search.Stats, error) {
	return search.Run(ctx, opts, search.Job[*File]{
		Want: func(f search.File) (bool, error) { return opts.Lang != nil || f.Named || o.set.Has(f.Lang), nil },
		Visit: func(ctx context.Context, f search.File, t *tree.Tree) (*File, int64, error) {
			its, err := o.Extract(ctx, f.Lang, t)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %w", f.Path, err)
			}
			if w.SkipEmpty && len(its) == 0 {
				return nil, 0, nil
			}
			path := f.Path
			if w.Path != nil {
				path = w.Path(f)
			}
			return &File{Path: path, Language: f.Lang.Display(), Items: its}, int64(len(its)) * 256, nil
		},
		Deliver: func(_ search.File, f *File) error {
			if f == nil {
				return nil
			}
			return deliver(f)
		},
	})
}

// ArgPaths returns a Walk.Path that spells a file's path as ast-grep's
// outline prints it: the path argument it was found under joined with
// the path below it, as written ("./" kept: `outline .` prints ./a.go,
// where run drops the leading "./"). No args means ".".
func ArgPaths(args []string) func(search.File) string {
	if len(args) == 0 {
		args = []string{"."}
	}
	var given, abs []string
	for _, a := range args {
		p, err := filepath.Abs(a)
		if err != nil {
			continue
		}
		given, abs = append(given, a), append(abs, p)
	}
	return func(f search.File) string {
		for i, root := range abs {
			if f.Abs == root {
				return given[i]
			}
			rel, ok := strings.CutPrefix(f.Abs, root+string(filepath.Separator))
			if root == string(filepath.Separator) {
				rel, ok = strings.CutPrefix(f.Abs, root)
			}
			if !ok {
				continue
			}
			a := given[i]
			if !strings.HasSuffix(a, "/") {
				a += "/"
			}
			return a + filepath.ToSlash(rel)
		}
		return f.Path
	}
}
