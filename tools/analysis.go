package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

var structuralAnalysis = declare(decl[analysis.Params, *analysis.Result, analysisOutput]{
	Name:        analysis.Name,
	Title:       "Structural code analysis",
	Summary:     "Answers multi-hop questions about code from syntax trees (who calls a function and who calls those, what it calls, where a symbol is defined, what extends a type, where a symbol is used, what a file imports or exports), matching names as written, not resolving types.",
	Description: analysis.Description,
	Guide: "Use structural_analysis for relationship questions before reading files one by one: callers of a function before changing its signature, what a function calls, where a symbol is defined, what a class extends and what extends it, every use of a symbol, a file's imports and importers.\n\n" +
		analysis.Details,
	Category:    toolspec.CodeAnalysis,
	Permissions: toolspec.ReadFiles,
	Termination: "Set terminate=false when the answer leads to further steps (reading the callers, following a definition, an edit); set terminate=true when the call tree, definitions or references are themselves the answer to present to the user.",
	Examples: []example[analysis.Params]{
		{"Who calls createToolRegistry, and who calls those", analysis.Params{Mode: analysis.ModeCallers, Language: "typescript", Symbol: "createToolRegistry", Depth: 2}},
		{"Where a class is defined", analysis.Params{Mode: analysis.ModeDefinitions, Language: "python", Symbol: "Session"}},
		{"What a type extends and what extends it", analysis.Params{Mode: analysis.ModeHierarchy, Language: "java", Symbol: "BaseHandler", Depth: 3}},
		{"A file's imports and the files importing it", analysis.Params{Mode: analysis.ModeDependencies, Language: "typescript", Target: "src/registry.ts", Reverse: true}},
	},
	Open: func(cfg Config) (func(context.Context, analysis.Params) (*analysis.Result, error), error) {
		t, err := analysis.New(analysis.Config{Workspace: cfg.Workspace, Timeout: cfg.AnalysisTimeout, MaxFileSize: cfg.MaxFileSize})
		if err != nil {
			return nil, err
		}
		return t.Run, nil
	},
	Structured: compactAnalysis,
	Warnings: func(r *analysis.Result) []string {
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
	Items         []analysisItem `json:"items" desc:"The answer, as many items as fit the size bound (omitted counts the rest; the text shows them all)."`
	Omitted       int            `json:"omitted,omitempty" desc:"Items left out of this structured form by its size bound."`
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
	Detail string `json:"detail,omitempty" desc:"A definition's or export's kind, a type's relation, a reference's category, an import's kind; 'cycle' or 'repeated' for a node not expanded again."`
	File   string `json:"file,omitempty" desc:"Path relative to the workspace root; empty for a type not defined in scope."`
	Line   int    `json:"line,omitempty" desc:"1-based: the definition's line, or the call's, reference's or import's."`
	Text   string `json:"text,omitempty" desc:"The line that shows it (a call site, a definition, a reference), clipped."`
	// Confidence is analysis's label of a caller, callee, supertype,
	// subtype or reference.
	Confidence string `json:"confidence,omitempty" enum:"resolved,name-only,heuristic" desc:"How a caller, callee, supertype, subtype or reference was tied to the symbol: resolved (through an import, re-export, same-file, same-package or class scope, this/self, a declared type), name-only (the name matches; syntax cannot tell which definition it means), heuristic (a method call on a receiver whose name contains the symbol's words)."`
}

func compactAnalysis(r *analysis.Result) analysisOutput {
	out := analysisOutput{Mode: r.Mode, Language: r.Language, Symbol: clip(r.Symbol), Target: clip(r.Target), Path: clip(r.Path),
		Truncated: r.Truncated, Partial: r.Partial, Reason: r.Reason,
		FilesInScope: r.FilesInScope, FilesAnalyzed: r.FilesAnalyzed, SkippedFiles: r.SkippedFiles,
		Notes: clipAll(r.Notes)}
	if c := r.Completeness; c != nil {
		out.Exhaustive = &c.Exhaustive
		if why := completenessNote(c); why != "" {
			out.Notes = append(out.Notes, why)
		}
	}
	items := []analysisItem{}
	add := func(it analysisItem) {
		it.Name, it.Text = clip(it.Name), clip(it.Text)
		items = append(items, it)
	}
	var calls func(kind string, ns []analysis.CallNode, depth int)
	calls = func(kind string, ns []analysis.CallNode, depth int) {
		for _, n := range ns {
			it := analysisItem{Kind: kind, Depth: depth, Name: qualify(n.Container, n.Name), Detail: mark(n.Cycle, n.Repeated), File: n.File, Line: n.Line, Text: n.Via,
				Confidence: n.Confidence}
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
			out.References = map[string]int{"resolved": refs.Resolved, "nameOnly": refs.NameOnly}
			for _, c := range refs.Categories {
				out.References[c.ID] = c.Count
				for _, it := range c.Items {
					add(analysisItem{Kind: "reference", Detail: c.ID, File: it.File, Line: it.Line, Text: it.Text, Confidence: it.Confidence})
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
	out.Items = []analysisItem{}
	out.Items, out.Omitted = bound(out, items)
	return out
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
// sites by reason, and the files not read.
func completenessNote(c *analysis.Completeness) string {
	var why []string
	for _, k := range []string{analysis.ReasonUntypedReceiver, analysis.ReasonDispatch, analysis.ReasonUnboundName, analysis.ReasonFileNotRead} {
		if n := c.Reasons[k]; n > 0 {
			why = append(why, fmt.Sprintf("%d %s", n, k))
		}
	}
	if c.Exhaustive || len(why) == 0 {
		return ""
	}
	return fmt.Sprintf("not exhaustive: %d name-only (%s)", c.NameOnly, strings.Join(why, ", "))
}
