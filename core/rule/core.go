package rule

import (
	"context"
	"fmt"
	"sort"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// Core is a compiled rule core: a rule with its constraints, local
// utilities and transforms. It implements match.Matcher and is safe for
// concurrent use.
//
// A match binds the rule's metavariables, checks every constraint against
// the node its metavariable is bound to, and then computes the transforms.
type Core struct {
	lang        *language.Language
	rule        matcher
	constraints map[string]matcher
	transforms  []*transform
	rewrites    bool // a transform rewrites (and needs the enclosing env)
	reg         *registry
	ks          match.KindSet
}

// coreKeys are the keys of a rule core document.
var coreKeys = []string{"rule", "constraints", "utils", "transform"}

// ParseCore compiles a rule core for lang from a JSON-like object with the
// keys rule, constraints, utils and transform (the shape of ast-grep's
// NAPI matcher config). globals may be nil.
func ParseCore(ctx context.Context, lang *language.Language, obj map[string]any, globals *Globals) (*Core, error) {
	v, err := fromGo(obj, 0, "")
	if err != nil {
		return nil, err
	}
	return parseCoreValue(ctx, lang, v, globals)
}

// ParseCoreYAML is ParseCore for a YAML document.
func ParseCoreYAML(ctx context.Context, lang *language.Language, src []byte, globals *Globals) (*Core, error) {
	docs, err := parseYAMLDocs(src)
	if err != nil {
		return nil, err
	}
	if len(docs) != 1 {
		return nil, &Error{Msg: "expected exactly one YAML document"}
	}
	return parseCoreValue(ctx, lang, docs[0], globals)
}

// ParseRule compiles a bare rule object (pattern, kind, has, ...) for lang.
func ParseRule(ctx context.Context, lang *language.Language, obj map[string]any, globals *Globals) (*Core, error) {
	return ParseCore(ctx, lang, map[string]any{"rule": obj}, globals)
}

func parseCoreValue(ctx context.Context, lang *language.Language, v *value, globals *Globals) (*Core, error) {
	if err := asMap(v, ""); err != nil {
		return nil, err
	}
	if err := checkKeys(v, "", coreKeys); err != nil {
		return nil, err
	}
	c, err := newCompiler(ctx, lang, newRegistry(globals))
	if err != nil {
		return nil, err
	}
	return c.core(v, "")
}

// core compiles the rule-core keys of v (other keys are the caller's).
func (c *compiler) core(v *value, path string) (*Core, error) {
	if uv := v.get("utils"); uv != nil && uv.kind != nullValue {
		if err := c.declareLocals(uv, join(path, "utils")); err != nil {
			return nil, err
		}
	}
	rv := v.get("rule")
	if rv == nil {
		return nil, errAt(v, path, "missing key \"rule\"")
	}
	rule, err := c.rule(rv, join(path, "rule"))
	if err != nil {
		return nil, err
	}
	core := &Core{lang: c.lang, rule: rule, reg: c.reg, ks: rule.kinds(), constraints: map[string]matcher{}}
	if cv := v.get("constraints"); cv != nil && cv.kind != nullValue {
		p := join(path, "constraints")
		if err := asMap(cv, p); err != nil {
			return nil, err
		}
		for i, name := range cv.keys {
			m, err := c.rule(cv.vals[i], join(p, name))
			if err != nil {
				return nil, err
			}
			core.constraints[name] = m
		}
	}
	if tv := v.get("transform"); tv != nil && tv.kind != nullValue {
		if core.transforms, err = c.transforms(tv, join(path, "transform")); err != nil {
			return nil, err
		}
		for _, t := range core.transforms {
			core.rewrites = core.rewrites || t.op == opRewrite
		}
	}
	if _, err := core.checkVars(v, path); err != nil {
		return nil, err
	}
	return core, nil
}

// nodeVars returns the metavariables a match can bind to nodes: those of
// the rule, of the local utilities and of the constraints.
func (core *Core) nodeVars() map[string]bool {
	set := map[string]bool{}
	core.rule.vars(set)
	for _, u := range core.reg.local {
		if u.m != nil {
			u.m.vars(set)
		}
	}
	for _, m := range core.constraints {
		m.vars(set)
	}
	return set
}

// definedVars returns nodeVars plus the transform keys.
func (core *Core) definedVars() map[string]bool {
	set := core.nodeVars()
	for _, t := range core.transforms {
		set[t.key] = true
	}
	return set
}

// checkVars checks that constraints and transforms only use defined
// metavariables and returns every defined one.
func (core *Core) checkVars(v *value, path string) (map[string]bool, error) {
	set := core.nodeVars()
	if cv := v.get("constraints"); cv != nil && cv.kind == mapValue {
		for i, name := range cv.keys {
			if !set[name] {
				return nil, errAt(cv.vals[i], join(join(path, "constraints"), name), "metavariable $%s is not defined by the rule", name)
			}
		}
	}
	tv := v.get("transform")
	for _, t := range core.transforms {
		if set[t.key] {
			return nil, errAt(tv.get(t.key), join(join(path, "transform"), t.key), "$%s is already defined by the rule", t.key)
		}
		set[t.key] = true
	}
	for _, t := range core.transforms {
		if !set[t.source] {
			return nil, errAt(tv.get(t.key), join(join(path, "transform"), t.key), "source metavariable $%s is not defined", t.source)
		}
	}
	return set, nil
}

// Match reports whether n matches, binding metavariables (and transformed
// variables) in env. On false env is unchanged.
func (core *Core) Match(n tree.Node, env *match.Env) bool {
	_, ok := core.do(n, env, nil, nil)
	return ok
}

// Kinds returns the kinds a match can have; nil means any kind.
func (core *Core) Kinds() match.KindSet { return core.ks }

// Language returns the language the core was compiled for.
func (core *Core) Language() *language.Language { return core.lang }

// do matches n. enclosing is the environment a rewriter inherits from the
// rule that calls it (nil at the top level).
func (core *Core) do(n tree.Node, env *match.Env, enclosing *match.Env, ec *evalCtx) (tree.Node, bool) {
	if !core.ks.Has(n.KindID()) || !env.Budget().Step() {
		return tree.Node{}, false
	}
	mark := env.Mark()
	found, ok := core.rule.match(n, env, ec)
	if !ok {
		return tree.Node{}, false
	}
	if len(core.constraints) > 0 && !core.checkConstraints(env, ec) {
		env.Rollback(mark)
		return tree.Node{}, false
	}
	if len(core.transforms) > 0 {
		if enclosing == nil && core.rewrites {
			enclosing = env.Clone()
		}
		for _, t := range core.transforms {
			if !t.apply(env, enclosing, core.reg) {
				env.Rollback(mark)
				return tree.Node{}, false
			}
		}
	}
	return found, true
}

// checkConstraints matches each constrained single metavariable's node
// against its constraint rule.
func (core *Core) checkConstraints(env *match.Env, ec *evalCtx) bool {
	type bound struct {
		name string
		node tree.Node
	}
	var todo []bound
	env.Singles(func(name string, n tree.Node) {
		if core.constraints[name] != nil {
			todo = append(todo, bound{name, n})
		}
	})
	sort.Slice(todo, func(i, j int) bool { return todo[i].name < todo[j].name })
	for _, b := range todo {
		if _, ok := core.constraints[b.name].match(b.node, env, ec); !ok {
			return false
		}
	}
	return true
}

// transformKeys returns the names of the transformed variables.
func (core *Core) transformKeys() []string {
	keys := make([]string, len(core.transforms))
	for i, t := range core.transforms {
		keys[i] = t.key
	}
	return keys
}

// checkRewriters checks that every rewriter a transform names exists;
// prefix is the path of the core in its document.
func (core *Core) checkRewriters(prefix string) error {
	for _, t := range core.transforms {
		for _, id := range t.rewriters {
			if core.reg.rewriters[id] == nil {
				return &Error{Path: prefix + "transform." + t.key, Msg: fmt.Sprintf("rewriter %q is not defined", id)}
			}
		}
	}
	return nil
}
