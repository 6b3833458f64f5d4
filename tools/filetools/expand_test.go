package filetools

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestReplaceBounded (issue 33 item 6): a replacement whose result would
// pass the write limit is refused before it is built ((?s)(.+) → $1×1000
// on a 1 MB file reached 7.3 GiB), a preview too, and a preview's diff is
// cut at MaxDiffBytes.
func TestReplaceBounded(t *testing.T) {
	big := strings.Repeat("a", 1<<20)
	dir := workspace(t, map[string]string{"big.txt": big, "lines.txt": strings.Repeat("line\n", 100_000)})
	tl, _ := newTools(t, dir)
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		p       ReplaceInFileParams
		refused bool
	}{
		{"group x1000", ReplaceInFileParams{Path: "big.txt", Find: "(?s)(.+)", Replace: strings.Repeat("$1", 1000), IsRegex: true}, true},
		{"group x100 preview", ReplaceInFileParams{Path: "big.txt", Find: "(?s)(.+)", Replace: strings.Repeat("${1}", 100), IsRegex: true, PreviewOnly: true}, true},
		{"group x30", ReplaceInFileParams{Path: "big.txt", Find: "(?s)(.+)", Replace: strings.Repeat("$1", 30), IsRegex: true}, true},
		{"literal x20", ReplaceInFileParams{Path: "big.txt", Find: "a", Replace: strings.Repeat("b", 20)}, true},
		{"group x2 preview", ReplaceInFileParams{Path: "big.txt", Find: "(?s)(.+)", Replace: "$1$1", IsRegex: true, PreviewOnly: true}, false},
		{"every line preview", ReplaceInFileParams{Path: "lines.txt", Find: "line", Replace: "LINE", PreviewOnly: true}, false},
	} {
		r, err := tl.ReplaceInFile(ctx, c.p)
		if c.refused {
			if e := toolError(t, err); !strings.Contains(e.Msg, "the limit is 10.0 MiB") {
				t.Errorf("%s: %v, want a refusal naming the limit", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(r.Diff) > MaxDiffBytes+100 || !strings.Contains(r.Diff, "[diff cut at 256.0 KiB") {
			t.Errorf("%s: diff of %d bytes, want it cut at %d", c.name, len(r.Diff), MaxDiffBytes)
		}
	}
	if got := readBack(t, dir, "big.txt"); got != big {
		t.Error("big.txt changed")
	}
}

// TestTemplateSize: the size counted before an expansion is what
// regexp.Expand makes of it.
func TestTemplateSize(t *testing.T) {
	re := regexp.MustCompile(`(?P<word>[a-z]+)-(\d+)?`)
	src := "abc-12 de- xyz-7"
	for _, tmpl := range []string{"", "x", "$1", "${1}", "$word", "${word}!", "$$1", "$1x", "${1}x", "$2$2$0", "$9", "${", "${word", "$", "a$-b", "${nope}z", "$10"} {
		for _, m := range re.FindAllStringSubmatchIndex(src, -1) {
			want := len(re.ExpandString(nil, tmpl, src, m))
			if got := parseTemplate(re, tmpl).size(m); got != int64(want) {
				t.Errorf("template %q on %q: size %d, Expand makes %d", tmpl, src[m[0]:m[1]], got, want)
			}
		}
	}
}
