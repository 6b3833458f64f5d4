package filetools

import (
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/core/rewrite"
)

// diffContext is the number of unchanged lines around each hunk.
const diffContext = 3

// unifiedDiff renders the change from old to new (texts of the file at
// name) as a unified diff with three lines of context; "" when they are
// equal. created and deleted label the missing side /dev/null.
func unifiedDiff(name, old, new string, created, deleted bool) string {
	if old == new && !created && !deleted {
		return ""
	}
	a, b := rewrite.SplitLines(old), rewrite.SplitLines(new)
	var sb strings.Builder
	from, to := "a/"+name, "b/"+name
	if created {
		from = "/dev/null"
	}
	if deleted {
		to = "/dev/null"
	}
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", from, to)
	for _, hunk := range rewrite.Hunks(rewrite.DiffLines(a, b), diffContext) {
		first, last := hunk[0], hunk[len(hunk)-1]
		oldLen := last.OldStart + last.OldLen - first.OldStart
		newLen := last.NewStart + last.NewLen - first.NewStart
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(first.OldStart, oldLen), hunkRange(first.NewStart, newLen))
		for _, op := range hunk {
			if op.Equal {
				writeDiffLines(&sb, ' ', a[op.OldStart:op.OldStart+op.OldLen])
				continue
			}
			writeDiffLines(&sb, '-', a[op.OldStart:op.OldStart+op.OldLen])
			writeDiffLines(&sb, '+', b[op.NewStart:op.NewStart+op.NewLen])
		}
	}
	return sb.String()
}

// hunkRange is a hunk header's "start,len" (0-based start as given): an
// empty range names the line before it, as diff -u does.
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func writeDiffLines(sb *strings.Builder, mark byte, lines []string) {
	for _, l := range lines {
		sb.WriteByte(mark)
		text := strings.TrimSuffix(l, "\n")
		sb.WriteString(strings.TrimSuffix(text, "\r"))
		sb.WriteByte('\n')
		if !strings.HasSuffix(l, "\n") {
			sb.WriteString("\\ No newline at end of file\n")
		}
	}
}

// MaxDiffBytes bounds the diff an answer carries (a preview's, or an
// applied change's): a longer one is cut at a line, with a note of how
// much was left out. An approver is shown the whole diff.
const MaxDiffBytes = 256 << 10

// boundDiff cuts diff to MaxDiffBytes.
func boundDiff(diff string) string {
	if len(diff) <= MaxDiffBytes {
		return diff
	}
	cut := strings.LastIndexByte(diff[:MaxDiffBytes], '\n') + 1
	return diff[:cut] + fmt.Sprintf("[diff cut at %s: %s more not shown]\n", byteSize(MaxDiffBytes), byteSize(int64(len(diff)-cut)))
}
