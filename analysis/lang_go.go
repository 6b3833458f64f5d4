package analysis

// The Go table.

var goSpec = &langSpec{
	Lang: "go",
	Typed: []typedShape{
		{Kind: "parameter_declaration", Name: path{"name"}, Type: path{"type"}, AllNames: true},
		// xs ...*T: ranging over xs, or xs[i], gives a T.
		{Kind: "variadic_parameter_declaration", Name: path{"name"}, Type: path{"type"}},
		{Kind: "var_spec", Name: path{"name"}, Type: path{"type"}, AllNames: true},
		// Results: one type, or the first of a list ((*T, error)), which
		// x, err := f() gives x; interface methods' too.
		{Kind: "function_declaration", Name: path{"name"}, Type: path{"result"}, Return: true},
		{Kind: "function_declaration", Name: path{"name"}, Type: path{"result", "#parameter_declaration", "type"}, Return: true},
		{Kind: "method_declaration", Name: path{"name"}, Type: path{"result"}, Return: true},
		{Kind: "method_declaration", Name: path{"name"}, Type: path{"result", "#parameter_declaration", "type"}, Return: true},
		{Kind: "method_elem", Name: path{"name"}, Type: path{"result"}, Return: true},
		{Kind: "method_elem", Name: path{"name"}, Type: path{"result", "#parameter_declaration", "type"}, Return: true},
		// A struct's fields.
		{Kind: "field_declaration", Name: path{"name"}, Type: path{"type"}, AllNames: true},
		// An embedded field is named by its type: struct{ net.Conn }.
		{Kind: "field_declaration", Name: path{"!name", "type"}, Type: path{"!name", "type"}, NameLeaf: true},
		// x := New() and var x = &T{}: typed by the value.
		{Kind: "short_var_declaration", Name: path{"left", "*"}, Value: path{"right", "*"}, AllNames: true},
		{Kind: "var_spec", Name: path{"name"}, Value: path{"value", "*"}, AllNames: true},
		// switch x := v.(type) { case *T: x.m() }: x is a T in that case,
		// and has v's type in a case listing several types.
		{Kind: "type_switch_statement", Name: path{"alias", "^"}, Value: path{"value"}},
		{Kind: "type_case", Name: path{"..", "alias", "^"}, Type: path{"type"}, Case: true},
		// for i, x := range xs: x is an element of xs (a Names rule reads
		// []T and map[K]T as T); a lone name is an index or a key.
		{Kind: "range_clause", Name: path{"left", "^2"}, Value: path{"right"}, Elem: true},
		// type list []*T, type Term term: the elements and fields a
		// defined type takes from its underlying type.
		{Kind: "type_spec", Name: path{"name"}, Type: path{"type"}, Under: true},
		// for k := range m: k is a key of m.
		{Kind: "range_clause", Name: path{"left", "^"}, Value: path{"right"}, Key: true},
	},
	// package p: a function of it is asked as p.F, whatever its folder.
	Package:   []packageShape{{Kind: "package_clause", Name: path{"^"}}},
	DirScope:  true,
	Element:   []string{"index_expression"},
	Assertion: "type_assertion_expression",
	Blocks: []string{"block", "if_statement", "for_statement", "expression_switch_statement", "type_switch_statement",
		"select_statement", "expression_case", "type_case", "default_case", "communication_case", "func_literal"},
	Builtins: []string{"append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max",
		"min", "new", "panic", "print", "println", "real", "recover"},
	TypeArgs: []string{"make", "new"},
	MapKey:   path{"=map_type", "key"},
	Scope:    []string{"go"},
	Defs: []defShape{
		{Kind: "function_declaration", Name: path{"name"}, Label: lFunction, Callable: true},
		{Kind: "method_declaration", Name: path{"name"}, Label: lMethod, Callable: true,
			Owner: path{"receiver", "#parameter_declaration", "type"}},
		{Kind: "type_spec", Name: path{"name"}, Label: lType, Container: true, Value: path{"type"},
			ValueLabels: map[string]string{"struct_type": lStruct, "interface_type": lInterface},
			Heritage: []parentShape{
				// Embedded fields and embedded interfaces.
				{Path: path{"type", "=struct_type", "#field_declaration_list", "#field_declaration", "!name", "type"},
					Relation: "embeds"},
				{Path: path{"type", "=interface_type", "#type_elem", "^"}, Relation: "embeds"},
			}},
		{Kind: "type_alias", Name: path{"name"}, Label: lType},
		{Kind: "method_elem", Name: path{"name"}, Label: lSignature},
		{Kind: "var_spec", Name: path{"name"}, Label: lVariable, AllNames: true},
		{Kind: "const_spec", Name: path{"name"}, Label: lConst, AllNames: true},
	},
	Calls: []callShape{
		{Kind: "call_expression", Callee: path{"function"}},
		{Kind: "composite_literal", Callee: path{"type"}, New: true, Literal: true},
	},
	Names: []nameRule{
		{Kind: "selector_expression", Name: path{"field"}, Receiver: path{"operand"}},
		{Kind: "qualified_type", Name: path{"name"}, Receiver: path{"package"}},
		{Kind: "index_expression", Name: path{"operand"}},
		{Kind: "generic_type", Name: path{"type"}},
		{Kind: "pointer_type", Name: path{"^"}},
		// A slice's, array's, map's or channel's elements: Go calls no
		// method on the container itself, so a name of such a type
		// receives its elements' methods (x[i].M()).
		{Kind: "slice_type", Name: path{"element"}},
		{Kind: "array_type", Name: path{"element"}},
		{Kind: "map_type", Name: path{"value"}},
		{Kind: "channel_type", Name: path{"value"}},
		{Kind: "parenthesized_expression", Name: path{"^"}},
		// (*p).M(), (<-ch).M(): the pointer's or channel's type, as read.
		{Kind: "unary_expression", Name: path{"^"}},
	},
	TypeLeaves: []string{"type_identifier"},
	TypeShow:   []string{"parameter_declaration", "field_declaration", "var_spec"},
	Imports: []importShape{
		{Kind: "import_spec", Form: "package", Source: path{"path"}, Resolve: resolveGo,
			Names: []boundShape{
				{Path: path{"name", "=package_identifier"}, Form: "alias"},
				{Path: path{"name", "=blank_identifier"}, Form: "side-effect"},
				{Path: path{"name", "=dot"}, Form: "dot"},
			}},
	},
	Exports: exportRules{Visibility: visibility{Capitalized: true}},
	Sep:     "/",
}

func init() { register(goSpec) }
