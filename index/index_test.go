//go:build !js

package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// copyTree copies the fixture repository src into a new directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
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
	return dst
}

// buildShop builds the index of a copy of testdata/shop.
func buildShop(t *testing.T) (root string, st *Stats) {
	t.Helper()
	root = copyTree(t, filepath.Join("testdata", "shop"))
	st, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	return root, st
}

func open(t *testing.T, root string) *DB {
	t.Helper()
	db, err := Open(DefaultPath(root))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func names[T any](xs []T, name func(T) string) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, name(x))
	}
	return out
}

func pkgName(p Package) string { return p.Name }
func symName(s Symbol) string  { return s.Name }

func TestBuildAndQuery(t *testing.T) {
	root, st := buildShop(t)
	if st.Files != 4 || st.Parsed != 4 || st.Packages != 5 || st.Symbols == 0 || len(st.Problems) != 0 {
		t.Fatalf("stats %+v", st)
	}
	if _, err := os.Stat(filepath.Join(root, ".loupe", ".gitignore")); err != nil {
		t.Errorf("the .loupe directory is not ignored: %v", err)
	}
	db := open(t, root)
	ctx := context.Background()

	t.Run("search_packages", func(t *testing.T) {
		got, err := db.SearchPackages(ctx, "pricing")
		if err != nil || !slices.Equal(names(got, pkgName), []string{"@shop/core"}) {
			t.Fatalf("%v %v", names(got, pkgName), err)
		}
		if got[0].Path != "packages/core" || got[0].Kind != "npm" || got[0].Version != "1.0.0" || got[0].Metadata["workspace"] != "package.json" {
			t.Errorf("%+v", got[0])
		}
		for _, q := range []string{"", "   \t"} {
			if _, err := db.SearchPackages(ctx, q); err == nil || err.Error() != "Search query must not be empty" {
				t.Errorf("%q: %v", q, err)
			}
		}
		for _, q := range []string{`"web`, `web" OR x`, "AND", "NEAR(a b)", "c++ -x*", `(`, "col:val", "^start"} {
			if _, err := db.SearchPackages(ctx, q); err != nil {
				t.Errorf("%q: %v", q, err)
			}
		}
		if got, _ := db.SearchPackages(ctx, `"web"`); len(got) != 1 || got[0].Name != "@shop/web" {
			t.Errorf(`"web": %v`, names(got, pkgName))
		}
	})
	t.Run("get_package", func(t *testing.T) {
		p, err := db.Package(ctx, "@shop/web")
		if err != nil || p == nil || p.Manifest != "packages/web/package.json" || len(p.Dependencies) != 3 {
			t.Fatalf("%+v %v", p, err)
		}
		if p, err := db.Package(ctx, "nope"); p != nil || err != nil {
			t.Errorf("%+v %v", p, err)
		}
	})
	t.Run("package_dependencies", func(t *testing.T) {
		all, _ := db.Dependencies(ctx, "@shop/web", false)
		internal, _ := db.Dependencies(ctx, "@shop/web", true)
		if len(all) != 3 || len(internal) != 1 || internal[0].Name != "@shop/core" || !internal[0].IsInternal {
			t.Errorf("%+v / %+v", all, internal)
		}
	})
	t.Run("package_dependents", func(t *testing.T) {
		got, _ := db.Dependents(ctx, "@shop/core")
		if len(got) != 1 || got[0].Package != "@shop/web" {
			t.Errorf("%+v", got)
		}
	})
	t.Run("dependency_graph", func(t *testing.T) {
		got, _ := db.DependencyGraph(ctx, "@shop/web", 5)
		want := []Edge{{"@shop/web", "react-dom", "peer"}, {"@shop/web", "@shop/core", "runtime"}, {"@shop/web", "react", "runtime"}, {"@shop/core", "decimal.js", "runtime"}}
		if !slices.Equal(got, want) {
			t.Errorf("%+v", got)
		}
		for _, c := range [][2]int{{0, DefaultGraphDepth}, {-3, 1}, {1000, MaxGraphDepth}, {7, 7}} {
			if got := ClampDepth(c[0]); got != c[1] {
				t.Errorf("ClampDepth(%d) = %d", c[0], got)
			}
		}
		if one, _ := db.DependencyGraph(ctx, "@shop/web", 1); len(one) != 3 {
			t.Errorf("depth 1: %+v", one)
		}
	})
	t.Run("list_packages", func(t *testing.T) {
		all, _ := db.Packages(ctx, "")
		if want := []string{"@shop/core", "@shop/web", "example.com/shop/api", "shop", "shop-tools"}; !slices.Equal(names(all, pkgName), want) {
			t.Errorf("%v", names(all, pkgName))
		}
		npm, _ := db.Packages(ctx, "npm")
		if !slices.Equal(names(npm, pkgName), []string{"@shop/core", "@shop/web", "shop"}) {
			t.Errorf("%v", names(npm, pkgName))
		}
	})
	t.Run("index_status", func(t *testing.T) {
		s, err := db.Status(ctx)
		if err != nil || s.IndexedAt == "" || s.PackageCount != 5 {
			t.Errorf("%+v %v", s, err)
		}
	})
	t.Run("search_symbols", func(t *testing.T) {
		got, _ := db.SearchSymbols(ctx, "cart", "", "")
		if len(got) < 3 {
			t.Errorf("%+v", got)
		}
		fn, _ := db.SearchSymbols(ctx, "cart", "", "function")
		if !slices.Equal(names(fn, symName), []string{"emptyCart", "renderCart"}) && !slices.Equal(names(fn, symName), []string{"renderCart", "emptyCart"}) {
			t.Errorf("%+v", fn)
		}
		web, _ := db.SearchSymbols(ctx, "cart", "@shop/web", "")
		if !slices.Equal(names(web, symName), []string{"renderCart"}) || web[0].Parameters != "(cart: Cart, el: HTMLElement)" || web[0].ReturnType != "void" {
			t.Errorf("%+v", web)
		}
		if _, err := db.SearchSymbols(ctx, " ", "", ""); !errors.Is(err, ErrEmptyQuery) {
			t.Errorf("%v", err)
		}
		if _, err := db.SearchSymbols(ctx, `Cart" OR "x`, "", ""); err != nil {
			t.Error(err)
		}
	})
	t.Run("get_package_symbols", func(t *testing.T) {
		got, _ := db.PackageSymbols(ctx, "@shop/core", "")
		if !slices.Equal(names(got, symName), []string{"Item", "Cart", "items", "add", "total", "emptyCart"}) {
			t.Errorf("%v", names(got, symName))
		}
		if !slices.IsSortedFunc(got, func(a, b Symbol) int { return strings.Compare(a.FilePath, b.FilePath)*1000 + a.Line - b.Line }) {
			t.Errorf("not by file and line: %+v", got)
		}
		methods, _ := db.PackageSymbols(ctx, "@shop/core", "method")
		if !slices.Equal(names(methods, symName), []string{"add", "total"}) {
			t.Errorf("%+v", methods)
		}
	})
	t.Run("get_symbol", func(t *testing.T) {
		got, _ := db.Symbols(ctx, "Server", "")
		if len(got) != 1 || got[0].Package != "example.com/shop/api" || got[0].FilePath != "api/server.go" || got[0].Kind != "struct" {
			t.Errorf("%+v", got)
		}
		if got, _ := db.Symbols(ctx, "Cart", "@shop/web"); len(got) != 0 {
			t.Errorf("%+v", got)
		}
		if got, _ := db.Symbols(ctx, "Cart", "@shop/core"); len(got) != 1 {
			t.Errorf("%+v", got)
		}
	})
}

func TestOpenMissing(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "none.db"))
	if !IsNoIndex(err) {
		t.Fatalf("%v", err)
	}
}

// TestIncremental: a rebuild parses only the file that changed, and a
// deleted file's symbols leave the index.
func TestIncremental(t *testing.T) {
	root, _ := buildShop(t)
	ctx := context.Background()
	st, err := Build(ctx, Options{Root: root})
	if err != nil || st.Parsed != 0 || st.Files != 4 {
		t.Fatalf("unchanged rebuild: %+v %v", st, err)
	}
	app := filepath.Join(root, "packages/web/src/app.ts")
	if err := os.WriteFile(app, []byte("export function checkout(): void {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "tools/shop_tools/report.py")); err != nil {
		t.Fatal(err)
	}
	st, err = Build(ctx, Options{Root: root})
	if err != nil || st.Parsed != 1 || st.Removed != 1 || st.Files != 3 {
		t.Fatalf("rebuild: %+v %v", st, err)
	}
	db := open(t, root)
	if got, _ := db.Symbols(ctx, "checkout", ""); len(got) != 1 {
		t.Errorf("checkout: %+v", got)
	}
	for _, gone := range []string{"renderCart", "Report", "monthly_report"} {
		if got, _ := db.Symbols(ctx, gone, ""); len(got) != 0 {
			t.Errorf("%s still indexed: %+v", gone, got)
		}
		if got, _ := db.SearchSymbols(ctx, gone, "", ""); len(got) != 0 {
			t.Errorf("%s still found by search: %+v", gone, got)
		}
	}
	// Touching a file without changing it parses nothing.
	if err := os.Chtimes(app, time.Now().Add(time.Hour), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if st, err = Build(ctx, Options{Root: root}); err != nil || st.Parsed != 0 {
		t.Errorf("touched: %+v %v", st, err)
	}
}

// TestInterruptedBuild: a build cancelled half-way leaves the previous
// index as it was.
func TestInterruptedBuild(t *testing.T) {
	root, _ := buildShop(t)
	if err := os.WriteFile(filepath.Join(root, "api/server.go"), []byte("package api\n\nfunc Replaced() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "packages/core/src/cart.ts")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err := Build(ctx, Options{Root: root, Progress: func(done, total int) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build: %v", err)
	}
	db := open(t, root)
	for _, name := range []string{"Server", "Cart"} {
		if got, _ := db.Symbols(context.Background(), name, ""); len(got) != 1 {
			t.Errorf("%s: %+v", name, got)
		}
	}
	if got, _ := db.Symbols(context.Background(), "Replaced", ""); len(got) != 0 {
		t.Errorf("half a build was kept: %+v", got)
	}
}
