package outline

// javaPublic is a declaration with the public modifier.
const javaPublic = "has:\n  kind: modifiers\n  has: {pattern: public}\n"

// javaNamed is a declaration of kind whose name is $NAME.
func javaNamed(kind string) string {
	return "rule:\n  all:\n    - kind: " + kind + "\n    - has: {field: name, pattern: $NAME}\n"
}

// javaTypes are the type extractors whose bodies hold methods and fields.
var javaTypes = []string{"java-interface", "java-enum", "java-class", "java-record", "java-annotation"}

var javaDefs = []def{
	{id: "java-static-import-all", symbol: "module", name: "$PATH.*", sig: "import static $PATH.*", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: import static $PATH.*;\n"},
	{id: "java-import-all", symbol: "module", name: "$PATH.*", sig: "import $PATH.*", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: import $PATH.*;\n"},
	{id: "java-static-import", symbol: "module", name: "$PATH", sig: "import static $PATH", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: import static $PATH;\n"},
	{id: "java-import", symbol: "module", name: "$PATH", sig: "import $PATH", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: import $PATH;\n"},
	{id: "java-interface", symbol: "interface", name: "$NAME", exp: when(javaPublic), rule: javaNamed("interface_declaration")},
	{id: "java-enum", symbol: "enum", name: "$NAME", exp: when(javaPublic), rule: javaNamed("enum_declaration")},
	{id: "java-class", symbol: "class", name: "$NAME", exp: when(javaPublic), rule: javaNamed("class_declaration")},
	{id: "java-record", symbol: "struct", name: "$NAME", exp: when(javaPublic), rule: javaNamed("record_declaration")},
	{id: "java-annotation", symbol: "interface", name: "$NAME", exp: when(javaPublic), rule: javaNamed("annotation_type_declaration")},
	{id: "java-enum-constant", member: true, parents: []string{"java-enum"}, symbol: "enumMember", name: "$NAME",
		public: isTrue, rule: javaNamed("enum_constant")},
	{id: "java-annotation-element", member: true, parents: []string{"java-annotation"}, symbol: "method", name: "$NAME",
		public: isTrue, rule: javaNamed("annotation_type_element_declaration")},
	{id: "java-method", member: true, parents: javaTypes, symbol: "method", name: "$NAME",
		public: when(javaPublic), rule: javaNamed("method_declaration")},
	{id: "java-constructor", member: true, parents: []string{"java-enum", "java-class", "java-record"}, symbol: "constructor", name: "$NAME",
		public: when(javaPublic), rule: javaNamed("constructor_declaration")},
	{id: "java-compact-constructor", member: true, parents: []string{"java-record"}, symbol: "constructor", name: "$NAME",
		public: when(javaPublic), rule: javaNamed("compact_constructor_declaration")},
	{id: "java-field", member: true, parents: javaTypes, symbol: "field", name: "$NAME",
		public: when(javaPublic), rule: `rule:
  all:
    - kind: field_declaration
    - has:
        field: declarator
        has: {field: name, pattern: $NAME}
`},
}
