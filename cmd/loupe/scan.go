package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
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
	json                     string
	includeMetadata          bool
	reportStyle              string
	filter                   *regexp.Regexp
	severity                 severityOverride
	minSeverity              rule.Severity
	updateAll                bool
	stdin                    bool
	filesWithMatches         bool
	colour                   bool
	before, after            int
	maxResults               int
	search                   search.Options
}

// severityOverride is the --error/--warning/--info/--hint/--off flags:
// a severity for listed rule ids, or for every rule when a flag has no id.
type severityOverride struct {
	byID map[string]rule.Severity
	all  rule.Severity // "" when unset
}

func (o severityOverride) find(id string) rule.Severity {
	if s, ok := o.byID[id]; ok {
		return s
	}
	return o.all
}

var severityFlags = []string{"error", "warning", "info", "hint", "off"}

// extractSeverityFlags takes the repeatable --SEVERITY[=ID] flags out of
// args (before a "--").
func extractSeverityFlags(args []string) ([]string, severityOverride) {
	o := severityOverride{byID: map[string]rule.Severity{}}
	var rest []string
	for i, a := range args {
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, id, hasID := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !strings.HasPrefix(a, "--") || !contains(severityFlags, name) {
			rest = append(rest, a)
			continue
		}
		if hasID {
			o.byID[id] = rule.Severity(name)
		} else {
			o.all = rule.Severity(name)
		}
	}
	return rest, o
}

func scanUsage(fs *flagSet) string {
	var b strings.Builder
	b.WriteString("Scan and rewrite code by configuration (ast-grep's `scan`)\n\n")
	b.WriteString("Usage: loupe scan [OPTIONS] [PATHS]...\n\nOptions:\n")
	fs.usage(&b)
	fmt.Fprintf(&b, "  %-32s %s\n", "    --error[=<RULE_ID>]", "Set the severity of the rule (of every rule without an id) to error;")
	fmt.Fprintf(&b, "  %-32s %s\n", "", "likewise --warning, --info, --hint and --off (repeatable)")
	b.WriteString("\nWithout --rule or --inline-rules the rules come from the sgconfig.yml found in the\n")
	b.WriteString("current folder or a parent (ruleDirs, utilDirs, languageGlobs).\n")
	b.WriteString("\nExit status: 0 when no error-severity rule fired, 1 when one did, 2 on errors.\n")
	return b.String()
}

var severityRank = map[rule.Severity]int{
	rule.SeverityOff: 0, rule.SeverityHint: 1, rule.SeverityInfo: 2, rule.SeverityWarning: 3, rule.SeverityError: 4,
}

func parseScanFlags(e *env, args []string) (*scanOptions, bool, error) {
	args, sev := extractSeverityFlags(args)
	fs := newFlagSet("scan")
	ruleF := fs.String('r', "rule", "RULE_FILE", "Scan with the rules of RULE_FILE instead of the project's")
	inline := fs.String(0, "inline-rules", "RULE_TEXT", "Scan with rules given as YAML text (documents separated by ---)")
	format := fs.String(0, "format", "FORMAT", "Output for a platform: github or sarif (not supported)")
	report := fs.String(0, "report-style", "STYLE", "Diagnostic style: rich (default), medium or short")
	meta := fs.Bool(0, "include-metadata", "Include each rule's metadata in the JSON output")
	filter := fs.String(0, "filter", "REGEX", "Scan only with the rules whose ids match REGEX")
	minSev := fs.String(0, "min-severity", "SEVERITY", "Skip rules below this severity: off (default), hint, info, warning, error")
	config := fs.String('c', "config", "CONFIG_FILE", "The project configuration file (default: the sgconfig.yml found upwards)")
	walk := addWalkFlags(fs, "Scan code read from standard input (the rules' language)")
	out := addOutputFlags(fs, "finding", "findings", "fix")
	inspect := fs.String(0, "inspect", "GRANULARITY", "Accepted for compatibility; loupe prints no tracing")
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
	for _, check := range []error{
		out.check(),
		report.oneOf("rich", "medium", "short"),
		inspect.oneOf("nothing", "summary", "entity"),
		minSev.oneOf(severityFlags...),
	} {
		if check != nil {
			return nil, false, check
		}
	}
	switch {
	case ruleF.set && inline.set:
		return nil, false, errors.New("the argument '--rule <RULE_FILE>' cannot be used with '--inline-rules <RULE_TEXT>'")
	case filter.set && ruleF.set:
		return nil, false, errors.New("the argument '--filter <REGEX>' cannot be used with '--rule <RULE_FILE>'")
	case format.set:
		return nil, false, fmt.Errorf("--format %s is not supported; use --json", format.value)
	case out.interactive.set:
		return nil, false, errors.New("interactive editing (-i) is not supported; use --update-all (-U) to apply every fix")
	case meta.set && !out.json.set:
		return nil, false, errors.New("--include-metadata needs --json")
	case report.set && out.json.set:
		return nil, false, errors.New("--report-style cannot be used with --json")
	}
	o := &scanOptions{
		ruleFile: ruleF.value, inline: inline.value, config: config.value,
		includeMetadata: meta.set, reportStyle: "rich", severity: sev,
		stdin: walk.stdin.set, filesWithMatches: out.filesWith.set,
		updateAll: out.update.set && !out.json.set,
		colour:    useColour(out.colour.value, e),
	}
	if report.set {
		o.reportStyle = report.value
	}
	if out.json.set {
		o.json = out.json.value
	}
	if minSev.set {
		o.minSeverity = rule.Severity(minSev.value)
	}
	if filter.set {
		re, err := regexp.Compile(filter.value)
		if err != nil {
			return nil, false, fmt.Errorf("invalid value '%s' for '--filter <REGEX>': %v", filter.value, err)
		}
		o.filter = re
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
	return o, false, nil
}

// ruleSet is the rules of one scan.
type ruleSet struct {
	configs []*rule.Config
	projDir string // absolute folder rule paths are relative to
	// unused is the severity of the unused-suppression report ("" when off).
	unused rule.Severity

	mu       sync.Mutex
	scanners map[string]*rule.Scanner
}

func (o *scanOptions) loadRules(ctx context.Context, e *env) (*ruleSet, error) {
	warn := func(msg string) { fmt.Fprintf(e.stderr, "Warning: %s\n", msg) }
	proj, projErr := findProject(o.config, warn)
	if proj != nil {
		o.search.LangGlobs = proj.langGlobs
	}
	rs := &ruleSet{scanners: map[string]*rule.Scanner{}}
	var err error
	switch {
	case o.ruleFile != "":
		rs.configs, err = readRuleFile(ctx, o.ruleFile, o.ruleFile, nil)
		rs.projDir = filepath.Dir(o.ruleFile)
	case o.inline != "":
		rs.configs, err = rule.ParseConfigs(ctx, []byte(o.inline), rule.Options{})
		if err != nil {
			err = fmt.Errorf("cannot parse rule INLINE_RULES: %w", err)
		}
		rs.projDir = "."
	default:
		if projErr != nil {
			return nil, projErr
		}
		var globals *rule.Globals
		if globals, err = proj.loadGlobals(ctx); err == nil {
			rs.configs, err = proj.loadRules(ctx, globals)
		}
		rs.projDir = proj.dir
	}
	if err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(rs.projDir); err == nil {
		rs.projDir = abs
	}
	if o.filter != nil {
		var keep []*rule.Config
		for _, c := range rs.configs {
			if o.filter.MatchString(c.ID) {
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 {
			return nil, fmt.Errorf("no rule matches the filter %q", o.filter)
		}
		rs.configs = keep
	}
	var keep []*rule.Config
	for _, c := range rs.configs {
		if s := o.severity.find(c.ID); s != "" {
			c.Severity = s
		}
		if c.Severity != rule.SeverityOff && severityRank[c.Severity] >= severityRank[o.minSeverity] {
			keep = append(keep, c)
		}
	}
	rs.configs = keep
	if o.ruleFile == "" && o.inline == "" && o.filter == nil {
		rs.unused = rule.SeverityHint
	}
	if s := o.severity.find(rule.UnusedSuppressionID); s != "" {
		rs.unused = s
	}
	if rs.unused == rule.SeverityOff {
		rs.unused = ""
	}
	return rs, nil
}

// forFile returns the scanner of the rules that apply to a file of lang
// whose path relative to the project folder is rel.
func (rs *ruleSet) forFile(lang *language.Language, rel string) *rule.Scanner {
	var picked []*rule.Config
	var key strings.Builder
	key.WriteString(lang.Name())
	for i, c := range rs.configs {
		if c.Language == lang && c.AppliesTo(rel) {
			picked = append(picked, c)
			key.WriteString(",")
			key.WriteString(strconv.Itoa(i))
		}
	}
	if len(picked) == 0 && rs.unused == "" {
		return nil
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	s, ok := rs.scanners[key.String()]
	if !ok {
		s = rule.NewScanner(picked)
		rs.scanners[key.String()] = s
	}
	return s
}

// languages returns the languages the rules are for.
func (rs *ruleSet) languages() []*language.Language {
	seen := map[*language.Language]bool{}
	var out []*language.Language
	for _, c := range rs.configs {
		if !seen[c.Language] {
			seen[c.Language] = true
			out = append(out, c.Language)
		}
	}
	return out
}

// scanBacklogBytes bounds the memory that scanned but not yet printed
// files may hold (their trees, or their rendered findings). Output is in
// path order, so while one big file parses, the files after it are
// scanned and kept; without a bound, a slow file made the others' results
// pile up.
const scanBacklogBytes = 12 << 20

// fileResult is one scanned file.
type fileResult struct {
	path, abs string
	src       []byte
	findings  []rule.Finding
	encoded   []encodedFinding // the findings rendered, with JSON output
	skip      string           // why the file was not scanned, "" when it was
	err       error
	// cost is roughly the memory the result holds until printed: its
	// source and tree, or its rendered findings.
	cost int64
}

func runScan(ctx context.Context, e *env, args []string) int {
	o, done, err := parseScanFlags(e, args)
	if err != nil {
		return e.errorf("%v", err)
	}
	if done {
		return exitMatch
	}
	rs, err := o.loadRules(ctx, e)
	if err != nil {
		return e.errorf("%v", err)
	}
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	pal := palette{}
	if o.colour {
		pal = colouredPalette()
	}
	p := &scanPrinter{o: o, e: e, out: out, pal: pal}
	if o.json != "" {
		p.json = &jsonPrinter{w: out, style: o.json}
		p.json.begin()
	}
	if o.stdin {
		err = p.scanStdin(ctx, rs)
	} else {
		err = p.scanFiles(ctx, rs)
	}
	if p.json != nil {
		p.json.end()
	}
	if err != nil {
		out.Flush()
		return e.errorf("%v", err)
	}
	if p.applied > 0 {
		fmt.Fprintf(e.stderr, "Applied %d changes\n", p.applied)
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

func (p *scanPrinter) scanStdin(ctx context.Context, rs *ruleSet) error {
	langs := rs.languages()
	if len(langs) == 0 {
		return errors.New("no rule to scan standard input with")
	}
	src, err := io.ReadAll(p.e.stdin)
	if err != nil {
		return fmt.Errorf("read standard input: %w", err)
	}
	lang := langs[0]
	t, err := lang.Parse(ctx, src)
	if err != nil {
		return fmt.Errorf("parse standard input: %w", err)
	}
	var picked []*rule.Config
	for _, c := range rs.configs {
		if c.Language == lang {
			picked = append(picked, c)
		}
	}
	fs, err := rule.NewScanner(picked).Scan(ctx, t)
	if err != nil {
		return err
	}
	p.file(fileResult{path: "STDIN", src: src, findings: fs})
	return nil
}

// scanFiles scans the files of the search options in parallel and prints
// them in path order.
func (p *scanPrinter) scanFiles(ctx context.Context, rs *ruleSet) error {
	opts := p.o.search
	if langs := rs.languages(); len(langs) == 1 && rs.unused == "" {
		opts.Lang = langs[0]
	}
	files, skipped, err := search.Files(ctx, opts)
	if err != nil {
		return err
	}
	for _, s := range skipped {
		if s.Reason == search.SkipMissing {
			fmt.Fprintf(p.e.stderr, "ERROR: %s: %s\n", s.Path, osError(s.Err))
		}
	}
	var (
		failed error
		stop   bool // nothing more is printed
	)
	work := func(ctx context.Context, i int) (fileResult, int64) {
		r := p.scanFile(ctx, rs, files[i])
		return r, r.cost
	}
	deliver := func(_ int, r fileResult) bool {
		switch {
		case stop, r.skip != "":
		case r.err != nil:
			failed, stop = r.err, true
		default:
			p.file(r)
			if err := p.out.Flush(); err != nil {
				failed, stop = fmt.Errorf("write output: %w", err), true
			} else if p.o.maxResults > 0 && p.reported >= p.o.maxResults {
				stop = true
			}
		}
		return !stop
	}
	search.Ordered(ctx, len(files), search.OrderedLimits{Threads: opts.Threads, Held: scanBacklogBytes}, work, deliver)
	if failed != nil {
		return failed
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	return nil
}

// scanFile reads, screens, parses and scans one file. With JSON output
// it also renders the findings, so that rendering runs on every worker
// and the file's tree is let go before the printer gets to it.
func (p *scanPrinter) scanFile(ctx context.Context, rs *ruleSet, f search.File) fileResult {
	r := fileResult{path: f.Path, abs: f.Abs}
	rel := f.Path
	if abs, err := filepath.Abs(f.Abs); err == nil {
		if rp, err := filepath.Rel(rs.projDir, abs); err == nil && !strings.HasPrefix(rp, "..") {
			rel = filepath.ToSlash(rp)
		}
	}
	scanner := rs.forFile(f.Lang, rel)
	if scanner == nil {
		r.skip = "no rule"
		return r
	}
	src, err := os.ReadFile(f.Abs)
	if err != nil {
		r.skip = "unreadable"
		return r
	}
	probe := src[:min(len(src), 8<<10)]
	if len(src) == 0 || bytes.IndexByte(probe, 0) >= 0 || !utf8.Valid(src) {
		r.skip = "not text"
		return r
	}
	// A one-shot scan keeps no tree cache: every file is parsed once and
	// its tree dropped as soon as it is reported.
	t, err := f.Lang.Parse(ctx, src)
	if err != nil {
		if ctx.Err() != nil {
			r.err = fmt.Errorf("scan: %w", ctx.Err())
		} else {
			r.skip = "parse failed"
		}
		return r
	}
	fs, unused, err := scanner.ScanAll(ctx, t)
	if err != nil {
		r.err = err
		return r
	}
	if rs.unused != "" && len(unused) > 0 {
		cfg := rule.UnusedSuppression(f.Lang, rs.unused)
		for _, n := range unused {
			fs = append(fs, rule.Finding{Config: cfg, Node: n, Env: nil})
		}
	}
	switch {
	case len(fs) == 0:
	case p.json != nil:
		r.encoded = p.encodeFindings(r.path, fs)
		for _, e := range r.encoded {
			r.cost += int64(len(e.json))
		}
	default:
		r.src, r.findings = src, fs
		r.cost = t.Bytes()
	}
	return r
}

// encodedFinding is a finding rendered as one JSON item.
type encodedFinding struct {
	json     string
	severity rule.Severity
}

// encodeFindings sorts fs and renders each finding as a JSON item.
func (p *scanPrinter) encodeFindings(path string, fs []rule.Finding) []encodedFinding {
	rule.SortFindings(fs)
	out := make([]encodedFinding, len(fs))
	for i, f := range fs {
		out[i] = encodedFinding{p.json.encode(findingObject(f.JSON(path, true, p.o.includeMetadata), f)), f.Config.Severity}
	}
	return out
}

// scanPrinter prints (or applies) the findings of each file.
type scanPrinter struct {
	o        *scanOptions
	e        *env
	out      *bufio.Writer
	pal      palette
	json     *jsonPrinter
	applied  int
	failed   bool
	errors   int // findings of error-severity rules
	reported int
}

func (p *scanPrinter) file(r fileResult) {
	if p.json != nil {
		if r.encoded == nil && len(r.findings) > 0 {
			r.encoded = p.encodeFindings(r.path, r.findings)
		}
		n := p.take(len(r.encoded), func(i int) rule.Severity { return r.encoded[i].severity })
		for _, e := range r.encoded[:n] {
			p.json.encoded(e.json)
		}
		return
	}
	fs := r.findings
	if len(fs) == 0 {
		return
	}
	rule.SortFindings(fs)
	fs = fs[:p.take(len(fs), func(i int) rule.Severity { return fs[i].Config.Severity })]
	switch {
	case p.o.filesWithMatches:
		fmt.Fprintln(p.out, p.pal.path.paint(r.path))
	case p.o.updateAll:
		p.apply(r, fs)
	default:
		p.report(r, fs)
	}
}

// take returns how many of a file's n sorted findings still fit under
// maxResults, and counts them as reported, with the error-severity ones
// among them; severity(i) is the severity of finding i.
func (p *scanPrinter) take(n int, severity func(int) rule.Severity) int {
	if p.o.maxResults > 0 {
		n = min(n, p.o.maxResults-p.reported)
	}
	p.reported += n
	for i := range n {
		if severity(i) == rule.SeverityError {
			p.errors++
		}
	}
	return n
}

// apply writes the first fix of every fixable finding to the file.
func (p *scanPrinter) apply(r fileResult, fs []rule.Finding) {
	var edits []rewrite.Edit
	for _, f := range fs {
		if len(f.Config.Fixes) > 0 {
			edits = append(edits, f.Config.Fixes[0].Edit(f.Node, f.Env))
		}
	}
	if len(edits) == 0 {
		return
	}
	updated, err := rewrite.Apply(r.src, edits)
	if err != nil {
		fmt.Fprintf(p.e.stderr, "Error: %s: %v\n", r.path, err)
		p.failed = true
		return
	}
	if r.abs == "" {
		p.out.Write(updated)
		return
	}
	if err := writeAtomic(r.abs, updated); err != nil {
		fmt.Fprintf(p.e.stderr, "Error: %v\n", err)
		p.failed = true
		return
	}
	p.applied += len(rewrite.Accepted(edits))
}

// findingObject renders a finding for the JSON output: the shared match
// fields (without context lines, as ast-grep's scan) and the rule's.
func findingObject(j rule.FindingJSON, f rule.Finding) jsonObject {
	var repl *replacement
	if j.Replacement != nil {
		repl = &replacement{text: *j.Replacement, start: j.ReplacementOffsets.Start, end: j.ReplacementOffsets.End}
	}
	o := matchJSON(f.Node, f.Env, j.File, j.Language, 0, 0, repl)
	var note jsonValue = jsonRaw("null")
	if j.Note != nil {
		note = jsonString(*j.Note)
	}
	o = append(o,
		jsonField{"ruleId", jsonString(j.RuleID)},
		jsonField{"severity", jsonString(j.Severity)},
		jsonField{"note", note},
		jsonField{"message", jsonString(j.Message)},
	)
	if len(j.Labels) > 0 {
		labels := jsonArray{}
		for _, l := range j.Labels {
			lo := obj("text", jsonString(l.Text), "range", rangeObject(l.Range))
			if l.Message != nil {
				lo = append(lo, jsonField{"message", jsonString(*l.Message)})
			}
			lo = append(lo, jsonField{"style", jsonString(l.Style)})
			labels = append(labels, lo)
		}
		o = append(o, jsonField{"labels", labels})
	}
	if j.Metadata != nil {
		o = append(o, jsonField{"metadata", anyJSON(j.Metadata)})
	}
	return o
}

func rangeObject(r rule.Range) jsonObject {
	return obj(
		"byteOffset", obj("start", jsonInt(r.ByteOffset.Start), "end", jsonInt(r.ByteOffset.End)),
		"start", obj("line", jsonInt(r.Start.Line), "column", jsonInt(r.Start.Column)),
		"end", obj("line", jsonInt(r.End.Line), "column", jsonInt(r.End.Column)),
	)
}

// jsonRaw is JSON text written as is (null, numbers).
type jsonRaw string

func (r jsonRaw) writeJSON(b *strings.Builder, _ int, _ bool) { b.WriteString(string(r)) }

// anyJSON renders plain Go data (a rule's metadata), keys sorted.
func anyJSON(v any) jsonValue {
	switch t := v.(type) {
	case nil:
		return jsonRaw("null")
	case string:
		return jsonString(t)
	case bool:
		return jsonBool(t)
	case int64:
		return jsonRaw(strconv.FormatInt(t, 10))
	case float64:
		s := strconv.FormatFloat(t, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return jsonRaw(s)
	case []any:
		a := jsonArray{}
		for _, x := range t {
			a = append(a, anyJSON(x))
		}
		return a
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := jsonObject{}
		for _, k := range keys {
			o = append(o, jsonField{k, anyJSON(t[k])})
		}
		return o
	}
	return jsonString(fmt.Sprint(v))
}

// sortedFindingsByRule groups findings by rule id (ids in order), each
// group in document order.
func sortedFindingsByRule(fs []rule.Finding) [][]rule.Finding {
	byID := map[string][]rule.Finding{}
	var ids []string
	for _, f := range fs {
		if _, ok := byID[f.Config.ID]; !ok {
			ids = append(ids, f.Config.ID)
		}
		byID[f.Config.ID] = append(byID[f.Config.ID], f)
	}
	sort.Strings(ids)
	out := make([][]rule.Finding, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out
}

// nodeLineCol returns a node's 1-based line and character column.
func nodeLineCol(n tree.Node) (int, int) {
	return n.StartPoint().Row + 1, charColumn(n.Tree().Source(), n.StartByte()) + 1
}
