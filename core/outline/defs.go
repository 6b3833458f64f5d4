package outline

// def is one extractor: a rule core (YAML, the keys of a rule core) that
// selects a node, the templates of its name and signature, and its flags.
type def struct {
	id      string
	member  bool     // a member extractor, else an item extractor
	parents []string // a member's item extractor ids
	symbol  string
	rule    string
	// core is the rule core as a decoded document (a rule file's), used
	// instead of rule when set.
	core map[string]any
	name string
	// nameField, when set, names the entry by the trimmed text of the
	// matched node's child in that field instead of by name.
	nameField string
	// sig is the signature template; "" uses the first non-blank line
	// of the matched node, trimmed.
	sig string
	// transformed lists the variables the rule core's transform defines.
	transformed []string
	// imp and exp are an item's isImport (default false) and isExported
	// (default true); public is a member's isPublic (default true).
	imp, exp, public flagDef
}

// flagDef is a flag's value: a rule (YAML, evaluated on the matched node
// with its bindings) or a literal.
type flagDef struct {
	rule    string
	ruleMap map[string]any // a rule file's rule, decoded
	set     bool           // value is given
	value   bool
}

// isRule reports whether the flag is given by a rule.
func (f flagDef) isRule() bool { return f.rule != "" || f.ruleMap != nil }

// literal returns the flag's literal value, dflt when none is given.
func (f flagDef) literal(dflt bool) bool {
	if f.set {
		return f.value
	}
	return dflt
}

var (
	isTrue  = flagDef{set: true, value: true}
	isFalse = flagDef{set: true, value: false}
)

// when is a flag given by a rule.
func when(rule string) flagDef { return flagDef{rule: rule} }

// extractorDefs are the extractors of each language, by language name,
// in the order they are tried.
var extractorDefs = map[string][]def{
	"go":         goDefs,
	"python":     pythonDefs,
	"javascript": javascriptDefs,
	"markdown":   markdownDefs,
	"swift":      swiftDefs,
	"kotlin":     kotlinDefs,
	"csharp":     csharpDefs,
	"cpp":        cppDefs,
	"ruby":       rubyDefs,
	"php":        phpDefs,
	"java":       javaDefs,
	"c":          cDefs,
	"rust":       rustDefs,
	"typescript": typescriptDefs("ts"),
	"tsx":        typescriptDefs("tsx"),
}
