package printer

import "sort"

// widthRun is a run of code points lo..hi (inclusive) of display width w.
type widthRun struct {
	lo, hi rune
	w      uint8
}

// RuneWidth is a character's display width in the text report, as
// ast-grep's (codespan-reporting over the unicode-width crate) gives it
// to a character on its own: 0 for C0 controls and DEL, else the width
// widthRuns gives it (0 for C1 controls, combining and default-ignorable
// characters, 2 for East Asian wide and fullwidth ones and emoji, 3 for
// U+17D8), else 1. A tab is not a character of fixed width: the report
// expands it to the next stop of four columns.
func RuneWidth(r rune) int {
	if r < 0x20 || r == 0x7f {
		return 0
	}
	i := sort.Search(len(widthRuns), func(i int) bool { return widthRuns[i].hi >= r })
	if i < len(widthRuns) && widthRuns[i].lo <= r {
		return int(widthRuns[i].w)
	}
	return 1
}
