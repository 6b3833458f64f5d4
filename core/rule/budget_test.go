package rule

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/internal/regexlimit"
)

// nested returns JavaScript source of depth calls nested in each other.
func nested(depth int) string {
	return strings.Repeat("f(", depth) + "1" + strings.Repeat(")", depth) + ";\n"
}

// hasChain is a rule of depth `has … stopBy: end` nested in each other:
// each level walks the whole subtree of every node the level above
// visits, so the work grows as the tree's size to the depth-th power.
func hasChain(depth int) string {
	r := "{kind: string}" // the source has none: no level ever matches
	for range depth {
		r = fmt.Sprintf("{has: {stopBy: end, all: [%s]}}", r)
	}
	return "id: deep\nlanguage: javascript\nrule: {kind: call_expression, all: [" + r + "]}\n"
}

// scan runs cfg over src under ctx the way every search does.
func scan(ctx context.Context, cfg *Config, src string) ([]Finding, error) {
	t, err := cfg.Language.Parse(context.Background(), []byte(src))
	if err != nil {
		return nil, err
	}
	fs, _, err := NewScanner([]*Config{cfg}).ScanAll(ctx, t)
	return fs, err
}

// The rules of issue 18 item 3 grow exponentially with the tree; each
// must end with the budget's error, not run for minutes.
func TestBudgetStopsExponentialRules(t *testing.T) {
	src := nested(40)
	cases := map[string]string{
		"nested has, stopBy end": hasChain(12),
		"utility calling itself through has": `id: self
language: javascript
utils:
  deep:
    any:
      - kind: string
      - has: {stopBy: end, matches: deep}
rule: {kind: call_expression, matches: deep}
`,
		"chain of any/all utilities": chainUtils(40),
		"DAG of any utilities":       dagUtils("any", 40),
		"DAG of all utilities":       dagUtils("all", 40),
		"DAG through not":            dagNot(40),
	}
	limits := match.Limits{Steps: 200_000}
	for name, src0 := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, err := parseOne(src0)
			if err != nil {
				t.Fatal(err)
			}
			_, err = scan(match.WithLimits(context.Background(), limits), cfg, src)
			if !errors.Is(err, match.ErrBudget) {
				t.Fatalf("want the budget's error, got %v", err)
			}
			if !strings.Contains(err.Error(), "matching steps") {
				t.Errorf("the error should say what ran out: %v", err)
			}
		})
	}
}

// chainUtils is n utilities, each any/all of the next twice.
func chainUtils(n int) string {
	var b strings.Builder
	b.WriteString("id: chain\nlanguage: javascript\nutils:\n")
	for i := range n {
		next := fmt.Sprintf("u%d", i+1)
		if i == n-1 {
			fmt.Fprintf(&b, "  u%d: {has: {stopBy: end, kind: string}}\n", i)
			continue
		}
		fmt.Fprintf(&b, "  u%d: {any: [{all: [{matches: %s}, {kind: string}]}, {has: {stopBy: end, matches: %s}}, {matches: %s}]}\n", i, next, next, next)
	}
	b.WriteString("rule: {kind: call_expression, matches: u0}\n")
	return b.String()
}

// dagUtils is n utilities where u_i is op of u_{i+1} twice, ending in
// a rule op makes go on: 2^n calls per node unless something counts them.
func dagUtils(op string, n int) string {
	var b strings.Builder
	b.WriteString("id: dag\nlanguage: javascript\nutils:\n")
	for i := range n {
		fmt.Fprintf(&b, "  u%d: {%s: [{matches: u%d}, {matches: u%d}]}\n", i, op, i+1, i+1)
	}
	last := "{regex: '^never$'}" // no call's text: any tries both branches
	if op == "all" {
		last = "{kind: call_expression}" // always matches: all tries both
	}
	fmt.Fprintf(&b, "  u%d: %s\n", n, last)
	b.WriteString("rule: {kind: call_expression, matches: u0}\n")
	return b.String()
}

// dagNot is dagUtils("any") with every level negated twice.
func dagNot(n int) string {
	var b strings.Builder
	b.WriteString("id: dagnot\nlanguage: javascript\nutils:\n")
	for i := range n {
		fmt.Fprintf(&b, "  u%d: {not: {not: {any: [{matches: u%d}, {matches: u%d}]}}}\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "  u%d: {regex: '^never$'}\n", n)
	b.WriteString("rule: {kind: call_expression, matches: u0}\n")
	return b.String()
}

func parseOne(src string) (*Config, error) {
	cfgs, err := ParseConfigs(context.Background(), []byte(src), Options{})
	if err != nil {
		return nil, err
	}
	return cfgs[0], nil
}

// A search stopped while one node's exponential match runs notices it
// inside that match: the error is the cancellation, not the step budget
// that would end the match much later.
func TestCancelInsideOneMatch(t *testing.T) {
	cfg, err := parseOne(hasChain(12))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = scan(ctx, cfg, nested(40))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want the cancellation, got %v", err)
	}
}

// A cancel stops the utility graphs that spend no relational steps
// within a few thousand steps of any operator: with a step limit of
// 10,000 a match that did not look at the context by then would end with
// the budget's error instead of the cancellation.
func TestCancelStopsUtilityGraphs(t *testing.T) {
	cases := map[string]string{
		"DAG of any utilities": dagUtils("any", 40),
		"DAG of all utilities": dagUtils("all", 40),
		"DAG through not":      dagNot(40),
	}
	for name, rule := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, err := parseOne(rule)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(match.WithLimits(context.Background(), match.Limits{Steps: 10_000}))
			cancel()
			_, err = scan(ctx, cfg, nested(3))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("want the cancellation within 10,000 steps, got %v", err)
			}
		})
	}
}

// Transforms that would produce unbounded text (issue 18 item 1) fail
// the search with the budget's error before the text is built.
func TestBudgetBoundsTransforms(t *testing.T) {
	long := strings.Repeat("y", 100_000)
	doubling := "id: double\nlanguage: javascript\nrule: {kind: string_fragment, pattern: $A}\ntransform:\n  T0: {replace: {source: $A, replace: '(?s)(.*)', by: '$1$1'}}\n"
	for i := 1; i <= 30; i++ {
		doubling += fmt.Sprintf("  T%d: {replace: {source: $T%d, replace: '(?s)^(.*)$', by: '${1}${1}'}}\n", i, i-1)
	}
	cases := map[string]string{
		"a long by on every empty match":  "id: grow\nlanguage: javascript\nrule: {kind: string_fragment, pattern: $A}\ntransform:\n  B: {replace: {source: $A, replace: '', by: '" + long + "'}}\n",
		"thirty doubling replaces":        doubling,
		"a fix repeating a long variable": "id: fix\nlanguage: javascript\nrule: {kind: string_fragment, pattern: $A}\ntransform:\n  B: {replace: {source: $A, replace: '', by: '" + long[:1000] + "'}}\nfix: '" + strings.Repeat("$B", 1000) + "'\n",
	}
	src := "const s = '" + strings.Repeat("x", 200) + "';\n"
	for name, rule := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, err := parseOne(rule)
			if err != nil {
				t.Fatal(err)
			}
			ctx := match.WithLimits(context.Background(), match.Limits{Text: 1 << 20})
			fs, err := scan(ctx, cfg, src)
			if err == nil && len(fs) == 1 && len(cfg.Fixes) > 0 {
				cfg.Fixes[0].Edit(fs[0].Node, fs[0].Env)
				err = fs[0].Env.Budget().Err()
			}
			if !errors.Is(err, match.ErrBudget) {
				t.Fatalf("want the budget's error, got %v (%d findings)", err, len(fs))
			}
		})
	}
}

// A replace transform spends steps in proportion to the text it runs
// over (and one per match): with a 100-step limit, a 100 KB string cannot
// be searched, a 1 KB one can.
func TestBudgetCountsTransformWork(t *testing.T) {
	cfg, err := parseOne("id: big\nlanguage: javascript\nrule: {kind: string_fragment, pattern: $A}\ntransform:\n  B: {replace: {source: $A, replace: 'z', by: 'y'}}\n")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		size int
		over bool
	}{{1000, false}, {100_000, true}}
	for _, c := range cases {
		ctx := match.WithLimits(context.Background(), match.Limits{Steps: 100})
		_, err = scan(ctx, cfg, "const s = '"+strings.Repeat("x", c.size)+"';\n")
		if got := errors.Is(err, match.ErrBudget); got != c.over {
			t.Errorf("%d bytes: budget error %v, want one: %v", c.size, err, c.over)
		}
	}
	// Each match spends a step: a thousand of them go over the limit.
	cfg, err = parseOne("id: many\nlanguage: javascript\nrule: {kind: string_fragment, pattern: $A}\ntransform:\n  B: {replace: {source: $A, replace: 'x', by: 'y'}}\n")
	if err != nil {
		t.Fatal(err)
	}
	ctx := match.WithLimits(context.Background(), match.Limits{Steps: 100})
	if _, err = scan(ctx, cfg, "const s = '"+strings.Repeat("x", 1000)+"';\n"); !errors.Is(err, match.ErrBudget) {
		t.Errorf("a thousand matches: want the budget's error, got %v", err)
	}
}

// Within the budget, transforms work as before.
func TestBudgetLeavesNormalTransforms(t *testing.T) {
	cfg, err := parseOne("id: ok\nlanguage: javascript\nrule: {kind: string_fragment, pattern: $A}\ntransform:\n  B: {replace: {source: $A, replace: 'x', by: 'yy'}}\nfix: $B\n")
	if err != nil {
		t.Fatal(err)
	}
	fs, err := scan(context.Background(), cfg, "const s = 'axbx';\n")
	if err != nil || len(fs) != 1 {
		t.Fatalf("findings %d, err %v", len(fs), err)
	}
	if got := string(cfg.Fixes[0].Edit(fs[0].Node, fs[0].Env).Text); got != "ayybyy" {
		t.Errorf("fix = %q", got)
	}
}

// Every regex a rule compiles (rule regex, constraint, replace transform,
// files glob) is refused past regexlimit's bounds, with a one-line error
// that says where and why, before it takes memory.
func TestRegexBounds(t *testing.T) {
	huge := strings.Repeat("a", regexlimit.MaxSource+1)
	reps := strings.Repeat("a{1000}", 30)
	cases := map[string]string{
		"rule regex":         "rule: {kind: string, regex: '" + huge + "'}\n",
		"rule repetitions":   "rule: {kind: string, regex: '" + reps + "'}\n",
		"constraint regex":   "rule: {pattern: f($A)}\nconstraints: {A: {regex: '" + reps + "'}}\n",
		"transform replace":  "rule: {pattern: f($A)}\ntransform: {B: {replace: {source: $A, replace: '" + reps + "', by: x}}}\n",
		"files glob":         "rule: {kind: string}\nfiles: ['" + huge + "']\n",
		"many unicode words": "rule: {kind: string, regex: '" + strings.Repeat(`\w`, 300) + "'}\n",
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parseOne("id: big\nlanguage: javascript\n" + body)
			if err == nil || !strings.Contains(err.Error(), regexlimit.ErrTooLarge.Error()) {
				t.Fatalf("want the regex size error, got %.200v", err)
			}
			if msg := err.Error(); len(msg) > 300 || strings.Contains(msg, "\n") {
				t.Errorf("error is not one short line: %.300q", msg)
			}
		})
	}
}

// A node's previous sibling is found by walking from its parent's first
// child; the budget counts that walk, so `follows` over a long list
// cannot run uncounted (and unstoppable) in time that grows as the square
// of the list.
func TestBudgetCountsSiblingWalks(t *testing.T) {
	src := "x = [" + strings.Repeat("1, ", 1500) + "'s'];\n"
	cases := []struct {
		name, rule string
		findings   int // without the limit
	}{
		{"follows a neighbor", "{kind: number, follows: {kind: string}}", 0},
		{"follows a comma", "{kind: number, follows: {regex: '^,$'}}", 1499},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := parseOne("id: sib\nlanguage: javascript\nrule: " + c.rule + "\n")
			if err != nil {
				t.Fatal(err)
			}
			ctx := match.WithLimits(context.Background(), match.Limits{Steps: 1000})
			if _, err = scan(ctx, cfg, src); !errors.Is(err, match.ErrBudget) {
				t.Fatalf("want the budget's error, got %v", err)
			}
			if fs, err := scan(context.Background(), cfg, src); err != nil || len(fs) != c.findings {
				t.Errorf("without the limit: %d findings, want %d (err %v)", len(fs), c.findings, err)
			}
		})
	}
}
