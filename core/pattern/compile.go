package pattern

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// Options refine how a pattern is compiled.
type Options struct {
	// Context is source code that surrounds the pattern so that the grammar
	// parses it as intended, e.g. "func _() { fmt.Errorf($$$A) }". When it
	// is set the pattern source passed to Compile must be empty or equal to
	// it. Without a Selector the context is compiled as a plain pattern.
	Context string
	// Selector is the node kind, e.g. "call_expression", whose first
	// occurrence (in pre-order) in the parsed context is the pattern.
	Selector string
	// Strictness says which candidate nodes the pattern may skip.
	Strictness Strictness
}

// Errors Compile wraps; test with errors.Is.
var (
	// ErrNoContent means the pattern parses to no syntax node.
	ErrNoContent = errors.New("pattern has no syntax node")
	// ErrMultipleNodes means the pattern parses to more than one node.
	ErrMultipleNodes = errors.New("pattern has more than one syntax node")
	// ErrRootMultiMetaVar means the pattern is a lone $$$ metavariable.
	ErrRootMultiMetaVar = errors.New("pattern is a lone multi metavariable")
	// ErrSelector means the selector is not a node kind or matches nothing.
	ErrSelector = errors.New("pattern selector")
)

// Pattern is a compiled pattern. It is immutable and safe for concurrent
// use; it implements match.Matcher.
type Pattern struct {
	lang       *language.Language
	src        string
	tree       *tree.Tree
	root       tree.Node
	node       node
	strictness Strictness
	// rootKind is the selected node's kind for a context pattern, which a
	// candidate must have even when the pattern root is a metavariable.
	rootKind    uint16
	hasRootKind bool
	kinds       match.KindSet
	literals    []string
	words       []string
	fixed       string
}

type nodeKind uint8

const (
	terminalNode nodeKind = iota // a leaf: matched by kind and text
	internalNode                 // an inner node: matched by kind and children
	metaVarNode                  // a metavariable
)

// node is one node of a compiled pattern.
type node struct {
	kind     nodeKind
	mv       metaVar // metaVarNode only
	named    bool    // terminal: a named node; capture/dropped: only named candidates
	kindID   uint16  // terminal and internal
	text     string  // terminal: its text; metavariable: its name
	children []node  // internal
}

func (g *node) isEllipsis() bool {
	return g.kind == metaVarNode && (g.mv == multiple || g.mv == multiCapture)
}

// isTrivial reports an anonymous leaf, which ast-grep steps over after a
// multi metavariable.
func (g *node) isTrivial() bool { return g.kind == terminalNode && !g.named }

// Compile parses src as a pattern of lang. ctx bounds the parse.
func Compile(ctx context.Context, lang *language.Language, src string, opts Options) (*Pattern, error) {
	if lang == nil {
		return nil, errors.New("compile pattern: no language given")
	}
	if opts.Strictness < Smart || opts.Strictness > Template {
		return nil, fmt.Errorf("compile pattern %q: invalid strictness %d", src, int(opts.Strictness))
	}
	if opts.Context != "" {
		if src != "" && src != opts.Context {
			return nil, fmt.Errorf("compile pattern %q: a pattern and a different context %q are both given; put the code in the context and pick the node with a selector", src, opts.Context)
		}
		src = opts.Context
	}
	processed := preprocess(src, lang.Expando())
	t, err := lang.Parse(ctx, []byte(processed))
	if err != nil {
		return nil, fmt.Errorf("compile pattern %q: parse as %s: %w", src, lang.Name(), err)
	}
	p := &Pattern{lang: lang, src: src, tree: t, strictness: opts.Strictness}
	if opts.Selector != "" {
		if err := p.selectNode(ctx, opts.Selector); err != nil {
			return nil, err
		}
	} else if err := p.singleNode(); err != nil {
		return nil, err
	}
	p.node = convert(p.root, lang.Expando())
	if p.node.isEllipsis() {
		return nil, fmt.Errorf("%w: %q matches a list of nodes but a pattern matches one node; use $VAR, or put the $$$ metavariable inside a larger pattern such as f($$$ARGS)", ErrRootMultiMetaVar, src)
	}
	p.kinds = p.potentialKinds()
	p.literals, p.words = p.collectLiterals()
	p.fixed = fixedString(&p.node)
	return p, nil
}

// singleNode finds the pattern root the way ast-grep does: starting at the
// tree's root, descend while a node is "single", i.e. has one child, or
// two where the second is MISSING or of an empty kind.
func (p *Pattern) singleNode() error {
	n := p.tree.Root()
	if n.ChildCount() == 0 {
		return fmt.Errorf("%w: %q parses to nothing to match; write the code to find, e.g. foo($A)", ErrNoContent, p.src)
	}
	if !isSingle(n) {
		return fmt.Errorf("%w: %q parses to several nodes (%s); a pattern must be one node: wrap the parts in one construct, or give the code as a context and pick the node with a selector", ErrMultipleNodes, p.src, childKinds(n))
	}
	for isSingle(n) {
		n = n.FirstChild()
	}
	p.root = n
	return nil
}

func isSingle(n tree.Node) bool {
	switch n.ChildCount() {
	case 1:
		return true
	case 2:
		c := n.Child(1)
		return c.IsMissing() || c.Kind() == ""
	}
	return false
}

func childKinds(n tree.Node) string {
	s := ""
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		if s != "" {
			s += ", "
		}
		s += c.Kind()
	}
	return s
}

// selectNode makes the first node of the selector's kind, in pre-order, the
// pattern root.
func (p *Pattern) selectNode(ctx context.Context, selector string) error {
	ids, err := p.lang.KindIDs(ctx, selector)
	if err != nil {
		return fmt.Errorf("compile pattern %q: %w", p.src, err)
	}
	names := p.tree.Names()
	var want match.KindSet
	for _, id := range ids {
		if names.Named[id] {
			want = want.With(id)
		}
	}
	if strings.HasPrefix("ERROR", selector) {
		// tree-sitter resolves ERROR, and any prefix of it, to the error
		// symbol before it looks at the grammar's own names.
		want = match.NewKindSet(tree.ErrorKindID)
	}
	if want == nil {
		return fmt.Errorf("%w: %q is not a named node kind of %s; see the kinds the context parses to with --debug-query=ast", ErrSelector, selector, p.lang.Display())
	}
	p.tree.Root().Descendants(func(n tree.Node) bool {
		if want.Has(n.KindID()) {
			p.root = n
			return false
		}
		return true
	})
	if p.root.IsZero() {
		return fmt.Errorf("%w: %q matches no node in the context %q; see the kinds the context parses to with --debug-query=ast", ErrSelector, selector, p.src)
	}
	p.rootKind, p.hasRootKind = p.root.KindID(), true
	return nil
}

// convert turns a parsed subtree into pattern nodes. A node whose whole
// text spells a metavariable becomes one, whatever its kind; MISSING nodes
// that error recovery inserted are dropped.
func convert(n tree.Node, sigil rune) node {
	if mv, name, named := parseMetaVar(n.Text(), sigil); mv != notMetaVar {
		return node{kind: metaVarNode, mv: mv, text: name, named: named}
	}
	if n.ChildCount() == 0 {
		return node{kind: terminalNode, kindID: n.KindID(), named: n.IsNamed(), text: n.Text()}
	}
	g := node{kind: internalNode, kindID: n.KindID()}
	g.children = make([]node, 0, n.ChildCount())
	for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
		if !c.IsMissing() {
			g.children = append(g.children, convert(c, sigil))
		}
	}
	return g
}

// potentialKinds is the set of kinds a match can have (nil: any), as
// ast-grep computes it.
func (p *Pattern) potentialKinds() match.KindSet {
	if p.strictness == Template {
		return nil
	}
	switch p.node.kind {
	case metaVarNode:
		if !p.hasRootKind {
			return nil
		}
		return match.NewKindSet(p.rootKind)
	case internalNode:
		if p.node.kindID == tree.ErrorKindID {
			return nil
		}
	}
	return match.NewKindSet(p.node.kindID)
}

// collectLiterals gathers the text of every named leaf: under every level
// but Signature, a match has a node with exactly that text for each. The
// words are those of identifier kinds (a kind named *identifier*), which
// a match holds as whole tokens; not under Template, where a leaf may
// match a node of another kind with the same text.
func (p *Pattern) collectLiterals() (literals, words []string) {
	if p.strictness == Signature {
		return nil, nil
	}
	symbols := p.tree.Names().Symbols
	seen, seenWord := map[string]bool{}, map[string]bool{}
	var walk func(g *node)
	walk = func(g *node) {
		switch g.kind {
		case terminalNode:
			if !g.named || g.text == "" {
				return
			}
			if !seen[g.text] {
				seen[g.text] = true
				literals = append(literals, g.text)
			}
			if p.strictness != Template && int(g.kindID) < len(symbols) &&
				strings.Contains(symbols[g.kindID], "identifier") && !seenWord[g.text] {
				seenWord[g.text] = true
				words = append(words, g.text)
			}
		case internalNode:
			for i := range g.children {
				walk(&g.children[i])
			}
		}
	}
	walk(&p.node)
	sort.SliceStable(literals, func(i, j int) bool { return len(literals[i]) > len(literals[j]) })
	sort.SliceStable(words, func(i, j int) bool { return len(words[i]) > len(words[j]) })
	return literals, words
}

// fixedString is ast-grep's fixed string of a pattern node: a leaf's text,
// nothing for a metavariable, and for an inner node the longest fixed
// string of its children, the first one on a tie.
func fixedString(g *node) string {
	switch g.kind {
	case terminalNode:
		return g.text
	case metaVarNode:
		return ""
	}
	longest := ""
	for i := range g.children {
		if s := fixedString(&g.children[i]); len(s) > len(longest) {
			longest = s
		}
	}
	return longest
}

// Kinds returns the kinds a match can have, or nil when any kind can match.
func (p *Pattern) Kinds() match.KindSet { return p.kinds }

// Root returns the parsed node the pattern stands for.
func (p *Pattern) Root() tree.Node { return p.root }

// Tree returns the parse of the pattern (or of its context).
func (p *Pattern) Tree() *tree.Tree { return p.tree }

// Source returns the pattern source as given (or the context).
func (p *Pattern) Source() string { return p.src }

// Language returns the pattern's language.
func (p *Pattern) Language() *language.Language { return p.lang }

// Strictness returns the pattern's strictness level.
func (p *Pattern) Strictness() Strictness { return p.strictness }

// Literals returns texts that every match contains, longest first: the
// pattern's named leaves, compared by text under every strictness but
// Signature. A file without one of them cannot match. It may be empty.
func (p *Pattern) Literals() []string { return p.literals }

// WordLiterals returns the Literals that a match holds as whole tokens
// (identifiers): where one starts or ends with an ASCII letter, digit or
// '_', the source has none right before or after it. A file where each
// occurrence is part of a longer word (`err` only in `error`, `Map` only
// in `WeakMap`) cannot match. It may be empty.
func (p *Pattern) WordLiterals() []string { return p.words }

// FixedString returns the text `ast-grep run` requires a file to contain
// before it searches the file with this pattern: the longest leaf text of
// the pattern, anonymous tokens included. Unlike Literals it is not always
// present in a match (a Signature leaf, a token Ast may skip), so skipping
// files without it changes results; ast-grep's run does that, and a search
// that must agree with it does the same. Empty means no filter.
func (p *Pattern) FixedString() string { return p.fixed }

// HasErrors reports whether the pattern's node parsed with ERROR or
// MISSING nodes in it, which usually means it does not match what was
// meant.
func (p *Pattern) HasErrors() bool {
	return p.root.IsError() || p.root.IsMissing() || p.root.HasError()
}

// MetaVars returns the names of the capturing metavariables, single and
// multi, in order of first appearance.
func (p *Pattern) MetaVars() []string {
	var out []string
	seen := map[string]bool{}
	var walk func(g *node)
	walk = func(g *node) {
		switch g.kind {
		case metaVarNode:
			if (g.mv == capture || g.mv == multiCapture) && !seen[g.text] {
				seen[g.text] = true
				out = append(out, g.text)
			}
		case internalNode:
			for i := range g.children {
				walk(&g.children[i])
			}
		}
	}
	walk(&p.node)
	return out
}
