package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/tests/difftest"
	"github.com/loupe-dev/loupe/tools/astgrep"
	"github.com/loupe-dev/loupe/tools/filetools"
	"github.com/loupe-dev/loupe/tools/paging"
)

// pagingFull runs TestPagingCorpora on the whole of GOROOT/src instead of
// GOROOT/src/net/http (make paging-full).
var pagingFull = os.Getenv("LOUPE_PAGING_FULL") != ""

// pagedTool reads one page of a list tool's answer from its Output, in the
// text's face (Output.Result, which the text renders) and in the
// structured one.
type pagedTool struct {
	// page returns the page's items (a key each), the offset of the next
	// page (0: none) and the whole list's length.
	page func(*Output) (keys []string, next, total int)
	// structured returns the structured form's items and next_offset.
	structured func(*Output) (keys []string, next int)
	// big is the parameter that makes pages larger, for a second walk
	// whose pages end elsewhere (nil: none).
	big map[string]any
}

var pagedTools = map[string]pagedTool{
	"grep": {
		page: func(o *Output) ([]string, int, int) {
			r := o.Result.(*filetools.GrepResult)
			return mapKeys(r.Matches, func(m filetools.GrepMatch) string { return fmt.Sprintf("%s:%d", m.File, m.Line) }), r.NextOffset, r.TotalMatches
		},
		structured: func(o *Output) ([]string, int) {
			s := o.Structured.(grepOutput)
			return mapKeys(s.Matches, func(m grepLine) string { return fmt.Sprintf("%s:%d", m.File, m.Line) }), s.NextOffset
		},
		big: map[string]any{"max_results": 500},
	},
	"glob": {
		page: func(o *Output) ([]string, int, int) {
			r := o.Result.(*filetools.GlobResult)
			return r.Files, r.NextOffset, r.TotalFiles
		},
		structured: func(o *Output) ([]string, int) {
			s := o.Structured.(globOutput)
			return s.Files, s.NextOffset
		},
		big: map[string]any{"max_results": 500},
	},
	"search": {
		page: func(o *Output) ([]string, int, int) {
			r := o.Result.(*filetools.SearchResult)
			return mapKeys(r.Results, func(h filetools.SearchHit) string { return h.Path }), r.NextOffset, r.TotalMatches
		},
		structured: func(o *Output) ([]string, int) {
			s := o.Structured.(searchOutput)
			return mapKeys(s.Results, func(h filetools.SearchHit) string { return h.Path }), s.NextOffset
		},
		big: map[string]any{"max_results": 500},
	},
	"list_directory": {
		page: func(o *Output) ([]string, int, int) {
			r := o.Result.(*filetools.ListDirectoryResult)
			return mapKeys(r.Entries, func(e filetools.Entry) string { return e.Name }), r.NextOffset, r.TotalEntries
		},
		structured: func(o *Output) ([]string, int) {
			s := o.Structured.(listOutput)
			return mapKeys(s.Entries, func(e filetools.Entry) string { return e.Name }), s.NextOffset
		},
		big: map[string]any{"max_results": 500},
	},
	"ast_grep": {
		page: func(o *Output) ([]string, int, int) {
			r := o.Result.(*astgrep.Result)
			return mapKeys(r.Matches, func(m astgrep.Match) string {
				return fmt.Sprintf("%s:%d:%d-%d:%d %s", m.File, m.StartLine, m.StartCol, m.EndLine, m.EndCol, m.NodeKind)
			}), r.NextOffset, r.TotalMatches
		},
		structured: func(o *Output) ([]string, int) {
			s := o.Structured.(astGrepOutput)
			return mapKeys(s.Matches, func(m compactMatch) string {
				return fmt.Sprintf("%s:%d:%d-%d:%d %s", m.File, m.StartLine, m.StartCol, m.EndLine, m.EndCol, m.NodeKind)
			}), s.NextOffset
		},
		big: map[string]any{"maxResults": 1000},
	},
	"structural_analysis": {
		page: func(o *Output) ([]string, int, int) {
			p := o.Result.(*analysisPage)
			return mapKeys(p.items, analysisKey), p.NextOffset, p.TotalItems
		},
		structured: func(o *Output) ([]string, int) {
			s := o.Structured.(analysisOutput)
			return mapKeys(s.Items, analysisKey), s.NextOffset
		},
	},
}

// analysisKey names an item by what the structured form keeps whole.
func analysisKey(it analysisItem) string {
	return fmt.Sprintf("%s %d %s:%d %s", it.Kind, it.Depth, it.File, it.Line, it.Detail)
}

func mapKeys[T any](items []T, key func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = key(it)
	}
	return out
}

// walkPages pages through a call's answer from offset 0 to the last item,
// following the text's offsets, and checks each page against its bounds
// and its own words, and its structured form against it: the same items,
// or the first of them and the offset of the next (the structured size
// bound cut the page short).
//
// stopped says whether a call was stopped by its time limit (a machine
// under load): its answer is partial, and a later call's may hold more.
func walkPages(t *testing.T, tool *Tool, pt pagedTool, params map[string]any) (keys []string, total int, stopped bool) {
	t.Helper()
	offset, calls := 0, 0
	for {
		p := map[string]any{}
		for k, v := range params {
			p[k] = v
		}
		p["offset"] = offset
		raw, _ := json.Marshal(p)
		out, err := tool.Call(context.Background(), raw)
		if err != nil {
			t.Fatalf("%s %s: %v", tool.Name, raw, err)
		}
		if len(out.Text) > paging.MaxTextBytes {
			t.Errorf("%s %s: %d bytes of text, over %d", tool.Name, raw, len(out.Text), paging.MaxTextBytes)
		}
		js, err := json.Marshal(out.Structured)
		if err != nil {
			t.Fatal(err)
		}
		if len(js) > MaxStructuredBytes {
			t.Errorf("%s %s: %d bytes of structured output, over %d", tool.Name, raw, len(js), MaxStructuredBytes)
		}
		page, next, n := pt.page(out)
		total = n
		for _, w := range out.Warnings {
			stopped = stopped || strings.Contains(w, "time limit")
		}
		more := regexp.MustCompile(`(\d+) more of (\d+): call again with offset=(\d+)`).FindStringSubmatch(out.Text)
		switch {
		case next == 0 && more != nil:
			t.Errorf("%s %s: the last page says %q", tool.Name, raw, more[0])
		case next > 0 && (more == nil || more[3] != fmt.Sprint(next) || more[1] != fmt.Sprint(total-next) || more[2] != fmt.Sprint(total)):
			t.Errorf("%s %s: next offset %d of %d, the text says %q", tool.Name, raw, next, total, more)
		}
		st, stNext := pt.structured(out)
		switch {
		case len(st) > len(page) || !slices.Equal(st, page[:len(st)]):
			t.Errorf("%s %s: the structured form's %d items are not the first of the page's %d", tool.Name, raw, len(st), len(page))
		case len(st) < len(page) && stNext != offset+len(st):
			t.Errorf("%s %s: the structured form holds %d of the page's %d items and says next offset %d", tool.Name, raw, len(st), len(page), stNext)
		case len(st) == len(page) && stNext != next:
			t.Errorf("%s %s: the structured form says next offset %d, the text %d", tool.Name, raw, stNext, next)
		}
		if len(page) == 0 && next != 0 {
			t.Fatalf("%s %s: an empty page with a next offset %d", tool.Name, raw, next)
		}
		keys = append(keys, page...)
		if next == 0 {
			return keys, total, stopped
		}
		if next != offset+len(page) {
			t.Fatalf("%s %s: %d items from offset %d, then next offset %d", tool.Name, raw, len(page), offset, next)
		}
		offset = next
		if calls++; calls > 2000 {
			t.Fatalf("%s: more than 2000 pages", tool.Name)
		}
	}
}

// checkPaging pages through one call's answer with the default page size
// and with larger pages, and compares the walks: each holds every item
// once, in one order; want, when given, is the whole answer from one
// unbounded call. Answers stopped by the time limit are not compared.
func checkPaging(t *testing.T, ts map[string]*Tool, name string, params map[string]any, want []string) {
	t.Helper()
	pt := pagedTools[name]
	got, total, stopped := walkPages(t, ts[name], pt, params)
	if stopped {
		t.Logf("%s %v: stopped by the time limit, so its pages are not compared", name, params)
		return
	}
	if len(got) != total {
		t.Errorf("%s %v: %d items over the pages, total %d", name, params, len(got), total)
	}
	if total < 60 {
		t.Errorf("%s %v: only %d items: the case pages nothing", name, params, total)
	}
	if name != "structural_analysis" {
		if dup := firstDuplicate(got); dup != "" {
			t.Errorf("%s %v: %q is on two pages", name, params, dup)
		}
	}
	if pt.big != nil {
		p := map[string]any{}
		for k, v := range params {
			p[k] = v
		}
		for k, v := range pt.big {
			p[k] = v
		}
		big, _, bigStopped := walkPages(t, ts[name], pt, p)
		stopped = stopped || bigStopped
		if !stopped && !slices.Equal(big, got) {
			t.Errorf("%s %v: larger pages hold %d items, the default ones %d, first difference at %d", name, params, len(big), len(got), firstDiff(big, got))
		}
	}
	if stopped {
		t.Logf("%s %v: stopped by the time limit, so its pages are not compared", name, params)
		return
	}
	if want != nil && !slices.Equal(got, want) {
		t.Errorf("%s %v: the pages hold %d items, one unbounded call %d, first difference at %d", name, params, len(got), len(want), firstDiff(got, want))
	}
	t.Logf("%s %v: %d items", name, params, total)
}

func firstDuplicate(keys []string) string {
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			return k
		}
		seen[k] = true
	}
	return ""
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestPagingCorpora pages large answers of every list tool to their last
// item on a 330-file library (zod 4.6.7's src, fetched with npm into
// .cache) and on GOROOT/src/net/http (with LOUPE_PAGING_FULL=1, all of
// GOROOT/src and larger analysis answers):
// nothing repeated or skipped, the same items through pages of two sizes
// and in the structured output, and no page over its bounds.
func TestPagingCorpora(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches and searches corpora")
	}
	zod, err := difftest.NpmPackage(context.Background(), "zod", "4.6.7")
	if err != nil {
		t.Skipf("zod 4.6.7 cannot be fetched: %v", err)
	}
	goroot := filepath.Join(runtime.GOROOT(), "src")
	// The bounded subsets make test runs; LOUPE_PAGING_FULL the whole.
	exportsTarget, refNodes, callDepth := "v4/core", 300, 1
	goGrep, goCalls := `t\.Fatal`, "t.Fatalf($$$A)"
	if !pagingFull {
		goroot = filepath.Join(goroot, "net", "http")
	} else {
		// Patterns with answers of hundreds to thousands of items: every
		// page is a search of all GOROOT/src.
		exportsTarget, refNodes, callDepth = ".", 2000, 2
		goGrep, goCalls = `TODO\(`, "log.Fatalf($$$A)"
	}
	corpora := []struct {
		name, root string
		calls      []struct {
			tool   string
			params map[string]any
		}
		analysis []analysis.Params
	}{
		{name: "zod", root: filepath.Join(zod, "src"), calls: []struct {
			tool   string
			params map[string]any
		}{
			{"grep", map[string]any{"pattern": `safeParse\(`}},
			{"glob", map[string]any{"pattern": "**/*.ts"}},
			{"search", map[string]any{"query": "s"}},
			{"list_directory", map[string]any{"recursive": true}},
			{"ast_grep", map[string]any{"pattern": "$A.optional()", "language": "typescript", "path": "v4/classic"}},
			{"structural_analysis", map[string]any{"mode": "exports", "language": "typescript", "target": exportsTarget}},
			{"structural_analysis", map[string]any{"mode": "references", "language": "typescript", "symbol": "parse", "maxNodes": refNodes}},
		}, analysis: []analysis.Params{
			{Mode: "exports", Language: "typescript", Target: exportsTarget},
			{Mode: "references", Language: "typescript", Symbol: "parse", MaxNodes: refNodes},
		}},
		{name: "GOROOT", root: goroot, calls: []struct {
			tool   string
			params map[string]any
		}{
			{"grep", map[string]any{"pattern": goGrep}},
			{"glob", map[string]any{"pattern": "**/*.go"}},
			{"search", map[string]any{"query": "test"}},
			{"list_directory", map[string]any{"recursive": true}},
			{"ast_grep", map[string]any{"pattern": goCalls, "language": "go"}},
			{"structural_analysis", map[string]any{"mode": "callers", "language": "go", "symbol": "Errorf", "depth": callDepth, "maxNodes": refNodes}},
		}, analysis: []analysis.Params{
			{Mode: "callers", Language: "go", Symbol: "Errorf", Depth: callDepth, MaxNodes: refNodes},
		}},
	}
	for _, c := range corpora {
		t.Run(c.name, func(t *testing.T) {
			ts := toolsByName(t, Config{Workspace: c.root})
			ai := 0
			for _, call := range c.calls {
				var want []string
				if call.tool == "structural_analysis" {
					// One unbounded call: analysis's whole answer, flattened.
					sa, err := analysis.New(analysis.Config{Workspace: c.root})
					if err != nil {
						t.Fatal(err)
					}
					r, err := sa.Run(context.Background(), c.analysis[ai])
					if err != nil {
						t.Fatal(err)
					}
					ai++
					if !r.Partial {
						want = mapKeys(flatten(r), analysisKey)
					}
				}
				checkPaging(t, ts, call.tool, call.params, want)
			}
		})
	}
}

// TestPagingOffsets: an offset past the end, or negative, is answered in
// words.
func TestPagingOffsets(t *testing.T) {
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("f%02d.ts", i)] = "export function f() { return g(); }\n"
	}
	ts := toolsByName(t, Config{Workspace: writeFiles(t, files)})
	cases := []struct{ tool, params, want string }{
		{"grep", `{"pattern":"return","offset":100}`, "offset 100 is past the end: there are 30"},
		{"glob", `{"pattern":"*.ts","offset":30}`, "offset 30 is past the end: there are 30"},
		{"search", `{"query":"f","offset":31}`, "offset 31 is past the end: there are 30"},
		{"list_directory", `{"offset":99}`, "offset 99 is past the end: there are 30"},
		{"ast_grep", `{"pattern":"g()","language":"typescript","offset":40}`, "offset 40 is past the end: there are 30"},
		{"structural_analysis", `{"mode":"exports","language":"typescript","target":".","offset":40}`, "offset 40 is past the end: there are 30"},
		{"grep", `{"pattern":"return","max_results":10,"offset":10}`, "Showing 11-20 of 30 matches"},
		{"glob", `{"pattern":"*.ts","max_results":10,"offset":25}`, "Showing 26-30 of 30 files"},
		{"ast_grep", `{"pattern":"g()","language":"typescript","maxResults":10,"offset":10}`, "30 matches, showing 11-20."},
	}
	for _, c := range cases {
		out, err := ts[c.tool].Call(context.Background(), json.RawMessage(c.params))
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, c.params, err)
			continue
		}
		if !strings.Contains(out.Text, c.want) {
			t.Errorf("%s %s: the text lacks %q:\n%s", c.tool, c.params, c.want, out.Text)
		}
	}
	for _, name := range []string{"grep", "glob", "search", "list_directory", "ast_grep", "structural_analysis"} {
		params := map[string]string{"grep": `"pattern":"x"`, "glob": `"pattern":"*"`, "search": `"query":"f"`, "list_directory": "",
			"ast_grep": `"pattern":"g()","language":"typescript"`, "structural_analysis": `"mode":"exports","language":"typescript","target":"."`}[name]
		if params != "" {
			params += ","
		}
		_, err := ts[name].Call(context.Background(), json.RawMessage("{"+params+`"offset":-1}`))
		if err == nil || !strings.Contains(err.Error(), "offset must be 0 or more, got -1") {
			t.Errorf("%s offset -1: %v", name, err)
		}
	}
}

// TestAnalysisPages: an answer longer than a page lists its items one a
// line, page after page, and the answer cut to each page (Output.Result)
// holds that page's items and their path in the call tree.
func TestAnalysisPages(t *testing.T) {
	var src strings.Builder
	src.WriteString("export function target() {}\n")
	for i := range 400 {
		fmt.Fprintf(&src, "export function caller_with_a_long_enough_name_%03d() { return target(); }\n", i)
	}
	ts := toolsByName(t, Config{Workspace: writeFiles(t, map[string]string{"a.ts": src.String()})})
	call := func(offset int) *Output {
		out, err := ts["structural_analysis"].Call(context.Background(),
			json.RawMessage(fmt.Sprintf(`{"mode":"callers","language":"typescript","symbol":"target","maxNodes":1000,"offset":%d}`, offset)))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	first := call(0)
	p := first.Result.(*analysisPage)
	if p.TotalItems != 400 || p.NextOffset == 0 || p.NextOffset != len(p.items) || len(p.Callers) != len(p.items) {
		t.Fatalf("first page: %d items of %d, next offset %d, %d callers in the result", len(p.items), p.TotalItems, p.NextOffset, len(p.Callers))
	}
	want := fmt.Sprintf("callers target: items 1-%d of 400\n  ← caller_with_a_long_enough_name_000  a.ts:2\n      export function caller_with_a_long_enough_name_000() { return target(); }\n", p.NextOffset)
	if !strings.HasPrefix(first.Text, want) {
		t.Errorf("first page:\n%.300s\nwant it to start\n%s", first.Text, want)
	}
	second := call(p.NextOffset)
	if want := fmt.Sprintf("callers target: items %d-", p.NextOffset+1); !strings.HasPrefix(second.Text, want) {
		t.Errorf("second page:\n%.200s\nwant it to start %q", second.Text, want)
	}
	if s := second.Result.(*analysisPage); s.Callers[0].Name != fmt.Sprintf("caller_with_a_long_enough_name_%03d", p.NextOffset) {
		t.Errorf("second page's result starts with %s", s.Callers[0].Name)
	}
}

// TestBoundPage: when the structured size bound leaves items of a page
// out, the structured form's next page starts at the first of them;
// otherwise it is the text's.
func TestBoundPage(t *testing.T) {
	long := strings.Repeat("x", 1000)
	many := make([]string, 100) // 100 KB: more than MaxStructuredBytes
	for i := range many {
		many[i] = long
	}
	cases := []struct {
		items          []string
		offset, next   int
		kept, omitted  int
		wantNextOffset int
	}{
		{[]string{"a", "b"}, 40, 42, 2, 0, 42},
		{[]string{"a", "b"}, 40, 0, 2, 0, 0},
		{many, 200, 300, 32, 68, 232},
		{many, 200, 0, 32, 68, 232},
	}
	for _, c := range cases {
		kept, omitted, next := boundPage(struct{}{}, c.items, c.offset, c.next)
		if len(kept) != c.kept || omitted != c.omitted || next != c.wantNextOffset {
			t.Errorf("%d items from %d, text's next %d: kept %d, omitted %d, next %d; want %d, %d, %d",
				len(c.items), c.offset, c.next, len(kept), omitted, next, c.kept, c.omitted, c.wantNextOffset)
		}
	}
}
