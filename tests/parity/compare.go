//go:build parity

package parity

import (
	"fmt"
	"regexp"

	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/host"
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// maxDiffs bounds the mismatches kept per input; after a structural
// mismatch the walk stops, since every later node would differ too.
const maxDiffs = 8

// comparison is the outcome of comparing one input's two trees.
type comparison struct {
	nodes int      // nodes compared
	diffs []string // the first mismatches, node by node
	sexp  string   // where the S-expressions first differ; "" when equal
	// known describes where the S-expressions differ when they differ only
	// where the flat tree cannot carry tree-sitter's internal state (see
	// normalizeSExp); "" otherwise.
	known string
}

func (c *comparison) add(format string, args ...any) {
	if len(c.diffs) < maxDiffs {
		c.diffs = append(c.diffs, fmt.Sprintf(format, args...))
	}
}

// compareTrees walks the native tree with a TreeCursor in pre-order and
// checks each node against loupe's node of the same pre-order index: kind,
// symbol, flags, field, byte range, positions, child count and parent.
// Then it compares the two S-expressions.
func compareTrees(nt *sitter.Tree, lt *tree.Tree) comparison {
	var c comparison
	cur := nt.Walk()
	defer cur.Close()
	var ancestors []int // loupe index of each open ancestor
	i := 0
walk:
	for {
		if i >= lt.Len() {
			c.add("loupe's tree ends after %d nodes, native has more", lt.Len())
			break
		}
		n := cur.Node()
		ln := lt.Node(i)
		if d := diffNode(n, cur.FieldName(), ln); d != "" {
			c.add("node %d: %s", i, d)
		}
		want := -1
		if len(ancestors) > 0 {
			want = ancestors[len(ancestors)-1]
		}
		if got := parentIndex(ln); got != want {
			c.add("node %d (%s): loupe's parent is node %d, native's is node %d", i, ln.Kind(), got, want)
		}
		c.nodes++
		if int(n.ChildCount()) != ln.ChildCount() {
			break // the rest of the walk would be misaligned
		}
		ancestors = append(ancestors, i)
		i++
		if cur.GotoFirstChild() {
			continue
		}
		ancestors = ancestors[:len(ancestors)-1]
		for !cur.GotoNextSibling() {
			if !cur.GotoParent() {
				break walk
			}
			ancestors = ancestors[:len(ancestors)-1]
		}
	}
	if len(c.diffs) == 0 && c.nodes != lt.Len() {
		c.add("native tree has %d nodes, loupe's %d", c.nodes, lt.Len())
	}
	native, loupe := nt.RootNode().ToSexp(), lt.Root().SExp()
	if native != loupe {
		hidden := hiddenNames(lt.Names())
		if normalizeSExp(native, hidden) == normalizeSExp(loupe, hidden) {
			c.known = diffStrings(native, loupe)
		} else {
			c.sexp = diffStrings(native, loupe)
		}
	}
	return c
}

var (
	missingMarker = regexp.MustCompile(` (?:[a-z_][a-z0-9_]*: )?\(MISSING "?([^")]*)"?\)`)
	errorLeaf     = regexp.MustCompile(`\(UNEXPECTED (?:'(?:[^\\]|\\.|\\)'|-?[0-9]+|INVALID)\)|\(ERROR\)`)
)

// normalizeSExp erases from an S-expression the two things the node API,
// and so loupe's flat tree, cannot reproduce from tree-sitter's internals:
//   - MISSING nodes of hidden symbols (e.g. (MISSING "source_file_token1")):
//     ts_node_string prints them, the node API never visits them;
//   - the character of an error leaf, (UNEXPECTED 'c'): tree-sitter prints
//     the lexer's lookahead when the error was found, and prints (ERROR)
//     for an error node whose children are all hidden; loupe knows neither
//     and prints the leaf's first character (both leave a quote or a
//     backslash unescaped).
func normalizeSExp(s string, hidden map[string]bool) string {
	s = missingMarker.ReplaceAllStringFunc(s, func(m string) string {
		if hidden[missingMarker.FindStringSubmatch(m)[1]] {
			return ""
		}
		return m
	})
	return errorLeaf.ReplaceAllString(s, "(UNEXPECTED)")
}

// hiddenNames returns the symbol names that only hidden symbols carry.
func hiddenNames(names *host.Names) map[string]bool {
	visible := map[string]bool{}
	for i, n := range names.Symbols {
		if names.Visible[i] {
			visible[n] = true
		}
	}
	hidden := map[string]bool{}
	for i, n := range names.Symbols {
		if !names.Visible[i] && !visible[n] {
			hidden[n] = true
		}
	}
	return hidden
}

func parentIndex(n tree.Node) int {
	p := n.Parent()
	if p.IsZero() {
		return -1
	}
	return p.Index()
}

// view is the part of a node both implementations report.
type view struct {
	kind                                 string
	symbol                               uint16
	named, extra, missing, isErr, hasErr bool
	field                                string
	start, end                           uint
	startPt, endPt                       sitter.Point
	children                             uint
}

func (v view) String() string {
	flags := ""
	for _, f := range []struct {
		on   bool
		name string
	}{{v.named, "named"}, {v.extra, "extra"}, {v.missing, "missing"}, {v.isErr, "error"}, {v.hasErr, "has-error"}} {
		if f.on {
			flags += " " + f.name
		}
	}
	return fmt.Sprintf("%q#%d%s field=%q bytes [%d,%d) at %d:%d-%d:%d children=%d",
		v.kind, v.symbol, flags, v.field, v.start, v.end,
		v.startPt.Row, v.startPt.Column, v.endPt.Row, v.endPt.Column, v.children)
}

func diffNode(n *sitter.Node, field string, ln tree.Node) string {
	want := view{
		kind: n.Kind(), symbol: n.KindId(),
		named: n.IsNamed(), extra: n.IsExtra(), missing: n.IsMissing(), isErr: n.IsError(), hasErr: n.HasError(),
		field: field, start: n.StartByte(), end: n.EndByte(),
		startPt: n.StartPosition(), endPt: n.EndPosition(), children: n.ChildCount(),
	}
	sp, ep := ln.StartPoint(), ln.EndPoint()
	got := view{
		kind: ln.Kind(), symbol: ln.KindID(),
		named: ln.IsNamed(), extra: ln.IsExtra(), missing: ln.IsMissing(), isErr: ln.IsError(), hasErr: ln.HasError(),
		field: ln.Field(), start: uint(ln.StartByte()), end: uint(ln.EndByte()),
		startPt:  sitter.Point{Row: uint(sp.Row), Column: uint(sp.Column)},
		endPt:    sitter.Point{Row: uint(ep.Row), Column: uint(ep.Column)},
		children: uint(ln.ChildCount()),
	}
	if got == want {
		return ""
	}
	return fmt.Sprintf("native %s, loupe %s", want, got)
}

// diffStrings describes where two S-expressions first differ, or returns
// "" when they are equal.
func diffStrings(native, loupe string) string {
	if native == loupe {
		return ""
	}
	i := 0
	for i < len(native) && i < len(loupe) && native[i] == loupe[i] {
		i++
	}
	from := max(0, i-80)
	clip := func(s string) string { return s[min(from, len(s)):min(i+80, len(s))] }
	return fmt.Sprintf("S-expressions differ at byte %d (native %d bytes, loupe %d):\n  native: …%s…\n  loupe:  …%s…",
		i, len(native), len(loupe), clip(native), clip(loupe))
}
