package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/loupe-dev/loupe/core/printer"
	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/scan"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/wire"
)

func init() {
	register(&command{
		name:    "scan",
		summary: "Scan and rewrite code with YAML rules",
		run:     runScan,
	})
}

// scanOptions are the parsed flags of `loupe scan`.
type scanOptions struct {
	ruleFile, inline, config string
	customLangs              *flagSpec // --custom-languages
	json                     wire.Style
	format                   string // --format: github or sarif, "" for none
	includeMetadata          bool
	reportStyle              printer.ReportStyle
	selection                project.Selection
	updateAll                bool // apply the fixes (-U, unless another output is asked for)
	fixAll                   bool // -U: findings are fixes to apply, not errors to fail on
	interactive              bool // -i without -U: review each fix and finding
	stdin                    bool
	filesWithMatches         bool
	colour                   bool
	inspect                  string // --inspect granularity
	before, after            int
	maxResults               int
	search                   search.Options
}

// severityFlags are the severities, each also a flag --SEVERITY[=RULE_ID],
// in the order ast-grep applies those flags: a later one wins.
var severityFlags = []string{"error", "warning", "info", "hint", "off"}

// addSeverityFlags declares the repeatable --SEVERITY[=RULE_ID] flags.
func addSeverityFlags(fs *flagSet) map[string]*flagSpec {
	flags := map[string]*flagSpec{}
	for _, s := range severityFlags {
		help := "Set the severity of rule RULE_ID (repeatable; without one, of every rule) to " + s
		if s == "off" {
			help = "Turn off rule RULE_ID (repeatable; without one, every rule)"
		}
		flags[s] = fs.Optional(s, "RULE_ID", "", help)
	}
	return flags
}

// severities are the overrides the severity flags give, as ast-grep reads
// them: the flags in severityFlags order, a later one winning; a flag
// with rule ids sets those rules, one without sets every rule.
func severities(flags map[string]*flagSpec) project.Severities {
	o := project.Severities{ByID: map[string]rule.Severity{}}
	for _, s := range severityFlags {
		f := flags[s]
		if !f.set {
			continue
		}
		all := true
		for _, id := range f.values {
			if id != "" {
				o.ByID[id] = rule.Severity(s)
				all = false
			}
		}
		if all {
			o.All = rule.Severity(s)
		}
	}
	return o
}

func scanUsage(fs *flagSet) string {
	var b strings.Builder
	b.WriteString("Scan and rewrite code by configuration (ast-grep's `scan`)\n\n")
	b.WriteString("Usage: loupe scan [OPTIONS] [PATHS]...\n\nOptions:\n")
	fs.usage(&b)
	b.WriteString("\nWithout --rule or --inline-rules the rules come from the sgconfig.yml found in the\n")
	b.WriteString("current folder or a parent (ruleDirs, utilDirs, languageGlobs).\n")
	b.WriteString("\nExit status: 0 when no error-severity rule fired, 1 when one did, 2 on errors.\n")
	return b.String()
}

func parseScanFlags(e *env, args []string) (*scanOptions, bool, error) {
	fs := newFlagSet("scan")
	ruleF := fs.String('r', "rule", "RULE_FILE", "Scan with the rules of RULE_FILE instead of the project's")
	inline := fs.String(0, "inline-rules", "RULE_TEXT", "Scan with rules given as YAML text (documents separated by ---)")
	format := fs.String(0, "format", "FORMAT", "Print findings for a platform: github (workflow commands) or sarif (SARIF 2.1.0)").
		choose("github", "sarif")
	report := fs.String(0, "report-style", "STYLE", "Diagnostic style: rich (default), medium or short").choose("rich", "medium", "short")
	meta := fs.Bool(0, "include-metadata", "Include each rule's metadata in the JSON output (needs --json to show)")
	filter := fs.String(0, "filter", "REGEX", "Scan only with the rules whose ids match REGEX")
	minSev := fs.String(0, "min-severity", "SEVERITY", "Skip rules below this severity: off (default), hint, info, warning, error").
		choose(severityFlags...)
	config := fs.String('c', "config", "CONFIG_FILE", "The project configuration file (default: the sgconfig.yml found upwards)")
	customLangs := addCustomLanguagesFlag(fs)
	sevFlags := addSeverityFlags(fs)
	walk := addWalkFlags(fs, "Scan code read from standard input (the rules' language)")
	out := addOutputFlags(fs, "finding", "findings", "fix")
	around := addContextFlags(fs, "finding")
	maxResults := fs.String(0, "max-results", "NUM", "Report at most NUM findings")
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return nil, false, err
	}
	if help.set {
		fmt.Fprint(e.stdout, scanUsage(fs))
		return nil, true, nil
	}
	if err := out.check(); err != nil {
		return nil, false, err
	}
	switch {
	case ruleF.set && inline.set:
		return nil, false, errors.New("the argument '--rule <RULE_FILE>' cannot be used with '--inline-rules <RULE_TEXT>'")
	case filter.set && ruleF.set:
		return nil, false, errors.New("the argument '--filter <REGEX>' cannot be used with '--rule <RULE_FILE>'")
	case format.set && out.json.set:
		return nil, false, errors.New("the argument '--format <FORMAT>' cannot be used with '--json[=<STYLE>]'")
	case out.interactive.set && out.json.set:
		return nil, false, errors.New("the argument '--interactive' cannot be used with '--json[=<STYLE>]'")
	case out.interactive.set && format.set:
		return nil, false, errors.New("the argument '--interactive' cannot be used with '--format <FORMAT>'")
	case out.interactive.set && out.filesWith.set:
		return nil, false, errors.New("the argument '--interactive' cannot be used with '--files-with-matches'")
	case out.interactive.set && !out.update.set && walk.stdin.set:
		return nil, false, errStdinInteractive
	case report.set && out.json.set:
		return nil, false, errors.New("--report-style cannot be used with --json")
	}
	o := &scanOptions{
		ruleFile: ruleF.value, inline: inline.value, config: config.value, customLangs: customLangs,
		includeMetadata: meta.set, reportStyle: printer.Rich, selection: project.Selection{Severities: severities(sevFlags)},
		stdin: walk.stdin.set, filesWithMatches: out.filesWith.set,
		updateAll: out.update.set && !out.json.set && !format.set,
		fixAll:    out.update.set,
		// As in ast-grep, -i with -U accepts everything: it is -U.
		interactive: out.interactive.set && !out.update.set,
		colour:      useColour(out.colour.value, e),
		inspect:     out.inspect.value,
	}
	// As in ast-grep, --files-with-matches wins over --format.
	if format.set && !out.filesWith.set {
		o.format = format.value
	}
	if report.set {
		o.reportStyle = printer.ReportStyle(report.value)
	}
	if out.json.set {
		o.json = wire.Style(out.json.value)
	}
	if minSev.set {
		o.selection.MinSeverity = rule.Severity(minSev.value)
	}
	if filter.set {
		re, err := regexp.Compile(filter.value)
		if err != nil {
			return nil, false, fmt.Errorf("invalid value '%s' for '--filter <REGEX>': %v", filter.value, err)
		}
		o.selection.Filter = re
	}
	var err error
	if o.before, o.after, err = around.lines(); err != nil {
		return nil, false, err
	}
	if o.maxResults, err = maxResults.Int(); err != nil {
		return nil, false, err
	}
	if o.search, err = walk.options(fs.args, nil); err != nil {
		return nil, false, err
	}
	o.search.Cache = walk.cache(e)
	return o, false, nil
}

// loadRules loads the scan's rules: a rule file, inline rules or the
// project's, selected by the flags; trace hears of the project and, for a
// scan of files, of the rules.
func (o *scanOptions) loadRules(ctx context.Context, e *env, trace *tracer) (*scan.Rules, error) {
	proj, projErr := project.Find(o.config, ".")
	trace.project(proj)
	if proj != nil {
		o.search.LangGlobs = proj.LanguageGlobs
		applyCustomLanguages(o.customLangs, proj)
		checkCustomLanguages(ctx, e, proj)
	}
	var (
		cfgs []*rule.Config
		dir  string // the folder the rules' files globs are relative to
		err  error
	)
	switch {
	case o.ruleFile != "":
		cfgs, err = project.ReadRuleFile(ctx, o.ruleFile, o.ruleFile, nil)
		dir = filepath.Dir(o.ruleFile)
	case o.inline != "":
		cfgs, err = rule.ParseConfigs(ctx, []byte(o.inline), rule.Options{})
		if err != nil {
			err = fmt.Errorf("cannot parse rule INLINE_RULES: %w", err)
		}
		dir = "."
	case projErr != nil:
		return nil, projErr
	default:
		cfgs, err = proj.LoadRules(ctx)
		printProjectWarnings(e, proj)
		dir = proj.Dir
	}
	if err != nil {
		return nil, err
	}
	total := len(cfgs)
	if cfgs, err = project.Select(cfgs, o.selection); err != nil {
		return nil, err
	}
	if !o.stdin {
		trace.rules(cfgs, total)
	}
	var unused rule.Severity
	if o.ruleFile == "" && o.inline == "" && o.selection.Filter == nil {
		unused = rule.SeverityHint
	}
	if s := o.selection.Severities.For(rule.UnusedSuppressionID); s != "" {
		unused = s
	}
	return scan.NewRules(cfgs, dir, unused), nil
}

// fileResult is one scanned file with findings.
type fileResult struct {
	path, abs string
	src       []byte
	findings  []rule.Finding
	encoded   []encodedFinding // the findings rendered, with a GitHub or SARIF output
	// json holds the findings rendered as JSON items, and fails which
	// of them, in order, fail the scan (see failsOn).
	json  []*wire.Items
	fails []bool
}

func runScan(ctx context.Context, e *env, args []string) int {
	o, done, err := parseScanFlags(e, args)
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
	rs, err := o.loadRules(ctx, e, trace)
	if errors.Is(err, project.ErrNotFound) {
		return e.noProject()
	}
	if err != nil {
		return e.errorf("%v", err)
	}
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	p := &scanPrinter{o: o, e: e, out: out, pal: palette(o.colour), trace: trace}
	if o.interactive {
		s, err := newSession(e, out, p.pal)
		if err != nil {
			return e.errorf("%v", err)
		}
		defer s.close()
		p.session = s
	}
	p.startItems()
	if o.stdin {
		err = p.scanStdin(ctx, rs)
	} else {
		err = p.scanFiles(ctx, rs)
	}
	if p.items != nil {
		p.items.Close()
	}
	if err != nil {
		out.Flush()
		return e.errorf("%v", err)
	}
	if p.quit {
		// As in ast-grep, quitting is no error, and what was accepted
		// is saved.
		p.session.quitMessage()
		return exitMatch
	}
	if p.session != nil {
		p.applied = p.session.applied
	}
	if p.applied > 0 {
		fmt.Fprintf(e.stderr, "Applied %d changes\n", p.applied)
	}
	if !o.stdin {
		trace.scanDone()
	}
	if p.failed {
		return exitError
	}
	if p.errors > 0 {
		out.Flush()
		fmt.Fprintf(e.stderr, "Error: %d error(s) found in code.\nHelp: Scan succeeded and found error level diagnostics in the codebase.\n\n", p.errors)
		return exitNoMatch
	}
	return exitMatch
}

func (p *scanPrinter) scanStdin(ctx context.Context, rs *scan.Rules) error {
	langs := rs.Languages()
	if len(langs) == 0 {
		return errors.New("no rule to scan standard input with")
	}
	src, err := io.ReadAll(p.e.stdin)
	if err != nil {
		return fmt.Errorf("read standard input: %w", err)
	}
	f, err := scan.Source(ctx, rs, langs[0], src)
	if err != nil {
		return fmt.Errorf("standard input: %w", err)
	}
	p.file(fileResult{path: "STDIN", src: src, findings: f.Findings})
	return nil
}

// scanFiles scans the files of the search options in parallel and prints
// them in path order.
func (p *scanPrinter) scanFiles(ctx context.Context, rs *scan.Rules) error {
	stop := false // nothing more is printed
	ctx = p.trace.scanFiles(ctx, rs)
	opts := p.o.search
	// Items hold nothing of the trees they are rendered from (see
	// render), so the trees are recycled.
	if p.items != nil {
		opts.Recycle, opts.Held = true, heldItems
	}
	st, err := scan.Scan(ctx, rs, opts, p.render, func(r fileResult) error {
		if p.session != nil {
			if err := p.review(r); err != nil {
				return err
			}
		} else {
			p.file(r)
		}
		if err := p.out.Flush(); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		if p.o.maxResults > 0 && p.reported >= p.o.maxResults {
			stop = true
			return search.ErrStop
		}
		return nil
	})
	reportSkipped(p.e.stderr, st.Skipped)
	if stop {
		return nil
	}
	return err
}

// render prepares a scanned file for printing, on the worker that
// scanned it. With an item output (JSON, GitHub, SARIF) it renders the
// findings there, so that rendering runs on every worker and the file's
// tree is let go before the printer gets to it; it returns the bytes the
// result holds.
func (p *scanPrinter) render(f scan.File) (fileResult, int64) {
	r := fileResult{path: f.Path, abs: f.Abs}
	switch {
	case p.json != nil:
		r.json, r.fails = p.encodeJSON(r.path, f.Findings)
		return r, itemsSize(r.json)
	case p.items != nil:
		r.encoded = p.encodeFindings(r.path, f.Findings)
		var cost int64
		for _, e := range r.encoded {
			cost += int64(len(e.item))
		}
		return r, cost
	}
	r.src, r.findings = f.Tree.Source(), f.Findings
	return r, f.Tree.Bytes()
}

// encodeJSON renders a file's findings as JSON items and returns which
// of them fail the scan. The findings are described one after the other (a fix or a
// message spends the file's matching budget, which is not safe for
// concurrent use), and the descriptions encoded by encodeItems.
func (p *scanPrinter) encodeJSON(path string, fs []rule.Finding) ([]*wire.Items, []bool) {
	ws := make([]wire.Finding, len(fs))
	fails := make([]bool, len(fs))
	for i, f := range fs {
		ws[i] = wire.NewFinding(path, f, true, p.o.includeMetadata)
		fails[i] = p.failsOn(f)
	}
	return encodeItems(p.o.json, len(ws), func(it *wire.Items, i int) { it.AddFinding(&ws[i]) }), fails
}

// encodedFinding is a finding rendered as one item of the output.
type encodedFinding struct {
	item  string
	fails bool // see failsOn
}

// itemWriter writes an output made of one item per finding: ast-grep's
// JSON, a GitHub workflow command per line, a SARIF log.
type itemWriter interface {
	Write(item string)
	Close()
}

// lineWriter is an itemWriter of items that are whole lines.
type lineWriter struct{ w io.Writer }

func (l lineWriter) Write(item string) { io.WriteString(l.w, item) }
func (l lineWriter) Close()            {}

// startItems sets up the item output the options ask for, if any.
func (p *scanPrinter) startItems() {
	switch {
	case p.o.json != "":
		p.json = wire.NewWriter(p.out, p.o.json)
		p.items = p.json
	case p.o.format == "github":
		p.items, p.byRule = lineWriter{p.out}, true
		p.encode = printer.GitHubLine
	case p.o.format == "sarif":
		p.items, p.byRule = wire.NewSARIFWriter(p.out, "loupe", buildVersion()), true
		p.encode = func(path string, f rule.Finding) string {
			r := wire.NewSARIFResult(path, f)
			return r.Encode()
		}
	}
}

// encodeFindings renders each finding (sorted) as an item.
func (p *scanPrinter) encodeFindings(path string, fs []rule.Finding) []encodedFinding {
	if p.byRule {
		var sorted []rule.Finding
		for _, u := range units(fs) {
			sorted = append(sorted, printer.ByRule(u)...)
		}
		fs = sorted
	}
	out := make([]encodedFinding, len(fs))
	for i, f := range fs {
		out[i] = encodedFinding{p.encode(path, f), p.failsOn(f)}
	}
	return out
}

// scanPrinter prints (or applies) the findings of each file.
type scanPrinter struct {
	o        *scanOptions
	e        *env
	out      *bufio.Writer
	pal      printer.Palette
	trace    *tracer
	items    itemWriter                        // the item output, nil for text
	json     *wire.Writer                      // the item output when it is JSON
	encode   func(string, rule.Finding) string // renders one finding as a GitHub or SARIF item
	byRule   bool                              // items go rule by rule, as ast-grep's per-rule formats
	session  *session                          // the -i session, nil without -i
	applied  int
	failed   bool
	quit     bool // the session was quit
	errors   int  // findings that fail the scan (see failsOn)
	reported int
}

func (p *scanPrinter) file(r fileResult) {
	if p.json != nil {
		if r.json == nil && len(r.findings) > 0 {
			r.json, r.fails = p.encodeJSON(r.path, r.findings)
		}
		n := p.take(len(r.fails), func(i int) bool { return r.fails[i] })
		for _, it := range r.json {
			p.json.WriteItems(it, n)
			n -= min(n, it.Len())
			it.Free()
		}
		return
	}
	if p.items != nil {
		if r.encoded == nil && len(r.findings) > 0 {
			r.encoded = p.encodeFindings(r.path, r.findings)
		}
		n := p.take(len(r.encoded), func(i int) bool { return r.encoded[i].fails })
		for _, e := range r.encoded[:n] {
			if e.item != "" {
				p.items.Write(e.item)
			}
		}
		return
	}
	fs := r.findings
	if len(fs) == 0 {
		return
	}
	fs = fs[:p.take(len(fs), func(i int) bool { return p.failsOn(fs[i]) })]
	rep := printer.Report{Style: p.o.reportStyle, Context: diffContext(p.o.before), StartContext: p.o.before, EndContext: p.o.after, Palette: p.pal}
	switch {
	case p.o.filesWithMatches:
		fmt.Fprintln(p.out, p.pal.Path.Paint(r.path))
	case p.o.updateAll:
		// As in ast-grep, the fixes are applied without a word and the
		// findings of rules without a fix are reported.
		p.apply(r, fs)
		var others []rule.Finding
		for _, f := range fs {
			if len(f.Config.Fixes) == 0 {
				others = append(others, f)
			}
		}
		for _, u := range units(others) {
			rep.Print(p.out, r.path, r.src, u)
		}
	default:
		for _, u := range units(fs) {
			rep.Print(p.out, r.path, r.src, u)
		}
	}
}

// units splits a file's findings into those in its own code and those in
// each region of code injected in it (scan.File.Findings lists them
// part after part), which ast-grep reports one after the other, rule by
// rule within each.
func units(fs []rule.Finding) [][]rule.Finding {
	var out [][]rule.Finding
	for len(fs) > 0 {
		n := 1
		for n < len(fs) && fs[n].Node.Tree() == fs[0].Node.Tree() {
			n++
		}
		out = append(out, fs[:n])
		fs = fs[n:]
	}
	return out
}

// failsOn reports whether a finding fails the scan (exit status 1): it
// is of an error-severity rule, and not a fix to apply or review. As in
// ast-grep, with -U or -i (the fixes applied or offered, not reported)
// a rule with a fix fails nothing; standard input is scanned without
// that distinction.
func (p *scanPrinter) failsOn(f rule.Finding) bool {
	if f.Config.Severity != rule.SeverityError {
		return false
	}
	fixing := (p.o.fixAll || p.o.interactive) && !p.o.stdin
	return !fixing || len(f.Config.Fixes) == 0
}

// take returns how many of a file's n sorted findings still fit under
// maxResults, and counts them as reported, with those that fail the scan
// among them (fails(i) says whether finding i does).
func (p *scanPrinter) take(n int, fails func(int) bool) int {
	if p.o.maxResults > 0 {
		n = min(n, p.o.maxResults-p.reported)
	}
	p.reported += n
	for i := range n {
		if fails(i) {
			p.errors++
		}
	}
	return n
}

// apply writes the first fix of every fixable finding to the file.
func (p *scanPrinter) apply(r fileResult, fs []rule.Finding) {
	updated, n, err := scan.Fix(r.src, fs)
	switch {
	case err != nil:
		fmt.Fprintf(p.e.stderr, "Error: %s: %v\n", r.path, err)
		p.failed = true
	case n == 0:
	case r.abs == "":
		// ast-grep prints the updated standard input as a line.
		p.out.Write(updated)
		p.out.WriteString("\n")
		p.applied += n
	default:
		if err := rewrite.WriteFile(r.abs, updated); err != nil {
			fmt.Fprintf(p.e.stderr, "Error: %v\n", err)
			p.failed = true
			return
		}
		p.applied += n
	}
}
