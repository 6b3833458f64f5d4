package rule

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Error is a problem in a rule document, located by its path (e.g.
// "rule.has.stopBy") and, for YAML input, its line and column.
type Error struct {
	Path   string // dotted path of the offending value; "" for the document
	Line   int    // 1-based line in the YAML document, 0 when unknown
	Column int    // 1-based column, 0 when unknown
	Msg    string
	Err    error // underlying error, if any
}

// Error renders the error as "path: message (line L, column C)".
func (e *Error) Error() string {
	var b strings.Builder
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d, column %d)", e.Line, e.Column)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// valueKind is the shape of a document value.
type valueKind uint8

const (
	nullValue valueKind = iota
	scalarValue
	seqValue
	mapValue
)

// scalar types, as YAML resolves plain scalars.
const (
	tagStr   = "!!str"
	tagInt   = "!!int"
	tagFloat = "!!float"
	tagBool  = "!!bool"
	tagNull  = "!!null"
)

// value is a node of a rule document, from YAML or from a JSON-like Go
// value, with enough position information for errors.
type value struct {
	kind      valueKind
	tag       string // type of a scalar
	text      string // scalar text
	items     []*value
	keys      []string
	vals      []*value
	line, col int
}

func (v *value) get(key string) *value {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

func (v *value) describe() string {
	switch v.kind {
	case nullValue:
		return "null"
	case seqValue:
		return "a list"
	case mapValue:
		return "a mapping"
	}
	switch v.tag {
	case tagInt:
		return "integer " + v.text
	case tagFloat:
		return "number " + v.text
	case tagBool:
		return "boolean " + v.text
	}
	return strconv.Quote(v.text)
}

// Limits that keep hostile documents from exhausting memory or stack.
const (
	maxDepth  = 200
	maxValues = 1 << 20
)

var errTooDeep = errors.New("document nests too deeply")

// FinalNewline returns src ending with a line break. YAML 1.2's "clip"
// chomping keeps a block scalar's final line break even when the file ends
// right after its last line, and ast-grep's YAML reader does; the Go YAML
// library drops it there (`fix: |` as the last key of a file without a
// final newline lost its "\n"). Every rule, test and snapshot file is read
// through it.
func FinalNewline(src []byte) []byte {
	if len(src) == 0 || src[len(src)-1] == '\n' {
		return src
	}
	return append(src[:len(src):len(src)], '\n')
}

// parseYAMLDocs splits a YAML stream into its documents.
func parseYAMLDocs(src []byte) ([]*value, error) {
	nodes, err := YAMLDocuments(src)
	if err != nil {
		return nil, &Error{Msg: "invalid YAML", Err: err}
	}
	var docs []*value
	for _, n := range nodes {
		budget := maxValues
		v, err := fromYAML(n, 0, &budget, "")
		if err != nil {
			return nil, err
		}
		if v.kind == nullValue {
			continue // an empty document, e.g. after a trailing ---
		}
		docs = append(docs, v)
	}
	return docs, nil
}

func fromYAML(n *yaml.Node, depth int, budget *int, path string) (*value, error) {
	if depth > maxDepth {
		return nil, &Error{Path: path, Line: n.Line, Column: n.Column, Msg: errTooDeep.Error()}
	}
	*budget--
	if *budget < 0 {
		return nil, &Error{Path: path, Line: n.Line, Column: n.Column, Msg: "document is too large (aliases expand to too many values)"}
	}
	v := &value{line: n.Line, col: n.Column}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return v, nil
		}
		return fromYAML(n.Content[0], depth, budget, path)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, &Error{Path: path, Line: n.Line, Column: n.Column, Msg: "unresolved alias"}
		}
		return fromYAML(n.Alias, depth+1, budget, path)
	case yaml.ScalarNode:
		tag := n.ShortTag()
		if tag == tagNull {
			return v, nil
		}
		v.kind, v.tag, v.text = scalarValue, tag, n.Value
		if tag == "!!binary" || tag == "!!timestamp" {
			v.tag = tagStr
		}
		return v, nil
	case yaml.SequenceNode:
		v.kind = seqValue
		for i, c := range n.Content {
			item, err := fromYAML(c, depth+1, budget, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, item)
		}
		return v, nil
	case yaml.MappingNode:
		v.kind = mapValue
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.AliasNode && k.Alias != nil {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return nil, &Error{Path: path, Line: k.Line, Column: k.Column, Msg: "mapping keys must be strings"}
			}
			key := k.Value
			if v.get(key) != nil {
				return nil, &Error{Path: join(path, key), Line: k.Line, Column: k.Column, Msg: "duplicate key " + strconv.Quote(key)}
			}
			item, err := fromYAML(val, depth+1, budget, join(path, key))
			if err != nil {
				return nil, err
			}
			v.keys = append(v.keys, key)
			v.vals = append(v.vals, item)
		}
		return v, nil
	}
	return nil, &Error{Path: path, Line: n.Line, Column: n.Column, Msg: "unsupported YAML node"}
}

// fromGo converts a JSON-like Go value (as produced by encoding/json, or
// built by a caller) into a document value. Map keys are visited in sorted
// order so errors are deterministic.
func fromGo(x any, depth int, path string) (*value, error) {
	if depth > maxDepth {
		return nil, &Error{Path: path, Msg: errTooDeep.Error()}
	}
	switch t := x.(type) {
	case nil:
		return &value{}, nil
	case string:
		return &value{kind: scalarValue, tag: tagStr, text: t}, nil
	case bool:
		return &value{kind: scalarValue, tag: tagBool, text: strconv.FormatBool(t)}, nil
	case json.Number:
		if _, err := t.Int64(); err == nil {
			return &value{kind: scalarValue, tag: tagInt, text: t.String()}, nil
		}
		return &value{kind: scalarValue, tag: tagFloat, text: t.String()}, nil
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return &value{kind: scalarValue, tag: tagInt, text: strconv.FormatInt(int64(t), 10)}, nil
		}
		return &value{kind: scalarValue, tag: tagFloat, text: strconv.FormatFloat(t, 'g', -1, 64)}, nil
	case float32:
		return fromGo(float64(t), depth, path)
	case int:
		return &value{kind: scalarValue, tag: tagInt, text: strconv.Itoa(t)}, nil
	case int64:
		return &value{kind: scalarValue, tag: tagInt, text: strconv.FormatInt(t, 10)}, nil
	case int32:
		return fromGo(int64(t), depth, path)
	case uint64:
		return &value{kind: scalarValue, tag: tagInt, text: strconv.FormatUint(t, 10)}, nil
	case []any:
		v := &value{kind: seqValue}
		for i, c := range t {
			item, err := fromGo(c, depth+1, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, item)
		}
		return v, nil
	case []string:
		v := &value{kind: seqValue}
		for _, c := range t {
			v.items = append(v.items, &value{kind: scalarValue, tag: tagStr, text: c})
		}
		return v, nil
	case map[string]any:
		v := &value{kind: mapValue}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			item, err := fromGo(t[k], depth+1, join(path, k))
			if err != nil {
				return nil, err
			}
			v.keys = append(v.keys, k)
			v.vals = append(v.vals, item)
		}
		return v, nil
	}
	return nil, &Error{Path: path, Msg: fmt.Sprintf("unsupported value of type %T", x)}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// errAt builds an Error located at v.
func errAt(v *value, path, format string, args ...any) *Error {
	e := &Error{Path: path, Msg: fmt.Sprintf(format, args...)}
	if v != nil {
		e.Line, e.Column = v.line, v.col
	}
	return e
}

// wrapAt builds an Error located at v with an underlying cause.
func wrapAt(v *value, path string, err error, format string, args ...any) *Error {
	e := errAt(v, path, format, args...)
	e.Err = err
	return e
}

// Field access helpers used by the decoders.

// checkKeys rejects keys of v not in allowed, naming the expected ones.
func checkKeys(v *value, path string, allowed []string) error {
	for i, k := range v.keys {
		if !contains(allowed, k) {
			return errAt(v.vals[i], join(path, k), "unknown key %q (expected one of %s)", k, strings.Join(allowed, ", "))
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// asString returns v's text if v is a string scalar.
func asString(v *value, path string) (string, error) {
	if v.kind != scalarValue || v.tag != tagStr {
		return "", errAt(v, path, "expected a string, found %s", v.describe())
	}
	return v.text, nil
}

// asMap checks that v is a mapping.
func asMap(v *value, path string) error {
	if v.kind != mapValue {
		return errAt(v, path, "expected a mapping, found %s", v.describe())
	}
	return nil
}

// asList checks that v is a list.
func asList(v *value, path string) error {
	if v.kind != seqValue {
		return errAt(v, path, "expected a list, found %s", v.describe())
	}
	return nil
}

// asInt returns v as an integer.
func asInt(v *value, path string) (int64, error) {
	if v.kind != scalarValue || v.tag != tagInt {
		return 0, errAt(v, path, "expected an integer, found %s", v.describe())
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(v.text, "_", ""), 0, 64)
	if err != nil {
		return 0, wrapAt(v, path, err, "invalid integer %q", v.text)
	}
	return n, nil
}

// asBool returns v as a boolean.
func asBool(v *value, path string) (bool, error) {
	if v.kind != scalarValue || v.tag != tagBool {
		return false, errAt(v, path, "expected true or false, found %s", v.describe())
	}
	switch strings.ToLower(v.text) {
	case "true", "yes", "on":
		return true, nil
	}
	return false, nil
}

// toGo converts a document value to plain Go data (for metadata).
func toGo(v *value) any {
	switch v.kind {
	case nullValue:
		return nil
	case seqValue:
		out := make([]any, len(v.items))
		for i, it := range v.items {
			out[i] = toGo(it)
		}
		return out
	case mapValue:
		out := make(map[string]any, len(v.keys))
		for i, k := range v.keys {
			out[k] = toGo(v.vals[i])
		}
		return out
	}
	switch v.tag {
	case tagInt:
		if n, err := strconv.ParseInt(strings.ReplaceAll(v.text, "_", ""), 0, 64); err == nil {
			return n
		}
	case tagFloat:
		if f, err := strconv.ParseFloat(v.text, 64); err == nil {
			return f
		}
	case tagBool:
		b, _ := asBool(v, "")
		return b
	}
	return v.text
}
