package rule

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// YAML 1.2 allows the escape `\/` (a solidus) in double-quoted scalars,
// and ast-grep's YAML reader takes it (`regex: "\/api$"`); the Go YAML
// library refuses it as an unknown escape. The library also takes `\'`,
// which YAML 1.2 does not define and ast-grep refuses. Every rule,
// utility, test and sgconfig file is therefore decoded through
// YAMLDocuments, which reads both as YAML 1.2 does and leaves the rest to
// the library. See RATIONALE.md, "YAML escapes".

// slashSentinels are escapes that a double-quoted scalar reads as "/",
// tried in order: the first one absent from a document stands for its
// `\/` escapes while the library decodes it.
var slashSentinels = []string{`\x2F`, `\x2f`, `\u002F`, `\u002f`, `\U0000002F`, `\U0000002f`}

// slashEscapes rewrites each `\/` of src (backslashes read in pairs, so
// the `/` of `\\/` is left alone) to a sentinel escape. It returns src
// unchanged and an empty sentinel when src has no `\/`, or when every
// sentinel already occurs in it; moved holds, per 1-based line, the
// 0-based character columns (in the rewritten text) where a sentinel was
// written.
func slashEscapes(src []byte) (out []byte, sentinel string, moved map[int][]int) {
	if !bytes.Contains(src, []byte(`\/`)) {
		return src, "", nil
	}
	for _, s := range slashSentinels {
		if !bytes.Contains(src, []byte(s)) {
			sentinel = s
			break
		}
	}
	if sentinel == "" {
		return src, "", nil
	}
	out = make([]byte, 0, len(src)+len(src)/8)
	moved = map[int][]int{}
	line, col := 1, 0
	advance := func(b byte) {
		switch {
		case b == '\n':
			line, col = line+1, 0
		case b&0xC0 != 0x80: // not a UTF-8 continuation byte
			col++
		}
	}
	for i := 0; i < len(src); i++ {
		b := src[i]
		if b == '\\' && i+1 < len(src) {
			if src[i+1] == '/' {
				moved[line] = append(moved[line], col)
				out = append(out, sentinel...)
				col += len(sentinel)
				i++
				continue
			}
			out = append(out, b, src[i+1])
			advance(b)
			advance(src[i+1])
			i++
			continue
		}
		out = append(out, b)
		advance(b)
	}
	return out, sentinel, moved
}

// restoreSlashes undoes slashEscapes in a decoded node tree: a scalar
// that is not double-quoted (plain, single-quoted or a block scalar)
// reads escapes literally, so its sentinels go back to `\/`; and every
// node's column is moved back by the characters the sentinels added
// before it on its line.
func restoreSlashes(n *yaml.Node, sentinel string, moved map[int][]int, seen map[*yaml.Node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	if cols := moved[n.Line]; len(cols) > 0 {
		col := n.Column - 1
		for _, c := range cols {
			if c < col {
				n.Column -= len(sentinel) - 2
			}
		}
	}
	if n.Kind == yaml.ScalarNode && n.Style&yaml.DoubleQuotedStyle == 0 {
		n.Value = strings.ReplaceAll(n.Value, sentinel, `\/`)
	}
	for _, c := range n.Content {
		restoreSlashes(c, sentinel, moved, seen)
	}
	restoreSlashes(n.Alias, sentinel, moved, seen)
}

// YAMLDocuments decodes every document of a YAML stream (src ending with a
// line break, see FinalNewline) into nodes, reading the YAML 1.2 escape
// `\/` in double-quoted scalars as a solidus.
func YAMLDocuments(src []byte) ([]*yaml.Node, error) {
	data, sentinel, moved := slashEscapes(FinalNewline(src))
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		n := new(yaml.Node)
		err := dec.Decode(n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if bytes.Contains(data, []byte(`\'`)) {
			if err := quoteEscapes(data, n, map[*yaml.Node]bool{}); err != nil {
				return nil, err
			}
		}
		if sentinel != "" {
			restoreSlashes(n, sentinel, moved, map[*yaml.Node]bool{})
		}
		docs = append(docs, n)
	}
}

// UnmarshalYAML decodes the first document of src into out as
// yaml.Unmarshal does, reading `\/` as YAML 1.2 does (see YAMLDocuments).
// An empty document leaves out alone.
func UnmarshalYAML(src []byte, out any) error {
	docs, err := YAMLDocuments(src)
	if err != nil {
		return err
	}
	if len(docs) == 0 {
		return nil
	}
	return docs[0].Decode(out)
}

// quoteEscapes refuses the escape `\'` in the double-quoted scalars of a
// decoded node tree, as YAML 1.2 and ast-grep do: each such scalar's text
// is read again in data from its opening quote (at the node's line and
// character column) to its closing one.
func quoteEscapes(data []byte, n *yaml.Node, seen map[*yaml.Node]bool) error {
	if n == nil || seen[n] {
		return nil
	}
	seen[n] = true
	if n.Kind == yaml.ScalarNode && n.Style&yaml.DoubleQuotedStyle != 0 {
		if line := escapedQuote(data, n.Line, n.Column); line > 0 {
			return fmt.Errorf("yaml: line %d: found unknown escape character", line)
		}
	}
	for _, c := range n.Content {
		if err := quoteEscapes(data, c, seen); err != nil {
			return err
		}
	}
	return quoteEscapes(data, n.Alias, seen)
}

// escapedQuote returns the 1-based line of the first `\'` in the
// double-quoted scalar that opens at a 1-based line and character column
// of data, or 0 when it has none (or no scalar opens there).
func escapedQuote(data []byte, line, col int) int {
	i := 0
	for l := 1; l < line; l++ {
		nl := bytes.IndexByte(data[i:], '\n')
		if nl < 0 {
			return 0
		}
		i += nl + 1
	}
	for c := 1; c < col && i < len(data) && data[i] != '\n'; c++ {
		i++
		for i < len(data) && data[i]&0xC0 == 0x80 {
			i++
		}
	}
	if i >= len(data) || data[i] != '"' {
		return 0
	}
	for i++; i < len(data) && data[i] != '"'; i++ {
		switch data[i] {
		case '\n':
			line++
		case '\\':
			if i+1 < len(data) && data[i+1] == '\'' {
				return line
			}
			if i+1 < len(data) && data[i+1] == '\n' {
				line++
			}
			i++
		}
	}
	return 0
}
