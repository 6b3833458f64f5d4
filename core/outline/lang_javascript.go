package outline

// jsTopLevel is a declaration that is a statement of the program itself.
const jsTopLevel = `    - inside: {kind: program, stopBy: neighbor}
`

// jsExported is an export statement declaring a kind named $NAME.
func jsExported(kind string) string {
	return `rule:
  kind: export_statement
  has:
    field: declaration
    kind: ` + kind + `
    has:
      field: name
      pattern: $NAME
`
}

// jsDeclared is a top-level declaration of a kind named $NAME.
func jsDeclared(kind string) string {
	return "rule:\n  all:\n    - kind: " + kind + "\n    - has: {field: name, pattern: $NAME}\n" + jsTopLevel
}

// jsDeclarator is a declarator of a top-level lexical declaration (one
// whose text starts with keyword, when keyword is not ""), with the
// extra conditions on its value.
func jsDeclarator(keyword, value string) string {
	decl := "          - kind: lexical_declaration\n"
	if keyword != "" {
		decl += "          - regex: '^" + keyword + `\b'` + "\n"
	}
	return `rule:
  all:
    - kind: variable_declarator
    - has: {field: name, kind: identifier, pattern: $NAME}
` + value + `    - inside:
        stopBy: neighbor
        all:
` + decl + `          - inside: {kind: program, stopBy: neighbor}
`
}

const (
	jsArrowValue = "    - has: {field: value, kind: arrow_function}\n"
	jsPlainValue = "    - has: {field: value, pattern: $VALUE}\n    - not: {has: {field: value, kind: arrow_function}}\n"
	jsNoValue    = "    - not: {has: {field: value, pattern: $VALUE}}\n"
)

// jsClassMembers are the members of a class of the extractors parents.
func jsClassMembers(prefix string, parents []string) []def {
	return []def{
		{id: prefix + "-constructor", member: true, parents: parents, symbol: "constructor", name: "constructor", public: isTrue,
			rule: "rule:\n  pattern:\n    context: 'class A { constructor($$$ARGS) { $$$BODY } }'\n    selector: method_definition\n"},
		{id: prefix + "-method", member: true, parents: parents, symbol: "method", name: "$NAME",
			public: when("not:\n  has: {field: name, kind: private_property_identifier}\n"),
			rule:   "rule:\n  kind: method_definition\n  has: {field: name, pattern: $NAME}\n"},
		{id: prefix + "-field", member: true, parents: parents, symbol: "field", name: "$NAME",
			public: when("not:\n  has: {field: property, kind: private_property_identifier}\n"),
			rule:   "rule:\n  kind: field_definition\n  has: {field: property, pattern: $NAME}\n"},
	}
}

var javascriptDefs = append([]def{
	{id: "js-import", symbol: "module", name: "$SOURCE", imp: isTrue, exp: isFalse,
		rule: "rule:\n  kind: import_statement\n  has: {field: source, pattern: $SOURCE}\n"},
	{id: "js-export-from", symbol: "module", name: "$SOURCE", imp: isFalse, exp: isTrue,
		rule: "rule:\n  kind: export_statement\n  has: {field: source, pattern: $SOURCE}\n"},
	{id: "js-export-list", symbol: "module", name: "exports", imp: isFalse, exp: isTrue,
		rule: "rule:\n  pattern: 'export { $$$SPECIFIERS };'\n"},
	{id: "js-export-function", symbol: "function", name: "$NAME", exp: isTrue, rule: jsExported("function_declaration")},
	{id: "js-function", symbol: "function", name: "$NAME", exp: isFalse, rule: jsDeclared("function_declaration")},
	{id: "js-export-class", symbol: "class", name: "$NAME", exp: isTrue, rule: jsExported("class_declaration")},
	{id: "js-class", symbol: "class", name: "$NAME", exp: isFalse, rule: jsDeclared("class_declaration")},
	{id: "js-export-const", symbol: "constant", name: "$NAME", exp: isTrue, rule: "rule:\n  pattern: 'export const $NAME = $VALUE;'\n"},
	{id: "js-export-let", symbol: "variable", name: "$NAME", exp: isTrue, rule: "rule:\n  pattern: 'export let $NAME = $VALUE;'\n"},
	{id: "js-arrow-function", symbol: "function", name: "$NAME", exp: isFalse, rule: jsDeclarator("", jsArrowValue)},
	{id: "js-const", symbol: "constant", name: "$NAME", exp: isFalse, rule: jsDeclarator("const", jsPlainValue)},
	{id: "js-let-uninitialized", symbol: "variable", name: "$NAME", exp: isFalse, rule: jsDeclarator("let", jsNoValue)},
	{id: "js-let", symbol: "variable", name: "$NAME", exp: isFalse, rule: jsDeclarator("let", jsPlainValue)},
}, jsClassMembers("js-class", []string{"js-export-class", "js-class"})...)
