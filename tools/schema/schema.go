// Package schema derives a JSON Schema (draft 2020-12 subset, as LLM tool
// APIs accept it) from a Go parameter struct, so a tool's Go parameters and
// the schema every face (JS shim, MCP server) publishes cannot drift. The
// astgrep and analysis packages publish their Params' schemas with it
// (astgrep.Schema, analysis.Schema); the result is a plain map, which any
// tool registry or MCP library takes as an input schema.
//
// Field tags: `json:"name,omitempty"` names the property (omitempty marks it
// optional; fields without omitempty are required), `desc:"..."` is its
// description, `enum:"a,b,c"` lists allowed strings, `min:"1"` and
// `max:"5"` bound integers, and `default:"..."` documents a default.
// A field of type any is described as "object or string" (anyOf).
package schema

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// For returns the JSON Schema of the struct type of v (a value or pointer).
func For(v any) map[string]any {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("schema: %s is not a struct", t)) // a programming error, caught by tests
	}
	props := map[string]any{}
	var required []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			// An embedded struct's fields are the outer one's, as
			// encoding/json reads them.
			inner := For(reflect.New(f.Type).Interface())
			for k, v := range inner["properties"].(map[string]any) {
				props[k] = v
			}
			if r, ok := inner["required"].([]string); ok {
				required = append(required, r...)
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := typeSchema(f.Type)
		if d := f.Tag.Get("desc"); d != "" {
			p["description"] = d
		}
		if e := f.Tag.Get("enum"); e != "" {
			p["enum"] = strings.Split(e, ",")
		}
		for _, k := range []string{"min", "max"} {
			if s := f.Tag.Get(k); s != "" {
				n, err := strconv.Atoi(s)
				if err != nil {
					panic(fmt.Sprintf("schema: %s.%s: bad %s tag %q", t, f.Name, k, s))
				}
				p[map[string]string{"min": "minimum", "max": "maximum"}[k]] = n
			}
		}
		if d := f.Tag.Get("default"); d != "" {
			p["default"] = typedDefault(f.Type, d)
		}
		props[name] = p
		if !strings.Contains(opts, "omitempty") {
			required = append(required, name)
		}
	}
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func typeSchema(t reflect.Type) map[string]any {
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem())}
	case reflect.Map:
		if t.Key().Kind() == reflect.String && t.Elem().Kind() != reflect.Interface {
			return map[string]any{"type": "object", "additionalProperties": typeSchema(t.Elem())}
		}
		return map[string]any{"type": "object"}
	case reflect.Pointer:
		return typeSchema(t.Elem())
	case reflect.Interface:
		// anyOf rather than a list of types: strict validators (ajv) and
		// some providers refuse a union in "type".
		return map[string]any{"anyOf": []any{map[string]any{"type": "object"}, map[string]any{"type": "string"}}}
	case reflect.Struct:
		return For(reflect.New(t).Interface())
	}
	panic(fmt.Sprintf("schema: unsupported field type %s", t))
}

func typedDefault(t reflect.Type, s string) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	case reflect.Bool:
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	}
	return s
}

// Terse returns a copy of a schema that keeps the shape of a value (types,
// properties, items, enums, bounds) and leaves out descriptions, required
// lists and additionalProperties. The registry publishes output schemas
// this way: the text a model reads already says what each field holds, a
// tool's output needs no validation by its reader, and every word of a
// schema costs each conversation its tokens.
func Terse(s map[string]any) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		switch k {
		case "description", "required", "additionalProperties":
			continue
		}
		out[k] = terseValue(v)
	}
	return out
}

func terseValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return Terse(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = terseValue(e)
		}
		return out
	default:
		return v
	}
}
