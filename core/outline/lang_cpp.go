package outline

// cppFunctionNamed is a node of kind declaring a function named $NAME.
func cppFunctionNamed(kind string) string {
	return `rule:
  kind: ` + kind + `
  has:
    field: declarator
    kind: function_declarator
    has: {field: declarator, pattern: $NAME}
`
}

var cppClasses = []string{"cpp-class", "cpp-struct"}

var cppDefs = []def{
	{id: "cpp-include", symbol: "module", name: "$PATH", imp: isTrue, exp: isFalse,
		rule: "rule:\n  kind: preproc_include\n  has: {field: path, pattern: $PATH}\n"},
	{id: "cpp-function", symbol: "function", name: "$NAME", exp: isTrue, rule: cppFunctionNamed("function_definition")},
	{id: "cpp-class", symbol: "class", name: "$NAME", rule: named("class_specifier")},
	{id: "cpp-struct", symbol: "struct", name: "$NAME", rule: named("struct_specifier")},
	{id: "cpp-enum", symbol: "enum", name: "$NAME", rule: named("enum_specifier")},
	{id: "cpp-concept", symbol: "interface", name: "$NAME", rule: named("concept_definition")},
	{id: "cpp-method", member: true, parents: cppClasses, symbol: "method", name: "$NAME", public: isFalse,
		rule: cppFunctionNamed("field_declaration")},
	{id: "cpp-constructor", member: true, parents: cppClasses, symbol: "constructor", name: "$NAME", public: isFalse,
		rule: cppFunctionNamed("declaration")},
	{id: "cpp-field", member: true, parents: cppClasses, symbol: "field", name: "$NAME", public: isFalse,
		rule: "rule:\n  all:\n    - kind: field_declaration\n" + cDeclaratorName + "    - not: {has: {field: declarator, kind: function_declarator}}\n"},
	{id: "cpp-nested-class", member: true, parents: cppClasses, symbol: "class", name: "$NAME", public: isFalse, rule: named("class_specifier")},
	{id: "cpp-nested-struct", member: true, parents: cppClasses, symbol: "struct", name: "$NAME", public: isFalse, rule: named("struct_specifier")},
	{id: "cpp-enumerator", member: true, parents: []string{"cpp-enum"}, symbol: "enumMember", name: "$NAME", public: isTrue, rule: named("enumerator")},
}
