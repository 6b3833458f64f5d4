package outline

// csPublic is a declaration with the public modifier.
const csPublic = "has:\n  kind: modifier\n  regex: '^public$'\n"

// csCallable is a constructor or method declaration of kind named $NAME
// whose signature $SIG is its head without its body, on one line, with
// no blanks inside its parentheses' ends.
func csCallable(kind string) string {
	return `rule:
  all:
    - kind: ` + kind + `
    - pattern: $DECL
    - has: {field: name, pattern: $NAME}
transform:
  HEAD:
    replace: {source: $DECL, replace: '\s*(\{[\s\S]*$|=>[\s\S]*$|;\s*$)', by: ''}
  ONE_LINE:
    replace: {source: $HEAD, replace: '\s*\n\s*', by: ' '}
  OPEN:
    replace: {source: $ONE_LINE, replace: '\(\s+', by: '('}
  SIG:
    replace: {source: $OPEN, replace: '\s+\)', by: ')'}
`
}

var (
	csTypes       = []string{"csharp-class", "csharp-record", "csharp-struct"}
	csCallableVar = []string{"HEAD", "ONE_LINE", "OPEN", "SIG"}
)

// csType is a top-level type declaration extractor.
func csType(id, symbol, kind string) def {
	return def{id: id, symbol: symbol, name: "$NAME", exp: when(csPublic), rule: named(kind)}
}

var csharpDefs = []def{
	{id: "csharp-using", symbol: "module", name: "$NAME", imp: isTrue, exp: isFalse, rule: "rule:\n  kind: using_directive\n  has: {pattern: $NAME}\n"},
	csType("csharp-interface", "interface", "interface_declaration"),
	csType("csharp-class", "class", "class_declaration"),
	csType("csharp-record", "struct", "record_declaration"),
	csType("csharp-struct", "struct", "struct_declaration"),
	csType("csharp-enum", "enum", "enum_declaration"),
	csType("csharp-delegate", "function", "delegate_declaration"),
	{id: "csharp-constructor", member: true, parents: csTypes, symbol: "constructor", name: "$NAME", sig: "$SIG", transformed: csCallableVar,
		public: when(csPublic), rule: csCallable("constructor_declaration")},
	{id: "csharp-method", member: true, parents: csTypes, symbol: "method", name: "$NAME", sig: "$SIG", transformed: csCallableVar,
		public: when(csPublic), rule: csCallable("method_declaration")},
	{id: "csharp-interface-method", member: true, parents: []string{"csharp-interface"}, symbol: "method", name: "$NAME", sig: "$SIG",
		transformed: csCallableVar, public: isTrue, rule: csCallable("method_declaration")},
	{id: "csharp-property", member: true, parents: append(csTypes[:3:3], "csharp-interface"), symbol: "property", name: "$NAME",
		public: when("any:\n  - " + indentRest(csPublic, "    ") + "  - inside: {kind: interface_declaration, stopBy: end}\n"),
		rule:   named("property_declaration")},
	{id: "csharp-field", member: true, parents: csTypes, symbol: "field", name: "$NAME", public: when(csPublic),
		rule: "rule:\n  kind: field_declaration\n  has:\n    kind: variable_declarator\n    stopBy: end\n    has: {field: name, pattern: $NAME}\n"},
	{id: "csharp-enum-member", member: true, parents: []string{"csharp-enum"}, symbol: "enumMember", name: "$NAME", public: isTrue,
		rule: named("enum_member_declaration")},
}
