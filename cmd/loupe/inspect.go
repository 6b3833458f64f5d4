package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/scan"
	"github.com/loupe-dev/loupe/core/search"
)

// inspectLevels are the values of --inspect, least detail first.
var inspectLevels = []string{"nothing", "summary", "entity"}

// tracer prints the --inspect tracing of run and scan on stderr, line for
// line as ast-grep does: "sg: summary|KIND: key=value,…" lines at the
// summary level, and also "sg: entity|KIND|NAME: key=value,…" lines at the
// entity level. Files are traced in path order, as loupe searches them.
type tracer struct {
	w                io.Writer
	summary, entity  bool
	scanned, skipped int // files traced, and those of them not searched
	rulesUsed        int // the rules of a scan
	rulesTotal       int // the rules loaded, before selection
}

// newTracer returns the tracer of --inspect level ("" or nothing: none).
func newTracer(w io.Writer, level string) *tracer {
	return &tracer{w: w, summary: level == "summary" || level == "entity", entity: level == "entity"}
}

func (t *tracer) printSummary(kind, kv string) {
	if t.summary {
		fmt.Fprintf(t.w, "sg: summary|%s: %s\n", kind, kv)
	}
}

func (t *tracer) printEntity(kind, name, kv string) {
	if t.entity {
		fmt.Fprintf(t.w, "sg: entity|%s|%s: %s\n", kind, name, kv)
	}
}

// project traces the project configuration found (nil: none), by the
// real path of its folder.
func (t *tracer) project(p *project.Project) {
	if p == nil {
		t.printSummary("project", "isProject=false")
		return
	}
	dir := p.Dir
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	t.printSummary("project", "isProject=true,projectDir="+dir)
}

// files traces the count of files looked at and skipped.
func (t *tracer) files() {
	t.printSummary("file", fmt.Sprintf("scannedFileCount=%d,skippedFileCount=%d", t.scanned, t.skipped))
}

// rules traces the rules of a scan with their severities, in the order
// ast-grep keeps them: the rules without files/ignores language by
// language, then the others; total is how many were loaded before the
// selection (filtered, off, below the minimum severity).
func (t *tracer) rules(cfgs []*rule.Config, total int) {
	t.rulesUsed, t.rulesTotal = len(cfgs), total
	for _, c := range collectionOrder(cfgs) {
		t.printEntity("rule", c.ID, "finalSeverity="+severityName(c.Severity))
	}
}

// scanDone traces the counts of a scan: files, then rules.
func (t *tracer) scanDone() {
	t.files()
	t.printSummary("rule", fmt.Sprintf("effectiveRuleCount=%d,skippedRuleCount=%d", t.rulesUsed, t.rulesTotal-t.rulesUsed))
}

// runFiles returns ctx tracing the files of a run: each file of a
// language is traced with it, or, when it was not searched, with why not;
// files of no language are only counted.
func (t *tracer) runFiles(ctx context.Context) context.Context {
	if !t.summary {
		return ctx
	}
	return search.WithFileFunc(ctx, func(f search.File, o search.Outcome, reason search.SkipReason) {
		t.scanned++
		switch {
		case f.Lang == nil:
		case o == search.NotWanted:
			// The pattern does not compile for the file's language.
			t.skip(f, "error")
		case o == search.Unsearched:
			t.skip(f, skipName(reason))
		default:
			t.printEntity("file", f.Path, "language="+f.Lang.Display())
		}
	})
}

// scanFiles returns ctx tracing the files of a scan with rs: those of the
// rules' languages and those named on the command line, each with the
// number of rules that apply to it, or, when it was not searched, with why
// not.
func (t *tracer) scanFiles(ctx context.Context, rs *scan.Rules) context.Context {
	if !t.summary {
		return ctx
	}
	langs := map[*language.Language]bool{}
	for _, l := range rs.Languages() {
		langs[l] = true
	}
	return search.WithFileFunc(ctx, func(f search.File, o search.Outcome, reason search.SkipReason) {
		if !langs[f.Lang] && !f.Named {
			return // not a file ast-grep's walk for these rules yields
		}
		t.scanned++
		if o == search.Unsearched {
			t.skip(f, skipName(reason))
			return
		}
		t.printEntity("file", f.Path, fmt.Sprintf("language=%s,appliedRuleCount=%d", f.Lang.Display(), rs.Applied(f.Lang, f.Abs, f.Path)))
	})
}

func (t *tracer) skip(f search.File, why string) {
	t.skipped++
	t.printEntity("file", f.Path, "skipped="+why)
}

// skipName is ast-grep's name for why a file was not searched; loupe's
// own reasons (binary, parse failed) get names in the same style.
func skipName(r search.SkipReason) string {
	switch r {
	case search.SkipEmpty:
		return "emptyFile"
	case search.SkipEncoding:
		return "invalidUtf8"
	case search.SkipTooLarge:
		return "fileTooLarge"
	case search.SkipUnreadable, search.SkipMissing, search.SkipOutside:
		return "ioError"
	case search.SkipBinary:
		return "binaryFile"
	case search.SkipParse:
		return "parseError"
	}
	return strings.ReplaceAll(string(r), " ", "")
}

// severityName is a severity as ast-grep's tracing prints it: "Error".
func severityName(s rule.Severity) string {
	if s == "" {
		return ""
	}
	return strings.ToUpper(string(s[:1])) + string(s[1:])
}

// collectionOrder orders rules as ast-grep's rule collection holds them:
// the rules without files or ignores, grouped by language (languages in
// the order first seen), then the rules with them.
func collectionOrder(cfgs []*rule.Config) []*rule.Config {
	var langs []*language.Language
	byLang := map[*language.Language][]*rule.Config{}
	var contingent []*rule.Config
	for _, c := range cfgs {
		if len(c.Files) > 0 || len(c.Ignores) > 0 {
			contingent = append(contingent, c)
			continue
		}
		if _, ok := byLang[c.Language]; !ok {
			langs = append(langs, c.Language)
		}
		byLang[c.Language] = append(byLang[c.Language], c)
	}
	out := make([]*rule.Config, 0, len(cfgs))
	for _, l := range langs {
		out = append(out, byLang[l]...)
	}
	return append(out, contingent...)
}
