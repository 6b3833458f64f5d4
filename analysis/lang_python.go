package analysis

// The Python table.

var pySpec = &langSpec{
	Lang: "python",
	// Written annotations in compact form (Optional[X], X | None,
	// list[X], "X"), and variables typed by their annotation or value
	// (the annotation wins; a value is a literal, a name or a call).
	Typed: []typedShape{
		{Kind: "typed_parameter", Name: path{"^"}, Expr: path{"type"}},
		{Kind: "typed_default_parameter", Name: path{"name"}, Expr: path{"type"}, ValueExpr: path{"value"}},
		{Kind: "default_parameter", Name: path{"name"}, Expr: path{"type"}, ValueExpr: path{"value"}},
		// with open(p) as f: f is what the value gives.
		{Kind: "as_pattern", Name: path{"alias", "^"}, Expr: path{"type"}, ValueExpr: path{"^"}},
		{Kind: "assignment", Name: path{"left"}, Expr: path{"type"}, ValueExpr: path{"right"}},
		// a, b = xs: each an element of xs (of any, any).
		{Kind: "assignment", Name: path{"left", "=pattern_list", "#identifier"}, AllNames: true, Expr: path{"type"},
			ValueExpr: path{"right"}, Elem: true},
		// for x in xs: an element of xs.
		{Kind: "for_statement", Name: path{"left"}, Expr: path{"type"}, ValueExpr: path{"right"}, Elem: true},
		// for a, b in xs: the positions of an element (Unknown ones of Unknown elements).
		{Kind: "for_statement", Name: path{"left", "=pattern_list", "#identifier"}, AllNames: true, Expr: path{"type"},
			ValueExpr: path{"right"}, Elem: true, Entry: true},
		// self.x = Foo() in a method: a field of its class.
		{Kind: "assignment", Name: path{"left", "attribute"}, Expr: path{"type"}, ValueExpr: path{"right"},
			SelfField: path{"left", "object"}},
		{Kind: "function_definition", Name: path{"name"}, Expr: path{"return_type"}, Return: true},
	},
	TypeExpr:  pyTypeExpr,
	ValueType: pyValueType,
	Library:   pyLibrary,
	SelfNames: []string{"self", "cls"},
	Narrows:   pyNarrows,
	Scope:     []string{"python"},
	Defs: []defShape{
		{Kind: "function_definition", Name: path{"name"}, Label: lFunction, Callable: true},
		{Kind: "class_definition", Name: path{"name"}, Label: lClass, Container: true,
			Heritage: []parentShape{{Path: path{"superclasses", "*"}, Relation: "extends"}}},
		// Module and local variables; a lambda makes a function.
		{Kind: "assignment", Name: path{"left"}, Label: lVariable, NameKinds: []string{"identifier"},
			Value: path{"right"}, FuncKinds: []string{"lambda"}},
	},
	Calls: []callShape{{Kind: "call", Callee: path{"function"}}},
	Names: []nameRule{
		{Kind: "attribute", Name: path{"attribute"}, Receiver: path{"object"}},
		// Generic[T] in a class's bases names Generic.
		{Kind: "subscript", Name: path{"value"}},
	},
	ClassCalls:  true,
	TypeLeaves:  []string{"identifier"},
	TypeContext: []string{"type"},
	Imports: []importShape{
		{Kind: "import_statement", Form: "module", Source: path{"name"}, SourceText: path{"=aliased_import", "name"},
			Resolve: resolvePython,
			Names: []boundShape{{FromSource: true, Path: path{"=aliased_import"}, Name: path{"name"},
				Alias: path{"alias"}, Form: "alias"}}},
		{Kind: "import_from_statement", Form: "from", Source: path{"module_name"}, Resolve: resolvePython,
			Names: []boundShape{
				{Path: path{"name", "=dotted_name"}, Form: "named"},
				{Path: path{"name", "=aliased_import"}, Name: path{"name"}, Alias: path{"alias"}, Form: "named"},
				{Path: path{"#wildcard_import"}, Form: "wildcard"},
			}},
		{Kind: "call", Form: "dynamic", Callee: path{"function"},
			CalleeText: []string{"importlib.import_module", "import_module", "__import__"},
			Source:     path{"arguments", "^"}, Resolve: resolvePython},
	},
	Exports: exportRules{
		Visibility: visibility{NoUnderscore: true},
		Forms: []exportForm{{Kind: "assignment", Assign: []string{"__all__"}, Left: path{"left"}, Right: path{"right"},
			Label: "__all__", Replace: true}},
	},
	Sep:  ".",
	Exts: []string{".py", ".pyi"},
}

func init() { register(pySpec) }
