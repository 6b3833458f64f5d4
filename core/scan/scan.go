// Package scan is ast-grep's scan as a library: a project's rules
// selected per file (by language and the rules' files/ignores globs),
// run over the files of a search through the one per-file pipeline,
// `ast-grep-ignore` suppressions and their unused-suppression report,
// and the application of fixes. `loupe scan` is flags and printers over
// it; any other face can scan a project's rules the same way.
package scan

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// Rules is the rules of one scan, each file getting the ones that apply
// to it. It is safe for concurrent use.
type Rules struct {
	configs []*rule.Config
	dir     string        // absolute folder the rules' files globs are relative to
	unused  rule.Severity // of the unused-suppression report, "" when off

	mu       sync.Mutex
	scanners map[string]*rule.Scanner // by the set of rules picked

	once    sync.Once
	filters map[*language.Language][]search.Prefilter // a filter per rule, by language
}

// NewRules returns the rule set of configs, whose files/ignores globs are
// relative to dir. unused is the severity of the unused-suppression
// report ("" or off turns it off).
func NewRules(configs []*rule.Config, dir string, unused rule.Severity) *Rules {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if unused == rule.SeverityOff {
		unused = ""
	}
	return &Rules{configs: configs, dir: dir, unused: unused, scanners: map[string]*rule.Scanner{}}
}

// Configs returns the rules.
func (rs *Rules) Configs() []*rule.Config { return rs.configs }

// Languages returns the languages the rules are for, in rule order.
func (rs *Rules) Languages() []*language.Language {
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

// ForFile returns the scanner of the rules that apply to a file of lang
// at abs (display is its path as shown). With the unused-suppression
// report on, a file no rule applies to still gets a scanner with no rules,
// which reports its suppressions as unused, as ast-grep does; otherwise it
// gets nil and is not scanned.
func (rs *Rules) ForFile(lang *language.Language, abs, display string) *rule.Scanner {
	picked, key := rs.pick(lang, abs, display)
	if len(picked) == 0 && rs.unused == "" {
		return nil
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	s, ok := rs.scanners[key]
	if !ok {
		s = rule.NewScanner(picked)
		rs.scanners[key] = s
	}
	return s
}

// Applied returns how many of the rules apply to a file of lang at abs
// (display is its path as shown): those ForFile scans it with.
func (rs *Rules) Applied(lang *language.Language, abs, display string) int {
	picked, _ := rs.pick(lang, abs, display)
	return len(picked)
}

// pick returns the rules that apply to a file of lang at abs, and a key
// naming that set.
func (rs *Rules) pick(lang *language.Language, abs, display string) ([]*rule.Config, string) {
	rel := display
	if a, err := filepath.Abs(abs); err == nil {
		if rp, err := filepath.Rel(rs.dir, a); err == nil && !strings.HasPrefix(rp, "..") {
			rel = filepath.ToSlash(rp)
		}
	}
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
	return picked, key.String()
}

// File is one scanned file's findings.
type File struct {
	search.File
	// Tree is the file's tree; Tree.Source() is its content.
	Tree *tree.Tree
	// Findings are those in the file's own code, then those in each
	// region of code injected in it (their nodes belong to the region's
	// tree, over the same source), each part in rule.SortFindings order;
	// unused suppressions are findings of rule.UnusedSuppression.
	Findings []rule.Finding
}

// Scan runs rs over the files opts selects, through the per-file
// pipeline, and calls deliver, in path order, with render's value for
// each file that has findings. render runs on the worker goroutines (so
// that rendering is parallel and a file's tree can be let go there) and
// returns its value and the bytes the value holds until delivered.
// deliver returning search.ErrStop ends the scan without error.
//
// As in ast-grep, the files found in directories are those of the rules'
// languages; a file named in opts.Paths is scanned whatever its language
// (then only for unused suppressions, when no rule is of its language).
func Scan[T any](ctx context.Context, rs *Rules, opts search.Options, render func(File) (T, int64), deliver func(T) error) (search.Stats, error) {
	langs := map[*language.Language]bool{}
	for _, l := range rs.Languages() {
		langs[l] = true
	}
	type result struct {
		v  T
		ok bool
	}
	if opts.Prefilter == nil {
		opts.Prefilter = rs.Prefilter()
	}
	opts.Injections = true
	return search.Run(ctx, opts, search.Job[result]{
		Want: func(f search.File) (bool, error) {
			return search.Wants(f.Lang, nil, func(l *language.Language) (bool, error) {
				return (langs[l] || l == f.Lang && f.Named) && rs.ForFile(l, f.Abs, f.Path) != nil, nil
			})
		},
		Visit: func(ctx context.Context, f search.File, t *tree.Tree) (result, int64, error) {
			fs, err := rs.ScanFile(ctx, f, t)
			if err != nil || len(fs) == 0 {
				return result{}, 0, err
			}
			v, cost := render(File{File: f, Tree: t, Findings: fs})
			return result{v, true}, cost, nil
		},
		Deliver: func(_ search.File, r result) error {
			if !r.ok {
				return nil
			}
			return deliver(r.v)
		},
		Held: backlogBytes,
	})
}

// Prefilter rules out a file, before it is parsed, when no rule of its
// language can match in it (rule.Config.Requirement): a file without the
// texts its rules' patterns need. With the unused-suppression report on, a
// file that mentions ast-grep-ignore is always parsed, for the report.
// The rules' files and ignores globs are left to ForFile.
func (rs *Rules) Prefilter() search.Prefilter {
	rs.once.Do(func() {
		rs.filters = map[*language.Language][]search.Prefilter{}
		for _, c := range rs.configs {
			if c.Severity == rule.SeverityOff {
				continue
			}
			rs.filters[c.Language] = append(rs.filters[c.Language], RequirementFilter(c.Requirement()))
		}
	})
	return func(lang *language.Language, src []byte) bool {
		if rs.unused != "" && bytes.Contains(src, []byte("ast-grep-ignore")) {
			return true
		}
		for _, f := range rs.filters[lang] {
			if f(lang, src) {
				return true
			}
		}
		return false
	}
}

// RequirementFilter is the prefilter of a rule's requirement: it passes a
// file where every clause has an alternative whose texts the file holds.
func RequirementFilter(req rule.Requirement) search.Prefilter {
	clauses := make([][]search.Prefilter, len(req))
	for i, c := range req {
		for _, alt := range c {
			clauses[i] = append(clauses[i], search.RequireWords(alt.Literals, alt.Words))
		}
	}
	return func(lang *language.Language, src []byte) bool {
	clause:
		for _, c := range clauses {
			for _, alt := range c {
				if alt(lang, src) {
					continue clause
				}
			}
			return false
		}
		return true
	}
}

// backlogBytes bounds the memory that scanned but undelivered files may
// hold (their trees, or their rendered findings). Delivery is in path
// order, so while one big file parses, the files after it are scanned
// and kept; without a bound, a slow file made the others pile up.
const backlogBytes = 12 << 20

// Source scans src, the content of a file of lang that is not on disk
// (standard input), with the rules of that language.
func Source(ctx context.Context, rs *Rules, lang *language.Language, src []byte) (File, error) {
	t, err := lang.Parse(ctx, src)
	if err != nil {
		return File{}, fmt.Errorf("parse: %w", err)
	}
	var picked []*rule.Config
	for _, c := range rs.configs {
		if c.Language == lang {
			picked = append(picked, c)
		}
	}
	fs, err := rs.scanTree(ctx, rule.NewScanner(picked), lang, t)
	if err != nil {
		return File{}, err
	}
	return File{File: search.File{Lang: lang}, Tree: t, Findings: fs}, nil
}

// ScanFile returns the findings in f, whose tree is t: those in its own
// code, then those in each region of injected code (language.Inject)
// whose language has rules for the file, region after region as ast-grep
// reports them, each part in rule.SortFindings order, with the unused
// suppressions when they are reported. It is what Scan does with each
// file, for a face that holds a file's text itself (the language server).
func (rs *Rules) ScanFile(ctx context.Context, f search.File, t *tree.Tree) ([]rule.Finding, error) {
	var fs []rule.Finding
	if s := rs.ForFile(f.Lang, f.Abs, f.Path); s != nil {
		var err error
		if fs, err = rs.scanTree(ctx, s, f.Lang, t); err != nil {
			return nil, err
		}
	}
	injected, err := f.Lang.Inject(ctx, t, func(l *language.Language) bool { return rs.ForFile(l, f.Abs, f.Path) != nil })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	for _, in := range injected {
		more, err := rs.scanTree(ctx, rs.ForFile(in.Lang, f.Abs, f.Path), in.Lang, in.Tree)
		if err != nil {
			return nil, err
		}
		fs = append(fs, more...)
	}
	return fs, nil
}

// scanTree returns the sorted findings of s in t, unused suppressions
// included when they are reported.
func (rs *Rules) scanTree(ctx context.Context, s *rule.Scanner, lang *language.Language, t *tree.Tree) ([]rule.Finding, error) {
	fs, unused, err := s.ScanAll(ctx, t)
	if err != nil {
		return nil, err
	}
	if rs.unused != "" && len(unused) > 0 {
		cfg := rule.UnusedSuppression(lang, rs.unused)
		for _, n := range unused {
			fs = append(fs, rule.Finding{Config: cfg, Node: n})
		}
	}
	rule.SortFindings(fs)
	return fs, nil
}

// Fix returns src with the first fix of every fixable finding applied,
// overlapping fixes dropped as ast-grep's --update-all drops them, and
// how many were applied.
func Fix(src []byte, fs []rule.Finding) ([]byte, int, error) {
	var edits []rewrite.Edit
	for _, f := range fs {
		if len(f.Config.Fixes) > 0 {
			edits = append(edits, f.Config.Fixes[0].Edit(f.Node, f.Env))
			if err := f.Env.Budget().Err(); err != nil {
				return nil, 0, fmt.Errorf("fix of rule %s at line %d: %w", f.Config.ID, f.Node.StartPoint().Row+1, err)
			}
		}
	}
	if len(edits) == 0 {
		return src, 0, nil
	}
	updated, err := rewrite.Apply(src, edits)
	if err != nil {
		return nil, 0, err
	}
	return updated, len(rewrite.Accepted(edits)), nil
}
