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
