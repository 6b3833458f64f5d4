package jsonschema

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name, schema, doc string
		want              string // a part of the error, "" when valid
	}{
		{"type ok", `{"type": "string"}`, `"x"`, ""},
		{"type", `{"type": "string"}`, `1`, "number is not of type string"},
		{"type list", `{"type": ["string", "null"]}`, `null`, ""},
		{"integer", `{"type": "integer"}`, `1.5`, "not of type integer"},
		{"integer ok", `{"type": "integer"}`, `2.0`, ""},
		{"enum", `{"enum": ["a", "b"]}`, `"c"`, `"c" is not one of`},
		{"enum number", `{"enum": [1]}`, `1.0`, ""},
		{"required", `{"required": ["a"]}`, `{}`, `required property "a" is missing`},
		{"additional false", `{"properties": {"a": {}}, "additionalProperties": false}`, `{"a": 1, "b": 2}`, `property "b" is not allowed`},
		{"additional schema", `{"additionalProperties": {"type": "string"}}`, `{"b": 2}`, "/b: number is not of type string"},
		{"pattern properties", `{"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}`, `{"x-a": "s"}`, ""},
		{"nested pointer", `{"properties": {"a/b": {"items": {"type": "string"}}}}`, `{"a/b": ["s", 1]}`, "/a~1b/1: number"},
		{"min items", `{"minItems": 1}`, `[]`, "fewer than 1 items"},
		{"unique", `{"uniqueItems": true}`, `[{"a": 1}, {"a": 1.0}]`, "items 0 and 1 are equal"},
		{"tuple", `{"items": [{"type": "string"}], "additionalItems": false}`, `["s", 1]`, "item 1 is not allowed"},
		{"minimum", `{"minimum": 1}`, `0`, "below the minimum"},
		{"exclusive minimum", `{"minimum": 1, "exclusiveMinimum": true}`, `1`, "below the minimum"},
		{"maximum", `{"maximum": 1}`, `2`, "above the maximum"},
		{"multiple", `{"multipleOf": 2}`, `3`, "not a multiple"},
		{"length", `{"minLength": 2, "maxLength": 3}`, `"é"`, "shorter than 2"},
		{"pattern", `{"pattern": "^[a-z]+$"}`, `"A"`, "does not match"},
		{"anyOf", `{"anyOf": [{"type": "string"}, {"type": "null"}]}`, `1`, "none of anyOf"},
		{"oneOf", `{"oneOf": [{"type": "number"}, {"minimum": 0}]}`, `1`, "2 of oneOf"},
		{"not", `{"not": {"type": "string"}}`, `"s"`, "schema of not"},
		{"ref", `{"definitions": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/definitions/s"}}}`, `{"a": 1}`, "/a: number is not of type string"},
		{"ref replaces siblings", `{"definitions": {"s": {}}, "$ref": "#/definitions/s", "type": "string"}`, `1`, ""},
		{"ref unresolved", `{"$ref": "#/definitions/none"}`, `1`, "does not resolve"},
		{"ref other document", `{"$ref": "other.json#"}`, `1`, "only references into the schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Compile([]byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			err = s.Validate([]byte(tt.doc))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("valid document rejected: %v", err)
			case tt.want != "" && err == nil:
				t.Errorf("invalid document accepted, want %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	for _, schema := range []string{`{`, `{"pattern": "("}`, `{"patternProperties": {"[": {}}}`} {
		if _, err := Compile([]byte(schema)); err == nil {
			t.Errorf("Compile(%s) succeeded", schema)
		}
	}
	s, err := Compile([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{``, `{} {}`} {
		if err := s.Validate([]byte(doc)); err == nil {
			t.Errorf("Validate(%q) succeeded", doc)
		}
	}
}
