package rewrite

import "strings"

// DiffOp is a run of equal, deleted or inserted lines, or a replacement
// (deleted lines followed by inserted ones), in line indexes of the old
// and new texts.
type DiffOp struct {
	OldStart, OldLen int
	NewStart, NewLen int
	Equal            bool
}

// SplitLines splits s into lines that keep their "\n"; a last line
// without one is kept too.
func SplitLines(s string) []string {
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

// DiffLines computes a line diff with Myers' algorithm after trimming the
// common prefix and suffix, as a list of ops covering both sides.
func DiffLines(a, b []string) []DiffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []DiffOp
	if pre > 0 {
		ops = append(ops, DiffOp{0, pre, 0, pre, true})
	}
	for _, op := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		op.OldStart += pre
		op.NewStart += pre
		ops = append(ops, op)
	}
	if suf > 0 {
		ops = append(ops, DiffOp{len(a) - suf, suf, len(b) - suf, suf, true})
	}
	return ops
}

// myers diffs a and b (no common prefix or suffix) into ops.
func myers(a, b []string) []DiffOp {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	if n == 0 || m == 0 {
		return []DiffOp{{0, n, 0, m, false}}
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
		return []DiffOp{{0, n, 0, m, false}}
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
	var ops []DiffOp
	oi, ni := 0, 0
	for i := len(edits) - 1; i >= 0; {
		if edits[i].kind == '=' {
			j := i
			for j >= 0 && edits[j].kind == '=' {
				j--
			}
			l := i - j
			ops = append(ops, DiffOp{oi, l, ni, l, true})
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
		ops = append(ops, DiffOp{oi, del, ni, ins, false})
		oi, ni = oi+del, ni+ins
	}
	return ops
}

// Hunks cuts ops into hunks with n lines of context, as the `similar`
// crate (ast-grep's diff library) groups them.
func Hunks(ops []DiffOp, n int) [][]DiffOp {
	if len(ops) == 0 {
		return nil
	}
	ops = append([]DiffOp(nil), ops...)
	if first := &ops[0]; first.Equal {
		offset := max(first.OldLen-n, 0)
		first.OldStart += offset
		first.NewStart += offset
		first.OldLen -= offset
		first.NewLen -= offset
	}
	if last := &ops[len(ops)-1]; last.Equal {
		cut := max(last.OldLen-n, 0)
		last.OldLen -= cut
		last.NewLen -= cut
	}
	var groups [][]DiffOp
	var pending []DiffOp
	for _, op := range ops {
		if op.Equal && op.OldLen > 2*n {
			pending = append(pending, DiffOp{op.OldStart, n, op.NewStart, n, true})
			groups = append(groups, pending)
			offset := max(op.OldLen-n, 0)
			pending = []DiffOp{{op.OldStart + offset, op.OldLen - offset, op.NewStart + offset, op.NewLen - offset, true}}
			continue
		}
		pending = append(pending, op)
	}
	if !(len(pending) == 0 || len(pending) == 1 && pending[0].Equal) {
		groups = append(groups, pending)
	}
	return groups
}
