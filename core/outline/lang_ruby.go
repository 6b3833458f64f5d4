package outline

// named is a node of kind whose name field is $NAME.
func named(kind string) string {
	return "rule:\n  kind: " + kind + "\n  has: {field: name, pattern: $NAME}\n"
}

var rubyDefs = []def{
	{id: "ruby-require", symbol: "module", name: "$NAME", imp: isTrue, exp: isFalse, rule: "rule:\n  pattern: require $NAME\n"},
	{id: "ruby-module", symbol: "module", name: "$NAME", exp: isTrue, rule: named("module")},
	{id: "ruby-class", symbol: "class", name: "$NAME", exp: isTrue, rule: named("class")},
	{id: "ruby-method", symbol: "function", name: "$NAME", rule: `rule:
  all:
    - kind: method
    - has: {field: name, pattern: $NAME}
    - not: {inside: {kind: class, stopBy: end}}
    - not: {inside: {kind: module, stopBy: end}}
`},
	{id: "ruby-module-class", member: true, parents: []string{"ruby-module"}, symbol: "class", name: "$NAME", public: isTrue, rule: named("class")},
	{id: "ruby-module-method", member: true, parents: []string{"ruby-module"}, symbol: "function", name: "$NAME", public: isTrue, rule: named("method")},
	{id: "ruby-class-method", member: true, parents: []string{"ruby-class"}, symbol: "method", name: "$NAME", public: isTrue, rule: named("method")},
	{id: "ruby-singleton-method", member: true, parents: []string{"ruby-class", "ruby-module"}, symbol: "method", name: "$NAME", public: isTrue,
		rule: named("singleton_method")},
	{id: "ruby-constant", member: true, parents: []string{"ruby-class", "ruby-module"}, symbol: "constant", name: "$NAME", public: isTrue,
		rule: "rule:\n  kind: assignment\n  has: {field: left, kind: constant, pattern: $NAME}\n"},
}
