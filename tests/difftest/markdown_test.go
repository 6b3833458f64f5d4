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

// Markdown's fenced code blocks are searched in their fence's language,
// which ast-grep does not do: this test checks the search of real READMEs
// and changelogs of npm packages (pinned, fetched into the cache) against
// each fence's content parsed and searched on its own, its matches moved
// to the fence's place in the file.

// markdownCases are Markdown files of npm packages and the language of
// the fences searched in them.
var markdownCases = []struct {
	pkg, version, file, lang, pattern string
}{
	{"zod", "4.6.7", "README.md", "typescript", "$F($$$A)"},
	{"mobx", "7.1.3", "CHANGELOG.md", "javascript", "$F($$$A)"},
	{"node-llama-cpp", "3.22.1", "README.md", "typescript", "await $X"},
}

func TestMarkdownFences(t *testing.T) {
	if testing.Short() {
		t.Skip("npm corpora: skipped with -short")
	}
	ctx := context.Background()
	for _, c := range markdownCases {
		t.Run(c.pkg+"/"+c.file, func(t *testing.T) {
			dir, err := NpmPackage(ctx, c.pkg, c.version)
			if err != nil {
				t.Skip(err)
			}
			path := filepath.Join(dir, c.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lang, err := language.Lookup(c.lang)
			if err != nil {
				t.Fatal(err)
			}
			ps := search.NewPatterns(c.pattern, pattern.Options{}, false)
			want, fences := fenceMatches(ctx, t, src, lang, ps)
			if len(want) == 0 {
				t.Fatalf("no match in %d %s fences: the case is wrong", fences, c.lang)
			}
			var got []string
			_, err = search.Search(ctx, search.Options{Paths: []string{path}, Lang: lang}, ps.MatcherFor(ctx), func(fm search.FileMatches) error {
				for _, m := range fm.Matches {
					got = append(got, fmt.Sprintf("%d-%d %s %q", m.Node.StartByte(), m.Node.EndByte(), m.Lang.Name(), m.Node.Text()))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d matches, %d expected; first difference:\n%s", len(got), len(want), firstDifference(want, got))
			}
			t.Logf("%d matches of %q in %d %s fences", len(got), c.pattern, fences, c.lang)
		})
	}
}

// fenceOpen is the opening line of a fenced code block with an info
// string (CommonMark: up to three spaces, three or more ` or ~).
var fenceOpen = regexp.MustCompile("^ {0,3}(```+|~~~+)[ \t]*([^ \t`{]+)")

// fenceMatches finds the fences of lang in src line by line, parses each
// one's content on its own, and returns the matches of ps in them,
// described as the search describes them, and how many fences there were.
func fenceMatches(ctx context.Context, t *testing.T, src []byte, lang *language.Language, ps *search.Patterns) ([]string, int) {
	t.Helper()
	p, err := ps.Compile(ctx, lang)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fences := 0
	lines := strings.SplitAfter(string(src), "\n")
	off := 0
	for i := 0; i < len(lines); i++ {
		m := fenceOpen.FindStringSubmatch(lines[i])
		off += len(lines[i])
		if m == nil {
			continue
		}
		start, end := off, -1
		for i++; i < len(lines); i++ {
			if closes(lines[i], m[1]) {
				end = off
				off += len(lines[i])
				break
			}
			off += len(lines[i])
		}
		if end < 0 {
			break
		}
		fl, err := language.Lookup(m[2])
		if err != nil || fl != lang {
			continue
		}
		fences++
		tr, err := lang.Parse(ctx, src[start:end])
		if err != nil {
			t.Fatal(err)
		}
		found, err := search.FindAll(ctx, tr, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			out = append(out, fmt.Sprintf("%d-%d %s %q", start+f.Node.StartByte(), start+f.Node.EndByte(), lang.Name(), f.Node.Text()))
		}
	}
	return out, fences
}

// closes reports whether line closes a fence opened with fence: as many
// of its characters or more, and nothing else.
func closes(line, fence string) bool {
	l := strings.TrimSpace(line)
	return len(l) >= len(fence) && strings.Trim(l, fence[:1]) == ""
}
