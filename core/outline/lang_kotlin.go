package outline

// ktVisible is a declaration without a private, internal or protected
// modifier.
const ktVisible = "not:\n  has:\n    kind: modifiers\n    regex: 'private|internal|protected'\n"

// ktInClass is a declaration directly inside a class body.
const ktInClass = "    - inside: {kind: class_body}\n"

// Kotlin's declaration shapes, as rule lines under `all`.
const (
	ktEnum      = "    - kind: class_declaration\n    - has: {kind: enum_class_body}\n    - has: {kind: type_identifier, pattern: $NAME}\n"
	ktInterface = "    - kind: class_declaration\n    - has: {pattern: interface}\n    - has: {kind: type_identifier, pattern: $NAME}\n"
	ktObject    = "    - kind: object_declaration\n    - has: {kind: type_identifier, pattern: $NAME}\n"
	ktClass     = "    - kind: class_declaration\n    - has: {pattern: class}\n    - not: {has: {kind: enum_class_body}}\n    - has: {kind: type_identifier, pattern: $NAME}\n"
	ktFunction  = "    - kind: function_declaration\n    - has: {kind: simple_identifier, pattern: $NAME}\n"
)

var ktAll = []string{"kotlin-enum", "kotlin-interface", "kotlin-object", "kotlin-class"}

// ktItem is a top-level Kotlin declaration extractor.
func ktItem(id, symbol, shape string) def {
	return def{id: id, symbol: symbol, name: "$NAME", exp: when(ktVisible), rule: "rule:\n  all:\n" + shape}
}

// ktMember is a class-body member extractor of the parents.
func ktMember(id, symbol, name, shape string, parents []string) def {
	return def{id: id, member: true, parents: parents, symbol: symbol, name: name, public: when(ktVisible),
		rule: "rule:\n  all:\n" + shape + ktInClass}
}

var kotlinDefs = []def{
	{id: "kotlin-import-alias", symbol: "module", name: "$ALIAS", sig: "import $PATH as $ALIAS", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: import $PATH as $ALIAS\n"},
	{id: "kotlin-import", symbol: "module", name: "$PATH", sig: "import $PATH", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: import $PATH\n"},
	ktItem("kotlin-enum", "enum", ktEnum),
	ktItem("kotlin-interface", "interface", ktInterface),
	ktItem("kotlin-object", "object", ktObject),
	ktItem("kotlin-class", "class", ktClass),
	ktItem("kotlin-function", "function", ktFunction),
	ktMember("kotlin-nested-enum", "enum", "$NAME", ktEnum, ktAll),
	ktMember("kotlin-nested-interface", "interface", "$NAME", ktInterface, ktAll),
	ktMember("kotlin-nested-object", "object", "$NAME", ktObject, ktAll),
	ktMember("kotlin-nested-class", "class", "$NAME", ktClass, ktAll),
	func() def {
		d := ktMember("kotlin-companion", "object", "companion object", "    - kind: companion_object\n", ktAll)
		d.sig = "companion object"
		return d
	}(),
	ktMember("kotlin-constructor", "constructor", "constructor", "    - kind: secondary_constructor\n", []string{"kotlin-enum", "kotlin-class"}),
	ktMember("kotlin-method", "method", "$NAME", ktFunction, ktAll),
	ktMember("kotlin-property", "property", "$NAME",
		"    - kind: property_declaration\n    - has:\n        kind: variable_declaration\n        has: {kind: simple_identifier, pattern: $NAME}\n",
		[]string{"kotlin-interface", "kotlin-object", "kotlin-class"}),
}
