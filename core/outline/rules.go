package outline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/loupe-dev/loupe/core/language"
)

// RuleSet is the extractors outlines are made with: the built-in ones
// (Default), extractors added from outline rule files (Add, ast-grep's
// --outline-rules format), or both.
type RuleSet struct {
	defs map[string][]def // by language name
}

// Default returns a rule set holding the built-in extractors.
func Default() *RuleSet {
	r := &RuleSet{defs: map[string][]def{}}
	for l, ds := range extractorDefs {
		r.defs[l] = slices.Clone(ds)
	}
	return r
}

// Empty returns a rule set without extractors, for rule files alone.
func Empty() *RuleSet { return &RuleSet{defs: map[string][]def{}} }

// ruleCoreKeys are the keys of an outline rule passed to the rule engine.
var ruleCoreKeys = []string{"rule", "constraints", "utils", "transform", "rewriters"}

// outlineKeys are the other keys an outline rule document may have.
var outlineKeys = []string{"id", "language", "role", "symbolType", "name", "signature", "isImport", "isExported", "isPublic", "parentRuleIds"}

// Add adds the extractors of a stream of outline rule documents (YAML,
// separated by ---): each has an id, a language, a role (item or member),
// a symbolType, a rule core (rule, constraints, utils, transform), a name
// template, an optional signature template, isImport and isExported (an
// item's) or isPublic and parentRuleIds (a member's), a flag being a
// boolean or a rule. A member's parents must be item rules of the set.
func (r *RuleSet) Add(src []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for n := 1; ; n++ {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("outline rule document %d: %w", n, err)
		}
		if doc == nil {
			continue
		}
		d, lang, err := parseDef(doc)
		if err != nil {
			return fmt.Errorf("outline rule document %d: %w", n, err)
		}
		r.defs[lang] = append(r.defs[lang], d)
	}
	return r.check()
}

func parseDef(doc map[string]any) (def, string, error) {
	var d def
	for k := range doc {
		if !slices.Contains(ruleCoreKeys, k) && !slices.Contains(outlineKeys, k) {
			return d, "", fmt.Errorf("unknown key %q", k)
		}
	}
	str := func(k string, required bool) (string, error) {
		v, ok := doc[k]
		if !ok {
			if required {
				return "", fmt.Errorf("missing %s", k)
			}
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s must be a string", k)
		}
		return s, nil
	}
	var err error
	if d.id, err = str("id", true); err != nil {
		return d, "", err
	}
	langName, err := str("language", true)
	if err != nil {
		return d, "", err
	}
	lang, err := language.Lookup(langName)
	if err != nil {
		return d, "", fmt.Errorf("rule %s: %w", d.id, err)
	}
	role, err := str("role", true)
	if err != nil {
		return d, "", err
	}
	switch role {
	case "item":
	case "member":
		d.member = true
	default:
		return d, "", fmt.Errorf("rule %s: role must be item or member, not %q", d.id, role)
	}
	sym, err := str("symbolType", true)
	if err != nil {
		return d, "", err
	}
	if d.symbol, err = exactSymbolType(sym); err != nil {
		return d, "", fmt.Errorf("rule %s: %w", d.id, err)
	}
	if d.name, err = str("name", true); err != nil {
		return d, "", fmt.Errorf("rule %s: %w", d.id, err)
	}
	if d.sig, err = str("signature", false); err != nil {
		return d, "", fmt.Errorf("rule %s: %w", d.id, err)
	}
	d.core = map[string]any{}
	for _, k := range ruleCoreKeys {
		if v, ok := doc[k]; ok && k != "rewriters" {
			d.core[k] = v
		}
	}
	if t, ok := doc["transform"].(map[string]any); ok {
		for k := range t {
			d.transformed = append(d.transformed, k)
		}
	}
	flag := func(k string) (flagDef, error) {
		switch v := doc[k].(type) {
		case nil:
			return flagDef{}, nil
		case bool:
			return flagDef{set: true, value: v}, nil
		case map[string]any:
			return flagDef{ruleMap: v}, nil
		}
		return flagDef{}, fmt.Errorf("rule %s: %s must be a boolean or a rule", d.id, k)
	}
	keys := []string{"isImport", "isExported"}
	if d.member {
		keys = []string{"isPublic"}
		ps, ok := doc["parentRuleIds"].([]any)
		if !ok || len(ps) == 0 {
			return d, "", fmt.Errorf("rule %s: a member rule needs parentRuleIds", d.id)
		}
		for _, p := range ps {
			s, ok := p.(string)
			if !ok {
				return d, "", fmt.Errorf("rule %s: parentRuleIds must be strings", d.id)
			}
			d.parents = append(d.parents, s)
		}
	}
	for _, k := range keys {
		f, err := flag(k)
		if err != nil {
			return d, "", err
		}
		switch k {
		case "isImport":
			d.imp = f
		case "isExported":
			d.exp = f
		case "isPublic":
			d.public = f
		}
	}
	return d, lang.Name(), nil
}

// exactSymbolType checks a symbolType as a rule file spells it.
func exactSymbolType(s string) (string, error) {
	if slices.Contains(SymbolTypes, s) {
		return s, nil
	}
	return "", fmt.Errorf("unknown symbolType %q", s)
}

// check refuses a member whose parent is not an item rule of its
// language.
func (r *RuleSet) check() error {
	for _, ds := range r.defs {
		items := map[string]bool{}
		for _, d := range ds {
			if !d.member {
				items[d.id] = true
			}
		}
		for _, d := range ds {
			for _, p := range d.parents {
				if !items[p] {
					return fmt.Errorf("member rule %s references %q, not an item rule of its language", d.id, p)
				}
			}
		}
	}
	return nil
}

// Languages returns the names of the languages with extractors, sorted.
func (r *RuleSet) Languages() []string {
	var out []string
	for l, ds := range r.defs {
		if len(ds) > 0 {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// Has reports whether lang has extractors in the set.
func (r *RuleSet) Has(lang *language.Language) bool {
	return lang != nil && len(r.defs[lang.Name()]) > 0
}
