package rule

import (
	"context"
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/host"
)

// compiler turns rule documents into matchers for one language.
type compiler struct {
	ctx   context.Context
	lang  *language.Language
	names *host.Names
	reg   *registry
	// global is set while compiling a global utility rule: references to
	// utilities are then checked lazily, as ast-grep does.
	global bool
}

func newCompiler(ctx context.Context, lang *language.Language, reg *registry) (*compiler, error) {
	names, err := lang.Names(ctx)
	if err != nil {
		return nil, err
	}
	return &compiler{ctx: ctx, lang: lang, names: names, reg: reg}, nil
}

// ruleKeys are the keys of a rule object, in ast-grep's evaluation order:
// atomic, then composite, then relational.
var ruleKeys = []string{
	"pattern", "kind", "regex", "nthChild", "range",
	"all", "any", "not", "matches",
	"inside", "has", "precedes", "follows",
}

// rule compiles a rule object; unknown keys are errors.
func (c *compiler) rule(v *value, path string) (matcher, error) {
	if err := asMap(v, path); err != nil {
		return nil, err
	}
	if err := checkKeys(v, path, ruleKeys); err != nil {
		return nil, err
	}
	return c.ruleFields(v, path)
}

// ruleFields compiles the rule keys of the mapping v and ignores any other
// key (relational rules and fix expansions embed a rule among their own
// keys, and ast-grep ignores unknown keys there).
func (c *compiler) ruleFields(v *value, path string) (matcher, error) {
	var rules []matcher
	for _, key := range ruleKeys {
		f := v.get(key)
		if f == nil {
			continue
		}
		p := join(path, key)
		if f.kind == nullValue {
			return nil, errAt(f, p, "must not be null")
		}
		m, err := c.ruleKey(key, f, p)
		if err != nil {
			return nil, err
		}
		rules = append(rules, m)
	}
	switch len(rules) {
	case 0:
		return nil, errAt(v, path, "a rule needs at least one of %s", strings.Join(ruleKeys, ", "))
	case 1:
		return rules[0], nil
	}
	return newAll(rules), nil
}

func (c *compiler) ruleKey(key string, v *value, path string) (matcher, error) {
	switch key {
	case "pattern":
		return c.pattern(v, path)
	case "kind":
		s, err := asString(v, path)
		if err != nil {
			return nil, err
		}
		m, err := c.parseSelector(s)
		if err != nil {
			if strings.ContainsAny(s, " >+~:,().") {
				return nil, wrapAt(v, path, err, "invalid kind selector %q", s)
			}
			return nil, errAt(v, path, "%v", err)
		}
		return m, nil
	case "regex":
		s, err := asString(v, path)
		if err != nil {
			return nil, err
		}
		re, err := compileRegex(s)
		if err != nil {
			return nil, wrapAt(v, path, err, "invalid regex")
		}
		return &regexM{re: re}, nil
	case "nthChild":
		return c.nthChild(v, path)
	case "range":
		return c.rangeRule(v, path)
	case "all", "any":
		if err := asList(v, path); err != nil {
			return nil, err
		}
		subs := make([]matcher, 0, len(v.items))
		for i, item := range v.items {
			m, err := c.rule(item, index(path, i))
			if err != nil {
				return nil, err
			}
			subs = append(subs, m)
		}
		if key == "all" {
			return newAll(subs), nil
		}
		return newAny(subs), nil
	case "not":
		m, err := c.rule(v, path)
		if err != nil {
			return nil, err
		}
		return &notM{rule: m}, nil
	case "matches":
		return c.matches(v, path)
	case "inside", "has", "precedes", "follows":
		return c.relation(key, v, path)
	}
	return nil, errAt(v, path, "unknown rule key")
}

// kindMatcher resolves a kind name of the language. A name that only
// exists as a hidden grammar symbol (such as a supertype) is valid and
// matches nothing; ast-grep reports ERROR for any prefix of "ERROR".
func (c *compiler) kindMatcher(name string) (matcher, error) {
	if name != "" && strings.HasPrefix("ERROR", name) {
		return &kindM{ks: match.NewKindSet(tree.ErrorKindID)}, nil
	}
	var ids []uint16
	hidden, anonymous := false, false
	for id, s := range c.names.Symbols {
		if s != name {
			continue
		}
		switch {
		case c.names.Named[id] && c.names.Visible[id]:
			ids = append(ids, uint16(id))
		case c.names.Visible[id]:
			anonymous = true
		default:
			hidden = true
		}
	}
	switch {
	case len(ids) > 0:
		return &kindM{ks: match.NewKindSet(ids...)}, nil
	case anonymous:
		return nil, fmt.Errorf("%q is an anonymous token of %s, not a node kind", name, c.lang.Display())
	case hidden:
		return &kindM{ks: match.NewKindSet()}, nil
	}
	return nil, fmt.Errorf("unknown kind %q for %s", name, c.lang.Display())
}

func (c *compiler) nthChild(v *value, path string) (matcher, error) {
	if v.kind == mapValue {
		posv := v.get("position")
		if posv == nil {
			return nil, errAt(v, path, "missing key \"position\"")
		}
		pos, err := c.nthPosition(posv, join(path, "position"))
		if err != nil {
			return nil, err
		}
		m := &nthChildM{pos: pos}
		if of := v.get("ofRule"); of != nil && of.kind != nullValue {
			if m.of, err = c.rule(of, join(path, "ofRule")); err != nil {
				return nil, err
			}
		}
		if rv := v.get("reverse"); rv != nil && rv.kind != nullValue {
			if m.reverse, err = asBool(rv, join(path, "reverse")); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
	pos, err := c.nthPosition(v, path)
	if err != nil {
		return nil, err
	}
	return &nthChildM{pos: pos}, nil
}

func (c *compiler) nthPosition(v *value, path string) (position, error) {
	if v.kind == scalarValue && v.tag == tagInt {
		n, err := asInt(v, path)
		if err != nil {
			return position{}, err
		}
		if n < 0 || n > 1<<31 {
			return position{}, errAt(v, path, "expected a non-negative position, found %d", n)
		}
		return position{offset: int(n)}, nil
	}
	if v.kind == scalarValue && v.tag == tagStr {
		pos, err := parseAnB(v.text)
		if err != nil {
			return position{}, wrapAt(v, path, err, "invalid position")
		}
		return pos, nil
	}
	return position{}, errAt(v, path, "expected a number, an An+B string or an object with position, found %s", v.describe())
}

func (c *compiler) rangeRule(v *value, path string) (matcher, error) {
	if err := asMap(v, path); err != nil {
		return nil, err
	}
	point := func(key string) (line, col int, err error) {
		p := join(path, key)
		pv := v.get(key)
		if pv == nil {
			return 0, 0, errAt(v, path, "missing key %q", key)
		}
		if err := asMap(pv, p); err != nil {
			return 0, 0, err
		}
		lv := pv.get("line")
		if lv == nil {
			return 0, 0, errAt(pv, p, "missing key \"line\"")
		}
		l, err := asNonNegative(lv, join(p, "line"))
		if err != nil {
			return 0, 0, err
		}
		col = -1
		if cv := pv.get("column"); cv != nil && cv.kind != nullValue {
			if col, err = asNonNegative(cv, join(p, "column")); err != nil {
				return 0, 0, err
			}
		}
		return l, col, nil
	}
	m := &rangeM{}
	var err error
	if m.startLine, m.startCol, err = point("start"); err != nil {
		return nil, err
	}
	if m.endLine, m.endCol, err = point("end"); err != nil {
		return nil, err
	}
	// ast-grep orders an absent column before any column.
	if m.startLine > m.endLine || m.startLine == m.endLine && m.startCol > m.endCol {
		return nil, errAt(v, path, "the start position must not be after the end position")
	}
	return m, nil
}

func asNonNegative(v *value, path string) (int, error) {
	n, err := asInt(v, path)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > 1<<31 {
		return 0, errAt(v, path, "expected a non-negative integer, found %d", n)
	}
	return int(n), nil
}

// relation compiles inside/has/precedes/follows: a rule plus stopBy and
// field.
func (c *compiler) relation(key string, v *value, path string) (matcher, error) {
	if err := asMap(v, path); err != nil {
		return nil, err
	}
	stop, err := c.stopBy(v, path)
	if err != nil {
		return nil, err
	}
	field := ""
	if fv := v.get("field"); fv != nil && fv.kind != nullValue {
		fp := join(path, "field")
		if key == "precedes" || key == "follows" {
			return nil, errAt(fv, fp, "field is only supported in has and inside")
		}
		if field, err = asString(fv, fp); err != nil {
			return nil, err
		}
		ok, err := c.lang.HasField(c.ctx, field)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errAt(fv, fp, "unknown field %q for %s", field, c.lang.Display())
		}
	}
	inner, err := c.ruleFields(v, path)
	if err != nil {
		return nil, err
	}
	switch key {
	case "inside":
		return &insideM{outer: inner, stop: stop, field: field}, nil
	case "has":
		return &hasM{inner: inner, stop: stop, field: field}, nil
	case "precedes":
		return &siblingM{other: inner, stop: stop, forward: true}, nil
	}
	return &siblingM{other: inner, stop: stop}, nil
}

func (c *compiler) stopBy(v *value, path string) (stopBy, error) {
	sv := v.get("stopBy")
	if sv == nil {
		return stopBy{kind: stopNeighbor}, nil
	}
	p := join(path, "stopBy")
	if sv.kind == scalarValue && sv.tag == tagStr {
		switch sv.text {
		case "neighbor":
			return stopBy{kind: stopNeighbor}, nil
		case "end":
			return stopBy{kind: stopEnd}, nil
		}
	}
	if sv.kind != mapValue {
		return stopBy{}, errAt(sv, p, `expected "neighbor", "end" or a rule, found %s`, sv.describe())
	}
	m, err := c.rule(sv, p)
	if err != nil {
		return stopBy{}, err
	}
	return stopBy{kind: stopRule, rule: m}, nil
}
