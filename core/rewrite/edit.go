package rewrite

import (
	"fmt"
	"sort"
)

// Edit replaces the bytes [Start, End) of a source with Text.
type Edit struct {
	Start, End int
	Text       []byte
}

// Accepted returns the edits Apply applies, in application order: edits are
// taken by their start (ties keep their given order), and an edit starting
// before the end of the previously accepted one overlaps it and is dropped,
// as ast-grep's --update-all does.
func Accepted(edits []Edit) []Edit {
	sorted := make([]Edit, len(edits))
	copy(sorted, edits)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	out := sorted[:0]
	pos := 0
	for _, e := range sorted {
		if e.Start < pos {
			continue
		}
		out = append(out, e)
		pos = e.End
	}
	return out
}

// Apply returns source with the Accepted edits applied. An edit outside
// source is an error.
func Apply(source []byte, edits []Edit) ([]byte, error) {
	for _, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > len(source) {
			return nil, fmt.Errorf("rewrite: edit [%d, %d) is outside the source (%d bytes)", e.Start, e.End, len(source))
		}
	}
	out := make([]byte, 0, len(source))
	pos := 0
	for _, e := range Accepted(edits) {
		out = append(out, source[pos:e.Start]...)
		out = append(out, e.Text...)
		pos = e.End
	}
	return append(out, source[pos:]...), nil
}
