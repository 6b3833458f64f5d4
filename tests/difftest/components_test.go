package difftest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/pattern"
	"github.com/loupe-dev/loupe/core/search"
)

// Svelte and Vue components (which ast-grep does not parse) are searched
// with their scripts, styles and template expressions in their own
// languages. This test searches the components of npm packages (pinned,
// fetched into the cache) for calls, without a language as `loupe run`
// does, and checks the matches in each <script> against its content
// parsed and searched on its own, moved to its place; the matches in
// the template must lie in its expressions.

var componentCases = []struct {
	pkg, version, ext string
	scripts, template int // the matches expected in scripts and in templates
}{
	{"svelte-sonner", "1.2.1", ".svelte", 174, 23},
	{"vue-multiselect", "3.5.0", ".vue", 3, 28},
}

// scriptBlock is a <script> element: its attributes and content.
var scriptBlock = regexp.MustCompile(`(?s)<script([^>]*)>(.*?)</script>`)

// langAttr is a script's lang attribute.
var langAttr = regexp.MustCompile(`lang=["']?(\w+)`)

func TestComponents(t *testing.T) {
	if testing.Short() {
		t.Skip("npm corpora: skipped with -short")
	}
	ctx := context.Background()
	ps := search.NewPatterns("$F($$$A)", pattern.Options{}, false)
	for _, c := range componentCases {
		t.Run(c.pkg, func(t *testing.T) {
			dir, err := NpmPackage(ctx, c.pkg, c.version)
			if err != nil {
				t.Skip(err)
			}
			var files []string
			err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, c.ext) {
					files = append(files, p)
				}
				return err
			})
			if err != nil || len(files) == 0 {
				t.Fatalf("no %s file in %s: %v", c.ext, dir, err)
			}
			scripts, template := 0, 0
			for _, f := range files {
				s, tm := compareComponent(ctx, t, f, ps)
				scripts += s
				template += tm
			}
			if scripts != c.scripts || template != c.template {
				t.Errorf("%d matches in scripts and %d in templates, want %d and %d", scripts, template, c.scripts, c.template)
			}
			t.Logf("%d files: %d matches in scripts, %d in templates", len(files), scripts, template)
		})
	}
}

// compareComponent checks the search of one component and returns how
// many matches were in its scripts and in its template.
func compareComponent(ctx context.Context, t *testing.T, file string, ps *search.Patterns) (scripts, template int) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	var blocks [][2]int
	for _, m := range scriptBlock.FindAllSubmatchIndex(src, -1) {
		name := "javascript"
		if l := langAttr.FindSubmatch(src[m[2]:m[3]]); l != nil {
			name = string(l[1])
		}
		lang, err := language.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		start, end := m[4], m[5]
		blocks = append(blocks, [2]int{start, end})
		p, err := ps.Compile(ctx, lang)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := lang.Parse(ctx, src[start:end])
		if err != nil {
			t.Fatal(err)
		}
		found, err := search.FindAll(ctx, tr, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			want = append(want, fmt.Sprintf("%d-%d %s %q", start+f.Node.StartByte(), start+f.Node.EndByte(), lang.Name(), f.Node.Text()))
		}
	}
	var got []string
	_, err = search.Search(ctx, search.Options{Paths: []string{file}}, ps.MatcherFor(ctx), func(fm search.FileMatches) error {
		for _, m := range fm.Matches {
			s, e := m.Node.StartByte(), m.Node.EndByte()
			in := slices.ContainsFunc(blocks, func(b [2]int) bool { return s >= b[0] && e <= b[1] })
			if in {
				got = append(got, fmt.Sprintf("%d-%d %s %q", s, e, m.Lang.Name(), m.Node.Text()))
				continue
			}
			template++
			// A template expression: inside {...}, {{...}} or a directive's quotes.
			before := string(src[:s])
			open := max(strings.LastIndex(before, "{"), strings.LastIndex(before, `="`))
			if open < 0 || strings.LastIndex(before, "}") > open && !strings.Contains(before[open:], `="`) {
				t.Errorf("%s: match %q at %d is in no template expression", file, m.Node.Text(), s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: %d matches in scripts, %d expected; first difference:\n%s", file, len(got), len(want), firstDifference(want, got))
	}
	return len(got), template
}
