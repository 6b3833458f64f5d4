package ignore

import "testing"

func TestRules(t *testing.T) {
	type probe struct {
		path  string
		isDir bool
		want  Result
	}
	tests := []struct {
		name   string
		lines  string
		probes []probe
	}{
		{"basename at any depth", "*.log\n", []probe{
			{"a.log", false, Ignore}, {"d/e/a.log", false, Ignore}, {"a.txt", false, None},
		}},
		{"anchored with leading slash", "/build\n", []probe{
			{"build", true, Ignore}, {"src/build", true, None},
		}},
		{"inner slash anchors", "doc/*.txt\n", []probe{
			{"doc/a.txt", false, Ignore}, {"x/doc/a.txt", false, None}, {"doc/x/a.txt", false, None},
		}},
		{"dir only", "out/\n", []probe{
			{"out", true, Ignore}, {"out", false, None}, {"a/out", true, Ignore},
		}},
		{"negation, last wins", "*.ts\n!keep.ts\n", []probe{
			{"a.ts", false, Ignore}, {"keep.ts", false, Whitelist}, {"d/keep.ts", false, Whitelist},
		}},
		{"negation before ignore loses", "!keep.ts\n*.ts\n", []probe{
			{"keep.ts", false, Ignore},
		}},
		{"comments, blanks, trailing spaces", "# c\n\n  \nfoo.js   \n\\#x\n", []probe{
			{"foo.js", false, Ignore}, {"# c", false, None}, {"#x", false, Ignore},
		}},
		{"escaped bang", "\\!important\n", []probe{
			{"!important", false, Ignore},
		}},
		{"escaped trailing space kept", "a\\ \n", []probe{
			{"a ", false, Ignore}, {"a", false, None},
		}},
		{"double star forms", "**/gen/**\na/**/z\n", []probe{
			{"gen/x.go", false, Ignore}, {"p/gen/q/x.go", false, Ignore}, {"gen", true, None},
			{"a/z", false, Ignore}, {"a/b/c/z", false, Ignore},
		}},
		{"crlf lines", "x.go\r\ny.go\r\n", []probe{
			{"x.go", false, Ignore}, {"y.go", false, Ignore},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse([]byte(tt.lines))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range tt.probes {
				if got := r.Match(p.path, p.isDir); got != p.want {
					t.Errorf("Match(%q, dir=%v) = %d, want %d", p.path, p.isDir, got, p.want)
				}
			}
		})
	}
}

func TestParseKeepsGoodLines(t *testing.T) {
	r, err := Parse([]byte("a[b\n*.go\n"))
	if err == nil {
		t.Fatal("want an error for the bad line")
	}
	if r.Len() != 1 || r.Match("x.go", false) != Ignore {
		t.Fatalf("good line lost: len %d", r.Len())
	}
}

func TestOverride(t *testing.T) {
	tests := []struct {
		globs []string
		path  string
		isDir bool
		want  Result
	}{
		{nil, "a.ts", false, None},
		{[]string{"*.ts"}, "a.ts", false, Whitelist},
		{[]string{"*.ts"}, "d/e/a.ts", false, Whitelist},
		{[]string{"*.ts"}, "a.js", false, Ignore},
		{[]string{"*.ts"}, "d", true, None},
		{[]string{"!*.test.ts"}, "a.test.ts", false, Ignore},
		{[]string{"!*.test.ts"}, "a.ts", false, None},
		{[]string{"*.ts", "!*.test.ts"}, "a.test.ts", false, Ignore},
		{[]string{"!*.test.ts", "*.ts"}, "a.test.ts", false, Whitelist},
		{[]string{"!sub"}, "sub", true, Ignore},
		{[]string{"src/*.ts"}, "src/a.ts", false, Whitelist},
		{[]string{"src/*.ts"}, "lib/src/a.ts", false, Ignore},
	}
	for _, tt := range tests {
		o, err := NewOverride(tt.globs)
		if err != nil {
			t.Fatal(err)
		}
		if got := o.Match(tt.path, tt.isDir); got != tt.want {
			t.Errorf("%v Match(%q, %v) = %d, want %d", tt.globs, tt.path, tt.isDir, got, tt.want)
		}
	}
	if _, err := NewOverride([]string{"*.{ts"}); err == nil {
		t.Error("an invalid glob must be an error")
	}
}
