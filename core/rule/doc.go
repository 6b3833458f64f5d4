// Package rule compiles ast-grep's YAML rules and runs them.
//
// A rule config (ParseConfigs for YAML, ParseConfig for the equivalent
// JSON object) holds a rule core (Core: the `rule` with its `constraints`,
// local `utils` and `transform`) and what reporting needs: id, language,
// message, note, severity, labels, files/ignores, url, metadata and the
// fixes. Global utility rules (sgconfig's utilDirs, possibly
// parameterized) are compiled once with ParseGlobals and passed in
// Options.
//
// Compiled rules implement match.Matcher with ast-grep's semantics:
// within a rule object the atomic keys (pattern, kind, regex, nthChild,
// range) are tried first, then the composite ones (all, any, not,
// matches), then the relational ones (inside, has, precedes, follows);
// `all` binds across its sub-rules, `any` keeps the bindings of its first
// matching branch, `not` binds nothing, and relational rules record the
// node they related a match to as a "secondary" label. Kinds() is the set
// of node kinds a match can have (nil for any), which searches use to
// skip nodes.
//
// Scanner runs a set of configs over a tree the way `ast-grep scan`
// does, honouring `ast-grep-ignore` comments. Errors in rule documents
// are *Error values that name the offending value's path (such as
// "rule.has.stopBy") and, for YAML, its line and column.
package rule
