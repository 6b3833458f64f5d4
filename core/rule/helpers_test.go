package rule

import (
	"context"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// hit is one match as the tests see it.
type hit struct {
	node tree.Node
	env  *match.Env
}

func mustLang(t testing.TB, name string) *language.Language {
	t.Helper()
	l, err := language.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func parseSrc(t testing.TB, lang *language.Language, src string) *tree.Tree {
	t.Helper()
	tr, err := lang.Parse(context.Background(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// findAll runs m over every node of t in pre-order, like a scan.
func findAll(t *tree.Tree, m match.Matcher) []hit {
	var out []hit
	env := &match.Env{}
	ks := m.Kinds()
	for i := 0; i < t.Len(); i++ {
		n := t.Node(i)
		if !ks.Has(n.KindID()) {
			continue
		}
		if m.Match(n, env) {
			out = append(out, hit{n, env.Clone()})
			env.Reset()
		}
	}
	return out
}

// config compiles a one-document YAML rule config.
func config(t testing.TB, src string) *Config {
	t.Helper()
	cfgs, err := ParseConfigs(context.Background(), []byte(src), Options{})
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	if len(cfgs) != 1 {
		t.Fatalf("want one rule, got %d", len(cfgs))
	}
	return cfgs[0]
}

// texts returns the matched texts of a rule over src, joined by "|".
func texts(t testing.TB, rule, src string) string {
	t.Helper()
	cfg := config(t, rule)
	var out []string
	for _, h := range findAll(parseSrc(t, cfg.Language, src), cfg) {
		out = append(out, h.node.Text())
	}
	return strings.Join(out, "|")
}
