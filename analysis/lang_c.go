package analysis

// The C and C++ tables. A declarator nests the declared name in pointer,
// function and array declarators; the name rules unwrap them.

var cDeclaratorNames = []nameRule{
	{Kind: "pointer_declarator", Name: path{"declarator"}},
	{Kind: "function_declarator", Name: path{"declarator"}},
	{Kind: "array_declarator", Name: path{"declarator"}},
	{Kind: "init_declarator", Name: path{"declarator"}},
	{Kind: "parenthesized_declarator", Name: path{"^"}},
	{Kind: "field_expression", Name: path{"field"}, Receiver: path{"argument"}},
	{Kind: "parenthesized_expression", Name: path{"^"}},
}

// cDefs are the definitions C and C++ share; funcs are the value kinds
// that make a declared variable a function (C++ lambdas).
func cDefs(funcs ...string) []defShape {
	decl := defShape{Kind: "declaration", Name: path{"declarator"}, Label: lVariable, AllNames: true,
		Relabel: map[string]string{"function_declarator": lSignature}}
	if len(funcs) > 0 {
		decl.Value, decl.FuncKinds = path{"declarator", "value"}, funcs
	}
	return []defShape{
		{Kind: "function_definition", Name: path{"declarator"}, Label: lFunction, Callable: true},
		// A declaration is a variable, or a prototype when its name is in a
		// function declarator.
		decl,
		{Kind: "type_definition", Name: path{"declarator"}, Label: lType, AllNames: true},
		{Kind: "struct_specifier", Name: path{"?body", "name"}, Label: lStruct, Container: true},
		{Kind: "union_specifier", Name: path{"?body", "name"}, Label: lStruct, Container: true},
		{Kind: "enum_specifier", Name: path{"?body", "name"}, Label: lEnum},
		{Kind: "preproc_def", Name: path{"name"}, Label: lMacro},
		{Kind: "preproc_function_def", Name: path{"name"}, Label: lMacro},
	}
}

var cCalls = []callShape{{Kind: "call_expression", Callee: path{"function"}}}

var cImports = []importShape{
	{Kind: "preproc_include", Form: "include", Source: path{"path"}, Resolve: resolveRelative},
}

var cSpec = &langSpec{
	Lang:       "c",
	Scope:      []string{"c"},
	Defs:       cDefs(),
	Calls:      cCalls,
	Names:      cDeclaratorNames,
	TypeLeaves: []string{"type_identifier"},
	TypeShow:   []string{"parameter_declaration"},
	Imports:    cImports,
	Exports: exportRules{
		Visibility: visibility{Modifiers: path{"#storage_class_specifier"}, Deny: []string{"static"}},
	},
}

var cppHeritage = []parentShape{{Path: path{"#base_class_clause", "*"}, Relation: "extends",
	Skip: []string{"access_specifier"}}}

var cppSpec = &langSpec{
	Lang:         "cpp",
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
	Scope:        []string{"cpp"},
	ExtraExts:    []string{"h"},
	// The class-like shapes come first: they win over C's struct shape.
	Defs: append([]defShape{
		{Kind: "class_specifier", Name: path{"?body", "name"}, Label: lClass, Container: true, Heritage: cppHeritage},
		{Kind: "struct_specifier", Name: path{"?body", "name"}, Label: lStruct, Container: true, Heritage: cppHeritage},
		{Kind: "field_declaration", Name: path{"declarator"}, Label: lField, AllNames: true,
			Relabel: map[string]string{"function_declarator": lSignature}},
		{Kind: "namespace_definition", Name: path{"name"}, Label: lNamespace, Container: true},
		{Kind: "alias_declaration", Name: path{"name"}, Label: lType},
	}, cDefs("lambda_expression")...),
	Calls: append(cCalls, callShape{Kind: "new_expression", Callee: path{"type"}, New: true}),
	Names: append([]nameRule{
		{Kind: "qualified_identifier", Name: path{"name"}, Receiver: path{"scope"}},
		{Kind: "template_function", Name: path{"name"}},
		{Kind: "template_type", Name: path{"name"}},
		{Kind: "destructor_name", Name: path{"^"}},
	}, cDeclaratorNames...),
	TypeLeaves: []string{"type_identifier"},
	TypeShow:   []string{"parameter_declaration"},
	Imports:    cImports,
	Exports: exportRules{
		Scopes:     []string{"namespace_definition"},
		Visibility: visibility{Modifiers: path{"#storage_class_specifier"}, Deny: []string{"static"}},
	},
}

func init() { register(cSpec, cppSpec) }
