package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/loupe-dev/loupe/core/rewrite"
)

func digits(n int) int { return len(fmt.Sprint(n)) }

// printDiff writes old→new as ast-grep prints a rewrite: "@@ -a,b +c,d @@"
// hunk headers (0-based starts) and "OLD NEW│±text" lines.
func printDiff(w io.Writer, old, new string, context int, pal palette) {
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
			if op.Equal {
				for i := range op.OldLen {
					line(op.OldStart+i, op.NewStart+i, " ", a[op.OldStart+i], style{}, pal.lineNum)
				}
				continue
			}
			for i := range op.OldLen {
				line(op.OldStart+i, -1, "-", a[op.OldStart+i], pal.delete, pal.delete)
			}
			for i := range op.NewLen {
				line(-1, op.NewStart+i, "+", b[op.NewStart+i], pal.insert, pal.insert)
			}
		}
	}
}
