package main

import (
	"errors"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/printer"
	"github.com/loupe-dev/loupe/core/search"
)

// walkFlags are the file-selection flags run and scan share, as ast-grep
// spells them.
type walkFlags struct {
	follow, noIgnore, stdin, globs, threads, noCache *flagSpec
}

// ignoreKinds are the values of --no-ignore.
var ignoreKinds = []string{"hidden", "dot", "exclude", "global", "parent", "vcs"}

// addWalkFlags declares the shared file-selection flags; stdinHelp says
// what --stdin means for the command.
func addWalkFlags(fs *flagSet, stdinHelp string) *walkFlags {
	return &walkFlags{
		follow:   fs.Bool(0, "follow", "Follow symbolic links"),
		noIgnore: fs.List(0, "no-ignore", "FILE_TYPE", "Do not respect hidden files or ignore files: "+strings.Join(ignoreKinds, ", ")).choose(ignoreKinds...),
		stdin:    fs.Bool(0, "stdin", stdinHelp),
		globs:    fs.List(0, "globs", "GLOBS", "Include or exclude (with !) file paths; repeatable, later globs win"),
		threads:  fs.String('j', "threads", "NUM", "Number of threads (0: one per CPU)"),
		noCache:  fs.Bool(0, "no-cache", "Parse every file instead of reading and keeping trees in the tree cache (see loupe cache)"),
	}
}

// cache returns the tree cache the flags and the environment select (see
// treeCache).
func (w *walkFlags) cache(e *env) *search.Cache { return treeCache(e, w.noCache.set) }

// options checks the flags and returns the search options they select over
// paths, restricted to lang when it is set.
func (w *walkFlags) options(paths []string, lang *language.Language) (search.Options, error) {
	n, err := w.threads.Int()
	if err != nil {
		return search.Options{}, err
	}
	o := search.Options{
		Paths:       paths,
		Globs:       w.globs.values,
		Lang:        lang,
		Follow:      w.follow.set,
		Threads:     n,
		NodeModules: true, // ast-grep skips node_modules only through ignore files
	}
	for _, v := range w.noIgnore.values {
		switch v {
		case "hidden":
			o.Hidden = true
		case "dot":
			o.NoIgnore |= search.IgnoreDot
		case "exclude":
			o.NoIgnore |= search.IgnoreExclude
		case "parent":
			o.NoIgnore |= search.IgnoreParent
		case "vcs":
			o.NoIgnore |= search.IgnoreVCS
		}
	}
	return o, nil
}

// outputFlags are the output flags run and scan share (ast-grep's
// OutputArgs): -i, -U, --files-with-matches, --json, --color and
// --inspect.
type outputFlags struct {
	interactive, update, filesWith, json, colour, inspect *flagSpec
}

// addOutputFlags declares the shared output flags; noun and nouns name
// what the command reports ("match", "matches") and fix what -U applies.
func addOutputFlags(fs *flagSet, noun, nouns, fix string) *outputFlags {
	return &outputFlags{
		interactive: fs.Bool('i', "interactive", "Review each "+noun+" in the terminal, accepting or skipping each "+fix),
		update:      fs.Bool('U', "update-all", "Apply every "+fix+" without confirmation"),
		filesWith:   fs.Bool(0, "files-with-matches", "Print only the paths of files with a "+noun),
		json:        fs.Optional("json", "STYLE", "pretty", "Print "+nouns+" as JSON: pretty (default), stream or compact").choose("pretty", "stream", "compact"),
		colour:      fs.String(0, "color", "WHEN", "When to use colours: auto (default), always, ansi, never").choose(colourChoices...),
		inspect:     fs.String(0, "inspect", "GRANULARITY", "Trace file and rule discovery on stderr: nothing (default), summary, entity").choose(inspectLevels...),
	}
}

// colourChoices are the values of --color.
var colourChoices = []string{"auto", "always", "ansi", "never"}

// useColour decides colour for --color WHEN as ast-grep does: auto means
// a terminal, TERM set and not "dumb", and NO_COLOR unset.
func useColour(when string, e *env) bool {
	switch when {
	case "always", "ansi":
		return true
	case "never":
		return false
	}
	term := e.getenv("TERM")
	return e.tty && term != "" && term != "dumb" && e.getenv("NO_COLOR") == ""
}

// palette is the output's palette: coloured or plain.
func palette(colour bool) printer.Palette {
	if colour {
		return printer.Coloured()
	}
	return printer.Palette{}
}

// check refuses the combinations both commands refuse.
func (o *outputFlags) check() error {
	if o.filesWith.set && (o.json.set || o.update.set) {
		return errors.New("--files-with-matches cannot be used with --json or --update-all")
	}
	return nil
}

// contextFlags are -A, -B and -C.
type contextFlags struct {
	after, before, around *flagSpec
}

// addContextFlags declares -A/-B/-C; noun is what they surround.
func addContextFlags(fs *flagSet, noun string) *contextFlags {
	return &contextFlags{
		after:  fs.String('A', "after", "NUM", "Show NUM lines after each "+noun),
		before: fs.String('B', "before", "NUM", "Show NUM lines before each "+noun),
		around: fs.String('C', "context", "NUM", "Show NUM lines around each "+noun),
	}
}

// lines returns the lines to show before and after; -C overrides both.
func (c *contextFlags) lines() (before, after int, err error) {
	if after, err = c.after.Int(); err != nil {
		return 0, 0, err
	}
	if before, err = c.before.Int(); err != nil {
		return 0, 0, err
	}
	around, err := c.around.Int()
	if err != nil {
		return 0, 0, err
	}
	if around > 0 {
		before, after = around, around
	}
	return before, after, nil
}
