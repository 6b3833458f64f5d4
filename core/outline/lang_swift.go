package outline

// swiftModifier is a declaration whose modifiers match re.
func swiftModifier(re string) flagDef {
	return when("has:\n  kind: modifiers\n  regex: '" + re + "'\n")
}

// swiftType is a class declaration (Swift's node for class, struct, enum
// and actor) of the declaration keyword named $NAME.
func swiftType(keyword string) string {
	return "rule:\n  all:\n    - kind: class_declaration\n    - has: {field: declaration_kind, pattern: " + keyword +
		"}\n    - has: {kind: type_identifier, pattern: $NAME}\n"
}

// swiftTypes are the type extractors whose bodies hold initialisers and
// methods.
var swiftTypes = []string{"swift-class", "swift-struct", "swift-enum", "swift-actor"}

var swiftDefs = []def{
	{id: "swift-preconcurrency-import", symbol: "module", name: "$MODULE", sig: "@preconcurrency import $MODULE", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: '@preconcurrency import $MODULE'\n"},
	{id: "swift-import", symbol: "module", name: "$MODULE", sig: "import $MODULE", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: import $MODULE\n"},
	{id: "swift-class", symbol: "class", name: "$NAME", exp: swiftModifier("public|open"), rule: swiftType("class")},
	{id: "swift-protocol", symbol: "interface", name: "$NAME", exp: swiftModifier("public"),
		rule: "rule:\n  all:\n    - kind: protocol_declaration\n    - has: {kind: type_identifier, pattern: $NAME}\n"},
	{id: "swift-struct", symbol: "struct", name: "$NAME", exp: swiftModifier("public"), rule: swiftType("struct")},
	{id: "swift-enum", symbol: "enum", name: "$NAME", exp: swiftModifier("public"), rule: swiftType("enum")},
	{id: "swift-actor", symbol: "object", name: "$NAME", exp: swiftModifier("public"), rule: swiftType("actor")},
	{id: "swift-function", symbol: "function", name: "$NAME", exp: swiftModifier("public|open"),
		rule: "rule:\n  all:\n    - kind: function_declaration\n    - has: {kind: simple_identifier, pattern: $NAME}\n"},
	{id: "swift-init", member: true, parents: swiftTypes, symbol: "constructor", name: "init", public: swiftModifier("public"),
		rule: "rule:\n  kind: init_declaration\n"},
	{id: "swift-method", member: true, parents: swiftTypes, symbol: "method", name: "$NAME", public: swiftModifier("public|open"),
		rule: "rule:\n  all:\n    - kind: function_declaration\n    - has: {kind: simple_identifier, pattern: $NAME}\n"},
	{id: "swift-protocol-method", member: true, parents: []string{"swift-protocol"}, symbol: "method", name: "$NAME", public: isTrue,
		rule: "rule:\n  all:\n    - kind: protocol_function_declaration\n    - has: {kind: simple_identifier, pattern: $NAME}\n"},
}
