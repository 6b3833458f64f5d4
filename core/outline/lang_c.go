package outline

// cNamed is a node of kind whose name field is $NAME.
func cNamed(kind string) string {
	return "rule:\n  kind: " + kind + "\n  has: {field: name, pattern: $NAME}\n"
}

// cDeclaratorName binds $NAME to the first identifier (or field
// identifier) of a declaration's declarator, in pre-order: x of
// `*x[3]`, `(*x)(int a)` and `x = 1`.
const cDeclaratorName = `    - has:
        field: declarator
        any:
          - {kind: identifier, pattern: $NAME}
          - {kind: field_identifier, pattern: $NAME}
          - has:
              stopBy: end
              any: [{kind: identifier}, {kind: field_identifier}]
              pattern: $NAME
`

var cDefs = []def{
	{id: "c-include", symbol: "module", name: "$PATH", imp: isTrue, exp: isFalse,
		rule: "rule:\n  kind: preproc_include\n  has: {field: path, pattern: $PATH}\n"},
	{id: "c-function", symbol: "function", name: "$NAME", exp: isTrue, rule: `rule:
  kind: function_definition
  has:
    field: declarator
    kind: function_declarator
    has: {field: declarator, pattern: $NAME}
`},
	{id: "c-struct", symbol: "struct", name: "$NAME", rule: cNamed("struct_specifier")},
	{id: "c-union", symbol: "struct", name: "$NAME", rule: cNamed("union_specifier")},
	{id: "c-enum", symbol: "enum", name: "$NAME", rule: cNamed("enum_specifier")},
	{id: "c-variable", symbol: "variable", name: "$NAME", exp: isTrue, rule: `rule:
  all:
    - kind: declaration
` + cDeclaratorName + `    - not: {has: {field: declarator, kind: function_declarator}}
    - not: {inside: {kind: compound_statement, stopBy: end}}
`},
	{id: "c-field", member: true, parents: []string{"c-struct", "c-union"}, symbol: "field", name: "$NAME", public: isTrue,
		rule: "rule:\n  all:\n    - kind: field_declaration\n" + cDeclaratorName},
	{id: "c-enumerator", member: true, parents: []string{"c-enum"}, symbol: "enumMember", name: "$NAME", public: isTrue,
		rule: cNamed("enumerator")},
}
