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
	Pattern    string   `json:"pattern,omitempty" desc:"Code with metavariables ($NAME, $$$NAME). Exactly one of pattern or rule."`
	Rule       any      `json:"rule,omitempty" desc:"ast-grep rule, an object or YAML: {kind: method_definition, has: {field: name, regex: '^get'}}, or a rule file body (rule, constraints, utils, transform). Exactly one of pattern or rule."`
	Language   string   `json:"language,omitempty" desc:"typescript, tsx, javascript, python, go, rust, java, c, cpp, csharp, ... Required unless path is one file; typescript skips .tsx files."`
	Path       string   `json:"path,omitempty" desc:"File or directory to search (default: the workspace root)."`
	Globs      []string `json:"globs,omitempty" desc:"Include globs ('src/**', '*.ts') and excludes prefixed with '!' ('!*.test.ts')."`
	MaxResults int      `json:"maxResults,omitempty" desc:"Most matches a page holds." min:"1" max:"1000" default:"100"`
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
const Description = `Structural code search over syntax trees (ast-grep semantics), not text search: a pattern is code matching nodes of the same shape, so ` + "`$OBJ.foo($$$ARGS)`" + ` finds real calls to foo, never comments or strings. Use grep (or search_file_content) for plain text.

Metavariables (uppercase): $A matches one node and captures it, $$$ARGS zero or more nodes, $_ one without capturing; a repeated name must match the same code. Examples: 'console.log($$$ARGS)'; 'class $NAME extends $PARENT { $$$BODY }'; Go 'if err != nil { return $$$R }'.

A pattern must parse as one complete node. Use rule for a node kind, a name by regex or relations (has/inside/precedes/follows; has and inside look one level deep unless stopBy: end). No type resolution. totalMatches counts every match; when nothing matches, hints say why.`

// Details is what the description leaves out; faces show it as the tool's
// guide.
const Details = `More patterns: 'import { $$$NAMES } from $SOURCE'; Python 'def $F($$$P): $$$B'; '$OBJ?.foo?.($$$ARGS)'; 'try { $$$BODY } catch ($ERR) { $$$HANDLER }'; 'this.toolRegistry = $VALUE'. A string literal is one node, so match '$SOURCE', not 'from "$PATH"'; a fragment such as 'async $M' does not parse. Method shapes differ per grammar (in TypeScript: method_definition, arrow functions in variables, class fields, object methods), so prefer a rule with kind to find the definition of X. A rule's kind also takes ESQuery-style selectors, as run --kind does: 'call_expression > identifier', 'function_declaration:has(return_statement)'. Rules: {kind: method_definition}; a name by regex {kind: function_declaration, has: {field: name, regex: '^handle'}}; relations combine with all/any/not. Results give the file, 1-based line and column ranges, the matched text, the node kind and the captures (metaVariables); a definition named foo is not a call of foo. A long answer comes in pages: the text ends with "N more of M: call again with offset=K".`
