// Package jsonschema validates JSON documents against a JSON Schema of
// draft 4, the draft the SARIF 2.1.0 schema is written in, for tests that
// check loupe's output against a published schema.
//
// It implements the validation keywords of draft 4 (type, enum,
// properties, patternProperties, additionalProperties, required,
// minProperties, maxProperties, items, additionalItems, minItems,
// maxItems, uniqueItems, minimum, maximum with their exclusive forms,
// multipleOf, minLength, maxLength, pattern, allOf, anyOf, oneOf, not)
// and $ref to the schema's own definitions ("#/definitions/NAME", or any
// JSON pointer into the schema). Formats (uri, date-time, …) are
// annotations only, as the draft allows; references to other documents
// are an error.
package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Schema is a compiled schema document.
type Schema struct {
	root    any
	regexps map[string]*regexp.Regexp
}

// Compile parses a schema document.
func Compile(data []byte) (*Schema, error) {
	root, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	s := &Schema{root: root, regexps: map[string]*regexp.Regexp{}}
	if err := s.compileRegexps(root); err != nil {
		return nil, err
	}
	return s, nil
}

// compileRegexps compiles every pattern and patternProperties key.
func (s *Schema) compileRegexps(v any) error {
	switch t := v.(type) {
	case map[string]any:
		if p, ok := t["pattern"].(string); ok {
			if err := s.addRegexp(p); err != nil {
				return err
			}
		}
		if pp, ok := t["patternProperties"].(map[string]any); ok {
			for p := range pp {
				if err := s.addRegexp(p); err != nil {
					return err
				}
			}
		}
		for _, x := range t {
			if err := s.compileRegexps(x); err != nil {
				return err
			}
		}
	case []any:
		for _, x := range t {
			if err := s.compileRegexps(x); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Schema) addRegexp(p string) error {
	if _, ok := s.regexps[p]; ok {
		return nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return fmt.Errorf("schema: pattern %q: %w", p, err)
	}
	s.regexps[p] = re
	return nil
}

// Validate checks a JSON document; the error lists every violation, each
// with the JSON pointer of the value at fault.
func (s *Schema) Validate(doc []byte) error {
	v, err := decode(doc)
	if err != nil {
		return fmt.Errorf("document: %w", err)
	}
	var errs []string
	s.validate(s.root, v, "", &errs)
	if len(errs) == 0 {
		return nil
	}
	sort.Strings(errs)
	return fmt.Errorf("%d violation(s):\n%s", len(errs), strings.Join(errs, "\n"))
}

// decode reads JSON keeping numbers exact.
func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

func (s *Schema) validate(schema, v any, ptr string, errs *[]string) {
	sc, ok := schema.(map[string]any)
	if !ok {
		*errs = append(*errs, fmt.Sprintf("%s: schema is not an object", where(ptr)))
		return
	}
	fail := func(format string, args ...any) {
		*errs = append(*errs, where(ptr)+": "+fmt.Sprintf(format, args...))
	}
	if ref, ok := sc["$ref"].(string); ok {
		target, err := s.resolve(ref)
		if err != nil {
			fail("%v", err)
			return
		}
		s.validate(target, v, ptr, errs)
		return // draft 4: $ref replaces the rest of the schema
	}
	if t, ok := sc["type"]; ok && !typeMatches(t, v) {
		fail("%s is not of type %v", kindOf(v), t)
	}
	if e, ok := sc["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return equal(x, v) }) {
		fail("%s is not one of %v", brief(v), e)
	}
	for _, sub := range list(sc["allOf"]) {
		s.validate(sub, v, ptr, errs)
	}
	if subs := list(sc["anyOf"]); subs != nil && s.count(subs, v, ptr) == 0 {
		fail("matches none of anyOf")
	}
	if subs := list(sc["oneOf"]); subs != nil {
		if n := s.count(subs, v, ptr); n != 1 {
			fail("matches %d of oneOf, not exactly one", n)
		}
	}
	if not, ok := sc["not"]; ok && s.count([]any{not}, v, ptr) == 1 {
		fail("matches the schema of not")
	}
	switch t := v.(type) {
	case map[string]any:
		s.validateObject(sc, t, ptr, errs, fail)
	case []any:
		s.validateArray(sc, t, ptr, errs, fail)
	case string:
		n := utf8.RuneCountInString(t)
		if m, ok := number(sc["minLength"]); ok && float64(n) < m {
			fail("string shorter than %v", m)
		}
		if m, ok := number(sc["maxLength"]); ok && float64(n) > m {
			fail("string longer than %v", m)
		}
		if p, ok := sc["pattern"].(string); ok && !s.regexps[p].MatchString(t) {
			fail("%q does not match %q", t, p)
		}
	case json.Number:
		validateNumber(sc, t, fail)
	}
}

// count returns how many of subs v satisfies.
func (s *Schema) count(subs []any, v any, ptr string) int {
	n := 0
	for _, sub := range subs {
		var errs []string
		s.validate(sub, v, ptr, &errs)
		if len(errs) == 0 {
			n++
		}
	}
	return n
}

func (s *Schema) validateObject(sc, obj map[string]any, ptr string, errs *[]string, fail func(string, ...any)) {
	for _, r := range list(sc["required"]) {
		if name, ok := r.(string); ok {
			if _, ok := obj[name]; !ok {
				fail("required property %q is missing", name)
			}
		}
	}
	if m, ok := number(sc["minProperties"]); ok && float64(len(obj)) < m {
		fail("fewer than %v properties", m)
	}
	if m, ok := number(sc["maxProperties"]); ok && float64(len(obj)) > m {
		fail("more than %v properties", m)
	}
	props, _ := sc["properties"].(map[string]any)
	patterns, _ := sc["patternProperties"].(map[string]any)
	for _, k := range sortedKeys(obj) {
		child := ptr + "/" + escapePointer(k)
		matched := false
		if p, ok := props[k]; ok {
			matched = true
			s.validate(p, obj[k], child, errs)
		}
		for pat, p := range patterns {
			if s.regexps[pat].MatchString(k) {
				matched = true
				s.validate(p, obj[k], child, errs)
			}
		}
		if matched {
			continue
		}
		switch add := sc["additionalProperties"].(type) {
		case bool:
			if !add {
				*errs = append(*errs, fmt.Sprintf("%s: property %q is not allowed", where(ptr), k))
			}
		case map[string]any:
			s.validate(add, obj[k], child, errs)
		}
	}
}

func (s *Schema) validateArray(sc map[string]any, arr []any, ptr string, errs *[]string, fail func(string, ...any)) {
	if m, ok := number(sc["minItems"]); ok && float64(len(arr)) < m {
		fail("fewer than %v items", m)
	}
	if m, ok := number(sc["maxItems"]); ok && float64(len(arr)) > m {
		fail("more than %v items", m)
	}
	if u, _ := sc["uniqueItems"].(bool); u {
		for i := range arr {
			for j := i + 1; j < len(arr); j++ {
				if equal(arr[i], arr[j]) {
					fail("items %d and %d are equal", i, j)
				}
			}
		}
	}
	switch items := sc["items"].(type) {
	case map[string]any:
		for i, x := range arr {
			s.validate(items, x, ptr+"/"+strconv.Itoa(i), errs)
		}
	case []any:
		for i, x := range arr {
			child := ptr + "/" + strconv.Itoa(i)
			if i < len(items) {
				s.validate(items[i], x, child, errs)
				continue
			}
			switch add := sc["additionalItems"].(type) {
			case bool:
				if !add {
					fail("item %d is not allowed", i)
				}
			case map[string]any:
				s.validate(add, x, child, errs)
			}
		}
	}
}

func validateNumber(sc map[string]any, n json.Number, fail func(string, ...any)) {
	f, err := n.Float64()
	if err != nil {
		fail("%v", err)
		return
	}
	if m, ok := number(sc["minimum"]); ok {
		if ex, _ := sc["exclusiveMinimum"].(bool); (ex && f <= m) || f < m {
			fail("%v is below the minimum %v", n, m)
		}
	}
	if m, ok := number(sc["maximum"]); ok {
		if ex, _ := sc["exclusiveMaximum"].(bool); (ex && f >= m) || f > m {
			fail("%v is above the maximum %v", n, m)
		}
	}
	if m, ok := number(sc["multipleOf"]); ok && m > 0 {
		if q := f / m; q != math.Trunc(q) {
			fail("%v is not a multiple of %v", n, m)
		}
	}
}

// resolve follows a reference inside the schema document.
func (s *Schema) resolve(ref string) (any, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, fmt.Errorf("reference %q: only references into the schema itself are supported", ref)
	}
	v := s.root
	if frag == "" {
		return v, nil
	}
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("reference %q does not resolve", ref)
		}
		if v, ok = m[tok]; !ok {
			return nil, fmt.Errorf("reference %q does not resolve", ref)
		}
	}
	return v, nil
}

// typeMatches reports whether v is of the type (or one of the types) t.
func typeMatches(t, v any) bool {
	switch t := t.(type) {
	case string:
		return isType(t, v)
	case []any:
		return slices.ContainsFunc(t, func(x any) bool { s, _ := x.(string); return isType(s, v) })
	}
	return true
}

func isType(t string, v any) bool {
	switch t {
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f)
	case "number":
		_, ok := v.(json.Number)
		return ok
	}
	return kindOf(v) == t
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// equal compares JSON values, numbers by value.
func equal(a, b any) bool {
	na, ok1 := a.(json.Number)
	nb, ok2 := b.(json.Number)
	if ok1 && ok2 {
		fa, err1 := na.Float64()
		fb, err2 := nb.Float64()
		return err1 == nil && err2 == nil && fa == fb
	}
	switch ta := a.(type) {
	case []any:
		tb, ok := b.([]any)
		if !ok || len(ta) != len(tb) {
			return false
		}
		for i := range ta {
			if !equal(ta[i], tb[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		tb, ok := b.(map[string]any)
		if !ok || len(ta) != len(tb) {
			return false
		}
		for k, x := range ta {
			y, ok := tb[k]
			if !ok || !equal(x, y) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func where(ptr string) string {
	if ptr == "" {
		return "(root)"
	}
	return ptr
}

func brief(v any) string {
	b, err := json.Marshal(v)
	if err != nil || len(b) > 60 {
		return kindOf(v)
	}
	return string(b)
}
