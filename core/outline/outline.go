// Package outline lists the structure of a source file as `ast-grep
// outline` (0.51) does: its top-level items (functions, types, constants,
// imports...) and the direct members of each (fields, methods, variants),
// each with a symbol type, a name, a one-line signature and a range.
//
// Items and members are found by per-language extractors: a rule of
// loupe's rule engine (core/rule) selects the syntax, a template names
// it, and optional rules decide whether an item is an import or is
// exported and whether a member is public. A file is walked once in
// pre-order: the first item extractor matching a node makes it an item,
// and the item's subtree is searched for members only (items never nest).
package outline

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/core/wire"
)

// SymbolTypes are the symbol types an entry may have (the names of the
// Language Server Protocol's DocumentSymbol kinds), in the order the text
// views group them.
var SymbolTypes = []string{
	"file", "module", "namespace", "package", "class", "struct", "enum",
	"interface", "function", "method", "constructor", "property", "field",
	"enumMember", "variable", "constant", "string", "number", "boolean",
	"array", "object", "key", "null", "event", "operator", "typeParameter",
}

// ParseSymbolType returns the symbol type raw names, ignoring case, '-'
// and '_' ("enum-member" is enumMember), or false when it names none.
func ParseSymbolType(raw string) (string, bool) {
	norm := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(raw))
	for _, s := range SymbolTypes {
		if strings.ToLower(s) == norm {
			return s, true
		}
	}
	return "", false
}

// Entry is what items and members share.
type Entry struct {
	// Role is "item" or "member".
	Role string
	// SymbolType is one of SymbolTypes.
	SymbolType string
	// Name is the entry's name as its extractor renders it.
	Name string
	// Range is the extent of the matched node.
	Range wire.Range
	// Signature is the entry's head on one line ("" when only names were
	// asked for).
	Signature string
	// ASTKind is the grammar kind of the matched node.
	ASTKind string
}

// Item is one top-level entry of a file.
type Item struct {
	Entry
	IsImport   bool
	IsExported bool
	Members    []Member
}

// Member is one direct member of an item.
type Member struct {
	Entry
	IsPublic bool
}

// Filter is a three-way filter on a flag.
type Filter int

// The values of a Filter.
const (
	Any Filter = iota // keep every entry
	Yes               // keep entries with the flag set
	No                // keep entries with the flag clear
)

func (f Filter) keep(v bool) bool {
	switch f {
	case Yes:
		return v
	case No:
		return !v
	}
	return true
}

// Options select the items and members of an outline and how much text
// each carries.
type Options struct {
	// Types keeps only items of these symbol types; nil keeps all.
	Types []string
	// Match keeps only items whose name or signature it matches.
	Match *regexp.Regexp
	// Imports and Exported filter items on IsImport and IsExported.
	Imports, Exported Filter
	// ItemSignatures computes item signatures (else they are ""); Match
	// implies it.
	ItemSignatures bool
	// Members extracts members; without it items have none.
	Members bool
	// Public filters members on IsPublic.
	Public Filter
	// MemberSignatures computes member signatures.
	MemberSignatures bool
}

// Languages returns the names of the languages with built-in
// extractors, sorted.
func Languages() []string { return Default().Languages() }

// Extractor is the compiled outline extractors of one language for one
// Options. It is safe for concurrent use.
type Extractor struct {
	opts    Options
	items   []*compiled
	members map[string][]*compiled // by parent item id
}

// compiled is one extractor, compiled.
type compiled struct {
	def       *def
	core      *rule.Core
	name, sig *rewrite.Template
	flag      predicate // isImport... see def
	exported  predicate
}

// predicate is a flag's literal value or rule.
type predicate struct {
	value bool
	core  *rule.Core // nil: value
}

func (p predicate) eval(n tree.Node, env *match.Env) bool {
	if p.core == nil {
		return p.value
	}
	mark := env.Mark()
	ok := p.core.Match(n, env)
	env.Rollback(mark)
	return ok
}

// Compile compiles the built-in extractors of lang for opts; it returns
// nil when lang has none.
func Compile(ctx context.Context, lang *language.Language, opts Options) (*Extractor, error) {
	return Default().Compile(ctx, lang, opts)
}

// Compile compiles the set's extractors of lang for opts; it returns nil
// when lang has none.
func (r *RuleSet) Compile(ctx context.Context, lang *language.Language, opts Options) (*Extractor, error) {
	defs := r.defs[lang.Name()]
	if len(defs) == 0 {
		return nil, nil
	}
	if opts.Match != nil {
		opts.ItemSignatures = true
	}
	x := &Extractor{opts: opts, members: map[string][]*compiled{}}
	for i := range defs {
		d := &defs[i]
		if !x.retain(d) {
			continue
		}
		c, err := compile(ctx, lang, d, opts)
		if err != nil {
			return nil, fmt.Errorf("outline extractor %s: %w", d.id, err)
		}
		if d.member {
			for _, p := range d.parents {
				x.members[p] = append(x.members[p], c)
			}
		} else {
			x.items = append(x.items, c)
		}
	}
	return x, nil
}

// retain reports whether d can yield anything opts keep, judged before
// matching: a flag given by a rule may go either way.
func (x *Extractor) retain(d *def) bool {
	if d.member {
		return x.opts.Members && (d.public.isRule() || x.opts.Public.keep(d.public.literal(true)))
	}
	if x.opts.Types != nil && !slices.Contains(x.opts.Types, d.symbol) {
		return false
	}
	return (d.imp.isRule() || x.opts.Imports.keep(d.imp.literal(false))) &&
		(d.exp.isRule() || x.opts.Exported.keep(d.exp.literal(true)))
}

func compile(ctx context.Context, lang *language.Language, d *def, opts Options) (*compiled, error) {
	var core *rule.Core
	var err error
	if d.core != nil {
		core, err = rule.ParseCore(ctx, lang, d.core, nil)
	} else {
		core, err = rule.ParseCoreYAML(ctx, lang, []byte(d.rule), nil)
	}
	if err != nil {
		return nil, err
	}
	c := &compiled{def: d, core: core, name: rewrite.Compile(d.name, d.transformed)}
	if d.sig != "" && ((d.member && opts.MemberSignatures) || (!d.member && opts.ItemSignatures)) {
		c.sig = rewrite.Compile(d.sig, d.transformed)
	}
	pred := func(f flagDef, dflt bool) (predicate, error) {
		if f.ruleMap != nil {
			pc, err := rule.ParseRule(ctx, lang, f.ruleMap, nil)
			if err != nil {
				return predicate{}, err
			}
			return predicate{core: pc}, nil
		}
		if f.rule == "" {
			return predicate{value: f.literal(dflt)}, nil
		}
		pc, err := rule.ParseCoreYAML(ctx, lang, []byte("rule:\n"+indent(f.rule)), nil)
		if err != nil {
			return predicate{}, err
		}
		return predicate{core: pc}, nil
	}
	if d.member {
		if c.flag, err = pred(d.public, true); err != nil {
			return nil, err
		}
		return c, nil
	}
	if c.flag, err = pred(d.imp, false); err != nil {
		return nil, err
	}
	if c.exported, err = pred(d.exp, true); err != nil {
		return nil, err
	}
	return c, nil
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// Extract returns the items of t that the options keep, in source order.
func (x *Extractor) Extract(ctx context.Context, t *tree.Tree) ([]Item, error) {
	var items []Item
	env := match.NewEnv(nil)
	var walk func(n tree.Node) error
	walk = func(n tree.Node) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if c := x.matchItem(n, env); c != nil {
			it := Item{Entry: x.entry(c, "item", n, env, x.opts.ItemSignatures)}
			it.IsImport = c.flag.eval(n, env)
			it.IsExported = c.exported.eval(n, env)
			env.Reset()
			if scope := x.members[c.def.id]; len(scope) > 0 {
				for i := 0; i < n.ChildCount(); i++ {
					x.collect(n.Child(i), scope, env, &it.Members)
				}
			}
			if x.keep(&it) {
				items = append(items, it)
			}
			return nil
		}
		for i := 0; i < n.ChildCount(); i++ {
			if err := walk(n.Child(i)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(t.Root()); err != nil {
		return nil, err
	}
	return items, nil
}

// matchItem returns the first item extractor n matches, with its
// bindings left in env.
func (x *Extractor) matchItem(n tree.Node, env *match.Env) *compiled {
	id := n.KindID()
	for _, c := range x.items {
		if ks := c.core.Kinds(); ks != nil && !ks.Has(id) {
			continue
		}
		env.Reset()
		if c.core.Match(n, env) {
			return c
		}
	}
	return nil
}

// collect adds the members under n (n included) to out: a node a member
// extractor matches is a member and is not searched further.
func (x *Extractor) collect(n tree.Node, scope []*compiled, env *match.Env, out *[]Member) {
	id := n.KindID()
	for _, c := range scope {
		if ks := c.core.Kinds(); ks != nil && !ks.Has(id) {
			continue
		}
		env.Reset()
		if !c.core.Match(n, env) {
			continue
		}
		m := Member{Entry: x.entry(c, "member", n, env, x.opts.MemberSignatures), IsPublic: c.flag.eval(n, env)}
		env.Reset()
		if x.opts.Public.keep(m.IsPublic) {
			*out = append(*out, m)
		}
		return
	}
	for i := 0; i < n.ChildCount(); i++ {
		x.collect(n.Child(i), scope, env, out)
	}
}

func (x *Extractor) entry(c *compiled, role string, n tree.Node, env *match.Env, withSig bool) Entry {
	name := string(c.name.Expand(env))
	if f := c.def.nameField; f != "" {
		name = strings.TrimSpace(n.ChildByField(f).Text())
	}
	e := Entry{
		Role:       role,
		SymbolType: c.def.symbol,
		Name:       name,
		Range:      wire.NodeRange(n),
		ASTKind:    n.Kind(),
	}
	if withSig {
		if c.sig != nil {
			e.Signature = string(c.sig.Expand(env))
		} else {
			e.Signature = firstLine(n.Tree().Source()[signatureStart(c, n, env):n.EndByte()])
		}
	}
	return e
}

// signatureStart is where a default signature is looked for: the start
// of the line where the name's first metavariable is bound, not before
// n's start (a name on a later line than n's keyword, as in a grouped Go
// `type (`, gives the line that names it).
func signatureStart(c *compiled, n tree.Node, env *match.Env) int {
	start := n.StartByte()
	vars := c.name.Vars()
	if len(vars) == 0 {
		return start
	}
	v, ok := env.Single(vars[0].Name)
	if !ok || v.StartByte() <= start {
		return start
	}
	src := n.Tree().Source()
	line := bytes.LastIndexByte(src[:v.StartByte()], '\n') + 1
	return max(line, start)
}

// firstLine is the first line of s that is not blank, trimmed.
func firstLine(s []byte) string {
	for line := range bytes.Lines(s) {
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return string(t)
		}
	}
	return ""
}

func (x *Extractor) keep(it *Item) bool {
	o := &x.opts
	if o.Types != nil && !slices.Contains(o.Types, it.SymbolType) {
		return false
	}
	if o.Match != nil && !o.Match.MatchString(it.Name) && !o.Match.MatchString(it.Signature) {
		return false
	}
	return o.Imports.keep(it.IsImport) && o.Exported.keep(it.IsExported)
}
