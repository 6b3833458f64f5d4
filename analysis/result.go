package analysis

// Result is the answer of one call. Exactly one mode section is set; a
// mode that finds nothing still sets its section, to an empty list (or, for
// references, to every category with a zero count). Paths are relative to
// the workspace root with '/' separators; lines are 1-based.
type Result struct {
	Mode     string `json:"mode"`
	Language string `json:"language"`
	Symbol   string `json:"symbol,omitempty"`
	Target   string `json:"target,omitempty"`
	Path     string `json:"path,omitempty"`
	Depth    int    `json:"depth,omitempty"`
	// Truncated: a limit (maxNodes, the timeout) or cancellation cut the
	// answer; what is here was found before the cut.
	Truncated bool `json:"truncated"`
	// Partial: the timeout or a cancellation stopped the call.
	Partial bool `json:"partial"`
	// Reason says why the answer is cut: timeout, cancelled or maxNodes.
	Reason string `json:"reason,omitempty"`

	// FilesInScope are the files of the language under Path; FilesAnalyzed
	// those the answer needed (the others cannot mention the names asked
	// about); SkippedFiles were unreadable, binary or too large.
	FilesInScope  int `json:"filesInScope"`
	FilesAnalyzed int `json:"filesAnalyzed"`
	SkippedFiles  int `json:"skippedFiles"`
	// FilesParsed of the analyzed files were parsed by this call; the
	// others (FilesReused) had their facts cached by an earlier call.
	FilesParsed int `json:"-"`
	FilesReused int `json:"-"`

	Callers      []CallNode   `json:"callers,omitzero"`
	Callees      []CallNode   `json:"callees,omitzero"`
	Definitions  []Definition `json:"definitions,omitzero"`
	Hierarchy    *Hierarchy   `json:"hierarchy,omitempty"`
	References   *References  `json:"references,omitempty"`
	Dependencies []FileDeps   `json:"dependencies,omitzero"`
	ImportedBy   []Importer   `json:"importedBy,omitzero"`
	Exports      []Export     `json:"exports,omitzero"`

	// Completeness, for callers and references, says whether the answer
	// is exhaustive.
	Completeness *Completeness `json:"completeness,omitempty"`

	// Notes explain the answer (a symbol with no definition in scope, a
	// depth lowered to the maximum).
	Notes []string `json:"notes,omitempty"`
}

// Why a site stays name-only (CallNode.Reason, Ref.Reason, and the keys
// of Completeness.Reasons).
const (
	// ReasonUntypedReceiver: a method called on a value whose type is not
	// written or inferable (an untyped parameter, any, a dynamic value).
	ReasonUntypedReceiver = "untyped receiver"
	// ReasonDispatch: the call binds to a supertype's, subtype's or
	// sibling implementation's member, which may dispatch to the symbol.
	ReasonDispatch = "dispatch"
	// ReasonUnboundName: the name is bound by no definition or import the
	// workspace resolves (a global, an unresolved import).
	ReasonUnboundName = "unbound name"
	// ReasonUntypedValue: a method called on a value a type checker types
	// as nothing (TypeScript's any, written or a parameter with no type and
	// no context): the checker ties the call to no definition, so it is
	// not listed; Completeness.Untyped counts it.
	ReasonUntypedValue = "untyped value"
	// ReasonFileNotRead: files of the scope were skipped (binary, too
	// large, unreadable); what they hold is unknown.
	ReasonFileNotRead = "file not read"
)

// Completeness says whether a callers or references answer is exhaustive:
// every site found bound to the symbol or away from it, every file read,
// no limit reached. Else NameOnly counts the sites matched by name alone
// (the answer may hold wrong ones, and a text search may find more), by
// reason in Reasons, with the files not read.
type Completeness struct {
	Exhaustive bool           `json:"exhaustive"`
	NameOnly   int            `json:"nameOnly,omitempty"`
	Reasons    map[string]int `json:"reasons,omitempty"`
	// Untyped counts the calls of the name on untyped values
	// (ReasonUntypedValue) left out of the answer: a type checker ties
	// them to nothing, though at run time they may reach the symbol.
	Untyped int `json:"untyped,omitempty"`
	// Related counts, in references, the calls bound to a member the
	// symbol overrides or implements, or to a sibling implementation's
	// (ReasonDispatch), left out: they reference that member, not the
	// symbol; callers lists them, labelled dispatch.
	Related int `json:"related,omitempty"`
}

// CallNode is one node of a call tree. For callers it is a function or
// method that calls its parent node, with the call site; for callees it is
// a call made by its parent node (the top nodes are the symbol's
// definitions).
type CallNode struct {
	Name      string `json:"name"`
	Container string `json:"container,omitempty"` // class, struct, impl the function belongs to
	File      string `json:"file"`
	// Line is the definition's line for callers, the call's for callees.
	Line int `json:"line"`
	// Via is the call-site line linking a caller to its callee (its first
	// call site when it calls several times), ViaLine its line.
	Via     string `json:"via,omitempty"`
	ViaLine int    `json:"viaLine,omitempty"`
	// Confidence says how the call was tied to its callee: Resolved
	// (through an import, scope or a type), Dispatch (through a member
	// the callee overrides or implements) or NameOnly (the name matches).
	// Empty for the top nodes of callees, which are definitions.
	Confidence string `json:"confidence,omitempty"`
	// Reason, for a name-only caller, says why it was not resolved (a
	// Reason* constant).
	Reason string `json:"reason,omitempty"`
	// Text is a callee's call expression.
	Text string `json:"text,omitempty"`
	// Def, on a top node of the callers of a bare name that several
	// owners define (_parse), is the definition the call binds to, as
	// Owner.name file:line; empty on a name-only caller (or a dispatch
	// one that may reach several), which could not be attributed to one. Such answers list each definition's callers
	// together, name-only ones last.
	Def string `json:"def,omitempty"`
	// Cycle: the node is already on the path above it; Repeated: it was
	// expanded elsewhere in the tree. Neither is expanded again.
	Cycle    bool       `json:"cycle,omitempty"`
	Repeated bool       `json:"repeated,omitempty"`
	Children []CallNode `json:"children,omitempty"`
}

// Definition is one definition site.
type Definition struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"` // function, method, class, interface, type, variable, ...
	Container string `json:"container,omitempty"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Text      string `json:"text"` // the definition's line
	Exported  bool   `json:"exported,omitempty"`
}

// Hierarchy is a type's place in the inheritance graph.
type Hierarchy struct {
	// Definitions are the type's own definition sites.
	Definitions []Definition `json:"definitions"`
	// Supertypes are what it extends or implements, transitively up to
	// depth; Subtypes are what extends or implements it.
	Supertypes []TypeNode `json:"supertypes"`
	Subtypes   []TypeNode `json:"subtypes"`
}

// TypeNode is one type in a hierarchy.
type TypeNode struct {
	Name string `json:"name"`
	// Relation is how the child relates to the parent: extends,
	// implements, base (C#, where the syntax does not tell), embeds (Go).
	Relation string `json:"relation"`
	Kind     string `json:"kind,omitempty"`
	// File and Line locate the type's definition; empty when it is not in
	// scope (a library type).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Confidence says how the supertype's name was tied to its
	// definition, or the subtype's clause to the type: Resolved or
	// NameOnly.
	Confidence string     `json:"confidence,omitempty"`
	Cycle      bool       `json:"cycle,omitempty"`
	Repeated   bool       `json:"repeated,omitempty"`
	Children   []TypeNode `json:"children,omitempty"`
}

// References groups a symbol's structural references by category.
type References struct {
	Total int `json:"total"`
	// Resolved counts the references tied to the symbol's definitions
	// through imports or scope; NameOnly those matched by name alone. The
	// heuristic category counts in neither.
	Resolved   int           `json:"resolved"`
	NameOnly   int           `json:"nameOnly"`
	Categories []RefCategory `json:"categories"`
}

// The reference categories, in output order.
const (
	RefInstanceCalls  = "instanceMethodCalls"
	RefDirectCalls    = "directCalls"
	RefInstantiations = "instantiations"
	RefTypes          = "typeAnnotations"
	RefHeritage       = "extendsImplements"
	RefImports        = "imports"
	RefReExports      = "reExports"
)

// RefCategory is one category of references. Count is the number found,
// de-duplicated by file and line; Items may hold fewer (maxNodes).
type RefCategory struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	Heuristic bool   `json:"heuristic,omitempty"`
	Count     int    `json:"count"`
	// NameOnly of Count were matched by name alone (all of them in the
	// heuristic category).
	NameOnly int   `json:"nameOnly"`
	Items    []Ref `json:"items"`
}

// Ref is one reference.
type Ref struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
	// Confidence: Resolved, NameOnly, or Heuristic in the heuristic
	// category.
	Confidence string `json:"confidence"`
	// Reason, for a name-only reference, says why it was not resolved (a
	// Reason* constant).
	Reason string `json:"reason,omitempty"`
	// Def, on a resolved call of a bare name several owners define, is the
	// definition it binds to, as Owner.name file:line.
	Def string `json:"def,omitempty"`
}

// FileDeps is one file's imports.
type FileDeps struct {
	File    string   `json:"file"`
	Imports []Import `json:"imports"`
}

// Import is one imported module.
type Import struct {
	Line int `json:"line"`
	// Kind is the import form: named, default, namespace, side-effect,
	// dynamic, re-export, require, module, include, ...
	Kind   string   `json:"kind"`
	Source string   `json:"source"`
	Names  []string `json:"names,omitempty"` // bound names, "x as y" for aliases
	// Resolved is the workspace file (or package directory) the source
	// names, when it could be resolved.
	Resolved string `json:"resolved,omitempty"`
}

// Importer is a file that imports the target.
type Importer struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Kind   string `json:"kind"`
	Source string `json:"source"`
	// Imports is the target file the import resolved to.
	Imports string `json:"imports"`
	Text    string `json:"text"`
}

// Export is one exported symbol.
type Export struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Name      string `json:"name"`
	Kind      string `json:"kind"` // class, function, ..., or named, default, re-export, commonjs
	Container string `json:"container,omitempty"`
	Source    string `json:"source,omitempty"` // re-exports
	Default   bool   `json:"default,omitempty"`
	Detail    string `json:"detail,omitempty"`
}

// completeness computes the answer's Completeness (callers and
// references).
func (r *Result) completeness() *Completeness {
	c := &Completeness{Reasons: map[string]int{}}
	switch r.Mode {
	case ModeCallers:
		var walk func(ns []CallNode)
		walk = func(ns []CallNode) {
			for _, n := range ns {
				if n.Confidence == NameOnly {
					c.NameOnly++
					c.Reasons[orUnknown(n.Reason)]++
				}
				walk(n.Children)
			}
		}
		walk(r.Callers)
	case ModeReferences:
		if r.References == nil {
			return nil
		}
		for _, cat := range r.References.Categories {
			if cat.Heuristic {
				continue
			}
			c.NameOnly += cat.NameOnly
			for _, it := range cat.Items {
				if it.Confidence == NameOnly {
					c.Reasons[orUnknown(it.Reason)]++
				}
			}
		}
	default:
		return nil
	}
	if r.SkippedFiles > 0 {
		c.Reasons[ReasonFileNotRead] = r.SkippedFiles
	}
	c.Exhaustive = c.NameOnly == 0 && r.SkippedFiles == 0 && !r.Truncated && !r.Partial
	if len(c.Reasons) == 0 {
		c.Reasons = nil
	}
	return c
}

// orUnknown names a name-only site's reason, ReasonUnboundName when none
// was recorded.
func orUnknown(reason string) string {
	if reason == "" {
		return ReasonUnboundName
	}
	return reason
}

// Empty reports whether the answer found nothing: no caller, callee,
// definition, type, reference, import, importer or export.
func (r *Result) Empty() bool {
	switch r.Mode {
	case ModeCallers:
		return len(r.Callers) == 0
	case ModeCallees:
		for _, n := range r.Callees {
			if len(n.Children) > 0 {
				return false
			}
		}
		return true
	case ModeDefinitions:
		return len(r.Definitions) == 0
	case ModeHierarchy:
		return r.Hierarchy == nil || len(r.Hierarchy.Definitions)+len(r.Hierarchy.Supertypes)+len(r.Hierarchy.Subtypes) == 0
	case ModeReferences:
		return r.References == nil || r.References.Total == 0
	case ModeDependencies:
		for _, d := range r.Dependencies {
			if len(d.Imports) > 0 {
				return false
			}
		}
		return len(r.ImportedBy) == 0
	case ModeExports:
		return len(r.Exports) == 0
	}
	return true
}
