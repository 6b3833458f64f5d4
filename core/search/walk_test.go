package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
)

// writeTree creates files under dir; a name ending in "/" is a directory,
// a value starting with "->" makes a symlink to the rest.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(body, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func lang(t *testing.T, name string) *language.Language {
	t.Helper()
	l, err := language.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func paths(fs []File) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Path)
	}
	return out
}

func skipList(ss []Skipped) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.Path+": "+string(s.Reason))
	}
	return out
}

// repo is a small project shared by the walk tests.
var repo = map[string]string{
	".git/HEAD":            "ref: refs/heads/main\n",
	".git/info/exclude":    "excluded.ts\n",
	".gitignore":           "dist/\n*.gen.ts\n!keep.gen.ts\n/top.ts\nbuild\n",
	"a.ts":                 "f()",
	"top.ts":               "f()",
	"src/top.ts":           "f()",
	"src/b.tsx":            "f()",
	"src/x.gen.ts":         "f()",
	"src/keep.gen.ts":      "f()",
	"src/.gitignore":       "local.ts\n!/dist/\n",
	"src/local.ts":         "f()",
	"src/dist/in.ts":       "f()",
	"src/deep/local.ts":    "f()",
	"src/deep/c.py":        "f()",
	"dist/out.ts":          "f()",
	"build/b.ts":           "f()",
	"excluded.ts":          "f()",
	".hidden.ts":           "f()",
	".hdir/h.ts":           "f()",
	"node_modules/m/i.ts":  "f()",
	"notes.txt":            "f()",
	"sub/.ignore":          "ig.ts\n",
	"sub/ig.ts":            "f()",
	"sub/ok.js":            "f()",
	"sub/test/t.test.ts":   "f()",
	"sub/test/t.ts":        "f()",
	"src/deep/x.unknownxt": "f()",
}

func TestFilesIgnoreRules(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, repo)
	tests := []struct {
		name string
		opts Options
		want []string
	}{
		{"defaults", Options{}, []string{
			"a.ts", "src/b.tsx", "src/deep/c.py", "src/dist/in.ts", "src/keep.gen.ts", "src/top.ts",
			"sub/ok.js", "sub/test/t.test.ts", "sub/test/t.ts",
		}},
		{"no ignore files", Options{NoIgnore: IgnoreAll}, []string{
			"a.ts", "build/b.ts", "dist/out.ts", "excluded.ts", "src/b.tsx", "src/deep/c.py", "src/deep/local.ts",
			"src/dist/in.ts", "src/keep.gen.ts", "src/local.ts", "src/top.ts", "src/x.gen.ts",
			"sub/ig.ts", "sub/ok.js", "sub/test/t.test.ts", "sub/test/t.ts", "top.ts",
		}},
		{"no exclude file", Options{NoIgnore: IgnoreExclude}, []string{
			"a.ts", "excluded.ts", "src/b.tsx", "src/deep/c.py", "src/dist/in.ts", "src/keep.gen.ts", "src/top.ts",
			"sub/ok.js", "sub/test/t.test.ts", "sub/test/t.ts",
		}},
		{"no .ignore", Options{NoIgnore: IgnoreDot}, []string{
			"a.ts", "src/b.tsx", "src/deep/c.py", "src/dist/in.ts", "src/keep.gen.ts", "src/top.ts",
			"sub/ig.ts", "sub/ok.js", "sub/test/t.test.ts", "sub/test/t.ts",
		}},
		{"hidden", Options{Hidden: true}, []string{
			".hdir/h.ts", ".hidden.ts", "a.ts", "src/b.tsx", "src/deep/c.py", "src/dist/in.ts", "src/keep.gen.ts",
			"src/top.ts", "sub/ok.js", "sub/test/t.test.ts", "sub/test/t.ts",
		}},
		{"node_modules", Options{NodeModules: true}, []string{
			"a.ts", "node_modules/m/i.ts", "src/b.tsx", "src/deep/c.py", "src/dist/in.ts", "src/keep.gen.ts",
			"src/top.ts", "sub/ok.js", "sub/test/t.test.ts", "sub/test/t.ts",
		}},
		{"typescript only, hidden file of the type let through", Options{Lang: lang(t, "ts")}, []string{
			".hidden.ts", "a.ts", "src/dist/in.ts", "src/keep.gen.ts", "src/top.ts", "sub/test/t.test.ts", "sub/test/t.ts",
		}},
		{"globs at any depth, overriding ignore files", Options{Globs: []string{"*.ts"}}, []string{
			".hidden.ts", "a.ts", "excluded.ts", "src/deep/local.ts", "src/dist/in.ts", "src/keep.gen.ts", "src/local.ts", "src/top.ts", "src/x.gen.ts",
			"sub/ig.ts", "sub/test/t.test.ts", "sub/test/t.ts", "top.ts",
		}},
		{"negated glob", Options{Globs: []string{"!*.test.ts", "!src"}}, []string{
			"a.ts", "sub/ok.js", "sub/test/t.ts",
		}},
		{"anchored glob", Options{Globs: []string{"src/*.ts"}}, []string{
			"src/keep.gen.ts", "src/local.ts", "src/top.ts", "src/x.gen.ts",
		}},
		{"doublestar glob", Options{Globs: []string{"sub/**"}}, []string{
			"sub/ig.ts", "sub/ok.js", "sub/test/t.test.ts", "sub/test/t.ts",
		}},
		{"language globs", Options{LangGlobs: map[string][]string{"python": {"*.unknownxt"}}}, []string{
			"a.ts", "src/b.tsx", "src/deep/c.py", "src/deep/x.unknownxt", "src/dist/in.ts", "src/keep.gen.ts",
			"src/top.ts", "sub/ok.js", "sub/test/t.test.ts", "sub/test/t.ts",
		}},
		{"subdirectory honours parent ignore files", Options{Paths: []string{"src"}}, []string{
			"src/b.tsx", "src/deep/c.py", "src/dist/in.ts", "src/keep.gen.ts", "src/top.ts",
		}},
		{"named files bypass ignores", Options{Paths: []string{"dist/out.ts", ".hidden.ts", "src/x.gen.ts"}}, []string{
			".hidden.ts", "dist/out.ts", "src/x.gen.ts",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Root = dir
			fs, skipped, err := Files(context.Background(), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(fs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("files\n got %q\nwant %q", got, tt.want)
			}
			if len(skipped) != 0 {
				t.Errorf("skipped %v", skipList(skipped))
			}
		})
	}
}

func TestGitignoreNeedsRepository(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore": "a.ts\n",
		".ignore":    "b.ts\n",
		"a.ts":       "x",
		"b.ts":       "x",
		"c.ts":       "x",
	})
	fs, _, err := Files(context.Background(), Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(fs), []string{"a.ts", "c.ts"}; !reflect.DeepEqual(got, want) {
		t.Errorf("outside a repository .gitignore must not apply: got %q want %q", got, want)
	}
}

func TestBoundary(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	ws := filepath.Join(base, "ws")
	writeTree(t, base, map[string]string{
		"outside/secret.ts": "secret()",
		"outside/dir/s.ts":  "secret()",
		"ws/a.ts":           "a()",
		"ws/in/b.ts":        "b()",
		"ws/link.ts":        "->" + filepath.Join(outside, "secret.ts"),
		"ws/linkdir":        "->" + filepath.Join(outside, "dir"),
		"ws/inlink.ts":      "->" + filepath.Join(ws, "in", "b.ts"),
		"ws/in/loop":        "->" + ws,
	})
	ctx := context.Background()
	for _, p := range []string{"..", "../outside", "in/../../outside/secret.ts", outside, filepath.Join(outside, "secret.ts"), "link.ts", "linkdir",
		"linkdir/s.ts", "linkdir/missing.ts", "linkdir/no/such/dir.ts"} {
		_, _, err := Files(ctx, Options{Root: ws, Paths: []string{p}})
		if !errors.Is(err, ErrOutsideWorkspace) {
			t.Errorf("path %q: err = %v, want ErrOutsideWorkspace", p, err)
		}
		// A refusal names neither the outside nor whether a path exists
		// there: an existing and a missing file under a link read alike.
		msg := ""
		if err != nil {
			msg = strings.ReplaceAll(err.Error(), strconv.Quote(p), "") // the path as given may be echoed
		}
		if strings.Contains(msg, outside) || strings.Contains(msg, "no such file") {
			t.Errorf("path %q: the refusal tells about the outside: %v", p, err)
		}
	}
	// One bad path refuses the whole search.
	if _, _, err := Files(ctx, Options{Root: ws, Paths: []string{"a.ts", ".."}}); !errors.Is(err, ErrOutsideWorkspace) {
		t.Errorf("mixed paths: err = %v", err)
	}
	// Inside paths, absolute or relative, with .. that stays inside.
	for _, p := range []string{"", ".", ws, "in/..", filepath.Join(ws, "in", "..", "a.ts"), "inlink.ts"} {
		if _, _, err := Files(ctx, Options{Root: ws, Paths: []string{p}}); err != nil {
			t.Errorf("path %q: %v", p, err)
		}
	}
	// The walk passes over links without Follow.
	fs, skipped, err := Files(ctx, Options{Root: ws})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(fs), []string{"a.ts", "in/b.ts"}; !reflect.DeepEqual(got, want) {
		t.Errorf("no follow: got %q want %q", got, want)
	}
	if len(skipped) != 0 {
		t.Errorf("no follow: skipped %v", skipList(skipped))
	}
	// With Follow, links inside are followed (the loop is cut), links out
	// are reported and never read.
	fs, skipped, err = Files(ctx, Options{Root: ws, Follow: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(fs), []string{"a.ts", "in/b.ts"}; !reflect.DeepEqual(got, want) {
		t.Errorf("follow: got %q want %q", got, want)
	}
	if got, want := skipList(skipped), []string{"link.ts: outside workspace", "linkdir: outside workspace"}; !reflect.DeepEqual(got, want) {
		t.Errorf("follow: skipped %q want %q", got, want)
	}
	for _, f := range fs {
		if !strings.HasPrefix(f.Abs, ws) && !strings.HasPrefix(f.Abs, mustReal(t, ws)) {
			t.Errorf("%s resolves outside: %s", f.Path, f.Abs)
		}
	}
}

func mustReal(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNamedPaths(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.ts":     "x",
		"b.tsx":    "x",
		"c.txt":    "x",
		"sub/d.ts": "x",
	})
	fs, skipped, err := Files(context.Background(), Options{
		Root:  dir,
		Paths: []string{"a.ts", "b.tsx", "c.txt", "nope.ts", "sub", "sub/d.ts"},
		Lang:  lang(t, "typescript"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := paths(fs), []string{"a.ts", "sub/d.ts"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files %q want %q (duplicates dropped)", got, want)
	}
	want := []string{"b.tsx: language", "c.txt: language", "nope.ts: not found"}
	if got := skipList(skipped); !reflect.DeepEqual(got, want) {
		t.Errorf("skipped %q want %q", got, want)
	}
}

func TestDisplayPathsWithoutRoot(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"sub/b.ts": "x", "a.ts": "x"})
	t.Chdir(dir)
	tests := []struct {
		paths []string
		want  []string
	}{
		{nil, []string{"a.ts", "sub/b.ts"}},
		{[]string{"."}, []string{"a.ts", "sub/b.ts"}},
		{[]string{"./sub"}, []string{"sub/b.ts"}},
		{[]string{"sub/"}, []string{"sub/b.ts"}},
		{[]string{"sub/../sub"}, []string{"sub/../sub/b.ts"}},
		{[]string{"./a.ts"}, []string{"a.ts"}},
		{[]string{filepath.Join(dir, "sub")}, []string{filepath.ToSlash(filepath.Join(dir, "sub", "b.ts"))}},
	}
	for _, tt := range tests {
		fs, _, err := Files(context.Background(), Options{Paths: tt.paths})
		if err != nil {
			t.Fatal(err)
		}
		if got := paths(fs); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %q want %q", tt.paths, got, tt.want)
		}
	}
	// An absolute path under the working directory still matches
	// relative globs.
	fs, _, err := Files(context.Background(), Options{Paths: []string{dir}, Globs: []string{"sub/*.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || !strings.HasSuffix(fs[0].Path, "sub/b.ts") {
		t.Errorf("absolute path with relative glob: %q", paths(fs))
	}
}

func TestSizeCapAndBadGlob(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"big.ts": strings.Repeat("x;\n", 1000), "small.ts": "x"})
	fs, skipped, err := Files(context.Background(), Options{Root: dir, MaxFileSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(fs); !reflect.DeepEqual(got, []string{"small.ts"}) {
		t.Errorf("files %q", got)
	}
	if got := skipList(skipped); !reflect.DeepEqual(got, []string{"big.ts: too large"}) {
		t.Errorf("skipped %q", got)
	}
	if _, _, err := Files(context.Background(), Options{Root: dir, Globs: []string{"*.{ts"}}); err == nil {
		t.Error("a bad glob must be an error")
	}
	if _, _, err := Files(context.Background(), Options{Root: dir, LangGlobs: map[string][]string{"klingon": {"*.k"}}}); err == nil {
		t.Error("an unknown language in LangGlobs must be an error")
	}
}

func TestPathLess(t *testing.T) {
	in := []string{"a.ts", "a/b.ts", "a-b/c.ts", "B.ts", "a/a/z.ts"}
	fs := make([]File, len(in))
	for i, p := range in {
		fs[i] = File{Path: p}
	}
	sortFiles(fs)
	if got, want := paths(fs), []string{"B.ts", "a/a/z.ts", "a/b.ts", "a-b/c.ts", "a.ts"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestShardPartitionsFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, repo)
	tests := []struct {
		name string
		opts Options
	}{
		{"walk", Options{NoIgnore: IgnoreAll, Hidden: true}},
		{"named paths", Options{Paths: []string{"a.ts", "src", "nope.ts", "sub/test/t.ts", "missing/"}}},
	}
	for _, tt := range tests {
		for _, count := range []int{2, 3} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, count), func(t *testing.T) {
				tt.opts.Root = dir
				all, allSkipped, err := Files(context.Background(), tt.opts)
				if err != nil {
					t.Fatal(err)
				}
				seen := map[string]int{}
				skippedSeen := map[string]int{}
				for i := range count {
					o := tt.opts
					o.Shard = Shard{Index: i, Count: count}
					fs, skipped, err := Files(context.Background(), o)
					if err != nil {
						t.Fatal(err)
					}
					if len(fs) == len(all) {
						t.Errorf("shard %d/%d has all %d files", i, count, len(all))
					}
					for _, f := range fs {
						seen[f.Path]++
					}
					for _, s := range skipList(skipped) {
						skippedSeen[s]++
					}
				}
				if len(seen) != len(all) {
					t.Errorf("shards cover %d files, want %d", len(seen), len(all))
				}
				for _, f := range all {
					if seen[f.Path] != 1 {
						t.Errorf("%s is in %d shards, want 1", f.Path, seen[f.Path])
					}
				}
				if len(skippedSeen) != len(allSkipped) {
					t.Errorf("shards skip %d paths, want %d", len(skippedSeen), len(allSkipped))
				}
				for _, s := range skipList(allSkipped) {
					if skippedSeen[s] != 1 {
						t.Errorf("skip %q is in %d shards, want 1", s, skippedSeen[s])
					}
				}
			})
		}
	}
	if _, _, err := Files(context.Background(), Options{Root: dir, Shard: Shard{Index: 2, Count: 2}}); err == nil {
		t.Error("a shard index out of range must be an error")
	}
}

func TestShardBalancesWork(t *testing.T) {
	files := func(sizes ...int64) []File {
		fs := make([]File, len(sizes))
		for i, s := range sizes {
			fs[i] = File{Path: fmt.Sprintf("f%02d", i), Size: s}
		}
		return fs
	}
	tests := []struct {
		name  string
		files []File
		count int
		want  [][]string // each shard's paths, in path order
	}{
		// The hash split put both big files in one shard of typescript's lib.
		{"two big files part", files(10<<10, 900<<10, 20<<10, 800<<10, 30<<10), 2, [][]string{{"f01"}, {"f00", "f02", "f03", "f04"}}},
		{"largest alone", files(1000<<10, 1<<10, 2<<10, 3<<10), 2, [][]string{{"f00"}, {"f01", "f02", "f03"}}},
		// 64 KiB against 8 files of 4 KiB: each file costs shardFileCost
		// more, so the small ones are not all dealt to one part.
		{"many small files are work too", files(64<<10, 4<<10, 4<<10, 4<<10, 4<<10, 4<<10, 4<<10, 4<<10, 4<<10), 2,
			[][]string{{"f00", "f05", "f07"}, {"f01", "f02", "f03", "f04", "f06", "f08"}}},
		{"equal sizes go round", files(5, 5, 5, 5, 5, 5), 3, [][]string{{"f00", "f03"}, {"f01", "f04"}, {"f02", "f05"}}},
		{"empty files still spread", files(0, 0, 0, 0), 2, [][]string{{"f00", "f02"}, {"f01", "f03"}}},
		{"more shards than files", files(7), 3, [][]string{{"f00"}, nil, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.count {
				var got []string
				for _, f := range (Shard{Index: i, Count: tt.count}).keep(tt.files) {
					got = append(got, f.Path)
				}
				if !slices.Equal(got, tt.want[i]) {
					t.Errorf("shard %d/%d = %v, want %v", i, tt.count, got, tt.want[i])
				}
			}
		})
	}
}

func TestAllFilesDepthAndNoRequireGit(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore":        "ignored.txt\n",
		"ignored.txt":       "x",
		"notes.txt":         "x",
		"a.ts":              "x",
		"d1/d2/f.txt":       "x",
		"d1/d2/d3/deep.txt": "x",
	})
	cases := []struct {
		name        string
		opts        Options
		want, skips []string
	}{
		{"languages only", Options{}, []string{"a.ts"}, nil},
		{"all files, gitignore needs a repository", Options{AllFiles: true},
			[]string{"a.ts", "d1/d2/d3/deep.txt", "d1/d2/f.txt", "ignored.txt", "notes.txt"}, nil},
		{"no-require-git", Options{AllFiles: true, NoRequireGit: true},
			[]string{"a.ts", "d1/d2/d3/deep.txt", "d1/d2/f.txt", "notes.txt"}, nil},
		{"lang still restricts", Options{AllFiles: true, Lang: lang(t, "typescript")}, []string{"a.ts"}, nil},
		{"max depth", Options{AllFiles: true, NoRequireGit: true, MaxDepth: 2},
			[]string{"a.ts", "d1/d2/f.txt", "notes.txt"}, []string{"d1/d2/d3: too deep"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Root = dir
			fs, skipped, err := Files(context.Background(), c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(fs); !reflect.DeepEqual(got, c.want) {
				t.Errorf("files %q, want %q", got, c.want)
			}
			if got := skipList(skipped); len(got)+len(c.skips) > 0 && !reflect.DeepEqual(got, c.skips) {
				t.Errorf("skipped %q, want %q", got, c.skips)
			}
		})
	}
	// Run passes over a file without a language instead of parsing it.
	st, err := Run(context.Background(), Options{Root: dir, AllFiles: true}, Job[struct{}]{})
	if err != nil {
		t.Fatal(err)
	}
	if st.NoMatcher != 4 || st.Searched != 1 {
		t.Errorf("stats %+v: want 4 without a language, 1 searched", st)
	}
}
