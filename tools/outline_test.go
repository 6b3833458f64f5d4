package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/outline"
	"github.com/loupe-dev/loupe/core/search"
)

// outlineOf binds the outline tool to a workspace.
func outlineOf(t *testing.T, ws string) *Tool {
	t.Helper()
	tool, err := outlineEntry.bind(Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// TestOutlinePaging pages through the outline of Go's net/http, members
// included, to the last page: every symbol comes once and in order (the
// same list core/outline's walk gives), each page within its bounds, and
// each capped page's text says how to ask for the next.
func TestOutlinePaging(t *testing.T) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(root, "net/http/server.go")); err != nil {
		t.Skipf("no Go source tree: %v", err)
	}
	// The whole outline, from core/outline directly.
	opts, _, err := outline.Query{Items: "exports", View: "expanded"}.Resolve(true)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	_, err = outline.NewOutliner(outline.Default(), opts).Walk(context.Background(),
		search.Options{Root: root, Paths: []string{filepath.Join(root, "net/http")}, MaxFileSize: search.DefaultMaxFileSize}, outline.Walk{},
		func(f *outline.File) error {
			for _, it := range f.Items {
				want = append(want, fmt.Sprintf("%s:%d %s", f.Path, it.Range.Start.Line+1, it.Name))
				for _, m := range it.Members {
					want = append(want, fmt.Sprintf("%s:%d   %s", f.Path, m.Range.Start.Line+1, m.Name))
				}
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 3000 {
		t.Fatalf("net/http outlines to only %d symbols", len(want))
	}
	tool := outlineOf(t, root)
	next := regexp.MustCompile(`(?m)^(\d+) more of (\d+): call again with offset=(\d+)\n\z`)
	for _, limit := range []int{0, 97} {
		t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
			var got []string
			pages, continued := 0, 0
			for offset := 0; ; pages++ {
				if pages > len(want) {
					t.Fatal("paging does not end")
				}
				params := fmt.Sprintf(`{"path":"net/http","members":true,"offset":%d,"limit":%d}`, offset, limit)
				if limit == 0 {
					params = fmt.Sprintf(`{"path":"net/http","members":true,"offset":%d}`, offset)
				}
				out, err := tool.Call(context.Background(), json.RawMessage(params))
				if err != nil {
					t.Fatal(err)
				}
				st := out.Structured.(outlineOutput)
				raw, err := json.Marshal(st)
				if err != nil {
					t.Fatal(err)
				}
				if len(out.Text) > MaxOutlineTextBytes+100 || len(raw) > MaxStructuredBytes {
					t.Errorf("page at %d: %d bytes of text, %d of JSON", offset, len(out.Text), len(raw))
				}
				if st.Total != len(want) {
					t.Fatalf("page at %d: total %d, want %d", offset, st.Total, len(want))
				}
				if limit > 0 && len(st.Symbols) > limit {
					t.Errorf("page at %d: %d symbols over the limit %d", offset, len(st.Symbols), limit)
				}
				lines := 0
				for _, s := range st.Symbols {
					indent := ""
					if s.Member {
						indent = "  "
					}
					got = append(got, fmt.Sprintf("%s:%d %s%s", s.File, s.Line, indent, s.Name))
					if !strings.Contains(out.Text, "\n"+indent+strconv.Itoa(s.Line)+": ") {
						t.Errorf("page at %d: the text lacks %s:%d", offset, s.File, s.Line)
					}
				}
				for _, l := range strings.Split(out.Text, "\n") {
					if regexp.MustCompile(`^ *\d+: `).MatchString(l) {
						lines++
					}
					if strings.HasSuffix(l, " (continued)") {
						continued++
					}
				}
				m := next.FindStringSubmatch(out.Text)
				if st.NextOffset == 0 {
					if m != nil {
						t.Errorf("last page says %q", m[0])
					}
					if lines != len(st.Symbols) {
						t.Errorf("last page: %d symbol lines for %d symbols", lines, len(st.Symbols))
					}
					break
				}
				if m == nil || m[3] != strconv.Itoa(st.NextOffset) || m[2] != strconv.Itoa(len(want)) ||
					m[1] != strconv.Itoa(len(want)-st.NextOffset) || st.NextOffset != offset+len(st.Symbols) {
					t.Fatalf("page at %d (%d symbols, next_offset %d) ends %q", offset, len(st.Symbols), st.NextOffset, out.Text[max(0, len(out.Text)-80):])
				}
				offset = st.NextOffset
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%d pages give %d symbols, not the %d of the outline, in order", pages+1, len(got), len(want))
			}
			if pages < 2 || continued == 0 {
				t.Errorf("%d pages, %d continued items: the corpus does not exercise paging", pages+1, continued)
			}
			t.Logf("%d symbols in %d pages, %d continued items", len(got), pages+1, continued)
		})
	}
	// An offset past the end is an empty page that says so.
	out, err := tool.Call(context.Background(), json.RawMessage(fmt.Sprintf(`{"path":"net/http","offset":%d}`, 1<<30)))
	if err != nil {
		t.Fatal(err)
	}
	if st := out.Structured.(outlineOutput); len(st.Symbols) != 0 || st.NextOffset != 0 || !strings.Contains(st.Message, "past the end") {
		t.Errorf("offset past the end: %+v", st)
	}
}

// TestOutlineBadParams: bad parameters are refused in one line naming
// what is wrong.
func TestOutlineBadParams(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tool := outlineOf(t, ws)
	tests := []struct{ params, want string }{
		{`{"items":"everything"}`, `unknown outline items "everything"`},
		{`{"match":"("}`, "Cannot parse outline item matcher"},
		{`{"path":"../elsewhere"}`, "outline: "},
		{`{"path":"missing.go"}`, `outline: path "missing.go"`},
		{`{"limit":-1}`, "limit must be positive"},
		{`{"offset":-3}`, "offset must not be negative"},
		{`{"members":"yes"}`, "members: expected a boolean"},
	}
	for _, tc := range tests {
		_, err := tool.Call(context.Background(), json.RawMessage(tc.params))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", tc.params, err, tc.want)
		}
	}
}

// TestOutlineLongItem: one item with more members than a page holds is
// split across pages, its head repeated as continued on each, and
// nothing is lost.
func TestOutlineLongItem(t *testing.T) {
	ws := t.TempDir()
	var src strings.Builder
	src.WriteString("package big\n\ntype Big struct {\n")
	const fields = 3000
	for i := range fields {
		fmt.Fprintf(&src, "\tField%04d int // a field with a longer name to fill the page: %s\n", i, strings.Repeat("x", 20))
	}
	src.WriteString("}\n")
	if err := os.WriteFile(filepath.Join(ws, "big.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tool := outlineOf(t, ws)
	seen := 0
	for offset, pages := 0, 0; ; pages++ {
		out, err := tool.Call(context.Background(), json.RawMessage(fmt.Sprintf(`{"path":"big.go","offset":%d,"limit":2000}`, offset)))
		if err != nil {
			t.Fatal(err)
		}
		st := out.Structured.(outlineOutput)
		for _, s := range st.Symbols {
			if s.Member {
				if want := fmt.Sprintf("Field%04d", seen); s.Name != want {
					t.Fatalf("page %d: %s where %s was due", pages, s.Name, want)
				}
				seen++
			}
		}
		if offset > 0 && !strings.HasPrefix(out.Text, "big.go\n3: type Big struct { (continued)\n") {
			t.Errorf("page %d starts %q", pages, out.Text[:min(60, len(out.Text))])
		}
		if st.NextOffset == 0 {
			break
		}
		offset = st.NextOffset
	}
	if seen != fields {
		t.Errorf("%d of %d fields seen", seen, fields)
	}
}

// TestOutlineStopped: a cancelled call is a partial answer that says so,
// not an error; a file in a language without an outline says which
// languages have one.
func TestOutlineStopped(t *testing.T) {
	ws := t.TempDir()
	for name, src := range map[string]string{"a.go": "package a\n\nfunc A() {}\n", "b.lua": "local x = 1\n"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tool := outlineOf(t, ws)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := tool.Call(ctx, json.RawMessage(`{}`))
	if err != nil {
		t.Fatalf("a cancelled call fails: %v", err)
	}
	if !strings.Contains(out.Text, "the outline is partial") {
		t.Errorf("cancelled: %q", out.Text)
	}
	out, err = tool.Call(context.Background(), json.RawMessage(`{"path":"b.lua"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "No symbols in the 1 file outlined, with these filters (outline knows c, cpp,"; !strings.HasPrefix(out.Text, want) {
		t.Errorf("a Lua file: %q, want %q…", out.Text, want)
	}
}
