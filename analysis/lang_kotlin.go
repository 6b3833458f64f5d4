package analysis

// The Kotlin table. Kotlin's grammar has few fields: most paths select
// children by kind.

var ktHeritage = []parentShape{
	// A supertype called with arguments is the superclass; a bare one is
	// an interface.
	{Path: path{"#delegation_specifier", "#constructor_invocation", "#user_type"}, Relation: "extends"},
	{Path: path{"#delegation_specifier", "#user_type"}, Relation: "implements"},
}

var ktSpec = &langSpec{
	Lang:         "kotlin",
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
	Scope:        []string{"kotlin"},
	Defs: []defShape{
		{Kind: "function_declaration", Name: path{"#simple_identifier"}, Label: lFunction, Callable: true},
		{Kind: "class_declaration", Name: path{"#type_identifier"}, Label: lClass, Container: true,
			Tokens: map[string]string{"interface": lInterface}, Heritage: ktHeritage},
		{Kind: "object_declaration", Name: path{"#type_identifier"}, Label: lObject, Container: true, Heritage: ktHeritage},
		{Kind: "property_declaration", Name: path{"#variable_declaration", "#simple_identifier"}, Label: lProperty,
			Value: path{"#lambda_literal"}, FuncKinds: []string{"lambda_literal"}},
		{Kind: "type_alias", Name: path{"#type_identifier"}, Label: lType},
	},
	Calls: []callShape{{Kind: "call_expression", Callee: path{"^"}}},
	Names: []nameRule{
		{Kind: "navigation_expression", Name: path{"#navigation_suffix", "^"}, Receiver: path{"^"}},
		{Kind: "user_type", Name: path{"$"}},
	},
	ClassCalls: true,
	TypeLeaves: []string{"type_identifier"},
	TypeShow:   []string{"parameter", "class_parameter"},
	Imports: []importShape{
		{Kind: "import_header", Form: "import", Source: path{"#identifier"}, Split: true, Resolve: resolvePackage,
			Names: []boundShape{
				{Path: path{"#wildcard_import"}, Form: "wildcard"},
				{Path: path{"#import_alias", "^"}, Form: "alias"},
			}},
	},
	Exports: exportRules{
		Members:    []string{lClass, lInterface, lObject},
		Visibility: visibility{Modifiers: path{"#modifiers", "#visibility_modifier"}, Deny: []string{"private", "internal"}},
	},
	Package: []packageShape{{Kind: "package_header", Name: path{"#identifier"}}},
	Sep:     ".",
	Exts:    []string{".kt", ".kts"},
}

func init() { register(ktSpec) }
