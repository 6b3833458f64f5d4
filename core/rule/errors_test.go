package rule

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      string // substring of the error
	}{
		{"not yaml", "id: [", "invalid YAML"},
		{"not a mapping", "- a", "expected a mapping"},
		{"unknown top key", "id: t\nlanguage: ts\nrul: {kind: number}", `rul: unknown key "rul"`},
		{"missing language", "id: t\nrule: {kind: number}", `missing key "language"`},
		{"unknown language", "id: t\nlanguage: cobol\nrule: {kind: number}", `language: unsupported language "cobol"`},
		{"missing rule", "id: t\nlanguage: ts", `missing key "rule"`},
		{"empty rule", "id: t\nlanguage: ts\nrule: {}", "rule: a rule needs at least one of"},
		{"unknown rule key", "id: t\nlanguage: ts\nrule: {kind: number, kinds: x}", `rule.kinds: unknown key "kinds"`},
		{"null rule key", "id: t\nlanguage: ts\nrule: {kind: number, has: null}", "rule.has: must not be null"},
		{"kind not string", "id: t\nlanguage: ts\nrule: {kind: 1}", "rule.kind: expected a string, found integer 1"},
		{"unknown kind", "id: t\nlanguage: ts\nrule: {kind: nmber}", `rule.kind: unknown kind "nmber" for TypeScript`},
		{"selector syntax", "id: t\nlanguage: ts\nrule: {kind: 'number >'}", `rule.kind: invalid kind selector "number >"`},
		{"stopBy", "id: t\nlanguage: ts\nrule: {kind: number, has: {kind: number, stopBy: 3}}", `rule.has.stopBy: expected "neighbor", "end" or a rule`},
		{"stopBy rule error", "id: t\nlanguage: ts\nrule: {kind: number, inside: {kind: array, stopBy: {kind: nope}}}", `rule.inside.stopBy.kind: unknown kind "nope"`},
		{"field", "id: t\nlanguage: ts\nrule: {kind: number, inside: {kind: array, field: nope}}", `rule.inside.field: unknown field "nope" for TypeScript`},
		{"field on follows", "id: t\nlanguage: ts\nrule: {kind: number, follows: {kind: number, field: body}}", "rule.follows.field: field is only supported in has and inside"},
		{"nested path", "id: t\nlanguage: ts\nrule: {kind: number, all: [{kind: number}, {any: [{regex: '('}]}]}", "rule.all[1].any[0].regex: invalid regex"},
		{"nthChild", "id: t\nlanguage: ts\nrule: {kind: number, nthChild: 'n+n'}", "rule.nthChild: invalid position"},
		{"nthChild object", "id: t\nlanguage: ts\nrule: {kind: number, nthChild: {reverse: true}}", `rule.nthChild: missing key "position"`},
		{"range", "id: t\nlanguage: ts\nrule: {kind: number, range: {start: {line: 1, column: 5}, end: {line: 1, column: 2}}}", "rule.range: the start position must not be after the end position"},
		{"range missing end", "id: t\nlanguage: ts\nrule: {kind: number, range: {start: {line: 1}}}", `rule.range: missing key "end"`},
		{"pattern", "id: t\nlanguage: ts\nrule: {pattern: 'a; b'}", "rule.pattern: invalid pattern"},
		{"pattern object", "id: t\nlanguage: ts\nrule: {pattern: {selector: x}}", `rule.pattern: missing key "context"`},
		{"strictness", "id: t\nlanguage: ts\nrule: {pattern: {context: a, strictness: exact}}", "rule.pattern.strictness: invalid strictness"},
		{"undefined util", "id: t\nlanguage: ts\nrule: {kind: number, matches: u}", `rule.matches: utility "u" is not defined`},
		{"cyclic utils", "id: t\nlanguage: ts\nutils: {a: {not: {matches: a}}}\nrule: {kind: number}", `utils.a: utility "a" has a cyclic dependency`},
		{"cycle through nthChild", "id: t\nlanguage: ts\nutils: {a: {nthChild: {position: 1, ofRule: {matches: a}}}}\nrule: {kind: number, matches: a}", `utility "a" has a cyclic dependency`},
		{"bad util id", "id: t\nlanguage: ts\nutils: {'a(b)': {kind: number}}\nrule: {kind: number}", "must not contain"},
		{"constraint var", "id: t\nlanguage: ts\nrule: {pattern: $A}\nconstraints: {B: {kind: number}}", "constraints.B: metavariable $B is not defined"},
		{"transform source", "id: t\nlanguage: ts\nrule: {pattern: $A}\ntransform: {B: {substring: {source: $C}}}", "transform.B: source metavariable $C is not defined"},
		{"transform redefines", "id: t\nlanguage: ts\nrule: {pattern: $A, has: {pattern: $B}}\ntransform: {B: {substring: {source: $A}}}", "transform.B: $B is already defined"},
		{"transform shape", "id: t\nlanguage: ts\nrule: {pattern: $A}\ntransform: {B: {substring: {source: $A}, convert: {source: $A}}}", "transform.B: expected exactly one of"},
		{"transform string", "id: t\nlanguage: ts\nrule: {pattern: $A}\ntransform: {B: 'substring $A'}", "transform.B: invalid transformation"},
		{"transform arg", "id: t\nlanguage: ts\nrule: {pattern: $A}\ntransform: {B: 'substring($A, start=1)'}", `takes no argument "start"`},
		{"separator", "id: t\nlanguage: ts\nrule: {pattern: $A}\ntransform: {B: {convert: {source: $A, toCase: snakeCase, separatedBy: [comma]}}}", `transform.B.convert.separatedBy[0]: unknown separator "comma"`},
		{"fix var", "id: t\nlanguage: ts\nrule: {kind: number}\nfix: $X", "fix: metavariable $X is not defined"},
		{"fix list title", "id: t\nlanguage: ts\nrule: {kind: number}\nfix: [{template: a}]", "fix[0]: a fix in a list needs a title"},
		{"fix expansion", "id: t\nlanguage: ts\nrule: {kind: number}\nfix: {template: a, expandEnd: {kind: nope}}", `fix.expandEnd.kind: unknown kind "nope"`},
		{"labels", "id: t\nlanguage: ts\nrule: {pattern: $A}\nlabels: {B: {style: primary}}", "labels.B: label metavariable $B must be defined"},
		{"severity", "id: t\nlanguage: ts\nseverity: critical\nrule: {kind: number}", `severity: unknown severity "critical"`},
		{"files", "id: t\nlanguage: ts\nfiles: [{glob: 1}]\nrule: {kind: number}", "files[0].glob: expected a string"},
		{"rewriter fix", "id: t\nlanguage: ts\nrule: {pattern: $A, kind: number}\nrewriters: [{id: r, rule: {kind: number}}]", `rewriters[0]: rewriter "r" needs a fix`},
		{"rewriter var", "id: t\nlanguage: ts\nrule: {pattern: $A, kind: number}\nrewriters: [{id: r, rule: {kind: number}, fix: $Z}]", "rewriters[0].fix: metavariable $Z is not defined"},
		{"undefined rewriter", "id: t\nlanguage: ts\nrule: {pattern: $A, kind: number}\nrewriters: []\ntransform: {B: {rewrite: {source: $A, rewriters: [r]}}}", `transform.B: rewriter "r" is not defined`},
		{"no kinds", "id: t\nlanguage: ts\nrule: {has: {kind: number}}", "the rule must determine the kinds"},
		{"duplicate key", "id: t\nlanguage: ts\nrule: {kind: number}\nid: u", `duplicate key "id"`},
		{"deep nesting", "id: t\nlanguage: ts\nrule: " + strings.Repeat("{not: ", 300) + "{kind: number}" + strings.Repeat("}", 300), "nests too deeply"},
		{"second document", "id: a\nlanguage: ts\nrule: {kind: number}\n---\nid: b\nlanguage: ts\nrule: {kind: nope}", `rule "b" (document 2): rule.kind`},
		{"line numbers", "id: t\nlanguage: ts\nrule:\n  kind: number\n  has:\n    stopBy: forever\n    kind: x", "(line 6, column 13)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfigs(context.Background(), []byte(c.src), Options{})
			if err == nil {
				t.Fatalf("no error for:\n%s", c.src)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

func TestErrorType(t *testing.T) {
	_, err := ParseConfigs(context.Background(), []byte("id: t\nlanguage: ts\nrule:\n  kind: number\n  has: {stopBy: x, kind: number}\n"), Options{})
	var re *Error
	if !errors.As(err, &re) {
		t.Fatalf("%v is not a *rule.Error", err)
	}
	if re.Path != "rule.has.stopBy" || re.Line != 5 || re.Column != 17 {
		t.Fatalf("got path %q at %d:%d", re.Path, re.Line, re.Column)
	}
}

func TestParseConfigFromJSON(t *testing.T) {
	var obj map[string]any
	src := `{"id": "j", "language": "python", "severity": "error", "message": "call $F",
		"rule": {"pattern": "$F($$$)", "inside": {"kind": "function_definition", "stopBy": "end"}},
		"metadata": {"n": 1}}`
	if err := json.Unmarshal([]byte(src), &obj); err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(context.Background(), obj, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ID != "j" || cfg.Severity != SeverityError || cfg.Metadata["n"] != int64(1) {
		t.Fatalf("config %+v", cfg)
	}
	tr := parseSrc(t, cfg.Language, "def f():\n    g(1)\nh()\n")
	hits := findAll(tr, cfg)
	if len(hits) != 1 || hits[0].node.Text() != "g(1)" || cfg.RenderMessage(hits[0].node, hits[0].env) != "call g" {
		t.Fatalf("hits %v", hits)
	}
	obj["rule"] = map[string]any{"kind": 3}
	if _, err := ParseConfig(context.Background(), obj, Options{}); err == nil || !strings.Contains(err.Error(), "rule.kind: expected a string, found integer 3") {
		t.Fatalf("err = %v", err)
	}
	if _, err := ParseRule(context.Background(), cfg.Language, map[string]any{"kind": []int{1}}, nil); err == nil {
		t.Fatal("expected an error for an unsupported Go value")
	}
}

func TestMultipleDocuments(t *testing.T) {
	cfgs, err := ParseConfigs(context.Background(), []byte("id: a\nlanguage: go\nrule: {kind: identifier}\n---\nid: b\nlanguage: rust\nrule: {kind: identifier}\n---\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfgs) != 2 || cfgs[0].Language.Name() != "go" || cfgs[1].Language.Name() != "rust" {
		t.Fatalf("got %d configs", len(cfgs))
	}
	if _, err := ParseConfigs(context.Background(), []byte("---\n"), Options{}); err == nil {
		t.Fatal("an empty stream should be an error")
	}
}
