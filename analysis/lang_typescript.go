package analysis

// The TypeScript, TSX and JavaScript tables. TypeScript and TSX share one
// grammar family and one table; JavaScript's grammar spells classes and
// fields differently and has no types.

var jsFuncKinds = []string{"arrow_function", "function_expression", "generator_function"}

// jsCommonDefs are the definitions JavaScript and TypeScript share. In
// TypeScript (ts), callers are named as the compiler's call hierarchy
// names them: a function literal is a caller of its own when a const
// declaration holds it (or a class field, a method, a declaration); one
// assigned to a property (socket.onerror = (e) => {...}), held by an object
// literal's property (next: (v) => ...) or by a let or var is not: its
// calls are the enclosing function's, or the file's, so callers at depth 2
// and more follow the functions a reader can call.
func jsCommonDefs(ts bool) []defShape {
	return []defShape{
		{Kind: "function_declaration", Name: path{"name"}, Label: lFunction, Callable: true},
		{Kind: "generator_function_declaration", Name: path{"name"}, Label: lFunction, Callable: true},
		{Kind: "method_definition", Name: path{"name"}, Label: lMethod, Callable: true},
		{Kind: "variable_declarator", Name: path{"name"}, Label: lVariable, NameKinds: []string{"identifier"},
			Value: path{"value"}, FuncKinds: jsFuncKinds, ConstCaller: ts},
		{Kind: "pair", Name: path{"key"}, Label: lProperty, Value: path{"value"}, FuncKinds: jsFuncKinds, FuncOnly: true,
			NoCaller: ts},
		// obj.method = function () {} and exports.f = () => {}
		{Kind: "assignment_expression", Name: path{"left"}, Label: lProperty, Value: path{"right"},
			FuncKinds: jsFuncKinds, FuncOnly: true, NoCaller: ts},
		// const { a, b: c, d = 1 } = x and const [e, f] = y
		{Kind: "variable_declarator", Name: path{"name", "=object_pattern", "#shorthand_property_identifier_pattern"},
			AllNames: true, Label: lVariable},
		{Kind: "variable_declarator", Name: path{"name", "=object_pattern", "#pair_pattern", "value"},
			NameKinds: []string{"identifier"}, AllNames: true, Label: lVariable},
		{Kind: "variable_declarator", Name: path{"name", "=object_pattern", "#object_assignment_pattern", "left"},
			NameKinds: []string{"shorthand_property_identifier_pattern"}, AllNames: true, Label: lVariable},
		{Kind: "variable_declarator", Name: path{"name", "=array_pattern", "#identifier"}, AllNames: true, Label: lVariable},
		// catch (err) and const f = function named() {}
		{Kind: "catch_clause", Name: path{"parameter"}, NameKinds: []string{"identifier"}, Label: lVariable},
		{Kind: "function_expression", Name: path{"name"}, Label: lFunction, Callable: true, ArgOfCaller: true},
	}
}

// jsUnwrap leads from a definition's value to the arguments of the call
// wrapping a function literal.
var jsUnwrap = path{"=call_expression", "arguments", "*"}

// jsxCalls make JSX elements calls of their component: <Button /> and
// <Button.Item>; lower-case intrinsic elements (<div>) are not calls.
var jsxCalls = []callShape{
	{Kind: "jsx_self_closing_element", Callee: path{"name"}, Component: true},
	{Kind: "jsx_opening_element", Callee: path{"name"}, Component: true},
}

var jsCalls = []callShape{
	{Kind: "call_expression", Callee: path{"function"}},
	{Kind: "new_expression", Callee: path{"constructor"}, New: true},
}

// jsImports are the import forms of both languages; TypeScript adds
// import x = require().
func jsImports() []importShape {
	return []importShape{
		{Kind: "import_statement", Form: "side-effect", Source: path{"source"}, Resolve: resolveJS,
			Names: []boundShape{
				{Path: path{"#import_clause", "#identifier"}, Form: "default"},
				{Path: path{"#import_clause", "#named_imports", "#import_specifier"}, Name: path{"name"},
					Alias: path{"alias"}, Form: "named"},
				{Path: path{"#import_clause", "#namespace_import"}, Name: path{"^"}, Form: "namespace"},
			}},
		{Kind: "export_statement", Form: "re-export", Source: path{"source"}, Require: path{"source"}, Resolve: resolveJS,
			Names: []boundShape{
				{Path: path{"#export_clause", "#export_specifier"}, Name: path{"name"}, Alias: path{"alias"}, Form: "re-export"},
				{Path: path{"#namespace_export"}, Name: path{"^"}, Form: "re-export"},
			}},
		{Kind: "call_expression", Form: "dynamic", Callee: path{"function"}, CalleeText: []string{"import"},
			Source: path{"arguments", "^"}, Resolve: resolveJS},
		{Kind: "call_expression", Form: "require", Callee: path{"function"}, CalleeText: []string{"require"},
			Source: path{"arguments", "^"}, Resolve: resolveJS,
			// const x = require('m') and const { a, b: c } = require('m')
			Names: []boundShape{
				{Path: path{"..", "=variable_declarator", "name", "=identifier"}, Form: "require"},
				{Path: path{"..", "=variable_declarator", "name", "=object_pattern", "#shorthand_property_identifier_pattern"},
					Form: "named"},
				{Path: path{"..", "=variable_declarator", "name", "=object_pattern", "#pair_pattern"}, Name: path{"key"},
					Alias: path{"value"}, Form: "named"},
			}},
	}
}

// jsExports are the statement-level export forms of both languages.
func jsExports() exportRules {
	return exportRules{
		Wrappers:    []string{"export_statement"},
		PassThrough: []string{"lexical_declaration", "variable_declaration"},
		Visibility:  visibility{Wrapped: true},
		Forms: []exportForm{
			{Kind: "export_statement", Require: path{"#export_clause"}, Forbid: path{"source"},
				Names: path{"#export_clause", "#export_specifier"}, Name: path{"name"}, Alias: path{"alias"}, Label: "named"},
			{Kind: "export_statement", Require: path{"source"}, Forbid: path{"#namespace_export"}, Source: path{"source"},
				Names: path{"#export_clause", "#export_specifier"}, Name: path{"name"}, Alias: path{"alias"},
				Label: "re-export", Whole: "*"},
			{Kind: "export_statement", Require: path{"#namespace_export"}, Source: path{"source"},
				Names: path{"#namespace_export"}, Name: path{"^"}, Label: "re-export"},
			{Kind: "export_statement", Token: "default", Require: path{"value"}, Names: path{"value"}, Label: "default"},
			{Kind: "assignment_expression", Assign: []string{"module.exports", "exports"}, Left: path{"left"},
				Right: path{"right"}, Label: "commonjs"},
		},
	}
}

var jsNames = []nameRule{
	{Kind: "member_expression", Name: path{"property"}, Receiver: path{"object"}},
	{Kind: "parenthesized_expression", Name: path{"^"}},
}

var tsSpec = &langSpec{
	Lang: "typescript",
	Typed: []typedShape{
		// Parameters (this: Foo among them), with or without a written
		// type; a parameter property is a field of the class.
		{Kind: "required_parameter", Name: path{"pattern"}, Expr: path{"type"}, ValueExpr: path{"value"},
			Field: path{"#accessibility_modifier"}, FieldToken: "readonly", Param: true},
		{Kind: "optional_parameter", Name: path{"pattern"}, Expr: path{"type"}, ValueExpr: path{"value"},
			Field: path{"#accessibility_modifier"}, FieldToken: "readonly", Param: true},
		// A callback's single unparenthesized parameter (xs.map(x => ...)),
		// typed by its context.
		{Kind: "arrow_function", Name: path{"parameter"}, Expr: path{"type"}},
		{Kind: "variable_declarator", Name: path{"name"}, Expr: path{"type"}, ValueExpr: path{"value"}},
		// for (const x of xs): x is an element of xs (Array<T>, Set<T>, an
		// iterator's T).
		{Kind: "for_in_statement", Name: path{"left"}, Value: path{"right"}, Elem: true, Token: "of"},
		{Kind: "for_in_statement", Name: path{"left", "=array_pattern", "*"}, Value: path{"right"}, Elem: true, Entry: true,
			AllNames: true, Token: "of"},
		// const [a, setA] = useState(x): of a value typed any, each is any.
		{Kind: "variable_declarator", Name: path{"name", "=array_pattern", "*"}, Value: path{"value"}, Entry: true,
			AllNames: true},
		// { measure: createFlag() }: a property typed by its value.
		{Kind: "pair", Name: path{"key"}, Expr: path{"type"}, ValueExpr: path{"value"}, Prop: true},
		// { store }: the property has the variable's type.
		{Kind: "object", Name: path{"#shorthand_property_identifier"}, Value: path{"#shorthand_property_identifier"},
			AllNames: true, Prop: true},
		{Kind: "public_field_definition", Name: path{"name"}, Expr: path{"type"}, ValueExpr: path{"value"}},
		{Kind: "property_signature", Name: path{"name"}, Expr: path{"type"}},
		// Return types: x = f() has f's written return type.
		{Kind: "function_declaration", Name: path{"name"}, Expr: path{"return_type"}, Return: true},
		{Kind: "method_definition", Name: path{"name"}, Expr: path{"return_type"}, Return: true},
		{Kind: "method_signature", Name: path{"name"}, Expr: path{"return_type"}, Return: true},
		{Kind: "abstract_method_signature", Name: path{"name"}, Expr: path{"return_type"}, Return: true},
		{Kind: "function_signature", Name: path{"name"}, Expr: path{"return_type"}, Return: true},
		// A type alias's type: its members are that type's.
		{Kind: "type_alias_declaration", Name: path{"name"}, Expr: path{"value"}, Under: true},
		// A function literal's written return type, for the variable or
		// field it defines (static create = (): ZodDate => ...).
		{Kind: "variable_declarator", Name: path{"name"}, Expr: path{"value", "=arrow_function", "return_type"}, Return: true},
		{Kind: "variable_declarator", Name: path{"name"}, Expr: path{"value", "=function_expression", "return_type"}, Return: true},
		{Kind: "public_field_definition", Name: path{"name"}, Expr: path{"value", "=arrow_function", "return_type"}, Return: true},
		{Kind: "public_field_definition", Name: path{"name"}, Expr: path{"value", "=function_expression", "return_type"}, Return: true},
		// A variable, field or property written with a function type
		// (const ownKeys: (t: any) => string[], set: <T>() => Set<T>):
		// calling it gives that type's return type.
		{Kind: "variable_declarator", Name: path{"name"}, Expr: path{"type", "#function_type", "return_type"}, Return: true},
		{Kind: "public_field_definition", Name: path{"name"}, Expr: path{"type", "#function_type", "return_type"}, Return: true},
		{Kind: "property_signature", Name: path{"name"}, Expr: path{"type", "#function_type", "return_type"}, Return: true},
	},
	SelfNames: []string{"this"},
	Library:   tsLibrary,
	Narrows:   tsNarrows,
	Repair:    tsRepair,
	Scope:     []string{"typescript", "tsx"},
	Defs: append(jsCommonDefs(true),
		defShape{Kind: "function_signature", Name: path{"name"}, Label: lSignature},
		defShape{Kind: "method_signature", Name: path{"name"}, Label: lSignature},
		defShape{Kind: "abstract_method_signature", Name: path{"name"}, Label: lSignature},
		// A property of a function type is a method's signature (an
		// interface's next: (value: T) => void).
		defShape{Kind: "property_signature", Name: path{"type", "#function_type", "..", "..", "name"}, Label: lSignature},
		defShape{Kind: "public_field_definition", Name: path{"name"}, Label: lProperty,
			Value: path{"value"}, FuncKinds: jsFuncKinds},
		defShape{Kind: "class_declaration", Name: path{"name"}, Label: lClass, Container: true, Heritage: tsClassHeritage},
		defShape{Kind: "abstract_class_declaration", Name: path{"name"}, Label: lClass, Container: true, Heritage: tsClassHeritage},
		defShape{Kind: "class", Name: path{"name"}, Label: lClass, Container: true, Heritage: tsClassHeritage},
		defShape{Kind: "interface_declaration", Name: path{"name"}, Label: lInterface, Container: true,
			Heritage: []parentShape{{Path: path{"#extends_type_clause", "type"}, Relation: "extends"}}},
		defShape{Kind: "type_alias_declaration", Name: path{"name"}, Label: lType},
		defShape{Kind: "enum_declaration", Name: path{"name"}, Label: lEnum, Container: true},
		defShape{Kind: "internal_module", Name: path{"name"}, Label: lNamespace, Container: true},
	),
	Calls:  jsCalls,
	Unwrap: jsUnwrap,
	Names: append([]nameRule{
		{Kind: "non_null_expression", Name: path{"^"}},
		{Kind: "generic_type", Name: path{"name"}},
		{Kind: "nested_type_identifier", Name: path{"name"}, Receiver: path{"module"}},
		{Kind: "nested_identifier", Name: path{"property"}, Receiver: path{"object"}},
		{Kind: "instantiation_expression", Name: path{"function"}},
	}, jsNames...),
	TypeLeaves: []string{"type_identifier"},
	TypeShow:   []string{"type_annotation", "constraint", "type_alias_declaration"},
	Imports: append(jsImports(),
		importShape{Kind: "import_statement", Form: "require", Require: path{"#import_require_clause"},
			Source: path{"#import_require_clause", "source"}, Resolve: resolveJS,
			Names: []boundShape{{Path: path{"#import_require_clause"}, Name: path{"#identifier"}, Form: "require"}}},
	),
	Exports: func() exportRules {
		e := jsExports()
		e.PassThrough = append(e.PassThrough, "ambient_declaration")
		e.Forms = append(e.Forms, exportForm{Kind: "export_statement", Token: "=", Names: path{"^"}, Label: "export="})
		return e
	}(),
	Exts:  []string{".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"},
	Index: []string{"index"},
}

var tsClassHeritage = []parentShape{
	{Path: path{"#class_heritage", "#extends_clause", "value"}, Relation: "extends"},
	{Path: path{"#class_heritage", "#implements_clause", "*"}, Relation: "implements"},
}

var jsSpec = &langSpec{
	Lang: "javascript",
	// JavaScript writes no types: a variable is typed by its value.
	Typed: []typedShape{
		{Kind: "variable_declarator", Name: path{"name"}, Expr: path{"type"}, ValueExpr: path{"value"}},
		{Kind: "field_definition", Name: path{"property"}, Expr: path{"type"}, ValueExpr: path{"value"}},
	},
	SelfNames: []string{"this"},
	Library:   tsLibrary,
	Narrows:   tsNarrows,
	Scope:     []string{"javascript"},
	Defs: append(jsCommonDefs(false),
		defShape{Kind: "field_definition", Name: path{"property"}, Label: lProperty,
			Value: path{"value"}, FuncKinds: jsFuncKinds},
		defShape{Kind: "class_declaration", Name: path{"name"}, Label: lClass, Container: true, Heritage: jsClassHeritage},
		defShape{Kind: "class", Name: path{"name"}, Label: lClass, Container: true, Heritage: jsClassHeritage},
	),
	Calls:   append(append([]callShape{}, jsCalls...), jsxCalls...),
	Unwrap:  jsUnwrap,
	Names:   jsNames,
	Imports: jsImports(),
	Exports: jsExports(),
	Exts:    []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx"},
	Index:   []string{"index"},
}

var jsClassHeritage = []parentShape{{Path: path{"#class_heritage", "^"}, Relation: "extends"}}

func init() {
	tsx := *tsSpec
	tsx.Lang = "tsx"
	tsx.Scope = []string{"tsx", "typescript"}
	tsx.Calls = append(append([]callShape{}, jsCalls...), jsxCalls...)
	register(tsSpec, &tsx, jsSpec)
}
