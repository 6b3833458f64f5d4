package astgrep

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/scan"
)

// coreKeys are the keys of a rule file body the tool evaluates; the keys
// that only describe a finding (id, message, severity, fix, ...) are
// accepted and ignored, since the tool reports matches, not findings.
var coreKeys = map[string]bool{"rule": true, "constraints": true, "utils": true, "transform": true}

var reportKeys = map[string]bool{"id": true, "language": true, "message": true, "note": true, "severity": true,
	"fix": true, "metadata": true, "url": true, "labels": true, "files": true, "ignores": true, "rewriters": true}

// ruleObject turns the rule parameter (an object, or YAML/JSON text) into
// a map, and says which language it names, if any.
func ruleObject(v any) (map[string]any, string, error) {
	obj, ok := v.(map[string]any)
	if s, isString := v.(string); isString {
		if err := rule.UnmarshalYAML([]byte(s), &obj); err != nil {
			return nil, "", fmt.Errorf("ast_grep: rule is not valid YAML: %w", err)
		}
		ok = obj != nil
	}
	if !ok {
		return nil, "", fmt.Errorf("ast_grep: rule must be an object or a YAML string, got %s", jsonKind(v))
	}
	lang, _ := obj["language"].(string)
	return obj, lang, nil
}

func compileRule(ctx context.Context, lang *language.Language, obj map[string]any) (*query, error) {
	var (
		core *rule.Core
		err  error
	)
	if _, ok := obj["rule"]; ok {
		body := map[string]any{}
		for k, v := range obj {
			switch {
			case coreKeys[k]:
				body[k] = v
			case !reportKeys[k]:
				return nil, fmt.Errorf("ast_grep: invalid rule: unknown key %q next to rule (expected %s)", k, "rule, constraints, utils, transform")
			}
		}
		core, err = rule.ParseCore(ctx, lang, body, nil)
	} else {
		core, err = rule.ParseRule(ctx, lang, obj, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("ast_grep: invalid %s rule: %w", lang.Name(), err)
	}
	q := &query{lang: lang, matcher: core, prefilter: scan.RequirementFilter(core.Requirement())}
	q.hints = func() []string { return ruleHints(obj) }
	return q, nil
}

// ruleHints explains an empty rule result.
func ruleHints(obj map[string]any) []string {
	var hints []string
	if rel := relationWithoutStopBy(obj); rel != "" {
		hints = append(hints, fmt.Sprintf("%s without stopBy only looks at direct %s; add stopBy: end to search all of them",
			rel, map[string]string{"has": "children", "inside": "parents", "precedes": "next siblings", "follows": "previous siblings"}[rel]))
	}
	return hints
}

// relationWithoutStopBy finds a has or inside rule that has no stopBy.
func relationWithoutStopBy(v any) string {
	switch x := v.(type) {
	case map[string]any:
		for _, rel := range []string{"has", "inside"} {
			if r, ok := x[rel].(map[string]any); ok {
				if _, set := r["stopBy"]; !set {
					return rel
				}
			}
		}
		for _, child := range x {
			if rel := relationWithoutStopBy(child); rel != "" {
				return rel
			}
		}
	case []any:
		for _, child := range x {
			if rel := relationWithoutStopBy(child); rel != "" {
				return rel
			}
		}
	}
	return ""
}

// jsonKind names a decoded JSON value's type as JSON does, for a message
// a model reads (never a Go type name).
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64, int, json.Number:
		return "a number"
	case []any:
		return "an array"
	case string:
		return "an empty YAML document"
	}
	return "another type"
}
