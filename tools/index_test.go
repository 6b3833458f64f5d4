//go:build !js

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/index"
)

// TestIndexTools calls the ten project-index tools through the registry
// on the index of index/testdata/shop, the seed's scenarios each.
func TestIndexTools(t *testing.T) {
	root := t.TempDir()
	copyDir(t, filepath.Join("..", "index", "testdata", "shop"), root)
	// A signature with < > and &, which the text must show as written.
	box := "export function unbox<T>(b: Box<T>): T & {} {\n  return b.value;\n}\n"
	if err := os.WriteFile(filepath.Join(root, "packages", "core", "src", "box.ts"), []byte(box), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := index.Build(context.Background(), index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	ts := toolsByName(t, Config{Workspace: root})
	call := func(name, params string) *Output {
		t.Helper()
		out, err := ts[name].Call(context.Background(), json.RawMessage(params))
		if err != nil {
			t.Fatalf("%s %s: %v", name, params, err)
		}
		if b, _ := json.Marshal(out.Structured); len(b) > MaxStructuredBytes {
			t.Errorf("%s: structured output of %d bytes", name, len(b))
		}
		return out
	}
	cases := []struct{ tool, params, text string }{
		{"search_packages", `{"query":"pricing"}`, `"name":"@shop/core","path":"packages/core","kind":"npm","version":"1.0.0","description":"Cart and pricing rules","metadata":{`},
		{"search_packages", `{"query":"  "}`, "Search query must not be empty"},
		{"search_packages", `{"query":"\"web\" OR (x"}`, `[]`},
		{"get_package", `{"name":"@shop/web"}`, `"manifest":"packages/web/package.json"`},
		{"get_package", `{"name":"left-pad"}`, "Package 'left-pad' not found"},
		{"package_dependencies", `{"name":"@shop/web","internal_only":true}`, `[{"package":"@shop/web","name":"@shop/core","version":"workspace:*","kind":"runtime","is_internal":true}]`},
		{"package_dependents", `{"name":"@shop/core"}`, `"package":"@shop/web"`},
		{"dependency_graph", `{"name":"@shop/web","depth":99}`, `{"from":"@shop/core","to":"decimal.js","dep_kind":"runtime"}`},
		{"list_packages", `{"kind":"go"}`, `[{"name":"example.com/shop/api","path":"api","kind":"go"`},
		{"index_status", `{}`, `"package_count":5`},
		{"search_symbols", `{"query":"cart","package":"@shop/web","kind":"function"}`, `"name":"renderCart","kind":"function","signature":"function renderCart(cart: Cart, el: HTMLElement): void","package":"@shop/web","file_path":"packages/web/src/app.ts","line":3,"return_type":"void","parameters":"(cart: Cart, el: HTMLElement)"`},
		{"get_package_symbols", `{"package":"@shop/core","kind":"method"}`, `"name":"add"`},
		{"get_symbol", `{"name":"NewServer","package":"example.com/shop/api"}`, `"return_type":"*Server"`},
		{"get_symbol", `{"name":"unbox"}`, `"signature":"function unbox<T>(b: Box<T>): T & {}"`},
	}
	for _, c := range cases {
		out := call(c.tool, c.params)
		if !strings.Contains(out.Text, c.text) {
			t.Errorf("%s %s:\n%s\nwant it to contain\n%s", c.tool, c.params, out.Text, c.text)
		}
		if strings.Contains(out.Text, `\u00`) || strings.HasSuffix(out.Text, "\n") {
			t.Errorf("%s %s: the text escapes characters or ends in a newline:\n%s", c.tool, c.params, out.Text)
		}
	}
	g := call("dependency_graph", `{"name":"@shop/web","depth":99}`).Structured.(graphOutput)
	if g.Depth != index.MaxGraphDepth || len(g.Edges) != 4 {
		t.Errorf("graph %+v", g)
	}
	for name, e := range infoByName() {
		if e.Category != ProjectIndex {
			continue
		}
		for _, ex := range e.Examples {
			if _, err := ts[name].Call(context.Background(), ex.Params); err != nil {
				t.Errorf("%s example %q: %v", name, ex.Use, err)
			}
		}
	}
	// Without an index, a call says how to build one.
	none := toolsByName(t, Config{Workspace: t.TempDir()})
	if _, err := none["list_packages"].Call(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "loupe index") {
		t.Errorf("no index: %v", err)
	}
}

// copyDir copies the directory tree src into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestIndexPaging pages through lists longer than a page: every item
// comes once, in order, each page within its bound, and the text says how
// to ask for the next.
func TestIndexPaging(t *testing.T) {
	root := t.TempDir()
	copyDir(t, filepath.Join("..", "index", "testdata", "shop"), root)
	var src strings.Builder
	const n = 1000
	for i := range n {
		fmt.Fprintf(&src, "export function handler%04d(request: Request, response: Response): Promise<void> { return undefined as any; }\n", i)
	}
	if err := os.WriteFile(filepath.Join(root, "packages", "core", "src", "handlers.ts"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := index.Build(context.Background(), index.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	ts := toolsByName(t, Config{Workspace: root})
	next := regexp.MustCompile(`(\d+) more of (\d+): call again with offset=(\d+)$`)
	var names []string
	offset, pages := 0, 0
	for {
		out, err := ts["get_package_symbols"].Call(context.Background(), json.RawMessage(fmt.Sprintf(`{"package":"@shop/core","kind":"function","offset":%d}`, offset)))
		if err != nil {
			t.Fatal(err)
		}
		pages++
		body, tail, _ := strings.Cut(out.Text, "\n")
		if len(body) > MaxIndexTextBytes {
			t.Errorf("page at %d: %d bytes of JSON", offset, len(body))
		}
		var syms []index.Symbol
		if err := json.Unmarshal([]byte(body), &syms); err != nil {
			t.Fatalf("page at %d: %v\n%s", offset, err, body)
		}
		for _, s := range syms {
			names = append(names, s.Name)
		}
		st := out.Structured.(symbolsOutput)
		if tail == "" {
			if st.NextOffset != 0 {
				t.Errorf("last page: next_offset %d", st.NextOffset)
			}
			break
		}
		m := next.FindStringSubmatch(tail)
		if m == nil {
			t.Fatalf("page at %d ends %q", offset, tail)
		}
		if m[3] != strconv.Itoa(offset+len(syms)) || st.NextOffset != offset+len(syms) {
			t.Fatalf("page at %d of %d items says offset=%s, next_offset %d", offset, len(syms), m[3], st.NextOffset)
		}
		offset = st.NextOffset
	}
	if pages < 3 {
		t.Errorf("%d pages for %d symbols", pages, len(names))
	}
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			t.Errorf("%s on two pages", name)
		}
		seen[name] = true
	}
	for i := range n {
		if name := fmt.Sprintf("handler%04d", i); !seen[name] {
			t.Errorf("%s on no page", name)
		}
	}
	// An offset past the end is an empty page, not an error.
	out, err := ts["get_package_symbols"].Call(context.Background(), json.RawMessage(`{"package":"@shop/core","offset":100000}`))
	if err != nil || out.Text != "[]" {
		t.Errorf("past the end: %q, %v", out.Text, err)
	}
}

// TestBuildIndex: with Config.BuildIndex the first project-index call
// builds the missing index, and every call after reads it; without it the
// call says to run loupe index.
func TestBuildIndex(t *testing.T) {
	for _, build := range []bool{false, true} {
		t.Run(strconv.FormatBool(build), func(t *testing.T) {
			root := t.TempDir()
			copyDir(t, filepath.Join("..", "index", "testdata", "shop"), root)
			db := filepath.Join(t.TempDir(), "index.db")
			ts := toolsByName(t, Config{Workspace: root, Index: db, BuildIndex: build})
			out, err := ts["get_symbol"].Call(context.Background(), json.RawMessage(`{"name":"Server"}`))
			if !build {
				if err == nil || !strings.Contains(err.Error(), "build it with `loupe index`") {
					t.Fatalf("got %v, %v; want an error saying to run loupe index", out, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.Text, `"file_path":"api/server.go"`) {
				t.Errorf("get_symbol: %s", out.Text)
			}
			if _, err := os.Stat(db); err != nil {
				t.Errorf("the index was not written: %v", err)
			}
		})
	}
}
