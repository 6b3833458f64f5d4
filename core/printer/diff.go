package printer

import (
	"fmt"
	"io"
	"strings"

	"github.com/loupe-dev/loupe/core/rewrite"
)

// Diff writes the line diff of old→new as ast-grep prints a rewrite:
// hunks of changed lines with context unchanged lines around them, each
// under an "@@ -a,b +c,d @@" header (0-based starts), as "OLD NEW│±text"
// lines numbered in the old and the new text.
func Diff(w io.Writer, old, new string, context int, pal Palette) {
	a, b := rewrite.SplitLines(old), rewrite.SplitLines(new)
	for _, group := range rewrite.Hunks(rewrite.DiffLines(a, b), context) {
		last := group[len(group)-1]
		oldWidth := digits(last.OldStart + last.OldLen)
		newWidth := digits(last.NewStart + last.NewLen)
		oldLen, newLen := 0, 0
		for _, op := range group {
			oldLen += op.OldLen
			newLen += op.NewLen
		}
		header := fmt.Sprintf("@@ -%d,%d +%d,%d @@", group[0].OldStart, oldLen, group[0].NewStart, newLen)
		fmt.Fprintln(w, pal.Hunk.Paint(header))
		line := func(oldIdx, newIdx int, sign string, text string, st, num Style) {
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
			fmt.Fprintf(w, "%s %s│%s%s", num.Paint(o), num.Paint(n), st.Paint(sign), st.Paint(text))
			if !strings.HasSuffix(text, "\n") {
				fmt.Fprintln(w)
			}
		}
		for _, op := range group {
			if op.Equal {
				for i := range op.OldLen {
					line(op.OldStart+i, op.NewStart+i, " ", a[op.OldStart+i], Style{}, pal.LineNum)
				}
				continue
			}
			for i := range op.OldLen {
				line(op.OldStart+i, -1, "-", a[op.OldStart+i], pal.Delete, pal.Delete)
			}
			for i := range op.NewLen {
				line(-1, op.NewStart+i, "+", b[op.NewStart+i], pal.Insert, pal.Insert)
			}
		}
	}
}

func digits(n int) int { return len(fmt.Sprint(n)) }
