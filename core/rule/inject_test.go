package rule

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestParseInjection(t *testing.T) {
	src := "const a = styled.css`.a { color: red }`;\nconst b = styled`.b {}`;\nconst c = styled.nosuch`x`;\nconst d = css`.d {}`;\n"
	cases := []struct {
		name, yaml string
		want       string // the regions, "lang:text" joined by |
		err        string
	}{
		{"candidates", "hostLanguage: js\nrule:\n  pattern: styled.$LANG`$CONTENT`\ninjected: [css, scss]\n",
			"css:.a { color: red }|nosuch:x", ""},
		{"static", "hostLanguage: js\nrule:\n  pattern: styled`$CONTENT`\ninjected: css\n",
			"css:.b {}", ""},
		{"no $CONTENT", "hostLanguage: js\nrule:\n  pattern: css`$X`\ninjected: css\n",
			"", ""},
		{"constraints and utils", "hostLanguage: javascript\nutils:\n  tag: { regex: ^css$ }\nrule:\n  pattern: $T`$CONTENT`\nconstraints:\n  T: { matches: tag }\ninjected: css\nid: ignored\n",
			"css:.d {}", ""},
		{"no host", "rule:\n  pattern: a\ninjected: css\n", "", "hostLanguage: a language name is required"},
		{"bad host", "hostLanguage: nosuch\nrule:\n  pattern: a\ninjected: css\n", "", `unsupported language "nosuch"`},
		{"bad injected", "hostLanguage: js\nrule:\n  pattern: a\ninjected: {css: 1}\n", "", "injected: a language name or a list"},
		{"bad rule", "hostLanguage: html\nrule:\n  kind: not_exist\ninjected: [js]\n", "", "not_exist"},
	}
	js := mustLang(t, "javascript")
	tr := parseSrc(t, js, src)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var obj map[string]any
			if err := UnmarshalYAML([]byte(c.yaml), &obj); err != nil {
				t.Fatal(err)
			}
			inj, err := ParseInjection(context.Background(), obj)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if inj.Host != js {
				t.Errorf("host %s", inj.Host.Name())
			}
			rs, err := inj.Regions(context.Background(), tr)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rs {
				got = append(got, fmt.Sprintf("%s:%s", r.Lang, src[r.Start:r.End]))
			}
			if g := strings.Join(got, "|"); g != c.want {
				t.Errorf("regions %q, want %q", g, c.want)
			}
		})
	}
}
