package analysis

// The Rust table.

var rustSpec = &langSpec{
	Lang: "rust",
	Typed: []typedShape{
		{Kind: "parameter", Name: path{"pattern"}, Type: path{"type"}},
		{Kind: "let_declaration", Name: path{"pattern"}, Type: path{"type"}},
		{Kind: "function_item", Name: path{"name"}, Type: path{"return_type"}, Return: true},
	},
	SelfNames: []string{"self", "Self"},
	Scope:     []string{"rust"},
	Defs: []defShape{
		{Kind: "function_item", Name: path{"name"}, Label: lFunction, Callable: true},
		{Kind: "function_signature_item", Name: path{"name"}, Label: lSignature},
		{Kind: "struct_item", Name: path{"name"}, Label: lStruct, Container: true},
		{Kind: "union_item", Name: path{"name"}, Label: lStruct, Container: true},
		{Kind: "enum_item", Name: path{"name"}, Label: lEnum, Container: true},
		{Kind: "trait_item", Name: path{"name"}, Label: lTrait, Container: true,
			Heritage: []parentShape{{Path: path{"bounds", "*"}, Relation: "extends"}}},
		// impl Trait for Type: the impl block belongs to Type and makes it
		// implement Trait.
		{Kind: "impl_item", Name: path{"type"}, Label: lImpl, Container: true,
			Heritage: []parentShape{{Path: path{"trait"}, Relation: "implements"}}},
		{Kind: "type_item", Name: path{"name"}, Label: lType},
		{Kind: "const_item", Name: path{"name"}, Label: lConst},
		{Kind: "static_item", Name: path{"name"}, Label: lVariable},
		{Kind: "mod_item", Name: path{"name"}, Label: lModule},
		{Kind: "macro_definition", Name: path{"name"}, Label: lMacro},
		{Kind: "let_declaration", Name: path{"pattern"}, Label: lVariable, NameKinds: []string{"identifier"},
			Value: path{"value"}, FuncKinds: []string{"closure_expression"}},
	},
	Calls: []callShape{
		{Kind: "call_expression", Callee: path{"function"}},
		{Kind: "macro_invocation", Callee: path{"macro"}},
		{Kind: "struct_expression", Callee: path{"name"}, New: true, Literal: true},
	},
	Names: []nameRule{
		{Kind: "field_expression", Name: path{"field"}, Receiver: path{"value"}},
		{Kind: "scoped_identifier", Name: path{"name"}, Receiver: path{"path"}},
		{Kind: "scoped_type_identifier", Name: path{"name"}, Receiver: path{"path"}},
		{Kind: "generic_function", Name: path{"function"}},
		{Kind: "generic_type", Name: path{"type"}},
	},
	NewMethod:  "new",
	TypeLeaves: []string{"type_identifier"},
	TypeShow:   []string{"parameter", "field_declaration"},
	Imports: []importShape{
		{Kind: "use_declaration", Form: "use", Source: path{"argument", "=scoped_identifier"}, Split: true,
			Resolve: resolveRustUse},
		{Kind: "use_declaration", Form: "use", Source: path{"argument", "=identifier"}, Resolve: resolveRustUse},
		{Kind: "use_declaration", Form: "use", Source: path{"argument", "=scoped_use_list", "path"}, Resolve: resolveRustUse,
			Names: []boundShape{{Path: path{"argument", "=scoped_use_list", "list", "*"}, Form: "named"}}},
		{Kind: "use_declaration", Form: "use", Source: path{"argument", "=use_as_clause", "path"}, Split: true,
			Resolve: resolveRustUse, Names: []boundShape{{Path: path{"argument", "=use_as_clause", "alias"}, Form: "alias"}}},
		{Kind: "use_declaration", Form: "use", Source: path{"argument", "=use_wildcard", "^"}, Resolve: resolveRustUse,
			Names: []boundShape{{Path: path{"argument", "=use_wildcard"}, Form: "wildcard"}}},
		{Kind: "mod_item", Form: "mod", Forbid: path{"body"}, Source: path{"name"}, Resolve: resolveRustMod},
		{Kind: "extern_crate_declaration", Form: "crate", Source: path{"name"}},
	},
	Exports: exportRules{
		Scopes:     []string{"mod_item", "impl_item"},
		Visibility: visibility{Modifiers: path{"#visibility_modifier"}, Need: []string{"pub"}},
		Forms: []exportForm{{Kind: "use_declaration", Require: path{"#visibility_modifier"}, Names: path{"argument"},
			Label: "re-export"}},
	},
	Sep: "::",
}

func init() { register(rustSpec) }
