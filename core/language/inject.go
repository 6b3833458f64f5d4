package language

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/host"
)

// Region is a part of a host file that holds code of another language:
// a <script> in HTML, a fenced code block in Markdown, a region an
// sgconfig.yml languageInjections entry finds.
type Region struct {
	// Lang names the region's language as the host spells it ("js",
	// "ts", a fence's info string); Lookup resolves it.
	Lang string
	// Start and End are the region's byte offsets in the host source.
	Start, End int
}

// Injector finds regions of injected code in a host tree: what one
// languageInjections entry of an sgconfig.yml does (core/rule builds
// them). Implementations are safe for concurrent use.
type Injector interface {
	// Regions returns the regions of t, in document order.
	Regions(ctx context.Context, t *tree.Tree) ([]Region, error)
	// Languages returns the names of the languages it may inject.
	Languages() []string
}

// Injected is a region of a host file parsed with its own language. Its
// Tree is over the host's whole source, so that its positions, byte
// offsets and line texts are the host file's; its nodes lie inside the
// region.
type Injected struct {
	Lang   *Language
	Region Region
	Tree   *tree.Tree
}

// builtinInjection is what a built-in host language injects.
type builtinInjection struct {
	// langs are the names of the languages its regions may hold, as
	// ast-grep lists them (names loupe does not know are left out when
	// resolved).
	langs []string
	// open means any language may be injected (a fence's info string).
	open bool
	// regions finds the regions of a tree of the host.
	regions func(t *tree.Tree) []Region
	// alone: loupe's own injection, not ast-grep's (see InjectsAlone).
	alone bool
	// mayHold, when set, tells from the source alone whether it may hold
	// code of a language (see MayHold).
	mayHold func(src []byte, target *Language) bool
}

// builtinInjections are the injections built into host languages, by
// language name: HTML's as ast-grep's; Markdown's beyond it.
var builtinInjections = map[string]builtinInjection{
	"html":     {langs: htmlInjectable, regions: htmlRegions},
	"markdown": {open: true, regions: markdownRegions, alone: true, mayHold: markdownMayHold},
	"svelte":   {langs: htmlInjectable, regions: svelteRegions, alone: true},
	"vue":      {langs: htmlInjectable, regions: vueRegions, alone: true},
}

// htmlInjectable are the languages of HTML's scripts and styles, as
// ast-grep lists them.
var htmlInjectable = []string{"css", "js", "ts", "tsx", "scss", "less", "stylus", "coffee"}

var (
	injectorsMu sync.RWMutex
	injectors   map[*Language][]Injector // registered languageInjections, by host
)

// SetInjectors replaces the registered injectors (a project's
// languageInjections) with m, injectors by host language, each host's in
// the order they are tried. nil removes them all.
func SetInjectors(m map[*Language][]Injector) {
	injectorsMu.Lock()
	defer injectorsMu.Unlock()
	injectors = m
}

func registeredInjectors(l *Language) []Injector {
	injectorsMu.RLock()
	defer injectorsMu.RUnlock()
	return injectors[l]
}

// Injectable returns the languages that code in l's files may be
// written in besides l: those of its built-in injections and of the
// registered injectors, names loupe does not know left out. any reports
// that a region may be of any language (Markdown's fences), langs then
// being the ones listed besides.
func (l *Language) Injectable() (langs []*Language, any bool) {
	var names []string
	if b, ok := builtinInjections[l.info.Name]; ok && l.custom == nil {
		names, any = b.langs, b.open
	}
	for _, inj := range registeredInjectors(l) {
		names = append(names, inj.Languages()...)
	}
	seen := map[*Language]bool{}
	for _, n := range names {
		if t, err := Lookup(n); err == nil && t != l && !seen[t] {
			seen[t] = true
			langs = append(langs, t)
		}
	}
	return langs, any
}

// InjectsAlone reports whether a search without a language searches l's
// regions of injected code even when its query is not one of l (a kind l
// lacks, a pattern that does not parse as l): so for the injections
// loupe builds in beyond ast-grep (Markdown, Vue, Svelte). ast-grep's
// run passes such a file over, regions and all, and so does loupe for
// HTML and the hosts of languageInjections.
func (l *Language) InjectsAlone() bool {
	b, ok := builtinInjections[l.info.Name]
	return ok && l.custom == nil && b.alone
}

// MayHold reports whether src, the content of a file of l, may hold
// injected code of target (nil: of any language), read from the text
// alone before it is parsed: false when it surely holds none, as a
// Markdown file without a fenced block of that language.
func (l *Language) MayHold(src []byte, target *Language) bool {
	b, ok := builtinInjections[l.info.Name]
	if !ok || l.custom != nil || b.mayHold == nil || len(registeredInjectors(l)) > 0 {
		return true
	}
	return b.mayHold(src, target)
}

// markdownMayHold reports whether a Markdown source has a fence opening
// line (up to three spaces, then three or more ` or ~) whose info string's
// first word names target (any language loupe knows, for nil). An
// indented fence in a list item is found too, so that what it reports
// false for surely has no such block.
func markdownMayHold(src []byte, target *Language) bool {
	for line := range strings.Lines(string(src)) {
		rest := strings.TrimLeft(line, " \t>")
		var fence byte
		switch {
		case strings.HasPrefix(rest, "```"):
			fence = '`'
		case strings.HasPrefix(rest, "~~~"):
			fence = '~'
		default:
			continue
		}
		info := strings.TrimLeft(strings.TrimLeft(rest, string(fence)), " \t")
		word := info
		if i := strings.IndexAny(info, " \t\r\n{"); i >= 0 {
			word = info[:i]
		}
		if word == "" {
			continue
		}
		if l, err := Lookup(word); err == nil && (target == nil || l == target) {
			return true
		}
	}
	return false
}

// Injects reports whether code of target may be injected in l's files.
func (l *Language) Injects(target *Language) bool {
	if target == l {
		return false
	}
	langs, any := l.Injectable()
	if any {
		return true
	}
	for _, t := range langs {
		if t == target {
			return true
		}
	}
	return false
}

// Hosts returns the languages whose files may hold code of target (see
// Injects).
func Hosts(target *Language) []*Language {
	var out []*Language
	for _, l := range All() {
		if l.Injects(target) {
			out = append(out, l)
		}
	}
	return out
}

// Regions returns the regions of injected code in t, a tree of a file of
// l, in ast-grep's order: l's built-in ones (HTML: every script, then
// every style), then each registered injector's.
func (l *Language) Regions(ctx context.Context, t *tree.Tree) ([]Region, error) {
	var out []Region
	if b, ok := builtinInjections[l.info.Name]; ok && l.custom == nil {
		out = b.regions(t)
	}
	for _, inj := range registeredInjectors(l) {
		rs, err := inj.Regions(ctx, t)
		if err != nil {
			return nil, fmt.Errorf("languageInjections of %s: %w", l.info.Name, err)
		}
		out = append(out, rs...)
	}
	return out, nil
}

// Inject finds the regions of injected code in t, a tree of a file of l
// (Regions), and parses each one of a known language other than l that
// want accepts (nil: every one), in the order of Regions. A region
// whose language loupe does not know is passed over, as ast-grep passes
// it over.
func (l *Language) Inject(ctx context.Context, t *tree.Tree, want func(*Language) bool) ([]Injected, error) {
	regions, err := l.Regions(ctx, t)
	if err != nil || len(regions) == 0 {
		return nil, err
	}
	var out []Injected
	for _, r := range regions {
		target, err := Lookup(r.Lang)
		if err != nil || target == l || (want != nil && !want(target)) {
			continue
		}
		it, err := target.ParseRegion(ctx, t, r.Start, r.End)
		if err != nil {
			row, _ := t.CharPosition(r.Start)
			return nil, fmt.Errorf("%s region at line %d: %w", target.Name(), row+1, err)
		}
		out = append(out, Injected{Lang: target, Region: r, Tree: it})
	}
	return out, nil
}

// ParseRegion parses the bytes start..end of outer's source as l and
// returns its tree over the whole of that source (tree.NewOver):
// positions, byte offsets and line texts are the outer file's. The
// region is parsed after as many spaces as its first line's column, so
// that a grammar that counts columns (indentation) sees them as in the
// outer file.
func (l *Language) ParseRegion(ctx context.Context, outer *tree.Tree, start, end int) (*tree.Tree, error) {
	src := outer.Source()
	if start < 0 || end > len(src) || start > end {
		return nil, fmt.Errorf("language %s: region %d..%d outside a source of %d bytes", l.info.Name, start, end, len(src))
	}
	col := start - (strings.LastIndexByte(string(src[:start]), '\n') + 1)
	buf := make([]byte, col+end-start)
	for i := range col {
		buf[i] = ' '
	}
	copy(buf[col:], src[start:end])
	nodes, names, err := l.parseNodes(ctx, buf)
	if err != nil {
		return nil, err
	}
	shift := uint32(start - col)
	for i := range nodes {
		nodes[i].StartByte += shift
		nodes[i].EndByte += shift
	}
	t, err := tree.NewOver(outer, nodes, names)
	if err != nil {
		return nil, fmt.Errorf("language %s: %w", l.info.Name, err)
	}
	return t, nil
}

// parseNodes parses src into the grammar's flat node array (see Parse)
// and returns it with the grammar's names.
func (l *Language) parseNodes(ctx context.Context, src []byte) ([]host.Node, *host.Names, error) {
	s, err := l.load(ctx)
	if err != nil {
		return nil, nil, err
	}
	cost, err := parseCost(l.info.Name, src)
	if err != nil {
		return nil, nil, err
	}
	if err := parses.acquire(ctx, cost); err != nil {
		return nil, nil, fmt.Errorf("language %s: %w", l.info.Name, err)
	}
	nodes, err := s.grammar.Parse(ctx, src)
	parses.release(cost)
	if err != nil {
		return nil, nil, fmt.Errorf("language %s: %w", l.label(), err)
	}
	return nodes, s.names, nil
}

// htmlRegions are ast-grep's HTML injections: the raw text of every
// <script> (JavaScript unless a lang attribute says otherwise), then of
// every <style> (CSS unless a lang attribute says otherwise).
func htmlRegions(t *tree.Tree) []Region {
	var scripts, styles []Region
	t.Root().Descendants(func(n tree.Node) bool {
		var dflt string
		switch n.Kind() {
		case "script_element":
			dflt = "js"
		case "style_element":
			dflt = "css"
		default:
			return true
		}
		for _, c := range n.Children() {
			if c.Kind() != "raw_text" {
				continue
			}
			r := Region{Lang: htmlLang(n, dflt), Start: c.StartByte(), End: c.EndByte()}
			if dflt == "js" {
				scripts = append(scripts, r)
			} else {
				styles = append(styles, r)
			}
			break
		}
		return true
	})
	return append(scripts, styles...)
}

// htmlLang returns the value of the first lang attribute of an element,
// else dflt.
func htmlLang(el tree.Node, dflt string) string {
	lang, found := dflt, false
	el.Descendants(func(n tree.Node) bool {
		if found || n.Kind() != "attribute" {
			return !found
		}
		var name, value tree.Node
		n.Descendants(func(d tree.Node) bool {
			switch {
			case d.Kind() == "attribute_name" && name.IsZero():
				name = d
			case d.Kind() == "attribute_value" && value.IsZero():
				value = d
			}
			return true
		})
		if !name.IsZero() && name.Text() == "lang" && !value.IsZero() {
			lang, found = value.Text(), true
		}
		return !found
	})
	return lang
}

// markdownRegions are the contents of fenced code blocks whose info
// string names a language (its first word).
func markdownRegions(t *tree.Tree) []Region {
	var out []Region
	t.Root().Descendants(func(n tree.Node) bool {
		if n.Kind() != "fenced_code_block" {
			return true
		}
		var lang string
		var content tree.Node
		for _, c := range n.Children() {
			switch c.Kind() {
			case "info_string":
				for _, d := range c.Children() {
					if d.Kind() == "language" {
						lang = d.Text()
						break
					}
				}
			case "code_fence_content":
				content = c
			}
		}
		if lang != "" && !content.IsZero() {
			out = append(out, Region{Lang: lang, Start: content.StartByte(), End: content.EndByte()})
		}
		return true
	})
	return out
}

// scriptLang is the language of a component's script: the lang attribute
// of its first <script> that has one, else JavaScript. Its template's
// expressions are in it.
func scriptLang(t *tree.Tree) string {
	lang := "js"
	t.Root().Descendants(func(n tree.Node) bool {
		if n.Kind() == "script_element" {
			if l := htmlLang(n, ""); l != "" {
				lang = l
				return false
			}
		}
		return true
	})
	return lang
}

// svelteRegions are a Svelte component's scripts and styles, as HTML's,
// then the JavaScript (or TypeScript) expressions of its template: every
// {expression} and {#if condition}, in document order.
func svelteRegions(t *tree.Tree) []Region {
	out := htmlRegions(t)
	lang := scriptLang(t)
	t.Root().Descendants(func(n tree.Node) bool {
		if n.Kind() == "svelte_raw_text" && (n.Parent().Kind() == "expression" || n.Field() == "condition") {
			out = append(out, Region{Lang: lang, Start: n.StartByte(), End: n.EndByte()})
		}
		return true
	})
	return out
}

// vueDirective reports whether an attribute of a Vue template holds a
// JavaScript expression: a v-bind (:x), v-on (@x) or v-if, v-else-if,
// v-show, v-model, v-html, v-text or v-bind/v-on spelled out. (v-for and
// v-slot hold other syntax.)
func vueDirective(name string) bool {
	switch {
	case strings.HasPrefix(name, ":"), strings.HasPrefix(name, "@"),
		strings.HasPrefix(name, "v-bind"), strings.HasPrefix(name, "v-on"):
		return true
	}
	switch name {
	case "v-if", "v-else-if", "v-show", "v-model", "v-html", "v-text":
		return true
	}
	return false
}

// vueRegions are a Vue single-file component's scripts and styles, as
// HTML's, then the expressions of its template, in document order: the
// values of its directives (vueDirective) and every {{ interpolation }},
// in the language of its script.
func vueRegions(t *tree.Tree) []Region {
	out := htmlRegions(t)
	lang := scriptLang(t)
	src := t.Source()
	t.Root().Descendants(func(n tree.Node) bool {
		switch n.Kind() {
		case "script_element", "style_element":
			return true
		case "attribute":
			var name, value tree.Node
			for _, c := range n.Children() {
				switch c.Kind() {
				case "attribute_name":
					name = c
				case "quoted_attribute_value":
					for _, v := range c.Children() {
						if v.Kind() == "attribute_value" {
							value = v
						}
					}
				case "attribute_value":
					value = c
				}
			}
			if !name.IsZero() && !value.IsZero() && vueDirective(name.Text()) {
				out = append(out, Region{Lang: lang, Start: value.StartByte(), End: value.EndByte()})
			}
		case "text":
			for off := n.StartByte(); ; {
				open := strings.Index(string(src[off:n.EndByte()]), "{{")
				if open < 0 {
					break
				}
				start := off + open + 2
				end := strings.Index(string(src[start:n.EndByte()]), "}}")
				if end < 0 {
					break
				}
				out = append(out, Region{Lang: lang, Start: start, End: start + end})
				off = start + end + 2
			}
		}
		return true
	})
	return out
}
