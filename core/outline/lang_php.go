package outline

// phpPublic is a member with the public visibility modifier.
const phpPublic = "has:\n  kind: visibility_modifier\n  regex: '^public$'\n"

var phpDefs = []def{
	{id: "php-use", symbol: "module", name: "$NAME", imp: isTrue, exp: isFalse,
		rule: "rule:\n  kind: namespace_use_declaration\n  has: {kind: qualified_name, stopBy: end, pattern: $NAME}\n"},
	{id: "php-interface", symbol: "interface", name: "$NAME", exp: isTrue, rule: named("interface_declaration")},
	{id: "php-class", symbol: "class", name: "$NAME", exp: isTrue, rule: named("class_declaration")},
	{id: "php-trait", symbol: "interface", name: "$NAME", exp: isTrue, rule: named("trait_declaration")},
	{id: "php-enum", symbol: "enum", name: "$NAME", exp: isTrue, rule: named("enum_declaration")},
	{id: "php-function", symbol: "function", name: "$NAME", exp: isTrue, rule: named("function_definition")},
	{id: "php-method", member: true, parents: []string{"php-class", "php-trait"}, symbol: "method", name: "$NAME",
		public: when(phpPublic), rule: named("method_declaration")},
	{id: "php-interface-method", member: true, parents: []string{"php-interface"}, symbol: "method", name: "$NAME",
		public: isTrue, rule: named("method_declaration")},
	{id: "php-property", member: true, parents: []string{"php-class", "php-trait"}, symbol: "property", name: "$NAME",
		public: when(phpPublic), rule: "rule:\n  kind: property_declaration\n  has:\n    kind: property_element\n    has: {field: name, pattern: $NAME}\n"},
	{id: "php-enum-case", member: true, parents: []string{"php-enum"}, symbol: "enumMember", name: "$NAME", public: isTrue, rule: named("enum_case")},
}
