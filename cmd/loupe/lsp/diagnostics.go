package lsp

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/scan"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// source is every diagnostic's source: ast-grep's, which editors'
// settings and ast-grep's own quick-fix filter key on.
const source = "ast-grep"

// ruleSet is a project's rules as loaded, with what the server needs of
// them besides scanning: notes by rule id and the languageGlobs.
type ruleSet struct {
	rules *scan.Rules
	notes map[string]string
	langs *search.LanguageTable
}

// loadRules loads the project's rules as `loupe scan` does without flags:
// every rule, the unused-suppression report at hint severity (ast-grep's
// language server reports it so).
func loadRules(ctx context.Context, p *project.Project) (*ruleSet, error) {
	cfgs, err := p.LoadRules(ctx)
	if err != nil {
		return nil, err
	}
	if cfgs, err = project.Select(cfgs, project.Selection{}); err != nil {
		return nil, err
	}
	rs := &ruleSet{rules: scan.NewRules(cfgs, p.Dir, rule.SeverityHint), notes: map[string]string{}}
	for _, c := range cfgs {
		if c.Note != nil {
			rs.notes[c.ID] = *c.Note
		}
	}
	if rs.langs, err = search.NewLanguageTable(p.LanguageGlobs); err != nil {
		return nil, err
	}
	return rs, nil
}

// language returns the language of the file at path: the project's
// languageGlobs first, then the file's extension; nil for none.
func (rs *ruleSet) language(path string) *language.Language {
	return rs.langs.ForPath(path)
}

// document is an open document and what the rules found in it.
type document struct {
	uri     string
	path    string // absolute
	version int
	lang    *language.Language
	text    []byte
	lines   []int // the byte offset of each line's start

	diagnostics []Diagnostic
	// fixes are the fixes of the diagnostics that have any, by the
	// diagnostic's range and rule id, as ast-grep keys them.
	fixes map[fixKey][]fix
	// notes are the rule notes over the diagnostics' ranges, sorted.
	notes []note
}

// fixKey names a diagnostic: its range and rule id.
type fixKey struct {
	rng Range
	id  string
}

// fix is one fix of a diagnostic: its title ("" for none) and edit.
type fix struct {
	title string
	edit  TextEdit
}

// note is a rule's note over one of its diagnostics.
type note struct {
	rng  Range
	text string
}

// newDocument returns the document at uri (path is its file) with text.
func newDocument(uri, path string, version int, lang *language.Language, text string) *document {
	d := &document{uri: uri, path: path, version: version, lang: lang, text: []byte(text), lines: []int{0}}
	for i, b := range d.text {
		if b == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
	return d
}

// position returns the position of byte offset off: its line, and its
// column in UTF-16 code units.
func (d *document) position(off int) Position {
	off = max(0, min(off, len(d.text)))
	line := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
	col := 0
	for s := d.text[d.lines[line]:off]; len(s) > 0; {
		r, n := utf8.DecodeRune(s)
		s = s[n:]
		if r >= 0x10000 {
			col += 2
		} else {
			col++
		}
	}
	return Position{Line: line, Character: col}
}

// span returns the range of the bytes [start, end).
func (d *document) span(start, end int) Range {
	return Range{Start: d.position(start), End: d.position(end)}
}

// analyze scans the document with rs and keeps its diagnostics, fixes
// and notes. A document outside the folder of the rules' files globs is
// scanned with the rules that apply to its absolute path.
func (d *document) analyze(ctx context.Context, rs *ruleSet) error {
	d.diagnostics, d.fixes, d.notes = []Diagnostic{}, map[fixKey][]fix{}, nil
	if rs == nil {
		return nil
	}
	t, err := d.lang.Parse(ctx, d.text)
	if err != nil {
		return fmt.Errorf("parse %s: %w", d.path, err)
	}
	findings, err := rs.scan(ctx, d.lang, d.path, t)
	if err != nil {
		return fmt.Errorf("scan %s: %w", d.path, err)
	}
	for _, f := range findings {
		diag := d.diagnostic(f)
		d.diagnostics = append(d.diagnostics, diag)
		if fixes := d.fixesOf(f); len(fixes) > 0 {
			d.fixes[fixKey{diag.Range, f.Config.ID}] = fixes
		}
		if n, ok := rs.notes[f.Config.ID]; ok {
			d.notes = append(d.notes, note{diag.Range, n})
		}
	}
	sort.SliceStable(d.notes, func(i, j int) bool { return d.notes[i].rng.less(d.notes[j].rng) })
	return nil
}

// scan runs the rules that apply to a file of lang at path over its tree t
// (and over the code injected in it) as `loupe scan` does, and returns
// the findings, the unused suppressions among them.
func (rs *ruleSet) scan(ctx context.Context, lang *language.Language, path string, t *tree.Tree) ([]rule.Finding, error) {
	return rs.rules.ScanFile(ctx, search.File{Path: path, Abs: path, Lang: lang}, t)
}

// severities maps a rule severity to the protocol's.
var severities = map[rule.Severity]int{
	rule.SeverityError:   severityError,
	rule.SeverityWarning: severityWarning,
	rule.SeverityInfo:    severityInformation,
	rule.SeverityHint:    severityHint,
}

// diagnostic returns the diagnostic of a finding as ast-grep's language
// server makes it: over the matched node, or over the primary label when
// the rule configures labels (whose messages become related
// information); the rule id as message when the rule has none.
func (d *document) diagnostic(f rule.Finding) Diagnostic {
	cfg := f.Config
	diag := Diagnostic{
		Range:    d.span(f.Node.StartByte(), f.Node.EndByte()),
		Severity: severities[cfg.Severity],
		Code:     cfg.ID,
		Source:   source,
		Message:  cfg.ID,
	}
	if cfg.Message != "" {
		diag.Message = cfg.RenderMessage(f.Node, f.Env)
	}
	if u, err := url.Parse(cfg.URL); err == nil && cfg.URL != "" && u.Scheme != "" {
		diag.CodeDescription = &CodeDescription{Href: cfg.URL}
	}
	if cfg.Labels == nil {
		return diag
	}
	diag.RelatedInformation = []DiagnosticRelatedInformation{}
	primary := false
	for _, s := range cfg.Spans(f.Node, f.Env) {
		rng := d.span(s.StartNode.StartByte(), s.EndNode.EndByte())
		if s.Style == "primary" && !primary {
			diag.Range, primary = rng, true
		}
		if s.Message != nil {
			diag.RelatedInformation = append(diag.RelatedInformation, DiagnosticRelatedInformation{
				Location: Location{URI: d.uri, Range: rng},
				Message:  *s.Message,
			})
		}
	}
	return diag
}

// fixesOf returns the fixes of a finding, each replacing the range its
// edit covers (the matched node, widened by the fix's expandStart and
// expandEnd). A fix whose text is not UTF-8 or that exceeds the rule's
// budget is left out.
func (d *document) fixesOf(f rule.Finding) []fix {
	var out []fix
	for _, fx := range f.Config.Fixes {
		e := fx.Edit(f.Node, f.Env)
		if f.Env != nil && f.Env.Budget().Err() != nil || !utf8.Valid(e.Text) {
			continue
		}
		out = append(out, fix{title: fx.Title, edit: TextEdit{Range: d.span(e.Start, e.End), NewText: string(e.Text)}})
	}
	return out
}

// fixAll returns the first fix of every diagnostic that has one, in
// range order, leaving out those that start before the previous one's
// edit ends, as ast-grep's fix-all does; nil when there is none.
func (d *document) fixAll() []TextEdit {
	keys := make([]fixKey, 0, len(d.fixes))
	for k := range d.fixes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].rng != keys[j].rng {
			return keys[i].rng.less(keys[j].rng)
		}
		return keys[i].id < keys[j].id
	})
	var edits []TextEdit
	var last Position
	for _, k := range keys {
		if k.rng.Start.before(last) {
			continue
		}
		e := d.fixes[k][0].edit
		edits = append(edits, e)
		last = e.Range.End
	}
	return edits
}

// hover returns the note over pos: the one of the last diagnostic range,
// in range order, that starts at or before pos, if it covers pos (ast-grep
// looks notes up so).
func (d *document) hover(pos Position) *Hover {
	at := Range{Start: pos, End: pos}
	i := sort.Search(len(d.notes), func(i int) bool { return at.less(d.notes[i].rng) }) - 1
	if i < 0 {
		return nil
	}
	n := d.notes[i]
	if pos.before(n.rng.Start) || n.rng.End.before(pos) {
		return nil
	}
	rng := n.rng
	return &Hover{Contents: MarkupContent{Kind: "markdown", Value: n.text}, Range: &rng}
}
