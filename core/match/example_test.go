package match_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strconv"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// bigNumber matches integer literals over a bound, binding them to $N.
type bigNumber struct {
	over  int
	kinds match.KindSet
}

// Match reports whether n is an integer literal over b.over.
func (b bigNumber) Match(n tree.Node, env *match.Env) bool {
	v, err := strconv.Atoi(n.Text())
	if err != nil || v <= b.over {
		return false
	}
	env.BindSingle("N", n)
	return true
}

// Kinds returns the kinds Match is called on: the integer literals.
func (b bigNumber) Kinds() match.KindSet { return b.kinds }

// A Matcher of one's own: the search calls Match only on nodes of the
// kinds it names, and reads what it bound from the match's Env.
func ExampleMatcher() {
	ctx := context.Background()
	lang, err := language.Lookup("go")
	if err != nil {
		log.Fatal(err)
	}
	ids, err := lang.KindIDs(ctx, "int_literal")
	if err != nil {
		log.Fatal(err)
	}
	t, err := lang.Parse(ctx, []byte("package p\n\nvar sizes = []int{8, 4096, 64, 1 << 20}\n"))
	if err != nil {
		log.Fatal(err)
	}
	ms, err := search.FindAll(ctx, t, bigNumber{over: 16, kinds: match.NewKindSet(ids...)})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range ms {
		n, _ := m.Env.Single("N")
		fmt.Printf("$N = %s at column %d\n", n.Text(), n.StartPoint().Column)
	}
	// Output:
	// $N = 4096 at column 21
	// $N = 64 at column 27
	// $N = 20 at column 36
}

// Bound the work of matching: a rule that needs more steps for one node
// than the limits allow fails the search with an error wrapping ErrBudget,
// instead of running for hours.
func ExampleWithLimits() {
	ctx := context.Background()
	configs, err := rule.ParseConfigs(ctx, []byte(`
id: deep
language: js
rule:
  kind: identifier
  inside: {kind: program, has: {kind: number, stopBy: end}, stopBy: end}
`), rule.Options{})
	if err != nil {
		log.Fatal(err)
	}
	t, err := configs[0].Language.Parse(ctx, []byte("f(a, b, c, [d, e, [g, h, [i, 1]]]);\n"))
	if err != nil {
		log.Fatal(err)
	}
	for _, steps := range []int64{0, 10} { // 0: the default, DefaultSteps
		limited := match.WithLimits(ctx, match.Limits{Steps: steps})
		ms, err := search.FindAll(limited, t, configs[0])
		fmt.Printf("steps %d: %d matches, over budget: %t, error: %v\n", steps, len(ms), errors.Is(err, match.ErrBudget), err)
	}
	// Output:
	// steps 0: 9 matches, over budget: false, error: <nil>
	// steps 10: 0 matches, over budget: true, error: match at line 1: rule exceeded its budget: more than 10 matching steps (the step limit) for one node; utilities that call each other many times over through matches, any, all or not, or relational rules nested inside each other with stopBy: end, grow exponentially
}
