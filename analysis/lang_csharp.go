package analysis

// The C# table.

var csHeritage = []parentShape{{Path: path{"#base_list", "*"}, Relation: "base"}}

var csSpec = &langSpec{
	Lang:         "csharp",
	SelfNames:    []string{"this"},
	ImplicitSelf: true,
	Scope:        []string{"csharp"},
	Defs: []defShape{
		{Kind: "method_declaration", Name: path{"name"}, Label: lMethod, Callable: true},
		{Kind: "constructor_declaration", Name: path{"name"}, Label: lCtor, Callable: true},
		{Kind: "local_function_statement", Name: path{"name"}, Label: lFunction, Callable: true},
		{Kind: "class_declaration", Name: path{"name"}, Label: lClass, Container: true, Heritage: csHeritage},
		{Kind: "struct_declaration", Name: path{"name"}, Label: lStruct, Container: true, Heritage: csHeritage},
		{Kind: "record_declaration", Name: path{"name"}, Label: lRecord, Container: true, Heritage: csHeritage},
		{Kind: "interface_declaration", Name: path{"name"}, Label: lInterface, Container: true, Heritage: csHeritage},
		{Kind: "enum_declaration", Name: path{"name"}, Label: lEnum, Container: true},
		{Kind: "delegate_declaration", Name: path{"name"}, Label: lType},
		{Kind: "property_declaration", Name: path{"name"}, Label: lProperty},
		{Kind: "field_declaration", Name: path{"#variable_declaration", "#variable_declarator", "name"}, Label: lField,
			AllNames: true},
		{Kind: "namespace_declaration", Name: path{"name"}, Label: lNamespace, Container: true},
	},
	Calls: []callShape{
		{Kind: "invocation_expression", Callee: path{"function"}},
		{Kind: "object_creation_expression", Callee: path{"type"}, New: true},
	},
	Names: []nameRule{
		{Kind: "member_access_expression", Name: path{"name"}, Receiver: path{"expression"}},
		{Kind: "conditional_access_expression", Name: path{"#member_binding_expression"}, Receiver: path{"condition"}},
		{Kind: "member_binding_expression", Name: path{"name"}},
		{Kind: "generic_name", Name: path{"^"}},
		{Kind: "qualified_name", Name: path{"name"}, Receiver: path{"qualifier"}},
	},
	// C# spells type names as plain identifiers: a type is an identifier
	// under a type field or in type arguments.
	TypeLeaves:  []string{"identifier"},
	TypeFields:  []string{"type", "returns"},
	TypeContext: []string{"type_argument_list", "nullable_type", "array_type"},
	TypeShow:    []string{"parameter"},
	Imports: []importShape{
		{Kind: "using_directive", Form: "using", Source: path{"$"}, Resolve: resolvePackage,
			Names: []boundShape{{Path: path{"name"}, Form: "alias"}}},
	},
	Exports: exportRules{
		Scopes:     []string{"namespace_declaration"},
		Members:    []string{lClass, lStruct, lRecord, lInterface},
		Visibility: visibility{Modifiers: path{"#modifier"}, Need: []string{"public", "protected"}},
	},
	Package: []packageShape{
		{Kind: "namespace_declaration", Name: path{"name"}},
		{Kind: "file_scoped_namespace_declaration", Name: path{"name"}},
	},
	Sep: ".",
}

func init() { register(csSpec) }
