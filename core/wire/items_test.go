package wire

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestItems: runs of items, written whole or in part and one after the
// other, give the output that writing each encoded item gives, in every
// style, whether the items fill one chunk or many (a few items larger
// than the largest chunk among them), and items freed are reused.
func TestItems(t *testing.T) {
	match := func(i int) *Match {
		text := fmt.Sprintf("f%d(\"x\")", i)
		if i%97 == 5 {
			text = strings.Repeat("long\n", 80000) // larger than a chunk
		}
		return &Match{Text: text, File: "a.ts", Lines: text, Language: "TypeScript",
			Range: Range{ByteOffset: ByteRange{i, i + len(text)}, End: Position{Line: i, Column: 3}}}
	}
	finding := func(i int) *Finding {
		return &Finding{Match: *match(i), RuleID: "r", Severity: "error", Message: "m"}
	}
	for _, style := range []Style{Stream, Compact, Pretty} {
		for _, runs := range [][]int{{0}, {1}, {3, 0, 2}, {500}, {1000, 7, 300}} {
			for _, cut := range []int{0, 1, 200} {
				t.Run(fmt.Sprintf("%s/%v/cut %d", style, runs, cut), func(t *testing.T) {
					var want, got bytes.Buffer
					ww, gw := NewWriter(&want, style), NewWriter(&got, style)
					i := 0
					for r, n := range runs {
						it := NewItems(style)
						take := n
						if r == len(runs)-1 && cut > 0 {
							take = min(n, cut)
						}
						for k := range n {
							if k%2 == 0 {
								it.AddMatch(match(i + k))
								if k < take {
									ww.Write(match(i + k).Encode(style))
								}
							} else {
								it.AddFinding(finding(i + k))
								if k < take {
									ww.Write(finding(i + k).Encode(style))
								}
							}
						}
						if it.Len() != n {
							t.Fatalf("Len %d, want %d", it.Len(), n)
						}
						gw.WriteItems(it, take)
						it.Free()
						i += n
					}
					ww.Close()
					gw.Close()
					if !bytes.Equal(got.Bytes(), want.Bytes()) {
						t.Errorf("WriteItems wrote %d bytes, Write %d:\n%.300s\nwant\n%.300s", got.Len(), want.Len(), got.String(), want.String())
					}
				})
			}
		}
	}
}
