package outline

// goNamed matches a node whose name field is bound to $NAME.
const goNamed = `
  has:
    field: name
    pattern: $NAME
`

// goTypeSpec is a type declaration whose spec names $NAME and whose
// type matches the extra rule lines.
func goTypeSpec(extra string) string {
	return `rule:
  kind: type_declaration
  has:
    kind: type_spec
    all:
      - has:
          field: name
          pattern: $NAME
` + extra
}

// goExportedName: a Go name is exported when it starts with a capital
// (ASCII, as the outline has it).
const goExportedName = `has:
  field: name
  regex: '^[A-Z]'
`

var goDefs = []def{
	{id: "go-import", symbol: "module", name: "$PATH", imp: isTrue, exp: isFalse, rule: `rule:
  kind: import_spec
  has:
    pattern: '"$PATH"'
`},
	{id: "go-function", symbol: "function", name: "$NAME", rule: "rule:\n  kind: function_declaration" + goNamed},
	{id: "go-method", symbol: "method", name: "$NAME", rule: "rule:\n  kind: method_declaration" + goNamed},
	{id: "go-struct", symbol: "struct", name: "$NAME", rule: goTypeSpec("      - has: {kind: struct_type}\n")},
	{id: "go-interface", symbol: "interface", name: "$NAME", rule: goTypeSpec("      - has: {kind: interface_type}\n")},
	{id: "go-field", member: true, parents: []string{"go-struct"}, symbol: "field", name: "$NAME",
		public: when(goExportedName), rule: "rule:\n  kind: field_declaration" + goNamed},
	{id: "go-interface-method", member: true, parents: []string{"go-interface"}, symbol: "method", name: "$NAME",
		public: when(goExportedName), rule: "rule:\n  kind: method_elem" + goNamed},
	{id: "go-type", symbol: "typeParameter", name: "$NAME",
		rule: goTypeSpec("      - not: {has: {kind: struct_type}}\n      - not: {has: {kind: interface_type}}\n")},
	{id: "go-const", symbol: "constant", name: "$NAME", rule: "rule:\n  kind: const_spec\n  has:\n    pattern: $NAME\n"},
	{id: "go-var", symbol: "variable", name: "$NAME", rule: "rule:\n  kind: var_spec\n  has:\n    pattern: $NAME\n"},
}
