// Package astgrep is the ast_grep tool: a structural (syntax-tree) code
// search with ast-grep patterns or YAML rules over a workspace, with the
// parameters and result shape LLM agents are given. The CLI, the MCP server
// and the GOOS=js module all call Run; only their formatting differs.
package astgrep

import (
	"time"

	"github.com/loupe-dev/loupe/tools/schema"
)

// Params are the ast_grep tool's parameters.
type Params struct {
	Pattern    string   `json:"pattern,omitempty" desc:"ast-grep pattern: code with metavariables, e.g. '$OBJ.getTool($$$ARGS)' or 'class $NAME extends $PARENT { $$$BODY }'. $NAME (uppercase) captures one node, $$$NAME zero or more, $_ matches without capturing. Exactly one of pattern or rule."`
	Rule       any      `json:"rule,omitempty" desc:"ast-grep YAML rule, as an object or a YAML string: either the rule itself (e.g. {kind: method_definition, has: {field: name, regex: '^get'}}) or a rule file body with rule/constraints/utils/transform keys. Use for what a pattern cannot say: a kind, a name regex, has/inside/precedes/follows (add stopBy: end to look at all descendants/ancestors), any/all/not. Exactly one of pattern or rule."`
	Language   string   `json:"language,omitempty" desc:"Language of the code: typescript, tsx, javascript, python, go, rust, java, c, cpp, csharp, kotlin, ruby, php, swift, scala, ... Required unless path is a single file with a known extension. typescript does not search .tsx files."`
	Path       string   `json:"path,omitempty" desc:"File or directory to search, relative to the workspace root (default: the workspace root)."`
	Globs      []string `json:"globs,omitempty" desc:"Include globs such as '*.ts' or 'src/**', and excludes prefixed with '!', such as '!*.test.ts'."`
	MaxResults int      `json:"maxResults,omitempty" desc:"Maximum matches returned (default 100, at most 1000). totalMatches still counts every match." min:"1" max:"1000" default:"100"`
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

// Description is the tool description an LLM sees.
const Description = `Structural code search over syntax trees (ast-grep semantics), not text search. A pattern is code: it matches nodes with the same syntactic shape, so ` + "`$OBJ.foo($$$ARGS)`" + ` finds real calls to foo and never comments, strings or a definition named foo. Use search_file_content (ripgrep) for plain text or regex over lines; use this for shapes of code.

Metavariables (uppercase): $A matches one node and captures it (returned in metaVariables), $$$ARGS matches zero or more nodes (arguments, statements, members), $_ matches one node without capturing; a repeated name must match the same code twice ($A == $A).
Examples: 'console.log($$$ARGS)'; '$OBJ?.foo?.($$$ARGS)'; 'class $NAME extends $PARENT { $$$BODY }'; 'import { $$$NAMES } from $SOURCE'; 'try { $$$BODY } catch ($ERR) { $$$HANDLER }'; 'this.toolRegistry = $VALUE'; Python 'def $F($$$P): $$$B'; Go 'if err != nil { return $$$R }'.

Use rule instead of pattern for what a pattern cannot express: a node kind ({kind: method_definition}), a name by regex ({kind: function_declaration, has: {field: name, regex: '^handle'}}), type annotations, or relations: has/inside/precedes/follows combined with all/any/not. has and inside only look at direct children/parents unless you add stopBy: end.

Limits: a pattern must parse as one complete syntax node (not 'async $M' or a fragment); a string literal is one node, so match '$SOURCE', not 'from "$PATH"'; no type resolution or cross-file semantics; method shapes differ per grammar (in TS: method_definition, arrow functions in variables, class fields, object methods), so prefer a rule with kind for "find the definition of X". Results give file, 1-based line/column ranges, the matched text, the node kind and the captures; totalMatches counts all matches even when truncated by maxResults. When nothing matches, hints say why where it can be told.`
