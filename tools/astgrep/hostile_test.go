package astgrep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/match"
)

// Each hostile call of issue 18 ends with an error or a bounded result,
// and the tool answers its next call as before.
func TestHostileCalls(t *testing.T) {
	long := strings.Repeat("y", 100_000)
	root := workspace(t, map[string]string{
		"a.js": "const s = '" + strings.Repeat("x", 300) + "';\nconst t = 'abc';\nfoo(1);\n",
	})
	tool := newTool(t, root)
	doubling := map[string]any{"T0": map[string]any{"replace": map[string]any{"source": "$A", "replace": "(?s)(.*)", "by": "$1$1"}}}
	for i := 1; i <= 30; i++ {
		doubling[fmt.Sprintf("T%d", i)] = map[string]any{"replace": map[string]any{"source": fmt.Sprintf("$T%d", i-1), "replace": "(?s)^(.*)$", "by": "${1}${1}"}}
	}
	all := make([]any, 1000)
	for i := range all {
		all[i] = map[string]any{"pattern": "$A"}
	}
	cases := map[string]map[string]any{
		"100,000-byte by": {
			"rule":      map[string]any{"kind": "string_fragment", "pattern": "$A"},
			"transform": map[string]any{"B": map[string]any{"replace": map[string]any{"source": "$A", "replace": "", "by": long}}},
		},
		"1 MB by": {
			"rule":      map[string]any{"kind": "string_fragment", "pattern": "$A"},
			"transform": map[string]any{"B": map[string]any{"replace": map[string]any{"source": "$A", "replace": "", "by": strings.Repeat("z", 1<<20)}}},
		},
		"thirty doubling replaces": {
			"rule":      map[string]any{"kind": "string_fragment", "pattern": "$A"},
			"transform": doubling,
		},
	}
	for name, rule := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := tool.Run(context.Background(), Params{Rule: rule, Language: "javascript"})
			if !errors.Is(err, match.ErrBudget) {
				t.Fatalf("want a budget error, got %v", err)
			}
			next, err := tool.Run(context.Background(), Params{Pattern: "foo($A)", Language: "javascript"})
			if err != nil || next.TotalMatches != 1 {
				t.Fatalf("the next call: %v, %+v", err, next)
			}
		})
	}
	// A thousand rebinds of one variable keep one binding: the call
	// succeeds with the ordinary result.
	res, err := tool.Run(context.Background(), Params{Rule: map[string]any{"kind": "string_fragment", "all": all}, Language: "javascript"})
	if err != nil || res.TotalMatches != 2 {
		t.Fatalf("all × 1000: %v, %+v", err, res)
	}
}

// A timeout inside one node's exponential match ends the call with a
// partial result, as a timeout between nodes does.
func TestTimeoutInsideOneMatch(t *testing.T) {
	root := workspace(t, map[string]string{"a.js": strings.Repeat("f(", 40) + "1" + strings.Repeat(")", 40) + ";\n"})
	tool, err := New(Config{Workspace: root, Timeout: 50 * time.Millisecond, Limits: match.Limits{Steps: 1 << 62}})
	if err != nil {
		t.Fatal(err)
	}
	r := "{kind: string}"
	for range 12 {
		r = fmt.Sprintf("{has: {stopBy: end, all: [%s]}}", r)
	}
	res, err := tool.Run(context.Background(), Params{Rule: "kind: call_expression\nall: [" + r + "]\n", Language: "javascript"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.Reason != ReasonTimeout {
		t.Fatalf("want a partial result stopped by the timeout, got %+v", res)
	}
}

// $A over deeply nested brackets matches every bracket, each holding all
// those inside it: the result stays within its byte bound, its texts
// elided with a marker (issue 18 item 7).
func TestResultBytesBounded(t *testing.T) {
	depth := 20_000
	root := workspace(t, map[string]string{"deep.js": "x = " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + ";\n"})
	tool := newTool(t, root)
	res, err := tool.Run(context.Background(), Params{Pattern: "[$A]", Path: "deep.js", MaxResults: 1000})
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > MaxResultBytes+64<<10 {
		t.Errorf("result is %d bytes, over the %d-byte bound", len(out), MaxResultBytes)
	}
	if !res.Truncated || res.Reason != ReasonMaxBytes || res.TotalMatches != depth-1 {
		t.Errorf("truncated %v, reason %q, total %d (want maxBytes, %d)", res.Truncated, res.Reason, res.TotalMatches, depth-1)
	}
	if len(res.Matches) == 0 || !strings.HasSuffix(res.Matches[0].Text, " bytes elided]") || len(res.Matches[0].Text) > MaxTextBytes+32 {
		t.Errorf("the first match's text is not elided: %d bytes", len(res.Matches[0].Text))
	}
	if !strings.Contains(res.Text(), "Truncated at") {
		t.Errorf("the text does not say why it is truncated:\n%s", res.Text()[len(res.Text())-300:])
	}
}

// The nodes a relational rule relates a match to are not reported as a
// capture of the rule's author.
func TestNoInternalCaptures(t *testing.T) {
	root := workspace(t, map[string]string{"a.ts": "class A { getTool() { return 1; } }\n"})
	res, err := newTool(t, root).Run(context.Background(), Params{Rule: map[string]any{"kind": "method_definition", "has": map[string]any{"field": "name", "regex": "^get"}}, Language: "typescript"})
	if err != nil || res.TotalMatches != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	if len(res.Matches[0].MetaVariables.Multi) != 0 || strings.Contains(res.Text(), "secondary") {
		t.Errorf("internal captures shown: %+v\n%s", res.Matches[0].MetaVariables, res.Text())
	}
}
