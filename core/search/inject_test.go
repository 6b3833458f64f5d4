package search

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
)

func TestSearchInjected(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.js":      "f(1)\n",
		"page.html": "<p>x</p>\n<script>f(2)</script>\n<style>.a { color: red }</style>\n<script lang=\"ts\">f(3)</script>\n",
		"README.md": "# Use\n\n```js\nf(4)\n```\n\n```python\nf(5)\n```\n",
		"b.py":      "f(6)\n",
		"c.css":     ".c { color: blue }\n",
	})
	// A query of several languages, as `run` without --lang searches.
	kinds := map[string]string{"javascript": "call_expression", "typescript": "call_expression", "python": "call", "css": "declaration"}
	any := func(l *language.Language) (match.Matcher, error) {
		if kind, ok := kinds[l.Name()]; ok {
			return kindOf(kind)(l)
		}
		return nil, nil
	}
	cases := []struct {
		lang string
		want []string // path:line:language:text
	}{
		{"", []string{
			"README.md:4:JavaScript:f(4)", "README.md:8:Python:f(5)",
			"a.js:1:JavaScript:f(1)", "b.py:1:Python:f(6)", "c.css:1:Css:color: blue",
			// The page's own code (HTML has none of these kinds) is
			// passed over, and its regions with it, as ast-grep does.
		}},
		{"javascript", []string{"README.md:4:JavaScript:f(4)", "a.js:1:JavaScript:f(1)", "page.html:2:JavaScript:f(2)"}},
		{"typescript", []string{"page.html:4:TypeScript:f(3)"}},
		{"css", []string{"c.css:1:Css:color: blue", "page.html:3:Css:color: red"}},
		{"html", nil},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			opts := Options{Root: dir}
			if c.lang != "" {
				opts.Lang = lang(t, c.lang)
			}
			var got []string
			_, err := Search(context.Background(), opts, any, func(fm FileMatches) error {
				for _, m := range fm.Matches {
					got = append(got, fmt.Sprintf("%s:%d:%s:%s", fm.File.Path, m.Node.StartPoint().Row+1, m.Lang.Display(), m.Node.Text()))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("matches\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
