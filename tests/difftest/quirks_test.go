package difftest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/scan"
)

// needAstGrep returns the reference ast-grep, or skips the test with one
// line saying how to install it.
func needAstGrep(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("differential suite against ast-grep: skipped with -short")
	}
	bin, err := AstGrep()
	if err != nil {
		t.Skip(err)
	}
	return bin
}

// TestScanQuirks scans small projects written byte for byte with both
// tools and compares every finding (replacements included): the YAML and
// suppression-comment details where loupe once differed from ast-grep.
func TestScanQuirks(t *testing.T) {
	bin := needAstGrep(t)
	cases := []struct {
		name  string
		files map[string]string
	}{
		{"fix block scalar at end of a file without final newline", map[string]string{
			"rule.yml": "id: r\nlanguage: javascript\nrule: {pattern: foo()}\nfix: |\n  bar()",
			"a.js":     "foo()\nfoo();\n",
		}},
		{"keep and strip chomping at end of file", map[string]string{
			"rule.yml": "id: k\nlanguage: javascript\nrule: {pattern: foo()}\nfix: |+\n  bar()\n---\nid: s\nlanguage: javascript\nrule: {pattern: baz()}\nfix: |-\n  qux()",
			"a.js":     "foo()\nbaz()\n",
		}},
		{"message block scalar at end of file", map[string]string{
			"rule.yml": "id: m\nlanguage: python\nrule: {pattern: print($A)}\nmessage: |\n  no print of $A",
			"a.py":     "print(1)\n",
		}},
		{"ast-grep-ignore only as a comment's first word (python)", map[string]string{
			"rule.yml": "id: r\nlanguage: python\nseverity: error\nrule: {pattern: foo($A)}\n",
			"a.py": "x = 1\nfoo(1)  # ast-grep-ignore\nfoo(2)  # ast-grep-ignore: r\nfoo(3)  # type: ignore[arg-type]  # ast-grep-ignore: r\n" +
				"foo(4)  # note ast-grep-ignore\nfoo(5)  #ast-grep-ignore\nfoo(6)  #   ast-grep-ignore:r\n# ast-grep-ignore\nfoo(7)\n" +
				"# todo: ast-grep-ignore\nfoo(8)\nfoo(9)  # ast-grep-ignore-next\nfoo(10)  # ast-grep-ignore:   r , s\nfoo(11)  # AST-GREP-IGNORE\n" +
				"foo(12)  ## ast-grep-ignore\nfoo(13)  # !ast-grep-ignore\nfoo(14)  # x ast-grep-ignore\nfoo(15)  # 'ast-grep-ignore'\n",
		}},
		{"ast-grep-ignore only as a comment's first word (javascript)", map[string]string{
			"rule.yml": "id: r\nlanguage: javascript\nrule: {pattern: foo($A)}\n",
			"a.js": "x = 1\nfoo(1) /* ast-grep-ignore */\nfoo(2) /** ast-grep-ignore */\nfoo(3) //ast-grep-ignore\nfoo(4) //! ast-grep-ignore\n" +
				"foo(5) /*ast-grep-ignore: r*/\nfoo(6) /* a ast-grep-ignore */\nfoo(7) /// ast-grep-ignore\n",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			var sources []string
			for name, body := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
				if name != "rule.yml" {
					sources = append(sources, name)
				}
			}
			rules := filepath.Join(dir, "rule.yml")
			ref, err := scanAstGrep(ctx, bin, dir, rules, sources)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string][]string{}
			for _, f := range ref {
				want[f.rule] = append(want[f.rule], f.key)
			}
			cfgs, err := project.ReadRuleFile(ctx, rules, "rule.yml", nil)
			if err != nil {
				t.Fatal(err)
			}
			got := scanLoupe(ctx, t, scan.NewRules(cfgs, dir, ""), dir, sources)
			for _, cfg := range cfgs {
				onlyRef, onlyGot := diffKeys(want[cfg.ID], got[cfg.ID])
				if len(onlyRef)+len(onlyGot) > 0 {
					t.Errorf("rule %s: ast-grep %d findings, loupe %d:\n%s", cfg.ID, len(want[cfg.ID]), len(got[cfg.ID]), firstDiffs(onlyRef, onlyGot, 6))
				}
			}
		})
	}
}
