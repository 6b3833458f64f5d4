package outline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/search"
)

// TestWalk outlines a directory through the pipeline: files in path
// order, their paths spelt from the argument, files without items left
// out with SkipEmpty, files of no outlined language not read.
func TestWalk(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"b.go":       "package b\n\nfunc B() {}\n\ntype T struct{ X int }\n",
		"a/a.py":     "def f():\n    pass\n",
		"empty.go":   "package empty\n",
		"notes.txt":  "func not code\n",
		"ignored.go": "package ignored\n\nfunc I() {}\n",
		".ignore":    "ignored.go\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts, _, err := Query{Items: "all", View: "expanded"}.Resolve(true)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		skipEmpty bool
		args      []string
		want      string
	}{
		{"skip empty", true, []string{dir}, dir + "/a/a.py: f\n" + dir + "/b.go: B T[X]\n"},
		{"keep empty", false, []string{dir}, dir + "/a/a.py: f\n" + dir + "/b.go: B T[X]\n" + dir + "/empty.go:\n"},
		{"argument spelt with a slash", true, []string{dir + "/"}, dir + "/a/a.py: f\n" + dir + "/b.go: B T[X]\n"},
		{"a file named", false, []string{filepath.Join(dir, "empty.go")}, filepath.Join(dir, "empty.go") + ":\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			st, err := NewOutliner(Default(), opts).Walk(context.Background(), search.Options{Paths: tc.args},
				Walk{SkipEmpty: tc.skipEmpty, Path: ArgPaths(tc.args)}, func(f *File) error {
					b.WriteString(f.Path + ":")
					for _, it := range f.Items {
						b.WriteString(" " + it.Name)
						if len(it.Members) > 0 {
							var ms []string
							for _, m := range it.Members {
								ms = append(ms, m.Name)
							}
							b.WriteString("[" + strings.Join(ms, ",") + "]")
						}
					}
					b.WriteByte('\n')
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.ReplaceAll(b.String(), "//", "/"); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if st.NoMatcher > 1 {
				t.Errorf("%d files read without an outlined language", st.NoMatcher)
			}
		})
	}
}

// TestQueryResolve resolves auto as ast-grep does and refuses bad values
// in one line.
func TestQueryResolve(t *testing.T) {
	empty := ""
	tests := []struct {
		q       Query
		dir     bool
		view    View
		check   func(Options) bool
		wantErr string
	}{
		{Query{}, false, Digest, func(o Options) bool { return o.Imports == No && o.Members && !o.MemberSignatures }, ""},
		{Query{}, true, Names, func(o Options) bool { return o.Exported == Yes && !o.ItemSignatures && !o.Members }, ""},
		{Query{Items: "imports", View: "expanded", PubMembers: true}, true, Expanded, func(o Options) bool { return o.Imports == Yes && o.MemberSignatures && o.Public == Yes }, ""},
		{Query{Types: "class, enum-member"}, false, Digest, func(o Options) bool { return strings.Join(o.Types, ",") == "class,enumMember" }, ""},
		{Query{Match: &empty, View: "names"}, false, Names, func(o Options) bool { return o.Match != nil }, ""},
		{Query{Types: "klass"}, false, 0, nil, "Unknown outline symbol type `klass`"},
		{Query{Match: new(string("(")), View: "names"}, false, 0, nil, "Cannot parse outline item matcher"},
		{Query{Items: "everything"}, false, 0, nil, `unknown outline items "everything"`},
		{Query{View: "tree"}, false, 0, nil, `unknown outline view "tree"`},
	}
	for _, tc := range tests {
		o, v, err := tc.q.Resolve(tc.dir)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%+v: error %v, want %q", tc.q, err, tc.wantErr)
			}
			continue
		}
		if err != nil || v != tc.view || !tc.check(o) {
			t.Errorf("%+v (dir %v): %+v, view %v, %v", tc.q, tc.dir, o, v, err)
		}
	}
}
