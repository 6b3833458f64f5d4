// Package analysis implements loupe's structural_analysis tool: multi-hop
// questions about code answered from syntax trees — who calls a
// function (and who calls those), what a function calls, where a symbol is
// defined, a type's supertypes and subtypes, every structural reference to
// a symbol, a file's imports and importers, and a module's exports.
//
// Each language's shapes (definitions, calls, supertypes, imports, exports)
// are data in a per-language table (lang_*.go); one walk per file turns a
// tree into facts, and every mode reads facts. A file is parsed at most once
// per call, whatever the depth. Names are followed through scopes, imports
// and the types code writes down (no type checker runs) to the definition
// they mean (bind.go, types*.go), and each result says whether it was
// (resolved), reaches it through a member it overrides (dispatch), or was
// matched by name only.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/tools/schema"
)

// The analysis modes.
const (
	ModeCallers      = "callers"
	ModeCallees      = "callees"
	ModeDefinitions  = "definitions"
	ModeHierarchy    = "hierarchy"
	ModeReferences   = "references"
	ModeDependencies = "dependencies"
	ModeExports      = "exports"
)

// Modes lists every mode, in the order the tool documents them.
var Modes = []string{ModeCallers, ModeCallees, ModeDefinitions, ModeHierarchy, ModeReferences,
	ModeDependencies, ModeExports}

// Limits and defaults of the parameters.
const (
	DefaultDepth    = 1
	MaxDepth        = 5
	DefaultMaxNodes = 50
	// MaxMaxNodes caps maxNodes, whatever the caller asks.
	MaxMaxNodes = 10000
	// DefaultTimeout bounds one call (REQ-INFRA-006).
	DefaultTimeout = 60 * time.Second
)

// Reasons a result is incomplete.
const (
	ReasonTimeout   = "timeout"
	ReasonCancelled = "cancelled"
	ReasonMaxNodes  = "maxNodes"
)

// Params are the structural_analysis tool's parameters, as an LLM passes
// them. Schema derives the published JSON Schema from the tags.
type Params struct {
	Mode     string `json:"mode" enum:"callers,callees,definitions,hierarchy,references,dependencies,exports" desc:"callers, callees, definitions, hierarchy and references take symbol; dependencies and exports take target."`
	Language string `json:"language" desc:"Language of the code (typescript also covers .tsx)."`
	Path     string `json:"path,omitempty" desc:"File or directory to search (default: the workspace root); narrowing it makes name matches more precise."`
	Symbol   string `json:"symbol,omitempty" desc:"Name as written, or qualified (Class.method, module.func, pkg.Func, file.ts#outer.inner) to pick one of several same-named definitions."`
	Depth    int    `json:"depth,omitempty" min:"1" max:"5" default:"1" desc:"Levels to follow for callers, callees and hierarchy: 2 adds callers of callers."`
	MaxNodes int    `json:"maxNodes,omitempty" min:"1" max:"10000" default:"50" desc:"Most symbols visited, or items listed per category; truncated: true says it was hit."`
	Target   string `json:"target,omitempty" desc:"File or directory, for dependencies and exports."`
	Reverse  bool   `json:"reverse,omitempty" default:"false" desc:"dependencies: also list the files that import target."`
}

// Schema returns the JSON Schema of Params.
func Schema() map[string]any { return schema.For(Params{}) }

// Config sets up a Tool.
type Config struct {
	// Workspace is the root every path and target must stay inside
	// (required).
	Workspace string
	// Timeout bounds one call (default 60 s); on timeout what was found so
	// far is returned with Partial set and Reason "timeout".
	Timeout time.Duration
	// MaxFileSize skips larger files, counted in SkippedFiles (default
	// search.DefaultMaxFileSize, as for ast_grep).
	MaxFileSize int64
}

// Tool runs structural_analysis calls inside one workspace. It is safe for
// concurrent use.
type Tool struct {
	cfg Config
	ws  *workspace
}

// New opens the workspace and returns the tool.
func New(cfg Config) (*Tool, error) {
	if cfg.Workspace == "" {
		return nil, errors.New("structural_analysis: no workspace root")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	ws, err := newWorkspace(cfg.Workspace, cfg.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("structural_analysis: %w", err)
	}
	return &Tool{cfg: cfg, ws: ws}, nil
}

// Run answers one call. Invalid parameters (an unknown mode, a missing
// symbol, a path outside the workspace, a mode the language does not
// support) are errors, reported before any file is read. A timeout or a
// cancelled ctx is not an error: the result then holds what was found so
// far, with Partial and Truncated set and Reason saying why.
func (t *Tool) Run(ctx context.Context, p Params) (*Result, error) {
	res, err := t.run(ctx, p)
	if err != nil {
		return nil, t.ws.relative(err)
	}
	return res, nil
}

func (t *Tool) run(ctx context.Context, p Params) (*Result, error) {
	req, err := t.validate(p)
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithTimeout(ctx, t.cfg.Timeout)
	defer cancel()
	res := &Result{Mode: req.mode, Language: req.lang.Name(), Symbol: req.symbol, Target: req.targetRel,
		Path: req.scopeRel}
	if req.owner != "" {
		res.Symbol = req.shown
	}
	s, err := newSession(runCtx, req)
	if err != nil {
		if runCtx.Err() == nil {
			return nil, err
		}
		// The time ran out (or the call was cancelled) while the grammar
		// loaded: nothing was found, and the answer says why (REQ-INFRA-006).
		res.emptySection(req)
		res.Notes = append(res.Notes, req.notes...)
		res.Partial, res.Truncated, res.Reason = true, true, ReasonTimeout
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			res.Reason = ReasonCancelled
		}
		res.Completeness = res.completeness()
		return res, nil
	}
	defer s.close()
	if err := s.checkSymbol(); err != nil {
		return nil, err
	}
	switch req.mode {
	case ModeCallers:
		res.Depth = req.depth
		res.Callers = s.callers(req.symbol, req.qual, req.depth, req.maxNodes)
	case ModeCallees:
		res.Depth = req.depth
		res.Callees = s.callees(req.symbol, req.qual, req.depth, req.maxNodes)
	case ModeDefinitions:
		res.Definitions = s.definitions(req.symbol, req.qual, req.maxNodes)
	case ModeHierarchy:
		res.Depth = req.depth
		res.Hierarchy = s.hierarchy(req.symbol, req.qual, req.depth, req.maxNodes)
	case ModeReferences:
		res.References = s.references(req.symbol, req.qual, req.maxNodes)
	case ModeDependencies:
		res.Dependencies, res.ImportedBy = s.dependencies(req.reverse)
	case ModeExports:
		res.Exports = s.exports()
	}
	s.explainEmpty(res)
	res.FilesInScope = len(s.files)
	res.FilesParsed = s.parsed
	res.FilesReused = s.reused
	res.FilesAnalyzed = s.parsed + s.reused
	res.SkippedFiles = s.skipped
	res.Notes = append(res.Notes, req.notes...)
	res.Notes = append(res.Notes, s.notes...)
	if n := len(s.unreadable); n > 0 {
		shown := s.unreadable[:min(n, 5)]
		note := fmt.Sprintf("could not read %s, so the answer may miss what they hold: %s", plural(n, "path", "paths"), strings.Join(shown, "; "))
		if n > len(shown) {
			note += "; …"
		}
		res.Notes = append(res.Notes, note)
	}
	if s.truncated {
		res.Truncated, res.Reason = true, ReasonMaxNodes
	}
	if err := runCtx.Err(); err != nil || s.stopped {
		res.Partial, res.Truncated = true, true
		res.Reason = ReasonTimeout
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			res.Reason = ReasonCancelled
		}
	}
	res.Completeness = res.completeness()
	if res.Completeness != nil {
		res.Completeness.Untyped, res.Completeness.Related = s.untyped, s.related
	}
	return res, nil
}

// emptySection sets the mode's section to its empty structure
// (REQ-SA-007).
func (r *Result) emptySection(req *request) {
	switch r.Mode {
	case ModeCallers:
		r.Callers = []CallNode{}
	case ModeCallees:
		r.Callees = []CallNode{}
	case ModeDefinitions:
		r.Definitions = []Definition{}
	case ModeHierarchy:
		r.Hierarchy = &Hierarchy{Definitions: []Definition{}, Supertypes: []TypeNode{}, Subtypes: []TypeNode{}}
	case ModeReferences:
		r.References = &References{}
		for _, c := range refCategories() {
			r.References.Categories = append(r.References.Categories, *c)
		}
	case ModeDependencies:
		r.Dependencies = []FileDeps{}
		if req.reverse {
			r.ImportedBy = []Importer{}
		}
	case ModeExports:
		r.Exports = []Export{}
	}
}

// splitQualified splits a qualified symbol (Config.initialize,
// Config::initialize, Config#initialize, pkg.Type.Method) into its owner's
// last segment and the name.
func splitQualified(sym string) (owner, name string) {
	i := strings.LastIndexAny(sym, ".:#")
	if i <= 0 || i == len(sym)-1 {
		return "", sym
	}
	name = sym[i+1:]
	rest := strings.TrimRight(sym[:i], ".:#")
	if j := strings.LastIndexAny(rest, ".:#"); j >= 0 {
		rest = rest[j+1:]
	}
	return rest, name
}

// request is a validated call.
type request struct {
	mode      string
	lang      *language.Language
	symbol    string // the name to match
	owner     string // the qualifier of a qualified symbol (Config in Config.initialize)
	qual      string // the whole qualifier (app.Config in app.Config.initialize), or file#chain (naming.go)
	shown     string // the symbol as answers show it
	depth     int
	maxNodes  int
	reverse   bool
	ws        *workspace
	scope     string // absolute path of Path
	scopeRel  string
	target    string // absolute path of Target
	targetRel string
	notes     []string
}

func (t *Tool) validate(p Params) (*request, error) {
	mode := strings.ToLower(strings.TrimSpace(p.Mode))
	if !contains(Modes, mode) {
		if mode == "" {
			return nil, fmt.Errorf("mode is required: one of %s", strings.Join(Modes, ", "))
		}
		return nil, fmt.Errorf("unsupported mode %q: valid modes are %s", p.Mode, strings.Join(Modes, ", "))
	}
	if strings.TrimSpace(p.Language) == "" {
		return nil, fmt.Errorf("language is required (supported: %s)", strings.Join(SupportedLanguages(), ", "))
	}
	lang, err := language.Lookup(p.Language)
	if err != nil {
		// Not a built-in language: nothing analysis knows of, a custom
		// language (customLanguages) included, whose grammar says nothing
		// of which kinds define, call or import.
		return nil, fmt.Errorf("structural analysis does not support %q (supported: %s): %w",
			p.Language, strings.Join(SupportedLanguages(), ", "), err)
	}
	if _, ok := specs[lang.Name()]; !ok {
		return nil, fmt.Errorf("structural analysis does not support %s (supported: %s)",
			lang.Name(), strings.Join(SupportedLanguages(), ", "))
	}
	if modes := SupportedModes(lang.Name()); !contains(modes, mode) {
		return nil, fmt.Errorf("mode %s is not supported for %s (supported for %s: %s)",
			mode, lang.Name(), lang.Name(), strings.Join(modes, ", "))
	}
	req := &request{mode: mode, lang: lang, symbol: strings.TrimSpace(p.Symbol), reverse: p.Reverse}
	symbolMode := mode != ModeDependencies && mode != ModeExports
	if symbolMode && req.symbol == "" {
		return nil, fmt.Errorf("symbol is required for mode %s", mode)
	}
	sym, err := parseSymbol(req.symbol, langExts(lang.Name()))
	if err != nil {
		return nil, err
	}
	req.symbol, req.owner, req.qual, req.shown = sym.name, sym.owner, sym.qual, sym.shown
	if req.owner != "" {
		switch mode {
		case ModeDefinitions, ModeCallees:
			req.notes = append(req.notes, fmt.Sprintf("%s: definitions of %s in %s only", p.Symbol, req.symbol, req.owner))
		default:
			req.notes = append(req.notes, fmt.Sprintf("%s: uses of %s that resolve to its definitions in %s, and those syntax cannot resolve (name-only); uses resolving to another %s are left out",
				p.Symbol, req.symbol, req.owner, req.symbol))
		}
	}
	switch {
	case p.Depth < 0:
		return nil, fmt.Errorf("depth must be between 1 and %d, got %d", MaxDepth, p.Depth)
	case p.Depth == 0:
		req.depth = DefaultDepth
	case p.Depth > MaxDepth:
		req.depth = MaxDepth
		req.notes = append(req.notes, fmt.Sprintf("depth %d lowered to the maximum, %d", p.Depth, MaxDepth))
	default:
		req.depth = p.Depth
	}
	switch {
	case p.MaxNodes < 0:
		return nil, fmt.Errorf("maxNodes must be positive, got %d", p.MaxNodes)
	case p.MaxNodes == 0:
		req.maxNodes = DefaultMaxNodes
	case p.MaxNodes > MaxMaxNodes:
		req.maxNodes = MaxMaxNodes
	default:
		req.maxNodes = p.MaxNodes
	}
	ws := t.ws
	req.ws = ws
	if req.scope, req.scopeRel, err = ws.resolve(p.Path, "path"); err != nil {
		return nil, err
	}
	if !symbolMode {
		t := p.Target
		if strings.TrimSpace(t) == "" {
			if strings.TrimSpace(p.Path) == "" {
				return nil, fmt.Errorf("target is required for mode %s: the file or directory to analyze", mode)
			}
			t = p.Path
			// The path named the target; importers are searched for in the
			// whole workspace.
			req.scope, req.scopeRel = ws.root, ""
		}
		if req.target, req.targetRel, err = ws.resolve(t, "target"); err != nil {
			return nil, err
		}
	}
	return req, nil
}
