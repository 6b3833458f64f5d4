package outline

// pyNamed matches a definition whose name field is bound to $NAME.
const pyNamed = `
  has:
    field: name
    pattern: $NAME
`

// pyAssigned is an assignment to the plain name $NAME.
const pyAssigned = `    - kind: assignment
    - has:
        field: left
        kind: identifier
        pattern: $NAME
`

// pyConstantName is a left side spelled as a constant.
const pyConstantName = `has:
  field: left
  regex: '^[A-Z_][A-Z0-9_]*$'
`

// pyModuleLevel is outside every class and function.
const pyModuleLevel = `    - not:
        any:
          - inside: {kind: class_definition, stopBy: end}
          - inside: {kind: function_definition, stopBy: end}
`

var pythonDefs = []def{
	{id: "python-import", symbol: "module", name: "$NAME", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: import $NAME\n"},
	{id: "python-import-from", symbol: "module", name: "$MODULE", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: from $MODULE import $NAME\n"},
	{id: "python-class", symbol: "class", name: "$NAME", rule: "rule:\n  kind: class_definition" + pyNamed},
	{id: "python-constant", symbol: "constant", name: "$NAME",
		rule: "rule:\n  all:\n" + pyAssigned + "    - " + indentRest(pyConstantName, "      ") + pyModuleLevel},
	{id: "python-variable", symbol: "variable", name: "$NAME",
		rule: "rule:\n  all:\n" + pyAssigned + "    - not:\n        " + indentRest(pyConstantName, "        ") + pyModuleLevel},
	{id: "python-async-function", symbol: "function", name: "$NAME", rule: `rule:
  all:
    - pattern: 'async def $NAME($$$ARGS): $$$BODY'
    - not: {inside: {kind: class_definition, stopBy: end}}
`},
	{id: "python-function", symbol: "function", name: "$NAME",
		rule: "rule:\n  kind: function_definition" + pyNamed + "  not:\n    inside:\n      kind: class_definition\n"},
	{id: "python-nested-class", member: true, parents: []string{"python-class"}, symbol: "class", name: "$NAME",
		rule: "rule:\n  kind: class_definition" + pyNamed},
	{id: "python-class-field", member: true, parents: []string{"python-class"}, symbol: "field", name: "$NAME",
		rule: "rule:\n  all:\n" + pyAssigned + `    - inside:
        kind: expression_statement
        inside:
          kind: block
          inside:
            kind: class_definition
            field: body
`},
	{id: "python-method", member: true, parents: []string{"python-class"}, symbol: "method", name: "$NAME",
		rule: "rule:\n  kind: function_definition" + pyNamed},
}

// indentRest indents every line of s after the first by pad.
func indentRest(s, pad string) string {
	out := ""
	for i, line := range splitLines(s) {
		if i > 0 {
			out += pad
		}
		out += line + "\n"
	}
	return out
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
