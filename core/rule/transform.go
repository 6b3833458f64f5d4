package rule

import (
	"fmt"
	"iter"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/tree"
)

type transformOp uint8

const (
	opSubstring transformOp = iota
	opReplace
	opConvert
	opRewrite
)

// transform computes one transformed variable from a source variable.
type transform struct {
	key         string
	source      string // metavariable name
	sourceMulti bool   // $$$NAME
	op          transformOp

	start, end *int // substring, in characters; negative counts from the end

	re         *regexp.Regexp // replace
	lookBehind bool           // re's matches depend on the text before them
	by         string

	toCase string // convert
	seps   []string

	rewriters []string // rewrite
	joinBy    *string
}

var transformOps = []string{"substring", "replace", "convert", "rewrite"}

// shorthandArgs are the arguments each transformation takes.
var shorthandArgs = map[string][]string{
	"substring": {"startChar", "endChar"},
	"replace":   {"replace", "by"},
	"convert":   {"toCase", "separatedBy"},
	"rewrite":   {"rewriters", "joinBy"},
}

// transforms compiles a `transform` mapping and orders it so that every
// variable is computed after the transformed variables it reads.
func (c *compiler) transforms(v *value, path string) ([]*transform, error) {
	if err := asMap(v, path); err != nil {
		return nil, err
	}
	byKey := map[string]*transform{}
	for i, key := range v.keys {
		t, err := c.transform(v.vals[i], join(path, key))
		if err != nil {
			return nil, err
		}
		t.key = key
		byKey[key] = t
	}
	order, cycle := topoSort(v.keys, func(k string) []string { return []string{byKey[k].source} },
		func(k string) bool { return byKey[k] != nil })
	if cycle != "" {
		return nil, errAt(v.get(cycle), join(path, cycle), "transform $%s has a cyclic dependency", cycle)
	}
	out := make([]*transform, len(order))
	for i, k := range order {
		out[i] = byKey[k]
	}
	return out, nil
}

func (c *compiler) transform(v *value, path string) (*transform, error) {
	if v.kind == scalarValue && v.tag == tagStr {
		return c.transformString(v, path)
	}
	if v.kind != mapValue {
		return nil, errAt(v, path, "expected a transformation string or object, found %s", v.describe())
	}
	if len(v.keys) != 1 {
		return nil, errAt(v, path, "expected exactly one of %s", strings.Join(transformOps, ", "))
	}
	op, body := v.keys[0], v.vals[0]
	p := join(path, op)
	if err := asMap(body, p); err != nil {
		return nil, err
	}
	t := &transform{}
	srcv := body.get("source")
	if srcv == nil {
		return nil, errAt(body, p, "missing key \"source\"")
	}
	src, err := asString(srcv, join(p, "source"))
	if err != nil {
		return nil, err
	}
	if t.source, t.sourceMulti, err = parseSourceVar(src); err != nil {
		return nil, errAt(srcv, join(p, "source"), "%v", err)
	}
	optInt := func(key string) (*int, error) {
		f := body.get(key)
		if f == nil || f.kind == nullValue {
			return nil, nil
		}
		n, err := asInt(f, join(p, key))
		if err != nil {
			return nil, err
		}
		if n < -1<<31 || n >= 1<<31 {
			return nil, errAt(f, join(p, key), "%d is out of range", n)
		}
		i := int(n)
		return &i, nil
	}
	reqString := func(key string) (string, error) {
		f := body.get(key)
		if f == nil {
			return "", errAt(body, p, "missing key %q", key)
		}
		return asString(f, join(p, key))
	}
	switch op {
	case "substring":
		t.op = opSubstring
		if t.start, err = optInt("startChar"); err != nil {
			return nil, err
		}
		if t.end, err = optInt("endChar"); err != nil {
			return nil, err
		}
	case "replace":
		t.op = opReplace
		pat, err := reqString("replace")
		if err != nil {
			return nil, err
		}
		if t.re, err = compileRegex(pat); err != nil {
			return nil, wrapAt(body.get("replace"), join(p, "replace"), err, "invalid regex")
		}
		t.lookBehind = looksBehind(t.re)
		if t.by, err = reqString("by"); err != nil {
			return nil, err
		}
	case "convert":
		t.op = opConvert
		if t.toCase, err = reqString("toCase"); err != nil {
			return nil, err
		}
		if !contains(stringCases, t.toCase) {
			return nil, errAt(body.get("toCase"), join(p, "toCase"), "unknown case %q (expected one of %s)", t.toCase, strings.Join(stringCases, ", "))
		}
		if sv := body.get("separatedBy"); sv != nil && sv.kind != nullValue {
			if t.seps, err = separators(sv, join(p, "separatedBy")); err != nil {
				return nil, err
			}
		}
	case "rewrite":
		t.op = opRewrite
		rv := body.get("rewriters")
		if rv == nil {
			return nil, errAt(body, p, "missing key \"rewriters\"")
		}
		if t.rewriters, err = stringList(rv, join(p, "rewriters")); err != nil {
			return nil, err
		}
		if jv := body.get("joinBy"); jv != nil && jv.kind != nullValue {
			s, err := asString(jv, join(p, "joinBy"))
			if err != nil {
				return nil, err
			}
			t.joinBy = &s
		}
	default:
		return nil, errAt(body, p, "unknown transformation %q (expected one of %s)", op, strings.Join(transformOps, ", "))
	}
	return t, nil
}

func separators(v *value, path string) ([]string, error) {
	list, err := stringList(v, path)
	if err != nil {
		return nil, err
	}
	for i, s := range list {
		if !contains(separatorNames, s) {
			return nil, errAt(v.items[i], index(path, i), "unknown separator %q (expected one of %s)", s, strings.Join(separatorNames, ", "))
		}
	}
	return list, nil
}

func stringList(v *value, path string) ([]string, error) {
	if err := asList(v, path); err != nil {
		return nil, err
	}
	out := make([]string, len(v.items))
	for i, item := range v.items {
		s, err := asString(item, index(path, i))
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// parseSourceVar reads a transform source: $NAME, $$NAME or $$$NAME.
func parseSourceVar(s string) (name string, multi bool, err error) {
	rest := strings.TrimPrefix(s, "$")
	if rest == s {
		return "", false, fmt.Errorf("source %q must be a $-prefixed metavariable", s)
	}
	if strings.HasPrefix(rest, "$$") {
		rest, multi = rest[2:], true
	} else {
		rest = strings.TrimPrefix(rest, "$")
	}
	if rest == "" || rest[0] == '_' || !(rest[0] >= 'A' && rest[0] <= 'Z') {
		return "", false, fmt.Errorf("source %q must name a metavariable such as $A", s)
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return "", false, fmt.Errorf("source %q must name a metavariable such as $A", s)
		}
	}
	return rest, multi, nil
}

// transformString compiles the string shorthand, e.g.
// "replace($A, replace='a+', by='b')" or "convert($A, toCase=camelCase)".
func (c *compiler) transformString(v *value, path string) (*transform, error) {
	s := strings.TrimSpace(v.text)
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return nil, errAt(v, path, "invalid transformation %q: expected func($VAR, key=value, ...)", v.text)
	}
	fn := strings.TrimSpace(s[:open])
	rest := strings.TrimRight(s[open+1:], ")")
	comma := strings.IndexByte(rest, ',')
	if comma < 0 {
		return nil, errAt(v, path, "invalid transformation %q: expected func($VAR, key=value, ...)", v.text)
	}
	body := &value{kind: mapValue, line: v.line, col: v.col}
	body.keys = append(body.keys, "source")
	body.vals = append(body.vals, &value{kind: scalarValue, tag: tagStr, text: strings.TrimSpace(rest[:comma]), line: v.line, col: v.col})
	args := strings.TrimSpace(rest[comma+1:])
	for args != "" {
		eq := strings.IndexByte(args, '=')
		if eq < 0 {
			return nil, errAt(v, path, "invalid transformation %q: expected key=value", v.text)
		}
		key := strings.TrimSpace(args[:eq])
		val := strings.TrimLeft(args[eq+1:], " \t\n\r")
		var end int // length of the value text
		if val != "" && strings.IndexByte("'\"[", val[0]) >= 0 {
			closing := val[0]
			if closing == '[' {
				closing = ']'
			}
			j := strings.IndexByte(val[1:], closing)
			if j < 0 {
				return nil, errAt(v, path, "invalid transformation %q: unterminated value", v.text)
			}
			end = j + 2
		} else {
			end = strings.IndexByte(val, ',')
			if end < 0 {
				end = len(val)
			}
		}
		if end == 0 {
			return nil, errAt(v, path, "invalid transformation %q: missing value for %s", v.text, key)
		}
		item, err := yamlScalar(val[:end])
		if err != nil {
			return nil, wrapAt(v, join(path, key), err, "invalid value %q", val[:end])
		}
		item.line, item.col = v.line, v.col
		if allowed, known := shorthandArgs[fn]; known && !contains(allowed, key) {
			return nil, errAt(v, path, "invalid transformation %q: %s takes no argument %q (arguments: %s)", v.text, fn, key, strings.Join(allowed, ", "))
		}
		body.keys = append(body.keys, key)
		body.vals = append(body.vals, item)
		args = strings.TrimSpace(strings.TrimLeft(strings.TrimLeft(val[end:], " \t\n\r"), ","))
	}
	obj := &value{kind: mapValue, keys: []string{fn}, vals: []*value{body}, line: v.line, col: v.col}
	return c.transform(obj, path)
}

// yamlScalar parses a shorthand argument value as YAML, as ast-grep does
// (with YAML 1.2's escapes, see YAMLDocuments).
func yamlScalar(s string) (*value, error) {
	docs, err := YAMLDocuments([]byte(s))
	if err != nil {
		return nil, err
	}
	n := &yaml.Node{}
	if len(docs) > 0 {
		n = docs[0]
	}
	budget := 1 << 10
	return fromYAML(n, 0, &budget, "")
}

// apply computes the transformed variable into env. It reports false
// when env's budget ran out (the text would be too long, or the search
// was stopped).
func (t *transform) apply(env, enclosing *match.Env, reg *registry) bool {
	if !env.Budget().Step() {
		return false
	}
	env.SetTransformed(t.key, "") // a self-reference reads the empty string
	text, ok := t.compute(env, enclosing, reg)
	if !ok {
		return env.Budget().Err() == nil
	}
	if n, ok := t.sourceNode(env); ok {
		text = string(rewrite.DeindentText([]byte(text), n.Tree().Source(), n.StartByte()))
	}
	if !env.Budget().Produce(len(text)) {
		return false
	}
	env.SetTransformed(t.key, text)
	return true
}

// sourceNode returns the node the source variable is bound to (the first
// one for a multi variable).
func (t *transform) sourceNode(env *match.Env) (tree.Node, bool) {
	if t.sourceMulti {
		ns, ok := env.Multi(t.source)
		if !ok || len(ns) == 0 {
			return tree.Node{}, false
		}
		return ns[0], true
	}
	return env.Single(t.source)
}

// sourceText returns the text of the source variable.
func (t *transform) sourceText(env *match.Env) (string, bool) {
	if t.sourceMulti {
		ns, ok := env.Multi(t.source)
		if !ok || len(ns) == 0 {
			return "", false
		}
		src := ns[0].Tree().Source()
		return string(src[ns[0].StartByte():ns[len(ns)-1].EndByte()]), true
	}
	if n, ok := env.Single(t.source); ok {
		return n.Text(), true
	}
	return env.Transformed(t.source)
}

func (t *transform) compute(env, enclosing *match.Env, reg *registry) (string, bool) {
	if t.op == opRewrite {
		return t.rewrite(env, enclosing, reg)
	}
	text, ok := t.sourceText(env)
	if !ok {
		return "", false
	}
	switch t.op {
	case opSubstring:
		return substring(text, t.start, t.end), true
	case opReplace:
		if !env.Budget().Spend(int64(len(text)) / regexBytesPerStep) {
			return "", false
		}
		return replaceAll(t.re, t.lookBehind, text, t.by, env.Budget())
	}
	return convertCase(text, t.toCase, t.seps), true
}

// maxHeldInts bounds the match indices a replace holds at once when its
// regex looks behind (8 MiB of them).
const maxHeldInts = 1 << 20

// replaceAll is re.ReplaceAllString(text, by) that gives up, reporting
// false with the reason recorded in budget, as soon as the result would
// be longer than budget's MaxText, before it is built (a long `by`
// replacing every empty match grows the text by its length per
// character), or when budget runs out: each match spends a step. It holds one match at a time, where the regex's matches do
// not depend on the text before where a search starts (lookBehind false);
// otherwise it holds them all, and gives up past maxHeldInts indices: an
// empty regex over 10 MB of text found 10 million matches, 1.6 GB.
func replaceAll(re *regexp.Regexp, lookBehind bool, text, by string, budget *match.Budget) (string, bool) {
	limit := budget.MaxText()
	var out []byte
	last := 0
	add := func(m []int) bool {
		out = append(out, text[last:m[0]]...)
		out = re.ExpandString(out, by, text, m)
		last = m[1]
		return int64(len(out)) <= limit && budget.Step()
	}
	tooLong := func() (string, bool) {
		if budget.Err() == nil {
			budget.Produce(int(limit) + 1) // records why it stopped
		}
		return "", false
	}
	if lookBehind {
		most := -1
		if budget != nil {
			most = maxHeldInts/(2*(re.NumSubexp()+1)) + 1
		}
		ms := re.FindAllStringSubmatchIndex(text, most)
		if len(ms) == most {
			budget.Exceed(fmt.Sprintf("a replace transform found more than %d matches of a regex with ^, \\b or \\B", most-1))
			return "", false
		}
		for _, m := range ms {
			if !add(m) {
				return tooLong()
			}
		}
	} else {
		for m := range eachMatch(re, text) {
			if !add(m) {
				return tooLong()
			}
		}
	}
	out = append(out, text[last:]...)
	if int64(len(out)) > limit {
		return tooLong()
	}
	return string(out), true
}

// eachMatch yields the matches re.FindAllStringSubmatchIndex(text, -1)
// returns, one at a time, searching text from where the last one ended
// as regexp does (an empty match just after a match is skipped, and one
// moves the search on by a character). Searching the rest of text is
// searching from that position only for a regex that does not look
// behind it (see looksBehind).
func eachMatch(re *regexp.Regexp, text string) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		prevEnd := -1
		for pos := 0; pos <= len(text); {
			m := re.FindStringSubmatchIndex(text[pos:])
			if m == nil {
				return
			}
			for i := range m {
				if m[i] >= 0 {
					m[i] += pos
				}
			}
			accept := true
			if m[1] == pos {
				accept = m[0] != prevEnd
				if _, w := utf8.DecodeRuneInString(text[pos:]); w > 0 {
					pos += w
				} else {
					pos = len(text) + 1
				}
			} else {
				pos = m[1]
			}
			prevEnd = m[1]
			if accept && !yield(m) {
				return
			}
		}
	}
}

// looksBehind reports whether re has an assertion about the text before
// a position (^, \b, \B), whose matches in a suffix of a text may differ
// from its matches in the text from that position.
func looksBehind(re *regexp.Regexp) bool {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return true
	}
	var walk func(*syntax.Regexp) bool
	walk = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			return true
		}
		for _, sub := range r.Sub {
			if walk(sub) {
				return true
			}
		}
		return false
	}
	return walk(parsed)
}

func substring(text string, start, end *int) string {
	chars := []rune(text)
	n := len(chars)
	s := resolveChar(start, 0, n)
	e := resolveChar(end, n, n)
	if s > e || s >= n || e > n {
		return ""
	}
	return string(chars[s:e])
}

func resolveChar(opt *int, def, n int) int {
	c := def
	if opt != nil {
		c = *opt
	}
	switch {
	case c >= n:
		return n
	case c >= 0:
		return c
	case n+c < 0:
		return 0
	}
	return n + c
}

// rewrite applies the named rewriters to the source variable's nodes: every
// node of their subtrees is tried against the rewriters in order, the
// first that matches replaces it, and edits inside an earlier edit are
// dropped.
func (t *transform) rewrite(env, enclosing *match.Env, reg *registry) (string, bool) {
	var nodes []tree.Node
	if t.sourceMulti {
		nodes, _ = env.Multi(t.source)
	} else if n, ok := env.Single(t.source); ok {
		nodes = []tree.Node{n}
	}
	if len(nodes) == 0 {
		return "", false
	}
	if enclosing == nil {
		enclosing = env
	}
	var rws []*rewriter
	for _, id := range t.rewriters {
		if rw := reg.rewriters[id]; rw != nil {
			rws = append(rws, rw)
		}
	}
	var edits []rewrite.Edit
	budget := env.Budget()
	for _, n := range nodes {
		n.Descendants(func(d tree.Node) bool {
			if !budget.Step() {
				return false
			}
			for _, rw := range rws {
				if !rw.core.ks.Has(d.KindID()) {
					continue
				}
				menv := enclosing.Clone()
				found, ok := rw.core.do(d, menv, enclosing, nil)
				if !ok {
					continue
				}
				edits = append(edits, rw.fixes[0].edit(found, menv))
				break
			}
			return budget.Err() == nil
		})
	}
	if budget.Err() != nil {
		return "", false
	}
	limit := budget.MaxText()
	src := nodes[0].Tree().Source()
	start, end := nodes[0].StartByte(), nodes[len(nodes)-1].EndByte()
	var out []byte
	if t.joinBy != nil {
		pos := -1
		for _, e := range edits {
			if pos > e.Start {
				continue
			}
			if pos >= 0 {
				out = append(out, *t.joinBy...)
			}
			out = append(out, e.Text...)
			pos = e.End
			if int64(len(out)) > limit {
				budget.Produce(len(out))
				return "", false
			}
		}
		return string(out), true
	}
	pos := start
	for _, e := range edits {
		if pos > e.Start {
			continue
		}
		out = append(out, src[pos:e.Start]...)
		out = append(out, e.Text...)
		pos = e.End
		if int64(len(out)) > limit {
			budget.Produce(len(out))
			return "", false
		}
	}
	out = append(out, src[pos:end]...)
	return string(out), true
}
