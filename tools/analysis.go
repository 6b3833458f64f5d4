package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/tools/paging"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// offsetParams is paging.Params under a name of its own, so that it can
// be embedded beside analysis.Params.
type offsetParams = paging.Params

// analysisParams are structural_analysis's parameters: analysis's, and
// the offset of a page of the answer's items.
type analysisParams struct {
	analysis.Params
	offsetParams
}

// params is an example call's parameters, on the first page.
func params(p analysis.Params) analysisParams { return analysisParams{Params: p} }

// analysisPage is structural_analysis's answer: one page of the items of
// analysis's answer (its trees in pre-order, then its lists, as the
// structured output lists them), at most paging.MaxTextBytes of text. On
// a page that is not the whole answer, Result is the answer cut to the
// page's items (with their ancestors in a tree, so each keeps its path)
// and the text lists the items one a line.
type analysisPage struct {
	*analysis.Result
	// Offset is the index of the page's first item among all the items.
	Offset int
	// NextOffset is the offset of the next page, 0 on the last.
	NextOffset int
	// TotalItems counts the items of the whole answer.
	TotalItems int
	// items are the page's items, texts whole.
	items []analysisItem
	whole bool // the page is the whole answer
}

// MarshalJSON writes the answer's fields and the page's side by side
// (offset, next_offset, totalItems).
func (p *analysisPage) MarshalJSON() ([]byte, error) {
	type page struct {
		Offset     int `json:"offset,omitempty"`
		NextOffset int `json:"next_offset,omitempty"`
		TotalItems int `json:"totalItems"`
	}
	a, err := json.Marshal(p.Result)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(page{p.Offset, p.NextOffset, p.TotalItems})
	if err != nil {
		return nil, err
	}
	if len(a) <= 2 {
		return b, nil
	}
	return append(append(a[:len(a)-1:len(a)-1], ','), b[1:]...), nil
}

// pageAnalysis cuts r's items to the page at offset.
func pageAnalysis(r *analysis.Result, offset int) *analysisPage {
	all := flatten(r)
	rest := all[min(offset, len(all)):]
	n := paging.Fit(rest, len(rest), paging.ItemBytes, func(it analysisItem) int { return len(itemText(it)) })
	pg := &analysisPage{Result: r, Offset: offset, TotalItems: len(all), items: rest[:n]}
	pg.NextOffset = paging.Page{Offset: offset, Count: n, Total: len(all)}.Next()
	if offset == 0 && pg.NextOffset == 0 && len(r.Text()) <= paging.MaxTextBytes {
		pg.whole = true
		return pg
	}
	pg.Result = prune(r, offset, offset+n)
	return pg
}

// Text is analysis's text for an answer that is one page; a page of a
// longer one lists its items one a line, then says how to ask for the
// rest.
func (p *analysisPage) Text() string {
	if p.whole {
		return p.Result.Text()
	}
	var b strings.Builder
	what := p.Symbol
	if what == "" {
		what = p.Target
	}
	pg := paging.Page{Offset: p.Offset, Count: len(p.items), Total: p.TotalItems}
	if msg := pg.PastEnd(); msg != "" {
		fmt.Fprintf(&b, "%s %s: no items shown: %s.\n", p.Mode, what, msg)
		return b.String()
	}
	fmt.Fprintf(&b, "%s %s: items %d-%d of %d\n", p.Mode, what, p.Offset+1, p.Offset+len(p.items), p.TotalItems)
	for _, it := range p.items {
		b.WriteString(itemText(it))
	}
	switch {
	case p.Partial:
		fmt.Fprintf(&b, "[partial: stopped by %s; results found so far are shown]\n", p.Reason)
	case p.Truncated:
		b.WriteString("[truncated: maxNodes reached; raise maxNodes or narrow path for more]\n")
	}
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if m := pg.More(); m != "" {
		b.WriteString(m + "\n")
	}
	return b.String()
}

// itemArrows are the arrows the text marks items of a kind with, as
// analysis's own text does.
var itemArrows = map[string]string{"caller": "← ", "callee": "→ ", "supertype": "→ ", "subtype": "← ", "import": "→ ", "importer": "← "}

// maxItemLine is the most characters of a name or a source line a page's
// text shows of an item.
const maxItemLine = 400

// itemText is one item of a page's text: its kind's arrow, name, place,
// detail and confidence, indented by its depth, then the line that shows
// it (each clipped to maxItemLine characters).
func itemText(it analysisItem) string {
	it.Name, it.Text = clipN(it.Name, maxItemLine), clipN(it.Text, maxItemLine)
	var b strings.Builder
	indent := strings.Repeat("  ", max(it.Depth, 1))
	b.WriteString(indent + itemArrows[it.Kind])
	if it.Name != "" {
		b.WriteString(it.Name + "  ")
	}
	if it.File != "" {
		fmt.Fprintf(&b, "%s:%d", it.File, it.Line)
	} else if it.Kind == "supertype" || it.Kind == "subtype" {
		b.WriteString("not defined in scope")
	}
	if it.Detail != "" {
		fmt.Fprintf(&b, "  (%s)", it.Detail)
	}
	if it.Confidence != "" && it.Confidence != analysis.Resolved {
		fmt.Fprintf(&b, "  [%s]", it.Confidence)
	}
	b.WriteByte('\n')
	if it.Text != "" {
		fmt.Fprintf(&b, "%s    %s\n", indent, it.Text)
	}
	return b.String()
}

var structuralAnalysis = declare(decl[analysisParams, *analysisPage, analysisOutput]{
	Name:        analysis.Name,
	Title:       "Structural code analysis",
	Summary:     "Answers multi-hop questions about code from syntax trees (who calls a function and who calls those, what it calls, where a symbol is defined, what extends a type, where a symbol is used, what a file imports or exports), following imports, scope and the types code writes down.",
	Description: analysis.Description,
	Guide: "Use structural_analysis for relationship questions before reading files one by one: callers of a function before changing its signature, what a function calls, where a symbol is defined, what a class extends and what extends it, every use of a symbol, a file's imports and importers.\n\n" +
		analysis.Details,
	Category:    toolspec.CodeAnalysis,
	Permissions: toolspec.ReadFiles,
	Termination: "Set terminate=false when the answer leads to further steps (reading the callers, following a definition, an edit); set terminate=true when the call tree, definitions or references are themselves the answer to present to the user.",
	Examples: []example[analysisParams]{
		{"Who calls createToolRegistry, and who calls those", params(analysis.Params{Mode: analysis.ModeCallers, Language: "typescript", Symbol: "createToolRegistry", Depth: 2})},
		{"Where a class is defined", params(analysis.Params{Mode: analysis.ModeDefinitions, Language: "python", Symbol: "Session"})},
		{"What a type extends and what extends it", params(analysis.Params{Mode: analysis.ModeHierarchy, Language: "java", Symbol: "BaseHandler", Depth: 3})},
		{"A file's imports and the files importing it", params(analysis.Params{Mode: analysis.ModeDependencies, Language: "typescript", Target: "src/registry.ts", Reverse: true})},
	},
	Open: func(cfg Config) (func(context.Context, analysisParams) (*analysisPage, error), error) {
		t, err := analysis.New(analysis.Config{Workspace: cfg.Workspace, Timeout: cfg.AnalysisTimeout, MaxFileSize: cfg.MaxFileSize})
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, p analysisParams) (*analysisPage, error) {
			if err := paging.Check(p.Offset); err != nil {
				return nil, fmt.Errorf("structural_analysis: %w", err)
			}
			r, err := t.Run(ctx, p.Params)
			if err != nil {
				return nil, err
			}
			return pageAnalysis(r, p.Offset), nil
		}, nil
	},
	Structured: compactAnalysis,
	Warnings: func(r *analysisPage) []string {
		var w []string
		switch {
		case r.SkippedFiles == 1:
			w = append(w, "structural_analysis skipped 1 file (binary, too large or unreadable)")
		case r.SkippedFiles > 1:
			w = append(w, fmt.Sprintf("structural_analysis skipped %d files (binary, too large or unreadable)", r.SkippedFiles))
		}
		if r.Partial && r.Reason == analysis.ReasonTimeout {
			w = append(w, "structural_analysis stopped at its time limit; the answer is partial")
		}
		return w
	},
})

// analysisOutput is structural_analysis's structured output: the answer's
// trees and lists flattened into one list of items (a tree in pre-order,
// each node with its depth), texts clipped, within MaxStructuredBytes.
type analysisOutput struct {
	Mode          string         `json:"mode"`
	Language      string         `json:"language"`
	Symbol        string         `json:"symbol,omitempty"`
	Target        string         `json:"target,omitempty"`
	Path          string         `json:"path,omitempty"`
	Truncated     bool           `json:"truncated" desc:"A limit (maxNodes, the time limit) or a cancellation cut the answer."`
	Partial       bool           `json:"partial" desc:"The time limit or a cancellation stopped the call."`
	Reason        string         `json:"reason,omitempty" desc:"Why the answer is cut (timeout, cancelled, maxNodes: analysis's Reason constants)."`
	FilesInScope  int            `json:"filesInScope"`
	FilesAnalyzed int            `json:"filesAnalyzed"`
	SkippedFiles  int            `json:"skippedFiles"`
	Items         []analysisItem `json:"items" desc:"The page's items, as many as fit the size bound."`
	Omitted       int            `json:"omitted,omitempty" desc:"Items of the text's page left out of this structured form by its size bound."`
	TotalItems    int            `json:"totalItems" desc:"The items of the whole answer, on every page."`
	NextOffset    int            `json:"next_offset,omitempty" desc:"The offset of the item after the last one listed here, when there are more."`
	References    map[string]int `json:"references,omitempty" desc:"references mode: the count of each reference category (items may list fewer, see maxNodes), and under resolved and nameOnly the totals of references resolved and matched by name alone (the heuristic category counts in neither)."`
	Exhaustive    *bool          `json:"exhaustive,omitempty" desc:"callers, references: no site left name-only, no file skipped, no limit hit; notes say why not."`
	Notes         []string       `json:"notes,omitempty"`
}

// analysisItem is one caller, callee, definition, type, reference,
// import, importer or export.
type analysisItem struct {
	Kind   string `json:"kind" enum:"caller,function,callee,definition,supertype,subtype,reference,import,importer,export" desc:"What the item is: a caller (callers mode), a function whose calls follow and a callee (callees), a definition, a supertype or subtype (hierarchy), a reference, an import or importer (dependencies), an export."`
	Depth  int    `json:"depth,omitempty" desc:"Level in a call tree or hierarchy: 1 for the symbol's direct callers, callees, supertypes or subtypes."`
	Name   string `json:"name,omitempty" desc:"The symbol, qualified by its container (Class.method); for an import, its source."`
	Detail string `json:"detail,omitempty" desc:"A definition's or export's kind, a type's relation, a reference's category, an import's kind, the definition a caller calls; 'cycle' or 'repeated' for a node not expanded again."`
	File   string `json:"file,omitempty" desc:"Path relative to the workspace root; empty for a type not defined in scope."`
	Line   int    `json:"line,omitempty" desc:"1-based: the definition's line, or the call's, reference's or import's."`
	Text   string `json:"text,omitempty" desc:"The line that shows it (a call site, a definition, a reference), clipped."`
	// Confidence is analysis's label of a caller, callee, supertype,
	// subtype or reference.
	Confidence string `json:"confidence,omitempty" enum:"resolved,dispatch,name-only,heuristic" desc:"How a caller, callee, supertype, subtype or reference was tied to the symbol: resolved (through imports, scope, this/self or the types the code writes or implies), dispatch (a call of a member the symbol overrides or implements), name-only (the name matches; nothing tells which definition it means), heuristic (a method call on a receiver whose name contains the symbol's words)."`
}

func compactAnalysis(p *analysisPage) analysisOutput {
	r := p.Result
	out := analysisOutput{Mode: r.Mode, Language: r.Language, Symbol: clip(r.Symbol), Target: clip(r.Target), Path: clip(r.Path),
		Truncated: r.Truncated, Partial: r.Partial, Reason: r.Reason,
		FilesInScope: r.FilesInScope, FilesAnalyzed: r.FilesAnalyzed, SkippedFiles: r.SkippedFiles,
		Notes: clipAll(r.Notes), TotalItems: p.TotalItems, NextOffset: p.NextOffset}
	if c := r.Completeness; c != nil {
		out.Exhaustive = &c.Exhaustive
		if why := completenessNote(c); why != "" {
			out.Notes = append(out.Notes, why)
		}
	}
	if r.References != nil {
		refs := r.References
		out.References = map[string]int{"resolved": refs.Resolved, "nameOnly": refs.NameOnly}
		for _, c := range refs.Categories {
			out.References[c.ID] = c.Count
		}
	}
	items := make([]analysisItem, len(p.items))
	for i, it := range p.items {
		it.Name, it.Text = clip(it.Name), clip(it.Text)
		items[i] = it
	}
	out.Items = []analysisItem{}
	out.Items, out.Omitted, out.NextOffset = boundPage(out, items, p.Offset, p.NextOffset)
	return out
}

// flatten lists the items of r: its trees in pre-order (each node with
// its depth), then its lists, in the order analysis's text shows them.
func flatten(r *analysis.Result) []analysisItem {
	items := []analysisItem{}
	add := func(it analysisItem) { items = append(items, it) }
	var calls func(kind string, ns []analysis.CallNode, depth int)
	calls = func(kind string, ns []analysis.CallNode, depth int) {
		for _, n := range ns {
			it := analysisItem{Kind: kind, Depth: depth, Name: qualify(n.Container, n.Name), Detail: mark(n.Cycle, n.Repeated), File: n.File, Line: n.Line, Text: n.Via,
				Confidence: n.Confidence}
			if n.Def != "" {
				// A bare name's caller: the definition it calls.
				it.Detail = strings.TrimSuffix("calls "+n.Def+", "+it.Detail, ", ")
			}
			if kind == "callee" {
				it.Name, it.Text = "", n.Text
			}
			add(it)
			calls(kind, n.Children, depth+1)
		}
	}
	var types func(kind string, ns []analysis.TypeNode, depth int)
	types = func(kind string, ns []analysis.TypeNode, depth int) {
		for _, n := range ns {
			detail := n.Relation
			if m := mark(n.Cycle, n.Repeated); m != "" {
				detail += ", " + m
			}
			add(analysisItem{Kind: kind, Depth: depth, Name: n.Name, Detail: detail, File: n.File, Line: n.Line, Confidence: n.Confidence})
			types(kind, n.Children, depth+1)
		}
	}
	definitions := func(ds []analysis.Definition) {
		for _, d := range ds {
			add(analysisItem{Kind: "definition", Name: qualify(d.Container, d.Name), Detail: d.Kind, File: d.File, Line: d.Line, Text: d.Text})
		}
	}
	switch r.Mode {
	case analysis.ModeCallers:
		calls("caller", r.Callers, 1)
	case analysis.ModeCallees:
		for _, root := range r.Callees {
			add(analysisItem{Kind: "function", Name: qualify(root.Container, root.Name), File: root.File, Line: root.Line})
			calls("callee", root.Children, 1)
		}
	case analysis.ModeDefinitions:
		definitions(r.Definitions)
	case analysis.ModeHierarchy:
		if h := r.Hierarchy; h != nil {
			definitions(h.Definitions)
			types("supertype", h.Supertypes, 1)
			types("subtype", h.Subtypes, 1)
		}
	case analysis.ModeReferences:
		if refs := r.References; refs != nil {
			for _, c := range refs.Categories {
				for _, it := range c.Items {
					detail := c.ID
					if it.Def != "" {
						detail += ", calls " + it.Def
					}
					add(analysisItem{Kind: "reference", Detail: detail, File: it.File, Line: it.Line, Text: it.Text, Confidence: it.Confidence})
				}
			}
		}
	case analysis.ModeDependencies:
		for _, fd := range r.Dependencies {
			for _, imp := range fd.Imports {
				text := strings.Join(imp.Names, ", ")
				if imp.Resolved != "" {
					text = strings.TrimPrefix(text+" = "+imp.Resolved, " ")
				}
				add(analysisItem{Kind: "import", Name: imp.Source, Detail: imp.Kind, File: fd.File, Line: imp.Line, Text: text})
			}
		}
		for _, im := range r.ImportedBy {
			add(analysisItem{Kind: "importer", Name: im.Source, Detail: im.Kind, File: im.File, Line: im.Line, Text: im.Text})
		}
	case analysis.ModeExports:
		for _, e := range r.Exports {
			text := e.Detail
			if e.Source != "" {
				text = "from " + e.Source
			}
			detail := e.Kind
			if e.Default {
				detail += ", default"
			}
			add(analysisItem{Kind: "export", Name: qualify(e.Container, e.Name), Detail: detail, File: e.File, Line: e.Line, Text: text})
		}
	}
	return items
}

// pruneTree keeps the nodes of a tree (pre-order) that in, called once a
// node, admits, with their ancestors; kids gives a node's children.
func pruneTree[N any](ns []N, kids func(*N) *[]N, in func() bool) []N {
	var out []N
	for _, n := range ns {
		keep := in()
		k := kids(&n)
		if sub := pruneTree(*k, kids, in); keep || len(sub) > 0 {
			*k = sub
			out = append(out, n)
		}
	}
	return out
}

// prune returns a copy of r holding only its items lo to hi-1 (in
// flatten's order) and, in a tree, their ancestors.
func prune(r *analysis.Result, lo, hi int) *analysis.Result {
	c := *r
	next := 0
	in := func() bool { i := next; next++; return i >= lo && i < hi }
	calls := func(ns []analysis.CallNode) []analysis.CallNode {
		return pruneTree(ns, func(n *analysis.CallNode) *[]analysis.CallNode { return &n.Children }, in)
	}
	types := func(ns []analysis.TypeNode) []analysis.TypeNode {
		return pruneTree(ns, func(n *analysis.TypeNode) *[]analysis.TypeNode { return &n.Children }, in)
	}
	definitions := func(ds []analysis.Definition) []analysis.Definition {
		var out []analysis.Definition
		for _, d := range ds {
			if in() {
				out = append(out, d)
			}
		}
		return out
	}
	switch r.Mode {
	case analysis.ModeCallers:
		c.Callers = calls(r.Callers)
	case analysis.ModeCallees:
		c.Callees = nil
		for _, root := range r.Callees {
			keep := in()
			if kids := calls(root.Children); keep || len(kids) > 0 {
				root.Children = kids
				c.Callees = append(c.Callees, root)
			}
		}
	case analysis.ModeDefinitions:
		c.Definitions = definitions(r.Definitions)
	case analysis.ModeHierarchy:
		if h := r.Hierarchy; h != nil {
			c.Hierarchy = &analysis.Hierarchy{Definitions: definitions(h.Definitions)}
			c.Hierarchy.Supertypes = types(h.Supertypes)
			c.Hierarchy.Subtypes = types(h.Subtypes)
		}
	case analysis.ModeReferences:
		if refs := r.References; refs != nil {
			cr := *refs
			cr.Categories = nil
			for _, cat := range refs.Categories {
				var kept []analysis.Ref
				for _, it := range cat.Items {
					if in() {
						kept = append(kept, it)
					}
				}
				cat.Items = kept
				cr.Categories = append(cr.Categories, cat)
			}
			c.References = &cr
		}
	case analysis.ModeDependencies:
		c.Dependencies = nil
		for _, fd := range r.Dependencies {
			var kept []analysis.Import
			for _, imp := range fd.Imports {
				if in() {
					kept = append(kept, imp)
				}
			}
			if len(kept) > 0 {
				c.Dependencies = append(c.Dependencies, analysis.FileDeps{File: fd.File, Imports: kept})
			}
		}
		if r.ImportedBy != nil {
			c.ImportedBy = []analysis.Importer{}
			for _, im := range r.ImportedBy {
				if in() {
					c.ImportedBy = append(c.ImportedBy, im)
				}
			}
		}
	case analysis.ModeExports:
		c.Exports = nil
		for _, e := range r.Exports {
			if in() {
				c.Exports = append(c.Exports, e)
			}
		}
	}
	return &c
}

func qualify(container, name string) string {
	if container == "" {
		return name
	}
	return container + "." + name
}

func mark(cycle, repeated bool) string {
	switch {
	case cycle:
		return "cycle"
	case repeated:
		return "repeated"
	}
	return ""
}

// completenessNote says why an answer is not exhaustive: its name-only
// sites by reason, and the files not read; and how many calls on untyped
// values it leaves out.
func completenessNote(c *analysis.Completeness) string {
	var why []string
	for _, k := range []string{analysis.ReasonUntypedReceiver, analysis.ReasonUnboundName, analysis.ReasonFileNotRead} {
		if n := c.Reasons[k]; n > 0 {
			why = append(why, fmt.Sprintf("%d %s", n, k))
		}
	}
	var notes []string
	if !c.Exhaustive && len(why) > 0 {
		notes = append(notes, fmt.Sprintf("not exhaustive: %d name-only (%s)", c.NameOnly, strings.Join(why, ", ")))
	}
	if c.Untyped > 0 {
		calls := "calls"
		if c.Untyped == 1 {
			calls = "call"
		}
		notes = append(notes, fmt.Sprintf("%d %s on untyped values (any) not listed", c.Untyped, calls))
	}
	if c.Related > 0 {
		notes = append(notes, fmt.Sprintf("%d through an overridden or implemented member not listed (callers lists them)", c.Related))
	}
	return strings.Join(notes, "; ")
}
