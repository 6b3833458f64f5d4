package difftest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/scan"
)

// TestYAMLEscapes writes a rule with each escape YAML 1.2 defines (and
// `\/` and `\'` in every scalar style) in its message and regex, scans a
// file with both tools and compares: both refuse the rule file, or both
// give the same findings, messages included.
func TestYAMLEscapes(t *testing.T) {
	bin := needAstGrep(t)
	const source = "let a = \"x/foo\";\nlet b = '\\\\/foo';\nlet c = \"it's\";\n"
	escapes := []string{`\0`, `\a`, `\b`, `\t`, "\\\t", `\n`, `\v`, `\f`, `\r`, `\e`, `\ `, `\"`, `\/`, `\\`,
		`\N`, `\_`, `\L`, `\P`, `\x41`, `\u00e9`, `\U0001F600`, "\\\n   ", `\'`, `\q`, `\x4`, `\uD800`}
	type ruleCase struct{ name, message, regex string }
	var cases []ruleCase
	for _, e := range escapes {
		cases = append(cases, ruleCase{"message " + strings.ReplaceAll(e, "\n", "NL"), `"m` + e + `m"`, `"."`})
	}
	cases = append(cases,
		ruleCase{"double-quoted regex solidus", "m", `"\/foo$"`},
		ruleCase{"double-quoted regex backslash pair", "m", `"\\\\/foo$"`},
		ruleCase{"plain regex solidus", "m", `\/foo$`},
		ruleCase{"single-quoted regex solidus", "m", `'\/foo$'`},
		ruleCase{"single-quoted regex ending in a backslash", `'\'`, `'^it'`},
		ruleCase{"block regex solidus", "m", "|-\n    \\/foo$"},
		ruleCase{"flow mapping", `"\/"`, `{not: {regex: "\/\/"}, regex: "\/"}`},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			regex := "  regex: " + c.regex
			if strings.HasPrefix(c.regex, "{") {
				regex = "  all: [" + c.regex + "]"
			}
			rules := "id: r\nlanguage: javascript\nseverity: error\nmessage: " + c.message + "\nrule:\n  kind: string_fragment\n" + regex + "\n"
			for name, body := range map[string]string{"rule.yml": rules, "a.js": source} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ref, refErr := scanAstGrep(ctx, bin, dir, "rule.yml", []string{"a.js"})
			if refErr != nil && !strings.Contains(refErr.Error(), "Cannot parse rule") {
				t.Fatal(refErr)
			}
			cfgs, err := project.ReadRuleFile(ctx, filepath.Join(dir, "rule.yml"), "rule.yml", nil)
			switch {
			case refErr != nil && err == nil:
				t.Fatalf("ast-grep refuses the rule, loupe reads it:\n%s", rules)
			case refErr == nil && err != nil:
				t.Fatalf("ast-grep reads the rule, loupe refuses it: %v", err)
			case err != nil:
				return
			}
			got := scanLoupe(ctx, t, scan.NewRules(cfgs, dir, ""), dir, []string{"a.js"})
			var want []string
			for _, f := range ref {
				want = append(want, f.key)
			}
			if onlyRef, onlyGot := diffKeys(want, got["r"]); len(onlyRef)+len(onlyGot) > 0 {
				t.Errorf("ast-grep %d findings, loupe %d:\n%s", len(want), len(got["r"]), firstDiffs(onlyRef, onlyGot, 4))
			}
		})
	}
}
