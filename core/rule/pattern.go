package rule

import (
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/tree"
)

// patternM matches a compiled pattern.
type patternM struct{ p *pattern.Pattern }

func (m *patternM) match(n tree.Node, env *match.Env, _ *evalCtx) (tree.Node, bool) {
	if !env.Budget().Step() {
		return tree.Node{}, false
	}
	return n, m.p.Match(n, env)
}

func (m *patternM) kinds() match.KindSet { return m.p.Kinds() }

func (m *patternM) vars(set map[string]bool) {
	for _, v := range m.p.MetaVars() {
		set[v] = true
	}
}

var patternKeys = []string{"context", "selector", "strictness"}

// pattern compiles a pattern string or a {context, selector, strictness}
// object.
func (c *compiler) pattern(v *value, path string) (matcher, error) {
	var src string
	var opts pattern.Options
	switch {
	case v.kind == scalarValue && v.tag == tagStr:
		src = v.text
	case v.kind == mapValue:
		if err := checkKeys(v, path, patternKeys); err != nil {
			return nil, err
		}
		cv := v.get("context")
		if cv == nil {
			return nil, errAt(v, path, "missing key \"context\"")
		}
		var err error
		if opts.Context, err = asString(cv, join(path, "context")); err != nil {
			return nil, err
		}
		if sv := v.get("selector"); sv != nil && sv.kind != nullValue {
			if opts.Selector, err = asString(sv, join(path, "selector")); err != nil {
				return nil, err
			}
		}
		if st := v.get("strictness"); st != nil && st.kind != nullValue {
			p := join(path, "strictness")
			s, err := asString(st, p)
			if err != nil {
				return nil, err
			}
			if opts.Strictness, err = pattern.ParseStrictness(s); err != nil {
				return nil, errAt(st, p, "%v", err)
			}
		}
	default:
		return nil, errAt(v, path, "expected a pattern string or an object with context, found %s", v.describe())
	}
	p, err := pattern.Compile(c.ctx, c.lang, src, opts)
	if err != nil {
		return nil, wrapAt(v, path, err, "invalid pattern")
	}
	return &patternM{p: p}, nil
}
