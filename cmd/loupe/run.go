package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/printer"
	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/core/wire"
)

func init() {
	register(&command{
		name:    "run",
		summary: "Search, and optionally rewrite, code with a pattern",
		run:     runRun,
	})
}

// runOptions are the parsed flags of `loupe run`.
type runOptions struct {
	pattern, selector string
	kind              string // --kind: an ESQuery-style kind selector, instead of a pattern
	byKind            bool   // --kind was given
	strictness        pattern.Strictness
	rewrite           *rewrite.Template
	lang              *language.Language
	debugQuery        string
	stdin             bool
	updateAll         bool
	interactive       bool // -i without -U: review each match or rewrite
	filesWithMatches  bool
	json              wire.Style
	colour, heading   bool
	before, after     int
	search            search.Options
	inspect           string           // --inspect granularity
	proj              *project.Project // the project found, nil without one
}

func runUsage(fs *flagSet) string {
	var b strings.Builder
	b.WriteString("Search, and optionally rewrite, code with a pattern (ast-grep's `run`)\n\n")
	b.WriteString("Usage: loupe run [OPTIONS] <--pattern <PATTERN>|--kind <KIND>> [PATHS]...\n\nOptions:\n")
	fs.usage(&b)
	b.WriteString("\nExit status: 0 when something matched, 1 when nothing did, 2 on errors.\n")
	return b.String()
}

func parseRunFlags(e *env, args []string) (*runOptions, bool, error) {
	fs := newFlagSet("run")
	pat := fs.String('p', "pattern", "PATTERN", "AST pattern to match")
	sel := fs.String(0, "selector", "KIND", "AST kind to extract from the pattern, which is then used as context")
	strict := fs.String(0, "strictness", "STRICTNESS", "Pattern strictness: cst, smart (default), ast, relaxed, signature, template").
		choose("cst", "smart", "ast", "relaxed", "signature", "template")
	kind := fs.String('k', "kind", "KIND", "AST kind to match instead of a pattern: an ESQuery-style selector, e.g. 'call_expression > identifier' (combinators ' ' > + ~ and ',', pseudo-classes :has :not :is :nth-child :nth-last-child)")
	rw := fs.String('r', "rewrite", "FIX", "String to replace the matched AST node")
	langF := fs.String('l', "lang", "LANG", "The language of the pattern").suggest(languageNames()...)
	config := fs.String('c', "config", "CONFIG_FILE", "The project configuration file for languageGlobs (default: the sgconfig.yml found upwards, if any)")
	customLangs := addCustomLanguagesFlag(fs)
	debug := fs.Optional("debug-query", "FORMAT", "pattern", "Print the pattern's tree (pattern, ast, cst, sexp) to stderr; needs --lang").
		choose("pattern", "ast", "cst", "sexp")
	walk := addWalkFlags(fs, "Search code read from standard input; needs --lang")
	out := addOutputFlags(fs, "match", "matches", "rewrite")
	heading := fs.String(0, "heading", "WHEN", "When to print the file name as a heading: auto (default), always, never").
		choose("auto", "always", "never")
	around := addContextFlags(fs, "match")
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return nil, false, err
	}
	if help.set {
		fmt.Fprint(e.stdout, runUsage(fs))
		return nil, true, nil
	}
	o := &runOptions{}
	switch {
	case kind.set && pat.set:
		return nil, false, errors.New("the argument '--kind <KIND>' cannot be used with '--pattern <PATTERN>'")
	case kind.set && sel.set:
		return nil, false, errors.New("the argument '--kind <KIND>' cannot be used with '--selector <KIND>'")
	case kind.set && strict.set:
		return nil, false, errors.New("the argument '--kind <KIND>' cannot be used with '--strictness <STRICTNESS>'")
	case !pat.set && !kind.set:
		return nil, false, errors.New("the following required argument was not provided: --pattern <PATTERN> or --kind <KIND>")
	}
	o.pattern, o.selector = pat.value, sel.value
	o.kind, o.byKind = kind.value, kind.set
	if err := out.check(); err != nil {
		return nil, false, err
	}
	if strict.set {
		s, err := pattern.ParseStrictness(strict.value)
		if err != nil {
			return nil, false, fmt.Errorf("invalid value '%s' for '--strictness <STRICTNESS>': %v", strict.value, err)
		}
		o.strictness = s
	}
	// Like ast-grep's run, the project's languageGlobs and custom
	// languages apply when there is a project (found before --lang is
	// read, which may name a custom language); only a named configuration
	// must exist.
	proj, err := project.Find(config.value, ".")
	switch {
	case err == nil:
		o.proj = proj
		applyCustomLanguages(customLangs, proj)
	case config.set || !errors.Is(err, project.ErrNotFound):
		return nil, false, err
	}
	if langF.set {
		l, err := language.Lookup(langF.value)
		if err != nil {
			return nil, false, fmt.Errorf("invalid value '%s' for '--lang <LANG>': %v", langF.value, err)
		}
		o.lang = l
	}
	switch {
	case out.interactive.set && out.json.set:
		return nil, false, errors.New("the argument '--interactive' cannot be used with '--json[=<STYLE>]'")
	case out.interactive.set && out.filesWith.set:
		return nil, false, errors.New("the argument '--interactive' cannot be used with '--files-with-matches'")
	case out.interactive.set && !out.update.set && walk.stdin.set:
		return nil, false, errStdinInteractive
	case out.update.set && !rw.set:
		return nil, false, errors.New("--update-all needs --rewrite <FIX>")
	case debug.set && o.lang == nil:
		return nil, false, errors.New("--debug-query needs --lang <LANG>")
	case walk.stdin.set && o.lang == nil:
		return nil, false, errStdinLang
	}
	if rw.set {
		o.rewrite = rewrite.Compile(rw.value, nil)
	}
	o.debugQuery = debug.value
	o.stdin, o.updateAll, o.filesWithMatches = walk.stdin.set, out.update.set && !out.json.set, out.filesWith.set
	// As in ast-grep, -i with -U accepts everything: it is -U.
	o.interactive = out.interactive.set && !out.update.set
	if out.json.set {
		o.json = wire.Style(out.json.value)
	}
	o.colour = useColour(out.colour.value, e)
	o.inspect = out.inspect.value
	o.heading = heading.value == "always" || (heading.value != "never" && e.tty)
	if o.before, o.after, err = around.lines(); err != nil {
		return nil, false, err
	}
	if o.search, err = walk.options(fs.args, o.lang); err != nil {
		return nil, false, err
	}
	o.search.Cache = walk.cache(e)
	if o.proj != nil {
		o.search.LangGlobs = o.proj.LanguageGlobs
	}
	return o, false, nil
}

// errStdinLang is --stdin without --lang.
var errStdinLang = errors.New("--stdin needs --lang <LANG>")

// errStdinInteractive is --interactive with --stdin.
var errStdinInteractive = errors.New("--interactive cannot review code read from standard input")

// exitStdinInteractive is ast-grep's status for --interactive with
// --stdin.
const exitStdinInteractive = 7

// stdinInteractive reports --interactive with --stdin as ast-grep does.
func (e *env) stdinInteractive() int {
	return e.guidedError(exitStdinInteractive, "Interactive mode is incompatible with parsing code from StdIn.",
		"`--interactive` needs StdIn, but it is used as source code. Please use files as input.",
		"https://ast-grep.github.io/guide/tooling-overview.html#parse-code-from-stdin")
}

func runRun(ctx context.Context, e *env, args []string) int {
	o, done, err := parseRunFlags(e, args)
	if errors.Is(err, errStdinLang) {
		return e.setupError("Language must be specified for code from StdIn.",
			"Please use `--lang` to specify the code language.",
			"https://ast-grep.github.io/guide/tooling-overview.html#parse-code-from-stdin")
	}
	if errors.Is(err, errStdinInteractive) {
		return e.stdinInteractive()
	}
	if err != nil {
		return e.errorf("%v", err)
	}
	if done {
		return exitMatch
	}
	defer closeTreeCache(o.search.Cache)
	trace := newTracer(e.stderr, o.inspect)
	trace.project(o.proj)
	checkCustomLanguages(ctx, e, o.proj)
	pal := palette(o.colour)
	q, code, ok := compileQuery(ctx, e, o, pal)
	if !ok {
		return code
	}
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	r := &runner{o: o, e: e, out: out, pal: pal, trace: trace}
	if o.interactive {
		s, err := newSession(e, out, pal)
		if err != nil {
			return e.errorf("%v", err)
		}
		defer s.close()
		r.session = s
	}
	if o.stdin {
		return r.stdin(ctx, q)
	}
	return r.files(ctx, q)
}

// compileQuery builds the run's query from --pattern (with --selector
// and --strictness) or --kind. With --lang it compiles it at once, to
// refuse a bad query (and print --debug-query) before any file is read;
// without, each language's files are searched with the query compiled
// for it, and a language it does not compile for passed over, as
// ast-grep passes it over. ok is false when the run must end with code.
func compileQuery(ctx context.Context, e *env, o *runOptions, pal printer.Palette) (q runQuery, code int, ok bool) {
	if o.byKind {
		q.kinds = newKindQuery(o.kind)
		if o.lang != nil {
			// As in ast-grep, --debug-query prints nothing of a kind
			// selector: it is not a pattern.
			if _, err := q.kinds.compile(ctx, o.lang); err != nil {
				return q, e.badSelector(err), false
			}
		}
		return q, 0, true
	}
	popts := pattern.Options{Strictness: o.strictness}
	src := o.pattern
	if o.selector != "" {
		popts.Context, popts.Selector, src = o.pattern, o.selector, ""
	}
	// Files lacking the pattern's fixed string are passed over, as
	// ast-grep's run passes them over.
	q.patterns = search.NewPatterns(src, popts, true)
	if o.lang != nil {
		if o.debugQuery != "" && o.debugQuery != "pattern" {
			printDebugTree(ctx, e, o, pal)
		}
		p, err := q.patterns.Compile(ctx, o.lang)
		if err != nil {
			return q, e.errorf("cannot parse the pattern as %s: %v", o.lang.Display(), err), false
		}
		if o.debugQuery == "pattern" {
			fmt.Fprintf(e.stderr, "Debug Pattern:\n%s\n", printer.Pattern(p, pal))
		}
	}
	return q, 0, true
}

// printDebugTree prints --debug-query=ast|cst|sexp: the tree of the
// pattern text parsed as is (metavariables not rewritten), as ast-grep
// prints it.
func printDebugTree(ctx context.Context, e *env, o *runOptions, pal printer.Palette) {
	t, err := o.lang.Parse(ctx, []byte(o.pattern))
	if err != nil {
		fmt.Fprintf(e.stderr, "Error: parse the pattern: %v\n", err)
		return
	}
	switch o.debugQuery {
	case "sexp":
		fmt.Fprintf(e.stderr, "Debug Sexp:\n%s\n", t.Root().SExp())
	case "ast":
		fmt.Fprintf(e.stderr, "Debug AST:\n%s\n", printer.Tree(t.Root(), true, pal))
	case "cst":
		fmt.Fprintf(e.stderr, "Debug CST:\n%s\n", printer.Tree(t.Root(), false, pal))
	}
}

// diffContext is the context of a rewrite's diff: -B lines, by default 3.
func diffContext(before int) int {
	if before > 0 {
		return before
	}
	return 3
}

// runner prints one run's results.
type runner struct {
	o       *runOptions
	e       *env
	out     *bufio.Writer
	pal     printer.Palette
	trace   *tracer
	json    *wire.Writer
	session *session // the -i session, nil without -i
	applied int
	failed  bool
	quit    bool // the session was quit
}

func (r *runner) files(ctx context.Context, q runQuery) int {
	opts := r.o.search
	opts.Prefilter = q.prefilter()
	// Files of no language are counted in the tracing, as ast-grep counts
	// every file it walks.
	opts.AllFiles = r.trace.summary
	ctx = r.trace.runFiles(ctx)
	r.begin()
	var (
		st  search.Stats
		err error
	)
	if r.json != nil {
		// JSON items are rendered on the workers, in parallel, and the
		// trees let go before their files' turn to be printed: they are
		// recycled, since the items hold nothing of them.
		opts.Recycle, opts.Held = true, heldItems
		render := func(fm search.FileMatches) ([]*wire.Items, int64, error) {
			runs := r.encode(fm.File.Path, fm.File.Lang, fm.Matches)
			return runs, itemsSize(runs), nil
		}
		st, err = search.SearchRender(ctx, opts, q.matcherFor(ctx), render, func(_ search.File, runs []*wire.Items) error {
			r.writeItems(runs)
			return r.flush()
		})
	} else {
		st, err = search.Search(ctx, opts, q.matcherFor(ctx), func(fm search.FileMatches) error {
			if r.session != nil {
				return r.review(fm.File.Path, fm.File.Abs, fm.Tree, fm.Matches)
			}
			r.file(fm.File.Path, fm.File.Abs, fm.File.Lang, fm.Tree, fm.Matches)
			return r.flush()
		})
	}
	r.end()
	reportSkipped(r.e.stderr, st.Skipped)
	if err != nil {
		return r.e.errorf("%v", err)
	}
	return r.finish(st.Matches > 0, q)
}

func (r *runner) stdin(ctx context.Context, q runQuery) int {
	src, err := io.ReadAll(r.e.stdin)
	if err != nil {
		return r.e.errorf("read standard input: %v", err)
	}
	p, err := q.compile(ctx, r.o.lang)
	if err != nil {
		return r.e.errorf("%v", err)
	}
	t, err := r.o.lang.Parse(ctx, src)
	if err != nil {
		return r.e.errorf("parse standard input: %v", err)
	}
	ms, err := search.FindAll(ctx, t, p)
	if err != nil {
		return r.e.errorf("%v", err)
	}
	r.begin()
	if len(ms) > 0 {
		r.file("STDIN", "", r.o.lang, t, ms)
	}
	r.end()
	return r.finish(len(ms) > 0, q)
}

func (r *runner) begin() {
	if r.o.json != "" {
		r.json = wire.NewWriter(r.out, r.o.json)
	}
}

func (r *runner) end() {
	if r.json != nil {
		r.json.Close()
	}
}

func (r *runner) flush() error {
	if err := r.out.Flush(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

func (r *runner) finish(matched bool, q runQuery) int {
	if r.quit {
		// As in ast-grep, quitting is no error, and what was accepted
		// is saved.
		r.session.quitMessage()
		return exitMatch
	}
	if r.session != nil {
		r.applied = r.session.applied
	}
	if r.applied > 0 {
		fmt.Fprintf(r.e.stderr, "Applied %d changes\n", r.applied)
	}
	r.trace.files()
	if r.failed {
		return exitError
	}
	if matched {
		return exitMatch
	}
	if r.o.lang != nil && q.patterns != nil {
		if p, err := q.patterns.Compile(context.Background(), r.o.lang); err == nil && p.Root().IsError() {
			fmt.Fprintln(r.e.stderr, "Warning: Pattern contains an ERROR node and may cause unexpected results.")
			fmt.Fprintln(r.e.stderr, "Help: the pattern parsed with errors and matched nothing; check it with --debug-query=ast.")
		}
	}
	return exitNoMatch
}

// encode renders one file's matches as JSON items; it may run on several
// goroutines at once. The matches are described one after the other (a
// rewrite spends the file's matching budget, which is not safe for
// concurrent use), and the descriptions encoded by encodeItems.
func (r *runner) encode(path string, lang *language.Language, ms []search.Match) []*wire.Items {
	ws := make([]wire.Match, len(ms))
	for i, m := range ms {
		var repl *wire.Replacement
		if r.o.rewrite != nil {
			repl = &wire.Replacement{Text: r.o.rewrite.Render(m.Env, m.Node), Start: m.Node.StartByte(), End: m.Node.EndByte()}
		}
		l := lang
		if m.Lang != nil {
			l = m.Lang // code injected in the file
		}
		ws[i] = wire.NewMatch(path, m.Node, m.Env, l.Display(), r.o.before, r.o.after, repl)
	}
	return encodeItems(r.o.json, len(ws), func(it *wire.Items, i int) { it.AddMatch(&ws[i]) })
}

// writeItems writes every item of runs, and frees them.
func (r *runner) writeItems(runs []*wire.Items) {
	for _, it := range runs {
		r.json.WriteItems(it, it.Len())
		it.Free()
	}
}

// file prints (or applies) one file's matches; abs is the file to update
// ("" for standard input, whose update is printed instead). As ast-grep
// prints them, the matches of each region of injected code are a block
// (or a diff) of their own; -U applies all of them at once.
func (r *runner) file(path, abs string, lang *language.Language, t *tree.Tree, ms []search.Match) {
	if !r.o.updateAll && r.json == nil && !r.o.filesWithMatches {
		for len(ms) > 0 {
			n := 1
			for n < len(ms) && ms[n].Node.Tree() == ms[0].Node.Tree() {
				n++
			}
			r.unit(path, abs, lang, t, ms[:n])
			ms = ms[n:]
		}
		return
	}
	r.unit(path, abs, lang, t, ms)
}

// unit prints (or applies) matches of one file, all in its own code or
// all in one region of injected code.
func (r *runner) unit(path, abs string, lang *language.Language, t *tree.Tree, ms []search.Match) {
	switch {
	case r.json != nil:
		r.writeItems(r.encode(path, lang, ms))
	case r.o.filesWithMatches:
		fmt.Fprintln(r.out, r.pal.Path.Paint(path))
	case r.o.rewrite != nil:
		src := t.Source()
		edits := make([]rewrite.Edit, len(ms))
		for i, m := range ms {
			edits[i] = rewrite.Edit{Start: m.Node.StartByte(), End: m.Node.EndByte(), Text: []byte(r.o.rewrite.Render(m.Env, m.Node))}
			if err := m.Env.Budget().Err(); err != nil {
				fmt.Fprintf(r.e.stderr, "Error: %s: rewrite at line %d: %v\n", path, m.Node.StartPoint().Row+1, err)
				r.failed = true
				return
			}
		}
		updated, err := rewrite.Apply(src, edits)
		if err != nil {
			fmt.Fprintf(r.e.stderr, "Error: %s: %v\n", path, err)
			r.failed = true
			return
		}
		if r.o.updateAll && abs == "" {
			r.out.Write(updated)
			return
		}
		if r.o.updateAll {
			if err := rewrite.WriteFile(abs, updated); err != nil {
				fmt.Fprintf(r.e.stderr, "Error: %v\n", err)
				r.failed = true
				return
			}
			r.applied += len(rewrite.Accepted(edits))
			return
		}
		fmt.Fprintln(r.out, r.pal.Path.Paint(path))
		printer.Diff(r.out, string(src), string(updated), diffContext(r.o.before), r.pal)
	default:
		nodes := make([]tree.Node, len(ms))
		for i, m := range ms {
			nodes[i] = m.Node
		}
		mp := printer.Matches{Heading: r.o.heading, Before: r.o.before, After: r.o.after, Palette: r.pal}
		mp.Print(r.out, path, nodes)
	}
}

// osError spells a system error as ast-grep (Rust) does: "No such file
// or directory (os error 2)".
// reportSkipped prints, as ast-grep prints a path it cannot read, the
// files that were selected but could not be searched: missing,
// unreadable (a directory too), not a regular file, too large for a
// grammar module, or failed in the grammar. Binary and non-UTF-8 files
// are passed over silently, as ast-grep does.
func reportSkipped(w io.Writer, skipped []search.Skipped) {
	for _, s := range skipped {
		switch s.Reason {
		case search.SkipMissing, search.SkipUnreadable:
			fmt.Fprintf(w, "ERROR: %s: %s\n", s.Path, osError(s.Err))
		case search.SkipTooLarge, search.SkipParse:
			msg := string(s.Reason)
			if s.Err != nil {
				msg += ": " + s.Err.Error()
			}
			fmt.Fprintf(w, "ERROR: %s: %s\n", s.Path, msg)
		}
	}
}

// osError renders err as Rust's io::Error displays it, as ast-grep
// prints it.
func osError(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		msg := errno.Error()
		if msg != "" {
			msg = strings.ToUpper(msg[:1]) + msg[1:]
		}
		return fmt.Sprintf("%s (os error %d)", msg, int(errno))
	}
	return fmt.Sprint(err)
}
