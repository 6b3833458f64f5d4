package main

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/tree"
)

// printDebugTree prints --debug-query=ast|cst|sexp: the tree of the
// pattern text parsed as is (metavariables not rewritten), as ast-grep
// prints it.
func printDebugTree(ctx context.Context, e *env, o *runOptions, pal palette) {
	t, err := o.lang.Parse(ctx, []byte(o.pattern))
	if err != nil {
		fmt.Fprintf(e.stderr, "Error: parse the pattern: %v\n", err)
		return
	}
	switch o.debugQuery {
	case "sexp":
		fmt.Fprintf(e.stderr, "Debug Sexp:\n%s\n", t.Root().SExp())
	case "ast":
		fmt.Fprintf(e.stderr, "Debug AST:\n%s\n", dumpTree(t.Root(), true, pal))
	case "cst":
		fmt.Fprintf(e.stderr, "Debug CST:\n%s\n", dumpTree(t.Root(), false, pal))
	}
}

// dumpPattern prints --debug-query=pattern: the compiled pattern as
// ast-grep dumps it, one node per line: "kind text" for a named leaf, the
// text of an anonymous one, "kind" for an inner node and "MetaVar $X" for
// a metavariable. Anonymous leaves are left out under the strictness
// levels that skip them, and Template shows no kinds.
func dumpPattern(p *pattern.Pattern, pal palette) string {
	var b strings.Builder
	sigil := p.Language().Expando()
	s := p.Strictness()
	var walk func(n tree.Node, depth int)
	walk = func(n tree.Node, depth int) {
		indent := strings.Repeat("  ", depth)
		if mv, ok := metaVarDisplay(n.Text(), sigil); ok {
			fmt.Fprintf(&b, "%s%s %s\n", indent, pal.field.paint("MetaVar"), pal.kind.paint(mv))
			return
		}
		if n.ChildCount() == 0 {
			if !n.IsNamed() {
				if s == pattern.Cst || s == pattern.Smart || s == pattern.Template {
					fmt.Fprintf(&b, "%s%s\n", indent, n.Text())
				}
				return
			}
			text := n.Text()
			if s == pattern.Signature {
				text = ""
			}
			if s == pattern.Template {
				fmt.Fprintf(&b, "%s%s\n", indent, text)
				return
			}
			if text == "" {
				fmt.Fprintf(&b, "%s%s\n", indent, pal.kind.paint(n.Kind()))
			} else {
				fmt.Fprintf(&b, "%s%s %s\n", indent, pal.kind.paint(n.Kind()), text)
			}
			return
		}
		kind := n.Kind()
		if s == pattern.Template {
			kind = "(node)"
		}
		fmt.Fprintf(&b, "%s%s\n", indent, pal.kind.paint(kind))
		for c := n.FirstChild(); !c.IsZero(); c = c.NextSibling() {
			if !c.IsMissing() {
				walk(c, depth+1)
			}
		}
	}
	walk(p.Root(), 0)
	return b.String()
}

// metaVarDisplay reads text (with the language's expando character) as a
// metavariable, by the rules core/pattern applies, and spells it as
// ast-grep's dump does: $A for $A and $$A, $$$A, $$$ for an anonymous
// list, $_ for a non-capturing one.
func metaVarDisplay(text string, sigil rune) (string, bool) {
	sig := string(sigil)
	three := strings.Repeat(sig, 3)
	switch {
	case !strings.HasPrefix(text, sig):
		return "", false
	case text == three:
		return "$$$", true
	}
	if rest, ok := strings.CutPrefix(text, three); ok {
		switch {
		case !metaChars(rest):
			return "", false
		case rest[0] == '_':
			return "$$$", true
		}
		return "$$$" + rest, true
	}
	rest := strings.TrimPrefix(text[utf8.RuneLen(sigil):], sig)
	switch {
	case !metaChars(rest) || rest[0] >= '0' && rest[0] <= '9':
		return "", false
	case rest[0] == '_':
		return "$_", true
	}
	return "$" + rest, true
}

// metaChars reports a non-empty run of A-Z, 0-9 and _.
func metaChars(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r == '_' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
