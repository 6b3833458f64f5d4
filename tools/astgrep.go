package tools

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/tools/astgrep"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

var astGrep = declare(decl[astgrep.Params, *astgrep.Result, astGrepOutput]{
	Name:        astgrep.Name,
	Title:       "Structural code search",
	Summary:     "Finds code by its syntactic shape with ast-grep patterns (code with $METAVARIABLES) or YAML rules, returning each match's location, node kind and captures; never matches comments or strings.",
	Description: astgrep.Description,
	Guide: "Use ast_grep to find code by shape rather than text: calls of a function or method, classes extending a base, imports of a module, error handling written a certain way. " +
		"Write the pattern as the code looks, with $NAME for one node and $$$NAME for any number; language is required unless path is one file. " +
		"Use rule for what a pattern cannot say (a node kind, a name by regex, has/inside relations); path and globs narrow the files; maxResults (default 100) caps the matches while totalMatches counts them all.\n\n" +
		astgrep.Details,
	Category:    toolspec.SearchDiscovery,
	Permissions: toolspec.ReadFiles,
	Termination: "Set terminate=false when the matches feed further steps (reading the files around them, a narrower search, an edit); set terminate=true when the list of matches is itself the answer to present to the user.",
	Examples: []example[astgrep.Params]{
		{"Every console.log call and its arguments", astgrep.Params{Pattern: "console.log($$$ARGS)", Language: "typescript"}},
		{"Classes extending a base class, outside tests", astgrep.Params{Pattern: "class $NAME extends $PARENT { $$$BODY }", Language: "typescript", Path: "src", Globs: []string{"!*.test.ts"}}},
		{"Method definitions whose name starts with get (a rule: a kind and a regex a pattern cannot say)", astgrep.Params{Rule: map[string]any{"kind": "method_definition", "has": map[string]any{"field": "name", "regex": "^get"}}, Language: "typescript"}},
		{"Go error checks that return, at most 20", astgrep.Params{Pattern: "if err != nil { return $$$R }", Language: "go", MaxResults: 20}},
	},
	Open: func(cfg Config) (func(context.Context, astgrep.Params) (*astgrep.Result, error), error) {
		langGlobs := registerCustomLanguages(cfg.Workspace)
		t, err := astgrep.New(astgrep.Config{Workspace: cfg.Workspace, Timeout: cfg.AstGrepTimeout, MaxFileSize: cfg.MaxFileSize, Shard: cfg.Shard, LangGlobs: langGlobs})
		if err != nil {
			return nil, err
		}
		return t.Run, nil
	},
	Structured: compactAstGrep,
	Warnings: func(r *astgrep.Result) []string {
		var w []string
		for _, s := range r.Skipped {
			w = append(w, fmt.Sprintf("ast_grep skipped %s (%s)", s.File, s.Reason))
		}
		if r.Reason == astgrep.ReasonTimeout {
			w = append(w, "ast_grep stopped at its time limit; the matches are partial")
		}
		return w
	},
	Merge: func(p astgrep.Params, shards []*astgrep.Result) *astgrep.Result {
		return astgrep.Merge(shards, p.MaxResults, p.Offset)
	},
})

// astGrepOutput is ast_grep's structured output: astgrep.Result without
// the repetition (each match's text once, clipped; captures clipped) and
// within MaxStructuredBytes.
type astGrepOutput struct {
	Matches       []compactMatch `json:"matches" desc:"The matches, in file order, as many as fit the size bound (omitted counts the rest; the text lists every match)."`
	TotalMatches  int            `json:"totalMatches" desc:"Every match found, including those cut by maxResults."`
	Truncated     bool           `json:"truncated" desc:"The search stopped early: see reason."`
	Reason        string         `json:"reason,omitempty" desc:"Why the search is truncated (maxResults, maxBytes, timeout, cancelled: astgrep's Reason constants)."`
	Omitted       int            `json:"omitted,omitempty" desc:"Matches of the text's page left out of this structured form by its size bound."`
	NextOffset    int            `json:"next_offset,omitempty" desc:"The offset of the match after the last one listed here, when there are more."`
	FilesSearched int            `json:"filesSearched"`
	SkippedFiles  int            `json:"skippedFiles" desc:"Files not searched (binary, too large, unreadable)."`
	Hints         []string       `json:"hints,omitempty" desc:"Why nothing matched, where that can be told, or that a rewritten query found the matches."`
}

// compactMatch is one match of astGrepOutput.
type compactMatch struct {
	File      string            `json:"file" desc:"Path relative to the workspace root."`
	StartLine int               `json:"startLine" desc:"1-based."`
	StartCol  int               `json:"startCol" desc:"1-based, in characters."`
	EndLine   int               `json:"endLine"`
	EndCol    int               `json:"endCol" desc:"Just past the last character."`
	NodeKind  string            `json:"nodeKind"`
	Text      string            `json:"text" desc:"The match's first line, clipped."`
	Captures  map[string]string `json:"captures,omitempty" desc:"Metavariables by name with their sigil ($A, $$$ARGS), each as clipped source text; a multiple capture's nodes are joined with ', '."`
}

func compactAstGrep(r *astgrep.Result) astGrepOutput {
	ms := make([]compactMatch, len(r.Matches))
	for i, m := range r.Matches {
		c := compactMatch{File: m.File, StartLine: m.StartLine, StartCol: m.StartCol, EndLine: m.EndLine, EndCol: m.EndCol,
			NodeKind: m.NodeKind, Text: clip(m.Text)}
		if n := len(m.MetaVariables.Single) + len(m.MetaVariables.Multi); n > 0 {
			c.Captures = make(map[string]string, n)
			for _, k := range slices.Sorted(maps.Keys(m.MetaVariables.Single)) {
				c.Captures["$"+k] = clip(m.MetaVariables.Single[k])
			}
			for _, k := range slices.Sorted(maps.Keys(m.MetaVariables.Multi)) {
				c.Captures["$$$"+k] = clip(strings.Join(m.MetaVariables.Multi[k], ", "))
			}
		}
		ms[i] = c
	}
	out := astGrepOutput{TotalMatches: r.TotalMatches, Truncated: r.Truncated, Reason: r.Reason, NextOffset: r.NextOffset,
		FilesSearched: r.FilesSearched, SkippedFiles: r.SkippedFiles, Hints: clipAll(r.Hints)}
	out.Matches = []compactMatch{}
	out.Matches, out.Omitted, out.NextOffset = boundPage(out, ms, r.Offset, r.NextOffset)
	return out
}
