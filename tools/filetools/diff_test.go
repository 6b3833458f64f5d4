package filetools

import "testing"

// TestUnifiedDiffPairsAsAstGrep: where several diffs are equally short, a
// preview pairs the lines as ast-grep's diff (and loupe run -r's, through
// the same rewrite.DiffLines) does, not as a greedy Myers would.
func TestUnifiedDiffPairsAsAstGrep(t *testing.T) {
	tests := []struct{ name, old, new, want string }{
		{"a closing brace added after an equal one", "a\n}\n", "\na\n}\n}\n",
			"--- a/f\n+++ b/f\n@@ -1,2 +1,4 @@\n+\n a\n }\n+}\n"},
		{"a blank line moved", "\na\n", "a\n\n",
			"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n+a\n \n-a\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := unifiedDiff("f", tc.old, tc.new, false, false); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
