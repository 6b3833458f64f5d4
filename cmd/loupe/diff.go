package main

import (
	"fmt"
	"io"
	"strings"
)

// diffOp is a run of equal, deleted or inserted lines, or a replacement
// (deleted lines followed by inserted ones).
type diffOp struct {
	oldStart, oldLen int
	newStart, newLen int
	equal            bool
}

// splitLinesKeep splits s into lines that keep their "\n"; a last line
// without one is kept too.
func splitLinesKeep(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// maxEditDistance bounds the Myers search; beyond it the differing middle
// is reported as one replacement.
const maxEditDistance = 4096

// diffLines computes a line diff with Myers' algorithm after trimming the
// common prefix and suffix, as a list of ops covering both sides.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	if pre > 0 {
		ops = append(ops, diffOp{0, pre, 0, pre, true})
	}
	for _, op := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		op.oldStart += pre
		op.newStart += pre
		ops = append(ops, op)
	}
	if suf > 0 {
		ops = append(ops, diffOp{len(a) - suf, suf, len(b) - suf, suf, true})
	}
	return ops
}

// myers diffs a and b (no common prefix or suffix) into ops.
func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	if n == 0 || m == 0 {
		return []diffOp{{0, n, 0, m, false}}
	}
	maxD := min(n+m, maxEditDistance)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := false
	for d := 0; d <= maxD && !found; d++ {
		snapshot := make([]int, len(v))
		copy(snapshot, v)
		trace = append(trace, snapshot)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	if !found {
		return []diffOp{{0, n, 0, m, false}}
	}
	// Walk the trace back into per-line edits.
	type edit struct{ kind byte } // '=', '-', '+'
	var edits []edit
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		vd := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && vd[off+k-1] < vd[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := vd[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			edits = append(edits, edit{'='})
			x--
			y--
		}
		if x == prevX {
			edits = append(edits, edit{'+'})
			y--
		} else {
			edits = append(edits, edit{'-'})
			x--
		}
	}
	for x > 0 && y > 0 {
		edits = append(edits, edit{'='})
		x--
		y--
	}
	// Group the edits (in reverse) into ops.
	var ops []diffOp
	oi, ni := 0, 0
	for i := len(edits) - 1; i >= 0; {
		if edits[i].kind == '=' {
			j := i
			for j >= 0 && edits[j].kind == '=' {
				j--
			}
			l := i - j
			ops = append(ops, diffOp{oi, l, ni, l, true})
			oi, ni, i = oi+l, ni+l, j
			continue
		}
		del, ins := 0, 0
		for i >= 0 && edits[i].kind != '=' {
			if edits[i].kind == '-' {
				del++
			} else {
				ins++
			}
			i--
		}
		ops = append(ops, diffOp{oi, del, ni, ins, false})
		oi, ni = oi+del, ni+ins
	}
	return ops
}

// groupOps cuts ops into hunks with n lines of context, as the `similar`
// crate (ast-grep's diff library) groups them.
func groupOps(ops []diffOp, n int) [][]diffOp {
	if len(ops) == 0 {
		return nil
	}
	ops = append([]diffOp(nil), ops...)
	if first := &ops[0]; first.equal {
		offset := max(first.oldLen-n, 0)
		first.oldStart += offset
		first.newStart += offset
		first.oldLen -= offset
		first.newLen -= offset
	}
	if last := &ops[len(ops)-1]; last.equal {
		cut := max(last.oldLen-n, 0)
		last.oldLen -= cut
		last.newLen -= cut
	}
	var groups [][]diffOp
	var pending []diffOp
	for _, op := range ops {
		if op.equal && op.oldLen > 2*n {
			pending = append(pending, diffOp{op.oldStart, n, op.newStart, n, true})
			groups = append(groups, pending)
			offset := max(op.oldLen-n, 0)
			pending = []diffOp{{op.oldStart + offset, op.oldLen - offset, op.newStart + offset, op.newLen - offset, true}}
			continue
		}
		pending = append(pending, op)
	}
	if !(len(pending) == 0 || len(pending) == 1 && pending[0].equal) {
		groups = append(groups, pending)
	}
	return groups
}

func digits(n int) int { return len(fmt.Sprint(n)) }

// printDiff writes old→new as ast-grep prints a rewrite: "@@ -a,b +c,d @@"
// hunk headers (0-based starts) and "OLD NEW│±text" lines.
func printDiff(w io.Writer, old, new string, context int, pal palette) {
	a, b := splitLinesKeep(old), splitLinesKeep(new)
	for _, group := range groupOps(diffLines(a, b), context) {
		last := group[len(group)-1]
		oldWidth := digits(last.oldStart + last.oldLen)
		newWidth := digits(last.newStart + last.newLen)
		oldLen, newLen := 0, 0
		for _, op := range group {
			oldLen += op.oldLen
			newLen += op.newLen
		}
		header := fmt.Sprintf("@@ -%d,%d +%d,%d @@", group[0].oldStart, oldLen, group[0].newStart, newLen)
		fmt.Fprintln(w, pal.hunk.paint(header))
		line := func(oldIdx, newIdx int, sign string, text string, st, num style) {
			var o, n string
			if oldIdx >= 0 {
				o = fmt.Sprintf("%-*d", oldWidth, oldIdx+1)
			} else {
				o = strings.Repeat(" ", oldWidth)
			}
			if newIdx >= 0 {
				n = fmt.Sprintf("%-*d", newWidth, newIdx+1)
			} else {
				n = strings.Repeat(" ", newWidth)
			}
			fmt.Fprintf(w, "%s %s│%s%s", num.paint(o), num.paint(n), st.paint(sign), st.paint(text))
			if !strings.HasSuffix(text, "\n") {
				fmt.Fprintln(w)
			}
		}
		for _, op := range group {
			if op.equal {
				for i := range op.oldLen {
					line(op.oldStart+i, op.newStart+i, " ", a[op.oldStart+i], style{}, pal.lineNum)
				}
				continue
			}
			for i := range op.oldLen {
				line(op.oldStart+i, -1, "-", a[op.oldStart+i], pal.delete, pal.delete)
			}
			for i := range op.newLen {
				line(-1, op.newStart+i, "+", b[op.newStart+i], pal.insert, pal.insert)
			}
		}
	}
}
