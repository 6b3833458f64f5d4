package analysis

// The Java table.

var javaSpec = &langSpec{
	Lang: "java",
	Typed: []typedShape{
		{Kind: "formal_parameter", Name: path{"name"}, Type: path{"type"}},
		{Kind: "local_variable_declaration", Name: path{"declarator", "name"}, Type: path{"type"}},
		{Kind: "field_declaration", Name: path{"declarator", "name"}, Type: path{"type"}},
		{Kind: "method_declaration", Name: path{"name"}, Type: path{"type"}, Return: true},
	},
	SelfNames:    []string{"this"},
	DirScope:     true,
	ImplicitSelf: true,
	Scope:        []string{"java"},
	Defs: []defShape{
		{Kind: "method_declaration", Name: path{"name"}, Label: lMethod, Callable: true},
		{Kind: "constructor_declaration", Name: path{"name"}, Label: lCtor, Callable: true},
		{Kind: "class_declaration", Name: path{"name"}, Label: lClass, Container: true, Heritage: []parentShape{
			{Path: path{"superclass", "^"}, Relation: "extends"},
			{Path: path{"interfaces", "#type_list", "*"}, Relation: "implements"},
		}},
		{Kind: "interface_declaration", Name: path{"name"}, Label: lInterface, Container: true, Heritage: []parentShape{
			{Path: path{"#extends_interfaces", "#type_list", "*"}, Relation: "extends"},
		}},
		{Kind: "enum_declaration", Name: path{"name"}, Label: lEnum, Container: true, Heritage: []parentShape{
			{Path: path{"interfaces", "#type_list", "*"}, Relation: "implements"},
		}},
		{Kind: "record_declaration", Name: path{"name"}, Label: lRecord, Container: true, Heritage: []parentShape{
			{Path: path{"interfaces", "#type_list", "*"}, Relation: "implements"},
		}},
		{Kind: "annotation_type_declaration", Name: path{"name"}, Label: lInterface, Container: true},
		{Kind: "field_declaration", Name: path{"declarator", "name"}, Label: lField, AllNames: true},
	},
	Calls: []callShape{
		{Kind: "method_invocation", Name: path{"name"}, Receiver: path{"object"}},
		{Kind: "object_creation_expression", Callee: path{"type"}, New: true},
	},
	Names: []nameRule{
		{Kind: "field_access", Name: path{"field"}, Receiver: path{"object"}},
		{Kind: "scoped_identifier", Name: path{"name"}, Receiver: path{"scope"}},
		{Kind: "generic_type", Name: path{"^"}},
		{Kind: "scoped_type_identifier", Name: path{"$"}},
	},
	TypeLeaves: []string{"type_identifier"},
	TypeShow:   []string{"formal_parameter"},
	Imports: []importShape{
		{Kind: "import_declaration", Form: "import", Source: path{"^"}, Split: true, Resolve: resolvePackage,
			Names: []boundShape{{Path: path{"#asterisk"}, Form: "wildcard"}}},
	},
	Exports: exportRules{
		Members:    []string{lClass, lInterface, lEnum, lRecord},
		Visibility: visibility{Modifiers: path{"#modifiers"}, Need: []string{"public", "protected"}},
	},
	Package: []packageShape{{Kind: "package_declaration", Name: path{"^"}}},
	Sep:     ".",
	Exts:    []string{".java"},
}

func init() { register(javaSpec) }
