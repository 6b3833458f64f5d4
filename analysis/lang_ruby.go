package analysis

// The Ruby table. A call without parentheses or arguments (foo) is a bare
// identifier to the grammar, indistinguishable from a variable; only call
// nodes count as calls.

var rubySpec = &langSpec{
	Lang:         "ruby",
	SelfNames:    []string{"self"},
	ImplicitSelf: true,
	Scope:        []string{"ruby"},
	Defs: []defShape{
		{Kind: "method", Name: path{"name"}, Label: lMethod, Callable: true},
		{Kind: "singleton_method", Name: path{"name"}, Label: lMethod, Callable: true},
		{Kind: "class", Name: path{"name"}, Label: lClass, Container: true,
			Heritage: []parentShape{{Path: path{"superclass", "^"}, Relation: "extends"}}},
		{Kind: "module", Name: path{"name"}, Label: lModule, Container: true},
		{Kind: "assignment", Name: path{"left"}, Label: lConst, NameKinds: []string{"constant"}},
	},
	Calls: []callShape{{Kind: "call", Name: path{"method"}, Receiver: path{"receiver"}}},
	Names: []nameRule{
		{Kind: "scope_resolution", Name: path{"name"}, Receiver: path{"scope"}},
	},
	NewMethod: "new",
	Imports: []importShape{
		{Kind: "call", Form: "require_relative", Callee: path{"method"}, CalleeText: []string{"require_relative"},
			Source: path{"arguments", "^"}, Resolve: resolveRelative},
		{Kind: "call", Form: "require", Callee: path{"method"}, CalleeText: []string{"require", "load"},
			Source: path{"arguments", "^"}, Resolve: resolveRelative},
	},
	Exports: exportRules{
		Members:    []string{lClass, lModule},
		Visibility: visibility{All: true},
	},
	Sep:  "::",
	Exts: []string{".rb"},
}

func init() { register(rubySpec) }
