package outline

// rustDecl is a declaration of kind whose field (name, or type for an
// impl) is $NAME, with the extra rule lines; its signature $SIG is its
// text up to its body (strip, a regex removed from its end) on its first
// line.
func rustDecl(kind, field, strip, extra string) string {
	return `rule:
  all:
    - kind: ` + kind + `
    - pattern: $DECL
    - has: {field: ` + field + `, pattern: $NAME}
` + extra + `transform:
  HEAD:
    replace: {source: $DECL, replace: '` + strip + `', by: ''}
  SIG:
    replace: {source: $HEAD, replace: '\n[\s\S]*$', by: ''}
`
}

const (
	rustBody         = `\s*\{[\s\S]*$`
	rustBodyOrSemi   = `\s*\{[\s\S]*$|;\s*$`
	rustSemi         = `;\s*$`
	rustPub          = "has:\n  kind: visibility_modifier\n  regex: '^pub'\n"
	rustNotInBlock   = "    - not: {inside: {kind: block, stopBy: end}}\n"
	rustNotInImplDef = "    - not: {inside: {kind: impl_item, stopBy: end}}\n    - not: {inside: {kind: trait_item, stopBy: end}}\n"
)

var rustSigVars = []string{"HEAD", "SIG"}

// rustItem is a top-level Rust declaration extractor.
func rustItem(id, symbol, kind, strip string) def {
	return def{id: id, symbol: symbol, name: "$NAME", sig: "$SIG", transformed: rustSigVars, exp: when(rustPub),
		rule: rustDecl(kind, "name", strip, "")}
}

// rustMember is a member declaration extractor of the parent items.
func rustMember(id, symbol, kind, strip, extra string, public flagDef, parents ...string) def {
	return def{id: id, member: true, parents: parents, symbol: symbol, name: "$NAME", sig: "$SIG", transformed: rustSigVars,
		public: public, rule: rustDecl(kind, "name", strip, extra)}
}

var rustDefs = []def{
	{id: "rust-use-public", symbol: "module", name: "$PATH", imp: isTrue, exp: isTrue, rule: "rule:\n  pattern: 'pub use $PATH;'\n"},
	{id: "rust-use", symbol: "module", name: "$PATH", imp: isTrue, exp: isFalse, rule: "rule:\n  pattern: 'use $PATH;'\n"},
	rustItem("rust-mod", "module", "mod_item", rustBodyOrSemi),
	rustItem("rust-function", "function", "function_item", rustBody),
	rustItem("rust-struct", "struct", "struct_item", rustBodyOrSemi),
	rustItem("rust-enum", "enum", "enum_item", rustBody),
	rustItem("rust-trait", "interface", "trait_item", rustBody),
	{id: "rust-impl", symbol: "object", name: "$NAME", sig: "$SIG", transformed: rustSigVars, exp: isFalse,
		rule: rustDecl("impl_item", "type", rustBody, "")},
	{id: "rust-const-public", symbol: "constant", name: "$NAME", sig: "pub const $NAME: $TYPE", exp: isTrue,
		rule: "rule:\n  pattern: 'pub const $NAME: $TYPE = $VALUE;'\n"},
	{id: "rust-const", symbol: "constant", name: "$NAME", sig: "const $NAME: $TYPE", exp: isFalse,
		rule: "rule:\n  pattern: 'const $NAME: $TYPE = $VALUE;'\n"},
	{id: "rust-static-public", symbol: "variable", name: "$NAME", sig: "pub static $NAME: $TYPE", exp: isTrue,
		rule: "rule:\n  pattern: 'pub static $NAME: $TYPE = $VALUE;'\n"},
	{id: "rust-static", symbol: "variable", name: "$NAME", sig: "static $NAME: $TYPE", exp: isFalse,
		rule: "rule:\n  pattern: 'static $NAME: $TYPE = $VALUE;'\n"},
	{id: "rust-field", member: true, parents: []string{"rust-struct"}, symbol: "field", name: "$NAME", public: when(rustPub),
		rule: "rule:\n  all:\n    - kind: field_declaration\n    - has: {field: name, pattern: $NAME}\n"},
	{id: "rust-enum-variant", member: true, parents: []string{"rust-enum"}, symbol: "enumMember", name: "$NAME", sig: "$NAME", public: isTrue,
		rule: "rule:\n  all:\n    - kind: enum_variant\n    - has: {field: name, pattern: $NAME}\n"},
	rustMember("rust-mod-function", "function", "function_item", rustBody, rustNotInImplDef+rustNotInBlock, when(rustPub), "rust-mod"),
	rustMember("rust-mod-struct", "struct", "struct_item", rustBodyOrSemi, rustNotInBlock, when(rustPub), "rust-mod"),
	rustMember("rust-mod-enum", "enum", "enum_item", rustBody, rustNotInBlock, when(rustPub), "rust-mod"),
	rustMember("rust-impl-method", "method", "function_item", rustBody, rustNotInBlock, when(rustPub), "rust-impl"),
	rustMember("rust-trait-signature", "method", "function_signature_item", rustSemi, "", isTrue, "rust-trait"),
	rustMember("rust-trait-default", "method", "function_item", rustBody, rustNotInBlock, isTrue, "rust-trait"),
}
