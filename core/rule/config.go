package rule

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/tree"
)

// Severity is how serious a rule's finding is.
type Severity string

// The severities, as ast-grep spells them.
const (
	SeverityHint    Severity = "hint"
	SeverityInfo    Severity = "info"
	SeverityWarning Severity = "warning"
	SeverityError   Severity = "error"
	SeverityOff     Severity = "off"
)

var severities = []string{"hint", "info", "warning", "error", "off"}

// LabelStyle is "primary" or "secondary".
type LabelStyle string

// Label configures how a metavariable is reported.
type Label struct {
	Style   LabelStyle
	Message *string // nil when absent
}

// FileGlob is an entry of a rule's files or ignores list.
type FileGlob struct {
	Glob            string
	CaseInsensitive bool
}

// Config is a compiled rule configuration: a rule core with its
// reporting metadata and fixes, as in an ast-grep rule file.
type Config struct {
	ID       string
	Language *language.Language
	Message  string
	Note     *string // nil when absent
	Severity Severity
	URL      string
	Files    []FileGlob
	Ignores  []FileGlob
	Metadata map[string]any
	Labels   map[string]Label
	Core     *Core
	Fixes    []*Fix

	message            *rewrite.Template
	fileRes, ignoreRes []*regexp.Regexp
}

// Options control how rule configs are compiled.
type Options struct {
	// Globals are the global utility rules `matches` may refer to.
	Globals *Globals
}

var configKeys = []string{
	"id", "language", "rule", "constraints", "utils", "transform", "fix", "rewriters",
	"message", "note", "severity", "labels", "files", "ignores", "url", "metadata",
}

// ParseConfigs compiles the rule configs of a YAML stream (documents
// separated by ---).
func ParseConfigs(ctx context.Context, src []byte, opts Options) ([]*Config, error) {
	docs, err := parseYAMLDocs(src)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, &Error{Msg: "no rule found"}
	}
	out := make([]*Config, 0, len(docs))
	for i, d := range docs {
		cfg, err := parseConfigValue(ctx, d, opts)
		if err != nil {
			name := fmt.Sprintf("rule document %d", i+1)
			if id := d.get("id"); d.kind == mapValue && id != nil && id.kind == scalarValue {
				name = fmt.Sprintf("rule %q (document %d)", id.text, i+1)
			}
			if len(docs) > 1 {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return nil, err
		}
		out = append(out, cfg)
	}
	return out, nil
}

// ParseConfig compiles a rule config given as a JSON-like object (the
// shape encoding/json produces for a rule file in JSON).
func ParseConfig(ctx context.Context, obj map[string]any, opts Options) (*Config, error) {
	v, err := fromGo(obj, 0, "")
	if err != nil {
		return nil, err
	}
	return parseConfigValue(ctx, v, opts)
}

func parseLanguage(v *value) (*language.Language, error) {
	lv := v.get("language")
	if lv == nil {
		return nil, errAt(v, "", "missing key \"language\"")
	}
	name, err := asString(lv, "language")
	if err != nil {
		return nil, err
	}
	lang, err := language.Lookup(name)
	if err != nil {
		return nil, errAt(lv, "language", "%v", err)
	}
	return lang, nil
}

func parseConfigValue(ctx context.Context, v *value, opts Options) (*Config, error) {
	if err := asMap(v, ""); err != nil {
		return nil, err
	}
	if err := checkKeys(v, "", configKeys); err != nil {
		return nil, err
	}
	lang, err := parseLanguage(v)
	if err != nil {
		return nil, err
	}
	cfg := &Config{Language: lang, Severity: SeverityHint}
	if err := cfg.parseMetadata(v); err != nil {
		return nil, err
	}
	c, err := newCompiler(ctx, lang, newRegistry(opts.Globals))
	if err != nil {
		return nil, err
	}
	core, err := c.core(v, "")
	if err != nil {
		return nil, err
	}
	cfg.Core = core
	upper := core.definedVars()
	// Like ast-grep, rewriter names are only checked when the config has
	// rewriters; otherwise an unknown one rewrites nothing.
	if rv := v.get("rewriters"); rv != nil && rv.kind != nullValue {
		if err := c.rewriters(rv, "rewriters", upper); err != nil {
			return nil, err
		}
		if err := core.checkRewriters(""); err != nil {
			return nil, err
		}
		for id, rw := range c.reg.rewriters {
			if err := rw.core.checkRewriters("rewriters." + id + "."); err != nil {
				return nil, err
			}
		}
	}
	if lv := v.get("labels"); lv != nil && lv.kind != nullValue {
		if cfg.Labels, err = parseLabels(lv, core.nodeVars()); err != nil {
			return nil, err
		}
	}
	if core.ks == nil {
		return nil, errAt(v.get("rule"), "rule", "the rule must determine the kinds of node it matches; add a kind or pattern")
	}
	if fv := v.get("fix"); fv != nil && fv.kind != nullValue {
		if cfg.Fixes, err = c.fixes(fv, "fix", core.transformKeys()); err != nil {
			return nil, err
		}
		if err := checkFixVars(cfg.Fixes, upper, fv, "fix"); err != nil {
			return nil, err
		}
	}
	cfg.message = rewrite.Compile(cfg.Message, core.transformKeys())
	return cfg, nil
}

func (cfg *Config) parseMetadata(v *value) error {
	str := func(key string) (string, bool, error) {
		f := v.get(key)
		if f == nil || f.kind == nullValue {
			return "", false, nil
		}
		s, err := asString(f, key)
		return s, err == nil, err
	}
	var err error
	if cfg.ID, _, err = str("id"); err != nil {
		return err
	}
	if cfg.Message, _, err = str("message"); err != nil {
		return err
	}
	note, ok, err := str("note")
	if err != nil {
		return err
	}
	if ok {
		cfg.Note = &note
	}
	if cfg.URL, _, err = str("url"); err != nil {
		return err
	}
	sev, ok, err := str("severity")
	if err != nil {
		return err
	}
	if ok {
		if !contains(severities, sev) {
			return errAt(v.get("severity"), "severity", "unknown severity %q (expected one of %s)", sev, strings.Join(severities, ", "))
		}
		cfg.Severity = Severity(sev)
	}
	if cfg.Files, cfg.fileRes, err = parseGlobs(v.get("files"), "files"); err != nil {
		return err
	}
	if cfg.Ignores, cfg.ignoreRes, err = parseGlobs(v.get("ignores"), "ignores"); err != nil {
		return err
	}
	if mv := v.get("metadata"); mv != nil && mv.kind != nullValue {
		if err := asMap(mv, "metadata"); err != nil {
			return err
		}
		cfg.Metadata = toGo(mv).(map[string]any)
	}
	return nil
}

func parseGlobs(v *value, path string) ([]FileGlob, []*regexp.Regexp, error) {
	if v == nil || v.kind == nullValue {
		return nil, nil, nil
	}
	if err := asList(v, path); err != nil {
		return nil, nil, err
	}
	globs := []FileGlob{}
	var res []*regexp.Regexp
	for i, item := range v.items {
		p := index(path, i)
		fg := FileGlob{}
		if item.kind == mapValue {
			gv := item.get("glob")
			if gv == nil {
				return nil, nil, errAt(item, p, "missing key \"glob\"")
			}
			g, err := asString(gv, join(p, "glob"))
			if err != nil {
				return nil, nil, err
			}
			fg.Glob = g
			if cv := item.get("caseInsensitive"); cv != nil && cv.kind != nullValue {
				if fg.CaseInsensitive, err = asBool(cv, join(p, "caseInsensitive")); err != nil {
					return nil, nil, err
				}
			}
		} else {
			g, err := asString(item, p)
			if err != nil {
				return nil, nil, err
			}
			fg.Glob = g
		}
		re, err := compileFileGlob(fg)
		if err != nil {
			return nil, nil, errAt(item, p, "%v", err)
		}
		globs = append(globs, fg)
		res = append(res, re)
	}
	return globs, res, nil
}

func parseLabels(v *value, defined map[string]bool) (map[string]Label, error) {
	if err := asMap(v, "labels"); err != nil {
		return nil, err
	}
	out := map[string]Label{}
	for i, name := range v.keys {
		p := join("labels", name)
		lv := v.vals[i]
		if err := asMap(lv, p); err != nil {
			return nil, err
		}
		sv := lv.get("style")
		if sv == nil {
			return nil, errAt(lv, p, "missing key \"style\"")
		}
		style, err := asString(sv, join(p, "style"))
		if err != nil {
			return nil, err
		}
		if style != "primary" && style != "secondary" {
			return nil, errAt(sv, join(p, "style"), "unknown label style %q (expected primary or secondary)", style)
		}
		l := Label{Style: LabelStyle(style)}
		if mv := lv.get("message"); mv != nil && mv.kind != nullValue {
			msg, err := asString(mv, join(p, "message"))
			if err != nil {
				return nil, err
			}
			l.Message = &msg
		}
		if !defined[name] {
			return nil, errAt(lv, p, "label metavariable $%s must be defined in rule or constraints", name)
		}
		out[name] = l
	}
	return out, nil
}

// rewriter is an entry of a config's rewriters.
type rewriter struct {
	core  *Core
	fixes []*Fix
}

func (c *compiler) rewriters(v *value, path string, upper map[string]bool) error {
	if err := asList(v, path); err != nil {
		return err
	}
	for i, item := range v.items {
		p := index(path, i)
		if err := asMap(item, p); err != nil {
			return err
		}
		idv := item.get("id")
		if idv == nil {
			return errAt(item, p, "missing key \"id\"")
		}
		id, err := asString(idv, join(p, "id"))
		if err != nil {
			return err
		}
		fv := item.get("fix")
		if fv == nil || fv.kind == nullValue {
			return errAt(item, p, "rewriter %q needs a fix", id)
		}
		core, err := c.core(item, p)
		if err != nil {
			return err
		}
		fixes, err := c.fixes(fv, join(p, "fix"), core.transformKeys())
		if err != nil {
			return err
		}
		if len(fixes) == 0 {
			return errAt(fv, join(p, "fix"), "rewriter %q needs a fix", id)
		}
		vars := core.definedVars()
		for k := range upper {
			vars[k] = true
		}
		if err := checkFixVars(fixes, vars, fv, join(p, "fix")); err != nil {
			return err
		}
		c.reg.rewriters[id] = &rewriter{core: core, fixes: fixes}
	}
	return nil
}

func checkFixVars(fixes []*Fix, defined map[string]bool, v *value, path string) error {
	for _, f := range fixes {
		for _, tv := range f.template.Vars() {
			if !defined[tv.Name] {
				return errAt(v, path, "metavariable $%s is not defined by the rule", tv.Name)
			}
		}
	}
	return nil
}

// Fix is one fix of a rule: a template and, optionally, rules that widen
// the replaced range to neighbouring siblings.
type Fix struct {
	Title                  string
	template               *rewrite.Template
	expandStart, expandEnd *expansion
}

type expansion struct {
	rule matcher
	stop stopBy
}

// fixes compiles a fix: a template string, a {template, expandStart,
// expandEnd, title} object, or a list of such objects with titles.
func (c *compiler) fixes(v *value, path string, transformed []string) ([]*Fix, error) {
	switch v.kind {
	case scalarValue:
		s, err := asString(v, path)
		if err != nil {
			return nil, err
		}
		return []*Fix{{template: rewrite.Compile(s, transformed)}}, nil
	case mapValue:
		f, err := c.fixObject(v, path, transformed)
		if err != nil {
			return nil, err
		}
		return []*Fix{f}, nil
	case seqValue:
		var out []*Fix
		for i, item := range v.items {
			p := index(path, i)
			if err := asMap(item, p); err != nil {
				return nil, err
			}
			f, err := c.fixObject(item, p, transformed)
			if err != nil {
				return nil, err
			}
			if t := item.get("title"); t == nil || t.kind == nullValue {
				return nil, errAt(item, p, "a fix in a list needs a title")
			}
			out = append(out, f)
		}
		return out, nil
	}
	return nil, errAt(v, path, "expected a fix string, object or list, found %s", v.describe())
}

func (c *compiler) fixObject(v *value, path string, transformed []string) (*Fix, error) {
	tv := v.get("template")
	if tv == nil {
		return nil, errAt(v, path, "missing key \"template\"")
	}
	tmpl, err := asString(tv, join(path, "template"))
	if err != nil {
		return nil, err
	}
	f := &Fix{template: rewrite.Compile(tmpl, transformed)}
	if t := v.get("title"); t != nil && t.kind != nullValue {
		if f.Title, err = asString(t, join(path, "title")); err != nil {
			return nil, err
		}
	}
	for _, key := range []string{"expandStart", "expandEnd"} {
		ev := v.get(key)
		if ev == nil {
			continue
		}
		p := join(path, key)
		if err := asMap(ev, p); err != nil {
			return nil, err
		}
		stop, err := c.stopBy(ev, p)
		if err != nil {
			return nil, err
		}
		m, err := c.ruleFields(ev, p)
		if err != nil {
			return nil, err
		}
		if key == "expandStart" {
			f.expandStart = &expansion{rule: m, stop: stop}
		} else {
			f.expandEnd = &expansion{rule: m, stop: stop}
		}
	}
	return f, nil
}

// Edit returns the edit that applies the fix to a match of node n with
// bindings env: the rendered template replacing n, widened by the
// expansions. env is left unchanged.
func (f *Fix) Edit(n tree.Node, env *match.Env) rewrite.Edit {
	return f.edit(n, env)
}

func (f *Fix) edit(n tree.Node, env *match.Env) rewrite.Edit {
	start, end := n.StartByte(), n.EndByte()
	if f.expandStart != nil {
		if s, ok := f.expandStart.find(prevSibling(n, env.Budget()), preceding(n, env.Budget()), env); ok {
			start = s.StartByte()
		}
	}
	if f.expandEnd != nil {
		if s, ok := f.expandEnd.find(n.NextSibling(), following(n, env.Budget()), env); ok {
			end = s.EndByte()
		}
	}
	return rewrite.Edit{Start: start, End: end, Text: []byte(f.template.Render(env, n))}
}

func (e *expansion) find(next tree.Node, rest func(func(tree.Node) bool), env *match.Env) (tree.Node, bool) {
	mark := env.Mark()
	defer env.Rollback(mark)
	return e.stop.find(next, rest, func(s tree.Node) (tree.Node, bool) { return e.rule.match(s, env, nil) }, env, nil)
}

// RenderMessage expands the metavariables in the rule's message for a
// match of n with bindings env.
func (cfg *Config) RenderMessage(n tree.Node, env *match.Env) string {
	return cfg.message.Render(env, n)
}

// Span is a labelled part of a match.
type Span struct {
	Style      LabelStyle
	Message    *string // nil when absent
	Start, End int     // byte offsets
	StartNode  tree.Node
	EndNode    tree.Node
}

// Spans returns the labels of a match of n with bindings env: the
// configured labels of metavariables (in name order), or by default the
// matched node as primary and the nodes relational rules related it to as
// secondary.
func (cfg *Config) Spans(n tree.Node, env *match.Env) []Span {
	if cfg.Labels == nil {
		out := []Span{{Style: "primary", Start: n.StartByte(), End: n.EndByte(), StartNode: n, EndNode: n}}
		if env == nil {
			return out
		}
		sec, _ := env.Multi(secondaryLabel)
		for _, s := range sec {
			out = append(out, Span{Style: "secondary", Start: s.StartByte(), End: s.EndByte(), StartNode: s, EndNode: s})
		}
		return out
	}
	names := make([]string, 0, len(cfg.Labels))
	for name := range cfg.Labels {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []Span
	for _, name := range names {
		if env == nil {
			break
		}
		l := cfg.Labels[name]
		first, last := tree.Node{}, tree.Node{}
		if s, ok := env.Single(name); ok {
			first, last = s, s
		} else if ns, ok := env.Multi(name); ok && len(ns) > 0 {
			first, last = ns[0], ns[len(ns)-1]
		} else {
			continue
		}
		out = append(out, Span{Style: l.Style, Message: l.Message, Start: first.StartByte(), End: last.EndByte(), StartNode: first, EndNode: last})
	}
	return out
}

// Match reports whether n matches the rule (see Core.Match).
func (cfg *Config) Match(n tree.Node, env *match.Env) bool { return cfg.Core.Match(n, env) }

// Kinds returns the kinds a match can have.
func (cfg *Config) Kinds() match.KindSet { return cfg.Core.Kinds() }
