package analysis

// The PHP table.

var phpSpec = &langSpec{
	Lang:      "php",
	SelfNames: []string{"this", "self", "static"},
	Scope:     []string{"php"},
	Defs: []defShape{
		{Kind: "function_definition", Name: path{"name"}, Label: lFunction, Callable: true},
		{Kind: "method_declaration", Name: path{"name"}, Label: lMethod, Callable: true},
		{Kind: "class_declaration", Name: path{"name"}, Label: lClass, Container: true, Heritage: []parentShape{
			{Path: path{"#base_clause", "*"}, Relation: "extends"},
			{Path: path{"#class_interface_clause", "*"}, Relation: "implements"},
		}},
		{Kind: "interface_declaration", Name: path{"name"}, Label: lInterface, Container: true, Heritage: []parentShape{
			{Path: path{"#base_clause", "*"}, Relation: "extends"},
		}},
		{Kind: "trait_declaration", Name: path{"name"}, Label: lTrait, Container: true},
		{Kind: "enum_declaration", Name: path{"name"}, Label: lEnum, Container: true, Heritage: []parentShape{
			{Path: path{"#class_interface_clause", "*"}, Relation: "implements"},
		}},
		{Kind: "const_declaration", Name: path{"#const_element", "#name"}, Label: lConst, AllNames: true},
		{Kind: "property_declaration", Name: path{"#property_element", "name"}, Label: lProperty, AllNames: true},
		{Kind: "assignment_expression", Name: path{"left"}, Label: lVariable, Value: path{"right"},
			FuncKinds: []string{"anonymous_function", "arrow_function"}, FuncOnly: true},
	},
	Calls: []callShape{
		{Kind: "function_call_expression", Callee: path{"function"}},
		{Kind: "member_call_expression", Name: path{"name"}, Receiver: path{"object"}},
		{Kind: "nullsafe_member_call_expression", Name: path{"name"}, Receiver: path{"object"}},
		{Kind: "scoped_call_expression", Name: path{"name"}, Receiver: path{"scope"}},
		{Kind: "object_creation_expression", Callee: path{"^"}, New: true},
	},
	Names: []nameRule{
		{Kind: "qualified_name", Name: path{"$"}, Receiver: path{"prefix"}},
		{Kind: "member_access_expression", Name: path{"name"}, Receiver: path{"object"}},
		{Kind: "variable_name", Name: path{"#name"}},
	},
	TypeLeaves:  []string{"name"},
	TypeContext: []string{"named_type"},
	Imports: []importShape{
		{Kind: "namespace_use_declaration", Form: "use", Forbid: path{"body"}, Source: path{"#namespace_use_clause", "^"},
			Split: true, Resolve: resolvePackage,
			Names: []boundShape{{Path: path{"#namespace_use_clause", "alias"}, Form: "alias"}}},
		{Kind: "namespace_use_declaration", Form: "use", Require: path{"body"}, Source: path{"#namespace_name"},
			Resolve: resolvePackage,
			Names: []boundShape{{Path: path{"body", "#namespace_use_clause"}, Name: path{"^"}, Alias: path{"alias"},
				Form: "named"}}},
		{Kind: "require_expression", Form: "require", Source: path{"^"}, SourceText: path{"=binary_expression", "right"},
			Resolve: resolveRelative},
		{Kind: "require_once_expression", Form: "require", Source: path{"^"}, SourceText: path{"=binary_expression", "right"},
			Resolve: resolveRelative},
		{Kind: "include_expression", Form: "include", Source: path{"^"}, SourceText: path{"=binary_expression", "right"},
			Resolve: resolveRelative},
		{Kind: "include_once_expression", Form: "include", Source: path{"^"}, SourceText: path{"=binary_expression", "right"},
			Resolve: resolveRelative},
	},
	Exports: exportRules{
		Members:    []string{lClass, lInterface, lTrait, lEnum},
		Visibility: visibility{Modifiers: path{"#visibility_modifier"}, Deny: []string{"private", "protected"}},
	},
	Package: []packageShape{{Kind: "namespace_definition", Name: path{"name"}}},
	Sep:     "\\",
	Exts:    []string{".php"},
}

func init() { register(phpSpec) }
