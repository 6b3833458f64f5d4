package language_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/tree"
)

// region is an injected region as the tests describe it: its language,
// its text, and the host position of its first named node.
type region struct {
	lang, text string
	first      string // "kind row:col" of the region tree's first named node, "" when none
}

func TestInject(t *testing.T) {
	html := "<html>\n<style>\n.a { color: red; }\n</style>\n<script type=\"module\">\nlet a = 1;\n</script>\n" +
		"<div><script>f(2)</script></div>\n<script lang='ts'>let b: number</script>\n<script lang=\"nosuch\">x</script>\n" +
		"<script></script>\n<style lang=scss>.b{}</style>\n</html>\n"
	md := "# Title\n\n```js\nconsole.log(1)\n```\n\n- item\n\n  ```python title=\"x\"\n  print(1)\n  ```\n\n```\nno language\n```\n\n~~~go\npackage p\n~~~\n"
	svelte := "<script lang=\"ts\">\n  let n: number = 0;\n</script>\n\n<button on:click={() => n++}>{n}</button>\n{#if n > 1}<p>many</p>{/if}\n{#each items as item}{/each}\n\n<style>p { color: red }</style>\n"
	vue := "<template>\n  <p @click=\"go(1)\" :class=\"{ a: ok }\" v-for=\"x in xs\" title=\"t\">{{ msg }} and {{ n + 1 }}</p>\n</template>\n\n<script>\nexport default { methods: { go() {} } }\n</script>\n<style>\np { color: red }\n</style>\n"
	cases := []struct {
		host, src string
		want      []region
	}{
		{"html", html, []region{
			// Scripts first, then styles, as ast-grep lists them; lang
			// attributes name the language, an unknown one is passed over.
			{"javascript", "\nlet a = 1;\n", "lexical_declaration 5:0"},
			{"javascript", "f(2)", "expression_statement 7:13"},
			{"typescript", "let b: number", "lexical_declaration 8:18"},
			// An empty script is an empty region, as in ast-grep.
			{"javascript", "", ""},
			// scss is no language name, to ast-grep or loupe.
			{"css", "\n.a { color: red; }\n", "rule_set 2:0"},
		}},
		{"markdown", md, []region{
			{"javascript", "console.log(1)\n", "expression_statement 3:0"},
			{"python", "print(1)\n  ", "expression_statement 9:2"},
			{"go", "package p\n", "package_clause 17:0"},
		}},
		{"svelte", svelte, []region{
			{"typescript", "\n  let n: number = 0;\n", "lexical_declaration 1:2"},
			{"css", "p { color: red }", "rule_set 8:7"},
			// The template's expressions, in the script's language.
			{"typescript", "() => n++", "expression_statement 4:18"},
			{"typescript", "n", "expression_statement 4:30"},
			{"typescript", "n > 1", "expression_statement 5:5"},
		}},
		{"vue", vue, []region{
			{"javascript", "\nexport default { methods: { go() {} } }\n", "export_statement 5:0"},
			{"css", "\np { color: red }\n", "rule_set 8:0"},
			// Directives and interpolations, not v-for nor plain attributes.
			{"javascript", "go(1)", "expression_statement 1:13"},
			{"javascript", "{ a: ok }", "expression_statement 1:28"},
			{"javascript", " msg ", "expression_statement 1:68"},
			{"javascript", " n + 1 ", "expression_statement 1:82"},
		}},
		{"javascript", "let a = `<script>x</script>`", nil},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.host, func(t *testing.T) {
			host := lookup(t, c.host)
			ht, err := host.Parse(ctx, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			injected, err := host.Inject(ctx, ht, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []region
			for _, in := range injected {
				if string(in.Tree.Source()) != c.src {
					t.Errorf("%s region: its tree's source is not the host's", in.Lang.Name())
				}
				got = append(got, region{in.Lang.Name(), c.src[in.Region.Start:in.Region.End], firstNamed(in.Tree)})
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("regions:\n%v\nwant\n%v", got, c.want)
			}
		})
	}
}

// firstNamed describes the first named node below a tree's root.
func firstNamed(t *tree.Tree) string {
	var out string
	t.Root().Descendants(func(n tree.Node) bool {
		if n.Index() == 0 || !n.IsNamed() {
			return true
		}
		p := n.StartPoint()
		out = fmt.Sprintf("%s %d:%d", n.Kind(), p.Row, p.Column)
		return false
	})
	return out
}

func TestInjectable(t *testing.T) {
	cases := []struct {
		host   string
		target string
		want   bool
	}{
		{"html", "javascript", true},
		{"html", "typescript", true},
		{"html", "tsx", true},
		{"html", "css", true},
		{"html", "python", false},
		{"html", "html", false},
		{"markdown", "python", true},
		{"markdown", "markdown", false},
		{"javascript", "css", false},
	}
	for _, c := range cases {
		if got := lookup(t, c.host).Injects(lookup(t, c.target)); got != c.want {
			t.Errorf("%s.Injects(%s) = %v, want %v", c.host, c.target, got, c.want)
		}
	}
	var hosts []string
	for _, h := range language.Hosts(lookup(t, "javascript")) {
		hosts = append(hosts, h.Name())
	}
	if got := strings.Join(hosts, " "); got != "html markdown svelte vue" {
		t.Errorf("hosts of JavaScript: %s, want html markdown svelte vue", got)
	}
}

// injector is a registered injector: the text between two markers in a
// JavaScript template string, as CSS.
type injector struct{}

func (injector) Languages() []string { return []string{"css"} }

func (injector) Regions(_ context.Context, t *tree.Tree) ([]language.Region, error) {
	var out []language.Region
	t.Root().Descendants(func(n tree.Node) bool {
		if n.Kind() == "string_fragment" && n.Parent().Kind() == "template_string" {
			out = append(out, language.Region{Lang: "css", Start: n.StartByte(), End: n.EndByte()})
		}
		return true
	})
	return out, nil
}

func TestSetInjectors(t *testing.T) {
	js := lookup(t, "javascript")
	css := lookup(t, "css")
	language.SetInjectors(map[*language.Language][]language.Injector{js: {injector{}}})
	defer language.SetInjectors(nil)
	if !js.Injects(css) {
		t.Fatal("JavaScript does not inject CSS with an injector registered")
	}
	src := "const a = 1\nconst s = css`.a { color: red }`"
	ht, err := js.Parse(context.Background(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	injected, err := js.Inject(context.Background(), ht, nil)
	if err != nil || len(injected) != 1 {
		t.Fatalf("%d regions, %v", len(injected), err)
	}
	if got := firstNamed(injected[0].Tree); got != "rule_set 1:14" {
		t.Errorf("first node %s, want rule_set 1:14", got)
	}
	language.SetInjectors(nil)
	if js.Injects(css) {
		t.Error("JavaScript still injects CSS once the injectors are removed")
	}
}

func TestParseRegionRefusesOutside(t *testing.T) {
	js := lookup(t, "javascript")
	outer, err := js.Parse(context.Background(), []byte("abc"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = js.ParseRegion(context.Background(), outer, 2, 9)
	if err == nil || !strings.Contains(err.Error(), "outside a source of 3 bytes") {
		t.Errorf("error %v", err)
	}
}

func TestMayHold(t *testing.T) {
	cases := []struct {
		host, src, target string // target "" for any language
		want              bool
	}{
		{"markdown", "# T\n\n```js\nf()\n```\n", "javascript", true},
		{"markdown", "# T\n\n```js\nf()\n```\n", "python", false},
		{"markdown", "# T\n\n```js\nf()\n```\n", "", true},
		{"markdown", "- item\n\n    ~~~ python title=x\n    f()\n    ~~~\n", "python", true},
		{"markdown", "> ```ts{1,3}\n> f()\n> ```\n", "typescript", true},
		{"markdown", "```\nno language\n```\n```console\n$ ls\n```\n", "", false},
		{"markdown", "text with ``` inline ts\n", "typescript", false},
		{"markdown", "no fence at all\n", "", false},
		{"html", "<p>no script</p>", "javascript", true},
		{"javascript", "f()", "css", true},
	}
	for _, c := range cases {
		var target *language.Language
		if c.target != "" {
			target = lookup(t, c.target)
		}
		if got := lookup(t, c.host).MayHold([]byte(c.src), target); got != c.want {
			t.Errorf("%s.MayHold(%q, %q) = %v, want %v", c.host, c.src, c.target, got, c.want)
		}
	}
}
