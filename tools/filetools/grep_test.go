package filetools

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools/paging"
)

// TestWholeFileScan checks that passing over a file its pattern does not
// match as a whole never loses a matching line: the scan is used only for
// patterns without anchors, and finds the same lines as matching line by
// line.
func TestWholeFileScan(t *testing.T) {
	src := "\uFEFFfoo bar\r\nxfoo\r\nfoo-\nbaz\n\n  a\n b\nend"
	dir := workspace(t, map[string]string{"f.txt": src})
	rd, err := search.NewReader(search.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	for _, c := range []struct {
		pattern    string
		unanchored bool
	}{
		{`foo`, true},
		{`\bfoo\b`, true},
		{`foo\B`, true},
		{`o-\B`, true},
		{`[^x]foo`, true},
		{`a\s+b`, true},
		{`(?i)END`, true},
		{`\x{FEFF}foo`, true},
		{`^foo`, false},
		{`foo$`, false},
		{`-$`, false},
		{`(?m)^b`, false},
		{`\Abaz`, false},
		{`^$`, false},
		{`d\z`, false},
	} {
		re := regexp.MustCompile(c.pattern)
		if got := unanchored(re.String()); got != c.unanchored {
			t.Errorf("%s: unanchored %v", c.pattern, got)
		}
		results := [2][]GrepMatch{}
		for i, whole := range []bool{false, true} {
			g := &grepper{re: re, limit: 100, clock: time.Now, timeout: time.Hour, wholeFile: whole && c.unanchored}
			results[i] = g.file(context.Background(), rd, search.File{Path: "f.txt"}).matches
		}
		if !reflect.DeepEqual(results[0], results[1]) {
			t.Errorf("%s: line by line %+v, with the whole-file scan %+v", c.pattern, results[0], results[1])
		}
	}
}

// TestGrepPageBound: a page of many files with one match each, whose
// headings take as much text as their lines, stays within
// paging.MaxTextBytes, and says where the next page starts.
func TestGrepPageBound(t *testing.T) {
	files := map[string]string{}
	for i := range 400 {
		files[fmt.Sprintf("a_directory_with_a_long_name/another_one/file_%03d_with_a_long_name.go", i)] = "a\nhit\nb\n"
	}
	tl, _ := newTools(t, workspace(t, files))
	offset, seen := 0, 0
	for {
		r, err := tl.Grep(context.Background(), GrepParams{Pattern: "hit", MaxResults: 500, Params: paging.Params{Offset: offset}})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(r.Text()); n > paging.MaxTextBytes {
			t.Errorf("offset %d: %d bytes of text, over %d", offset, n, paging.MaxTextBytes)
		}
		seen += len(r.Matches)
		if r.NextOffset == 0 {
			break
		}
		offset = r.NextOffset
	}
	if seen != 400 || offset == 0 {
		t.Errorf("%d matches over the pages, last offset %d", seen, offset)
	}
}
