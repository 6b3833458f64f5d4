package rule

import (
	"context"
	"testing"
)

func TestAppliesTo(t *testing.T) {
	cases := []struct {
		files, ignores string // YAML lists, "" for none
		path           string
		want           bool
	}{
		{"", "", "any/path.ts", true},
		{"['*.ts']", "", "src/deep/a.ts", true},
		{"['src/*.ts']", "", "src/deep/a.ts", true},
		{"['src/*.ts']", "", "lib/a.ts", false},
		{"['**/test/**']", "", "a/test/b.ts", true},
		{"['**/test/**']", "", "test/b.ts", true},
		{"['src/**/a.ts']", "", "src/a.ts", true},
		{"['src/{a,b}.ts']", "", "src/b.ts", true},
		{"['src/[ab].ts']", "", "src/c.ts", false},
		{"['src/[!ab].ts']", "", "src/c.ts", true},
		{"['?.ts']", "", "a.ts", true},
		{"[{glob: 'SRC/*.TS', caseInsensitive: true}]", "", "src/a.ts", true},
		{"[{glob: 'SRC/*.TS'}]", "", "src/a.ts", false},
		{"", "['**/gen*.ts']", "src/gen1.ts", false},
		{"['src/*']", "['src/skip/*']", "src/skip/x.ts", false},
		{"['src/*']", "['src/skip/*']", "src/keep/x.ts", true},
	}
	for _, c := range cases {
		src := "id: t\nlanguage: ts\nrule: {kind: number}\n"
		if c.files != "" {
			src += "files: " + c.files + "\n"
		}
		if c.ignores != "" {
			src += "ignores: " + c.ignores + "\n"
		}
		cfgs, err := ParseConfigs(context.Background(), []byte(src), Options{})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := cfgs[0].AppliesTo(c.path); got != c.want {
			t.Errorf("files %s ignores %s: AppliesTo(%q) = %v, want %v", c.files, c.ignores, c.path, got, c.want)
		}
	}
	for _, bad := range []string{"['a{b']", "['[ab']", "['a\\']", "['{a,{b}}']"} {
		_, err := ParseConfigs(context.Background(), []byte("id: t\nlanguage: ts\nrule: {kind: number}\nfiles: "+bad+"\n"), Options{})
		if err == nil {
			t.Errorf("files %s: expected an error", bad)
		}
	}
}

func TestFixEdit(t *testing.T) {
	cfg := config(t, `
id: t
language: typescript
rule: {kind: pair, regex: '^b'}
fix:
  template: "b: [$$$]"
  expandStart: {regex: '^,$'}
  expandEnd: {regex: ',', stopBy: end}
`)
	tr := parseSrc(t, cfg.Language, "x = {a: 1, b: 2, c: 3}")
	hits := findAll(tr, cfg)
	if len(hits) != 1 {
		t.Fatalf("%d hits", len(hits))
	}
	e := cfg.Fixes[0].Edit(hits[0].node, hits[0].env)
	src := string(tr.Source())
	if got := src[e.Start:e.End]; got != ", b: 2," {
		t.Errorf("edit covers %q", got)
	}
	if string(e.Text) != "b: [$$$]" {
		t.Errorf("edit text %q", e.Text)
	}
}
