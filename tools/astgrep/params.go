// Package astgrep is the ast_grep tool: a structural (syntax-tree) code
// search with ast-grep patterns or YAML rules over a workspace, with the
// parameters and result shape LLM agents are given. The CLI, the MCP server
// and the GOOS=js module all call Run; only their formatting differs.
package astgrep

import (
	"time"

	"github.com/loupe-dev/loupe/tools/paging"
	"github.com/loupe-dev/loupe/tools/schema"
)

// Params are the ast_grep tool's parameters.
type Params struct {
	Pattern    string   `json:"pattern,omitempty" desc:"ast-grep pattern: code with metavariables ($NAME one node, $$$NAME zero or more). Exactly one of pattern or rule."`
	Rule       any      `json:"rule,omitempty" desc:"ast-grep rule, as an object or a YAML string: the rule itself, e.g. {kind: method_definition, has: {field: name, regex: '^get'}}, or a rule file body with rule, constraints, utils, transform. Exactly one of pattern or rule."`
	Language   string   `json:"language,omitempty" desc:"Language of the code: typescript, tsx, javascript, python, go, rust, java, c, cpp, csharp, kotlin, ruby, php, swift, ... Required unless path is one file with a known extension; typescript does not search .tsx files."`
	Path       string   `json:"path,omitempty" desc:"File or directory to search (default: the workspace root)."`
	Globs      []string `json:"globs,omitempty" desc:"Include globs ('src/**', '*.ts') and excludes prefixed with '!' ('!*.test.ts')."`
	MaxResults int      `json:"maxResults,omitempty" desc:"Most matches returned (default 100, at most 1000); totalMatches counts them all." min:"1" max:"1000" default:"100"`
	paging.Params
}

// Schema returns the JSON Schema of Params.
func Schema() map[string]any { return schema.For(Params{}) }

// Limits of the tool.
const (
	DefaultMaxResults = 100
	MaxResultsCap     = 1000
	DefaultTimeout    = 30 * time.Second
)

// Name is the tool's registered name.
const Name = "ast_grep"

// Description is the tool description an LLM sees (REQ-ASTGREP-014):
// structural, not text, search; metavariable capture; how it differs from
// text search. Details holds the rest.
const Description = `Structural code search over syntax trees (ast-grep semantics), not text search: a pattern is code, and it matches nodes of the same syntactic shape, so ` + "`$OBJ.foo($$$ARGS)`" + ` finds real calls to foo and never comments, strings or a definition named foo. Use grep (or search_file_content, ripgrep) for plain text.

Metavariables (uppercase): $A matches one node and captures it (returned in metaVariables), $$$ARGS zero or more nodes, $_ one node without capturing; a repeated name must match the same code twice. Examples: 'console.log($$$ARGS)'; 'class $NAME extends $PARENT { $$$BODY }'; 'import { $$$NAMES } from $SOURCE'; Python 'def $F($$$P): $$$B'; Go 'if err != nil { return $$$R }'.

A pattern must parse as one complete node. Use rule instead for a node kind ({kind: method_definition}), a name by regex ({kind: function_declaration, has: {field: name, regex: '^handle'}}) or relations (has/inside/precedes/follows with all/any/not; has and inside look one level deep unless stopBy: end). No type resolution. totalMatches counts every match even when maxResults cuts the list; when nothing matches, hints say why.`

// Details is what the description leaves out; faces show it as the tool's
// guide.
const Details = `More patterns: '$OBJ?.foo?.($$$ARGS)'; 'try { $$$BODY } catch ($ERR) { $$$HANDLER }'; 'this.toolRegistry = $VALUE'. A string literal is one node, so match '$SOURCE', not 'from "$PATH"'; a fragment such as 'async $M' does not parse. Method shapes differ per grammar (in TypeScript: method_definition, arrow functions in variables, class fields, object methods), so prefer a rule with kind to find the definition of X. A rule's kind also takes ESQuery-style selectors, as run --kind does: 'call_expression > identifier', 'function_declaration:has(return_statement)'. Results give the file, 1-based line and column ranges, the matched text, the node kind and the captures.`
