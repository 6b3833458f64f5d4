package outline

// javaPublic is a declaration with the public modifier.
const javaPublic = "has:\n  kind: modifiers\n  has: {pattern: public}\n"

// javaNamed is a declaration of kind whose name is $NAME.
func javaNamed(kind string) string {
	return "rule:\n  all:\n    - kind: " + kind + "\n    - has: {field: name, pattern: $NAME}\n"
}

var javaDefs = []def{
	{id: "java-static-import", symbol: "module", name: "$PATH", sig: "import static $PATH", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: import static $PATH;\n"},
	{id: "java-import", symbol: "module", name: "$PATH", sig: "import $PATH", imp: isTrue, exp: isFalse,
		rule: "rule:\n  pattern: import $PATH;\n"},
	{id: "java-interface", symbol: "interface", name: "$NAME", exp: when(javaPublic), rule: javaNamed("interface_declaration")},
	{id: "java-enum", symbol: "enum", name: "$NAME", exp: when(javaPublic), rule: javaNamed("enum_declaration")},
	{id: "java-class", symbol: "class", name: "$NAME", exp: when(javaPublic), rule: javaNamed("class_declaration")},
	{id: "java-method", member: true, parents: []string{"java-interface", "java-enum", "java-class"}, symbol: "method", name: "$NAME",
		public: when(javaPublic), rule: javaNamed("method_declaration")},
	{id: "java-constructor", member: true, parents: []string{"java-enum", "java-class"}, symbol: "constructor", name: "$NAME",
		public: when(javaPublic), rule: javaNamed("constructor_declaration")},
	{id: "java-field", member: true, parents: []string{"java-interface", "java-enum", "java-class"}, symbol: "field", name: "$NAME",
		public: when(javaPublic), rule: `rule:
  all:
    - kind: field_declaration
    - has:
        field: declarator
        has: {field: name, pattern: $NAME}
`},
}
