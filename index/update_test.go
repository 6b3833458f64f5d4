//go:build !js

package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// write writes a file of the tree at root, making its directories.
func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newUpdater(t *testing.T, root string) *Updater {
	t.Helper()
	u, err := NewUpdater(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { u.Close() })
	return u
}

// symbolFiles is where the symbols named name are, as file:package.
func symbolFiles(t *testing.T, db *DB, name string) []string {
	t.Helper()
	ss, err := db.Symbols(context.Background(), name, "")
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, s := range ss {
		out = append(out, s.FilePath+":"+s.Package)
	}
	slices.Sort(out)
	return out
}

// TestUpdate: each kind of change Update is told of is reflected, as a
// rebuild would reflect it, and only the files named are parsed.
func TestUpdate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		change  func(t *testing.T, root string) []string
		symbol  string
		want    []string
		parsed  int
		removed int
	}{
		{"a file edited", func(t *testing.T, root string) []string {
			write(t, root, "api/server.go", "package api\n\nfunc Edited() {}\n")
			return []string{"api/server.go"}
		}, "Edited", []string{"api/server.go:example.com/shop/api"}, 1, 0},
		{"the symbols of an edited file leave", func(t *testing.T, root string) []string {
			write(t, root, "api/server.go", "package api\n\nfunc Edited() {}\n")
			return []string{filepath.Join(root, "api", "server.go")} // absolute
		}, "NewServer", []string{}, 1, 0},
		{"a file created in a new directory", func(t *testing.T, root string) []string {
			write(t, root, "api/v2/handler.go", "package v2\n\nfunc Handle() {}\n")
			return []string{"api/v2"}
		}, "Handle", []string{"api/v2/handler.go:example.com/shop/api"}, 1, 0},
		{"a file deleted", func(t *testing.T, root string) []string {
			os.Remove(filepath.Join(root, "tools/shop_tools/report.py"))
			return []string{"tools/shop_tools/report.py"}
		}, "monthly_report", []string{}, 0, 1},
		{"a directory deleted", func(t *testing.T, root string) []string {
			os.RemoveAll(filepath.Join(root, "packages/core/src"))
			return []string{"packages/core/src"}
		}, "Cart", []string{}, 0, 1},
		{"a file in an ignored directory", func(t *testing.T, root string) []string {
			write(t, root, ".ignore", "build/\n") // .gitignore counts only in a git repository
			if _, err := Build(context.Background(), Options{Root: root}); err != nil {
				t.Fatal(err)
			}
			write(t, root, "build/gen.go", "package build\n\nfunc Generated() {}\n")
			return []string{"build/gen.go"}
		}, "Generated", []string{}, 0, 0},
		{"a file in a hidden directory", func(t *testing.T, root string) []string {
			write(t, root, ".cache/x.go", "package x\n\nfunc Hidden() {}\n")
			return []string{".cache/x.go", ".cache"}
		}, "Hidden", []string{}, 0, 0},
		{"a file in a vendored directory", func(t *testing.T, root string) []string {
			write(t, root, "api/vendor/dep/dep.go", "package dep\n\nfunc Vendored() {}\n")
			return []string{"api/vendor/dep/dep.go", "api/vendor"}
		}, "Vendored", []string{}, 0, 0},
		{"a path outside the root", func(t *testing.T, root string) []string {
			return []string{"../elsewhere.go", "/"}
		}, "Server", []string{"api/server.go:example.com/shop/api"}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, _ := buildShop(t)
			u := newUpdater(t, root)
			db := open(t, root)
			st, err := u.Update(context.Background(), tc.change(t, root))
			if err != nil {
				t.Fatal(err)
			}
			if st.Parsed != tc.parsed || st.Removed != tc.removed {
				t.Errorf("parsed %d, removed %d; want %d, %d", st.Parsed, st.Removed, tc.parsed, tc.removed)
			}
			if got := symbolFiles(t, db, tc.symbol); !slices.Equal(got, tc.want) {
				t.Errorf("%s: %v, want %v", tc.symbol, got, tc.want)
			}
			status, err := db.Status(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if status.FilesChanged != tc.parsed+tc.removed {
				t.Errorf("files_changed %d, want %d", status.FilesChanged, tc.parsed+tc.removed)
			}
		})
	}
}

// TestUpdateManifest: a changed manifest rebuilds the packages, and the
// files the new package owns move to it.
func TestUpdateManifest(t *testing.T) {
	root, _ := buildShop(t)
	u := newUpdater(t, root)
	db := open(t, root)
	ctx := context.Background()
	write(t, root, "packages/web/src/admin/package.json", `{"name": "@shop/admin", "version": "1.0.0"}`)
	write(t, root, "packages/web/src/admin/panel.ts", "export function panel() {}\n")
	if _, err := u.Update(ctx, []string{"packages/web/src/admin/package.json", "packages/web/src/admin/panel.ts"}); err != nil {
		t.Fatal(err)
	}
	if got := symbolFiles(t, db, "panel"); !slices.Equal(got, []string{"packages/web/src/admin/panel.ts:@shop/admin"}) {
		t.Errorf("panel: %v", got)
	}
	if ok, err := db.HasPackage(ctx, "@shop/admin"); err != nil || !ok {
		t.Errorf("the new package: %v %v", ok, err)
	}
	// The manifest deleted: the file goes back to the package above.
	os.Remove(filepath.Join(root, "packages/web/src/admin/package.json"))
	if _, err := u.Update(ctx, []string{"packages/web/src/admin/package.json"}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := db.HasPackage(ctx, "@shop/admin"); ok {
		t.Error("a package whose manifest is gone is still indexed")
	}
	if got := symbolFiles(t, db, "panel"); len(got) != 1 || got[0] == "packages/web/src/admin/panel.ts:@shop/admin" {
		t.Errorf("panel after the manifest went: %v", got)
	}
}

// waitFor waits until ok holds, on the Updater's applied signal: no
// sleeps, and bounded only by the test's deadline.
func waitFor(t *testing.T, u *Updater, what string, ok func() bool) {
	t.Helper()
	ctx := t.Context()
	for {
		applied := u.Applied()
		if ok() {
			return
		}
		select {
		case <-applied:
		case <-ctx.Done():
			t.Fatalf("%s: never applied", what)
		}
	}
}

// TestWatch: changes others make (an edit, a new file in a new
// directory, a deletion, a git checkout of many files) reach the index
// through the watcher.
func TestWatch(t *testing.T) {
	root, _ := buildShop(t)
	// An empty directory at the root, which the build's walk does not
	// report, is watched too.
	if err := os.Mkdir(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	u := newUpdater(t, root)
	db := open(t, root)
	var failures []error
	w, err := Watch(u, func(_ *Stats, err error) {
		if err != nil {
			failures = append(failures, err)
		}
	})
	if err != nil {
		t.Skipf("no watching here: %v", err)
	}
	defer w.Close()
	has := func(name, file string) func() bool {
		return func() bool { return slices.Contains(symbolFiles(t, db, name), file) }
	}
	gone := func(name string) func() bool {
		return func() bool { return len(symbolFiles(t, db, name)) == 0 }
	}
	write(t, root, "api/server.go", "package api\n\nfunc Outside() {}\n")
	waitFor(t, u, "an outside edit", has("Outside", "api/server.go:example.com/shop/api"))
	write(t, root, "empty/first.py", "def first():\n    pass\n")
	waitFor(t, u, "a file in an empty directory", has("first", "empty/first.py:shop"))
	write(t, root, "api/v2/deep/handler.go", "package deep\n\nfunc Deep() {}\n")
	waitFor(t, u, "a file in new directories", has("Deep", "api/v2/deep/handler.go:example.com/shop/api"))
	write(t, root, "api/v2/deep/later.go", "package deep\n\nfunc Later() {}\n")
	waitFor(t, u, "a file in a directory watched late", has("Later", "api/v2/deep/later.go:example.com/shop/api"))
	if err := os.Remove(filepath.Join(root, "packages/web/src/app.ts")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, u, "a deletion", gone("renderCart"))
	if err := os.RemoveAll(filepath.Join(root, "api/v2")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, u, "a directory deleted", gone("Deep"))
	write(t, root, "api/v2/again.go", "package v2\n\nfunc Again() {}\n")
	waitFor(t, u, "a directory made again", has("Again", "api/v2/again.go:example.com/shop/api"))
	if len(failures) > 0 {
		t.Errorf("batches failed: %v", failures)
	}
	if st, err := db.Status(t.Context()); err != nil || st.FilesChanged == 0 {
		t.Errorf("status: %+v %v", st, err)
	}
}

// TestWatchCheckout: a git checkout changing 100 files (and a go.mod)
// is reflected whole.
func TestWatchCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := copyTree(t, filepath.Join("testdata", "shop"))
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-qm", "base")
	git("checkout", "-qb", "other")
	for i := range 99 {
		write(t, root, fmt.Sprintf("api/gen%d/f%d.go", i%10, i), fmt.Sprintf("package gen\n\nfunc Checked%d() {}\n", i))
	}
	write(t, root, "api/go.mod", "module example.com/shop/other\n\ngo 1.22\n")
	git("add", "-A")
	git("commit", "-qm", "other")
	git("checkout", "-q", "main")
	if _, err := Build(t.Context(), Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	u := newUpdater(t, root)
	db := open(t, root)
	w, err := Watch(u, nil)
	if err != nil {
		t.Skipf("no watching here: %v", err)
	}
	defer w.Close()
	git("checkout", "-q", "other")
	// How many of the 99 functions are indexed, in the package of the
	// go.mod of the checkout.
	count := func(pkg string) int {
		n := 0
		for i := range 99 {
			for _, f := range symbolFiles(t, db, fmt.Sprintf("Checked%d", i)) {
				if strings.HasSuffix(f, ":"+pkg) {
					n++
				}
			}
		}
		return n
	}
	waitFor(t, u, "the checkout", func() bool { return count("example.com/shop/other") == 99 })
	git("checkout", "-q", "main")
	waitFor(t, u, "the checkout back", func() bool { return count("example.com/shop/other")+count("example.com/shop/api") == 0 })
	if got := symbolFiles(t, db, "Server"); !slices.Equal(got, []string{"api/server.go:example.com/shop/api"}) {
		t.Errorf("Server after the checkout back: %v", got)
	}
}

// TestPoll: the stat pass finds each kind of change without being told
// of it, and a pass over an unchanged tree parses nothing.
func TestPoll(t *testing.T) {
	root, _ := buildShop(t)
	u := newUpdater(t, root)
	db := open(t, root)
	ctx := t.Context()
	if err := os.Mkdir(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := u.Poll(ctx); err != nil { // the first pass: a refresh
		t.Fatal(err)
	}
	write(t, root, "docs/readme.txt", "no sources here\n")
	if _, err := u.Poll(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func()
		symbol string
		want   []string
	}{
		{"an edit", func() { write(t, root, "api/server.go", "package api\n\nfunc Polled() {}\n") }, "Polled", []string{"api/server.go:example.com/shop/api"}},
		{"a new file", func() { write(t, root, "api/extra.go", "package api\n\nfunc Extra() {}\n") }, "Extra", []string{"api/extra.go:example.com/shop/api"}},
		{"a file in a directory without sources", func() { write(t, root, "docs/gen.py", "def documented():\n    pass\n") }, "documented", []string{"docs/gen.py:shop"}},
		{"a file in an empty directory", func() { write(t, root, "empty/first.py", "def first():\n    pass\n") }, "first", []string{"empty/first.py:shop"}},
		{"new directories", func() { write(t, root, "api/a/b/deep.go", "package b\n\nfunc Deeper() {}\n") }, "Deeper", []string{"api/a/b/deep.go:example.com/shop/api"}},
		{"a file deleted", func() { os.Remove(filepath.Join(root, "api/extra.go")) }, "Extra", []string{}},
		{"a directory deleted", func() { os.RemoveAll(filepath.Join(root, "api/a")) }, "Deeper", []string{}},
	} {
		tc.change()
		if _, err := u.Poll(ctx); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := symbolFiles(t, db, tc.symbol); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %s: %v, want %v", tc.name, tc.symbol, got, tc.want)
		}
	}
	st, err := u.Poll(ctx)
	if err != nil || st.Parsed != 0 || st.Removed != 0 {
		t.Errorf("a pass over an unchanged tree: %+v %v", st, err)
	}
}

// TestUpdateAfterReplacement: an index built afresh and renamed into
// place (as loupe index does) is the one later updates write, not the
// file the Updater opened first.
func TestUpdateAfterReplacement(t *testing.T) {
	root, _ := buildShop(t)
	u := newUpdater(t, root)
	ctx := t.Context()
	fresh := filepath.Join(t.TempDir(), "index.db")
	if _, err := Build(ctx, Options{Root: root, DB: fresh}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fresh, DefaultPath(root)); err != nil {
		t.Fatal(err)
	}
	write(t, root, "api/late.go", "package api\n\nfunc Late() {}\n")
	if _, err := u.Update(ctx, []string{"api/late.go"}); err != nil {
		t.Fatal(err)
	}
	if got := symbolFiles(t, open(t, root), "Late"); !slices.Equal(got, []string{"api/late.go:example.com/shop/api"}) {
		t.Errorf("Late: %v", got)
	}
}

// TestUpdateInTheFile: a batch is in the database file itself once
// Update returns, not only in its write-ahead log, so a reader that copies
// the file whole (the npm package) sees it.
func TestUpdateInTheFile(t *testing.T) {
	root, _ := buildShop(t)
	u := newUpdater(t, root)
	write(t, root, "api/late.go", "package api\n\nfunc Late() {}\n")
	if _, err := u.Update(t.Context(), []string{"api/late.go"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(DefaultPath(root))
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), ".loupe", "index.db")
	if err := os.MkdirAll(filepath.Dir(alone), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(alone)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := symbolFiles(t, db, "Late"); !slices.Equal(got, []string{"api/late.go:example.com/shop/api"}) {
		t.Errorf("the database file without its log: Late: %v", got)
	}
}

// TestWatchRetry: a batch that fails (the database locked by another
// writer past its timeout, here a failure injected into the first one)
// is applied again.
func TestWatchRetry(t *testing.T) {
	root, _ := buildShop(t)
	u := newUpdater(t, root)
	db := open(t, root)
	var fails atomic.Int32
	failBatch = func() error {
		if fails.Add(1) == 1 {
			return errors.New("injected failure")
		}
		return nil
	}
	defer func() { failBatch = nil }()
	var reported atomic.Int32
	w, err := Watch(u, func(_ *Stats, err error) {
		if err != nil {
			reported.Add(1)
		}
	})
	if err != nil {
		t.Skipf("no watching here: %v", err)
	}
	defer w.Close()
	write(t, root, "api/retried.go", "package api\n\nfunc Retried() {}\n")
	waitFor(t, u, "a failed batch applied again", func() bool {
		return len(symbolFiles(t, db, "Retried")) == 1
	})
	if reported.Load() != 1 || fails.Load() < 2 {
		t.Errorf("failures reported %d, batches tried %d", reported.Load(), fails.Load())
	}
}

// TestRefreshKeepsIndexedAt: a whole pass of an Updater (a server's
// catch-up, the first stat pass) is an update: indexed_at stays the last
// build's, the files it changed count in files_changed, and a pass that
// finds nothing changed writes nothing.
func TestRefreshKeepsIndexedAt(t *testing.T) {
	root, _ := buildShop(t)
	const built = "2000-01-01T00:00:00Z"
	w, err := openWrite(DefaultPath(root))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec("UPDATE "+MetaTable+" SET value = ? WHERE key = 'indexed_at'", built); err != nil {
		t.Fatal(err)
	}
	w.Close()
	u := newUpdater(t, root)
	db := open(t, root)
	ctx := context.Background()
	status := func() (string, int) {
		t.Helper()
		s, err := db.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s.IndexedAt, s.FilesChanged
	}
	st, err := u.Refresh(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if at, n := status(); at != built || n != 0 || st.Parsed != 0 {
		t.Errorf("nothing changed: indexed_at %s, files_changed %d, parsed %d; want %s, 0, 0", at, n, st.Parsed, built)
	}
	write(t, root, "api/server.go", "package api\n\nfunc Refreshed() {}\n")
	if st, err = u.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if at, n := status(); at != built || n != 1 || st.Parsed != 1 {
		t.Errorf("one file changed: indexed_at %s, files_changed %d, parsed %d; want %s, 1, 1", at, n, st.Parsed, built)
	}
	if got := symbolFiles(t, db, "Refreshed"); len(got) != 1 {
		t.Errorf("Refreshed is in %v", got)
	}
}

// TestMillisecondTimes: an index whose times are whole milliseconds (the
// npm package's build: Node's stat under GOOS=js) is current for the CLI
// when the files are unchanged: a pass reads and writes none of them, as
// a build by either face is for the other.
func TestMillisecondTimes(t *testing.T) {
	root, _ := buildShop(t)
	w, err := openWrite(DefaultPath(root))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Exec("UPDATE files SET mtime = mtime - mtime % 1000000"); err != nil {
		t.Fatal(err)
	}
	u := newUpdater(t, root)
	if _, err := u.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	var files, whole int
	if err := w.QueryRow("SELECT count(*), count(*) FILTER (WHERE mtime % 1000000 = 0) FROM files").Scan(&files, &whole); err != nil {
		t.Fatal(err)
	}
	if files == 0 || whole != files {
		t.Errorf("%d of %d files kept their millisecond times; a pass rewrote the others", whole, files)
	}
}

// TestSameTime: times agree to the nanosecond, or to the millisecond
// where one side has only milliseconds.
func TestSameTime(t *testing.T) {
	for _, tc := range []struct {
		recorded, seen int64
		want           bool
	}{
		{1_700_000_000_123_456_789, 1_700_000_000_123_456_789, true},
		{1_700_000_000_123_000_000, 1_700_000_000_123_456_789, true},  // recorded by the npm package
		{1_700_000_000_123_456_789, 1_700_000_000_123_000_000, true},  // seen by the npm package
		{1_700_000_000_124_000_000, 1_700_000_000_123_456_789, false}, // another millisecond
		{1_700_000_000_123_456_000, 1_700_000_000_123_456_789, false}, // not whole milliseconds
	} {
		if got := sameTime(tc.recorded, tc.seen); got != tc.want {
			t.Errorf("sameTime(%d, %d) = %v, want %v", tc.recorded, tc.seen, got, tc.want)
		}
	}
}
