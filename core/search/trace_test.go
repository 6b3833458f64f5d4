package search

import (
	"context"
	"reflect"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
)

func TestFileFunc(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.ts":    "console.log(1)",
		"b.ts":    "alert(2)",
		"c.ts":    "",
		"d.ts":    "x\x00y",
		"e.py":    "print(1)",
		"f/g.ts":  "console.log(2)",
		"h.ts":    "\xff\xfe",
		"none.md": "# not wanted",
	})
	type event struct {
		Path    string
		Outcome Outcome
		Reason  SkipReason
	}
	var got []event
	ctx := WithFileFunc(context.Background(), func(f File, o Outcome, r SkipReason) {
		got = append(got, event{f.Path, o, r})
	})
	opts := Options{Root: dir, Prefilter: RequireAll("console")}
	mf := func(l *language.Language) (match.Matcher, error) {
		if l.Name() != "typescript" {
			return nil, nil
		}
		return kindOf("call_expression")(l)
	}
	if _, err := Search(ctx, opts, mf, func(FileMatches) error { return nil }); err != nil {
		t.Fatal(err)
	}
	want := []event{
		{"a.ts", Searched, ""},
		{"b.ts", Prefiltered, ""},
		{"c.ts", Unsearched, SkipEmpty},
		{"d.ts", Unsearched, SkipBinary},
		{"e.py", NotWanted, ""},
		{"f/g.ts", Searched, ""},
		{"h.ts", Unsearched, SkipEncoding},
		// Markdown may hold TypeScript in a fence, but not without "console".
		{"none.md", Prefiltered, ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files reported:\n%v\nwant\n%v", got, want)
	}
}
