package outline

// tsDeclared is a declaration of a kind named $NAME, anywhere.
func tsDeclared(kind string) string {
	return "rule:\n  kind: " + kind + "\n  has: {field: name, pattern: $NAME}\n"
}

// tsInternalModule is a namespace (`namespace N {}`, or with `declare`)
// named $NAME, as a rule indented by pad.
func tsInternalModule(pad string) string {
	return pad + `any:
` + pad + `  - kind: internal_module
` + pad + `    has: {field: name, pattern: $NAME}
` + pad + `  - kind: ambient_declaration
` + pad + `    has:
` + pad + `      kind: internal_module
` + pad + `      stopBy: neighbor
` + pad + `      has: {field: name, pattern: $NAME}
`
}

// tsAmbientModule is `declare module "name"` with $NAME its text, as a
// rule indented by pad.
func tsAmbientModule(pad string) string {
	return pad + `kind: ambient_declaration
` + pad + `has:
` + pad + `  kind: module
` + pad + `  stopBy: neighbor
` + pad + `  has:
` + pad + `    field: name
` + pad + `    kind: string
` + pad + `    has: {kind: string_fragment, pattern: $NAME}
`
}

// tsTopDeclarator is a declarator of a top-level lexical declaration:
// first the rules that select it, then keyword ("" for any) the
// declaration must start with.
func tsTopDeclarator(selects, keyword string) string {
	decl := "          - kind: lexical_declaration\n"
	if keyword != "" {
		decl += "          - regex: '^" + keyword + `\b'` + "\n"
	}
	return "rule:\n  all:\n" + selects + `    - inside:
        stopBy: neighbor
        all:
` + decl + `          - inside: {kind: program, stopBy: neighbor}
`
}

const (
	tsNamed    = "    - kind: variable_declarator\n    - has: {field: name, kind: identifier, pattern: $NAME}\n"
	tsNotArrow = "    - not: {has: {field: value, kind: arrow_function}}\n"
	tsHidden   = "not:\n  has:\n    kind: accessibility_modifier\n    regex: '^(private|protected)$'\n"
)

// typescriptDefs are the extractors of TypeScript, with ids starting with
// prefix (TSX has the same).
func typescriptDefs(prefix string) []def {
	id := func(s string) string { return prefix + "-" + s }
	classes := []string{id("export-class"), id("class")}
	interfaces := []string{id("export-interface"), id("interface")}
	enums := []string{id("export-enum"), id("enum")}
	typed := func(kw string) string {
		return "    - pattern:\n        context: '" + kw + " $NAME: $TYPE = $VALUE;'\n        selector: variable_declarator\n"
	}
	defs := []def{
		{id: id("import"), symbol: "module", name: "$SOURCE", imp: isTrue, exp: isFalse,
			rule: "rule:\n  kind: import_statement\n  has: {field: source, pattern: $SOURCE}\n"},
		{id: id("export-from"), symbol: "module", name: "$SOURCE", imp: isFalse, exp: isTrue,
			rule: "rule:\n  kind: export_statement\n  has: {field: source, pattern: $SOURCE}\n"},
		{id: id("export-list"), symbol: "module", name: "exports", imp: isFalse, exp: isTrue,
			rule: "rule:\n  pattern: 'export { $$$SPECIFIERS };'\n"},
		{id: id("export-namespace"), symbol: "module", name: "$NAME", exp: isTrue,
			rule: "rule:\n  kind: export_statement\n  has:\n    field: declaration\n" + tsInternalModule("    ")},
		{id: id("namespace"), symbol: "module", name: "$NAME", rule: "rule:\n" + tsInternalModule("  "),
			exp: when("any:\n  - kind: ambient_declaration\n  - inside: {kind: export_statement, stopBy: neighbor}\n")},
		{id: id("export-ambient-module"), symbol: "module", name: "$NAME", exp: isTrue,
			rule: "rule:\n  kind: export_statement\n  has:\n    field: declaration\n" + tsAmbientModule("    ")},
		{id: id("ambient-module"), symbol: "module", name: "$NAME", exp: isTrue, rule: "rule:\n" + tsAmbientModule("  ")},
	}
	for _, k := range []struct{ name, kind, symbol string }{
		{"function", "function_declaration", "function"},
		{"class", "class_declaration", "class"},
		{"interface", "interface_declaration", "interface"},
		{"type", "type_alias_declaration", "struct"},
		{"enum", "enum_declaration", "enum"},
	} {
		defs = append(defs,
			def{id: id("export-" + k.name), symbol: k.symbol, name: "$NAME", exp: isTrue,
				rule: "rule:\n  kind: export_statement\n  has:\n    field: declaration\n    kind: " + k.kind + "\n    has: {field: name, pattern: $NAME}\n"},
			def{id: id(k.name), symbol: k.symbol, name: "$NAME", exp: isFalse, rule: tsDeclared(k.kind)})
	}
	defs = append(defs,
		def{id: id("export-const"), symbol: "constant", name: "$NAME", exp: isTrue, rule: "rule:\n  pattern: 'export const $NAME = $VALUE;'\n"},
		def{id: id("export-const-typed"), symbol: "constant", name: "$NAME", exp: isTrue, rule: "rule:\n  pattern: 'export const $NAME: $TYPE = $VALUE;'\n"},
		def{id: id("export-let"), symbol: "variable", name: "$NAME", exp: isTrue, rule: "rule:\n  pattern: 'export let $NAME = $VALUE;'\n"},
		def{id: id("export-let-typed"), symbol: "variable", name: "$NAME", exp: isTrue, rule: "rule:\n  pattern: 'export let $NAME: $TYPE = $VALUE;'\n"},
		def{id: id("arrow-function"), symbol: "function", name: "$NAME", exp: isFalse,
			rule: tsTopDeclarator(tsNamed+"    - has: {field: value, kind: arrow_function}\n", "")},
		def{id: id("const"), symbol: "constant", name: "$NAME", exp: isFalse,
			rule: tsTopDeclarator(tsNamed+"    - has: {field: value, pattern: $VALUE}\n"+tsNotArrow, "const")},
		def{id: id("const-typed"), symbol: "constant", name: "$NAME", exp: isFalse, rule: tsTopDeclarator(typed("const")+tsNotArrow, "")},
		def{id: id("let-uninitialized"), symbol: "variable", name: "$NAME", exp: isFalse,
			rule: tsTopDeclarator(tsNamed+"    - not: {has: {field: value, pattern: $VALUE}}\n", "let")},
		def{id: id("let"), symbol: "variable", name: "$NAME", exp: isFalse,
			rule: tsTopDeclarator(tsNamed+"    - has: {field: value, pattern: $VALUE}\n"+tsNotArrow, "let")},
		def{id: id("let-typed"), symbol: "variable", name: "$NAME", exp: isFalse, rule: tsTopDeclarator(typed("let")+tsNotArrow, "")},
		def{id: id("constructor"), member: true, parents: classes, symbol: "constructor", name: "constructor", public: isTrue,
			rule: "rule:\n  pattern:\n    context: 'class A { constructor($$$ARGS) { $$$BODY } }'\n    selector: method_definition\n"},
		def{id: id("method"), member: true, parents: classes, symbol: "method", name: "$NAME", public: when(tsHidden),
			rule: tsDeclared("method_definition")},
		def{id: id("field"), member: true, parents: classes, symbol: "field", name: "$NAME", public: when(tsHidden),
			rule: tsDeclared("public_field_definition")},
		def{id: id("interface-method"), member: true, parents: interfaces, symbol: "method", name: "$NAME", public: isTrue,
			rule: tsDeclared("method_signature")},
		def{id: id("interface-property"), member: true, parents: interfaces, symbol: "field", name: "$NAME", public: isTrue,
			rule: tsDeclared("property_signature")},
		def{id: id("enum-member"), member: true, parents: enums, symbol: "enumMember", name: "$NAME", public: isTrue,
			rule: "rule:\n  pattern:\n    context: 'enum A { $NAME }'\n    selector: property_identifier\n"},
	)
	return defs
}
