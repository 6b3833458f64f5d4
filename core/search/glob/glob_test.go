package glob

import "testing"

func TestMatch(t *testing.T) {
	tests := []struct {
		glob string
		yes  []string
		no   []string
	}{
		{"*.ts", []string{"a.ts", ".ts"}, []string{"d/a.ts", "a.tsx", "a.ts/b"}},
		{"**/*.ts", []string{"a.ts", "d/a.ts", "d/e/a.ts"}, []string{"a.tsx", "d/a.ts/x"}},
		{"**/foo", []string{"foo", "bar/foo", "a/b/foo"}, []string{"foo/bar", "xfoo"}},
		{"foo/**", []string{"foo/a", "foo/a/b"}, []string{"foo", "xfoo/a"}},
		{"foo/**/bar", []string{"foo/bar", "foo/a/bar", "foo/a/b/bar"}, []string{"foobar", "foo/bar/x", "x/foo/bar"}},
		{"a**b", []string{"ab", "axxb"}, []string{"a/b", "ax/xb"}},
		{"**", []string{"", "a", "a/b/c"}, nil},
		{"{*.ts,*.js}", []string{"a.ts", "a.js"}, []string{"a.go", "d/a.ts"}},
		{"**/{a,b}/*.go", []string{"a/x.go", "d/b/x.go"}, []string{"c/x.go", "a/d/x.go"}},
		{"{**/a,b}", []string{"a", "x/a", "b"}, []string{"x/b"}},
		{"[ab].go", []string{"a.go", "b.go"}, []string{"c.go", "ab.go"}},
		{"[!ab].go", []string{"c.go"}, []string{"a.go"}},
		{"[a-c]x", []string{"bx"}, []string{"dx"}},
		{"[]]", []string{"]"}, []string{"a"}},
		{`\*.go`, []string{"*.go"}, []string{"a.go"}},
		{"?.go", []string{"a.go"}, []string{"ab.go", "/.go"}},
		{"src/*.ts", []string{"src/a.ts"}, []string{"src/d/a.ts", "x/src/a.ts"}},
		{"a.ts", []string{"a.ts"}, []string{"b/a.ts"}},
		{"**/*.test.ts", []string{"x.test.ts", "d/x.test.ts"}, []string{"x.ts"}},
		{"d/**/*.ts", []string{"d/a.ts", "d/e/a.ts"}, []string{"a.ts", "e/d/a.ts"}},
		{"x}", []string{"x}"}, nil},
		{"a,b", []string{"a,b"}, []string{"a"}},
	}
	for _, tt := range tests {
		g, err := Compile(tt.glob)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tt.glob, err)
		}
		for _, p := range tt.yes {
			if !g.Match(p) {
				t.Errorf("%q should match %q", tt.glob, p)
			}
		}
		for _, p := range tt.no {
			if g.Match(p) {
				t.Errorf("%q should not match %q", tt.glob, p)
			}
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, p := range []string{"[ab", "{a,b", `a\`, "{a,{b}}", "[z-a]"} {
		if _, err := Compile(p); err == nil {
			t.Errorf("Compile(%q) succeeded, want an error", p)
		}
	}
}

func TestFastPaths(t *testing.T) {
	tests := []struct {
		glob string
		kind kind
	}{
		{"**", kindAll},
		{"**/node_modules", kindBase},
		{"**/*.ts", kindBaseSufx},
		{"src/a.ts", kindExact},
		{"src/*.ts", kindRegexp},
	}
	for _, tt := range tests {
		g, err := Compile(tt.glob)
		if err != nil {
			t.Fatal(err)
		}
		if g.kind != tt.kind {
			t.Errorf("%q: kind %d, want %d", tt.glob, g.kind, tt.kind)
		}
	}
}
