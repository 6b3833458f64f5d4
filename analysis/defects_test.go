package analysis

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// issue17 is the fixture project of issue 17's defects: React components
// (JSX, memo, forwardRef, wrapped and named function expressions, class
// fields, object-literal methods), a call chain split over lines, a
// namespace export, bindings from destructuring and catch, and two
// functions named run calling each other across files.
var issue17 = filepath.Join(fixtureRoot, "issue17")

// TestJSXCalls: a JSX element calls its component; intrinsic elements
// (<b>) do not.
func TestJSXCalls(t *testing.T) {
	r := run(t, issue17, Params{Mode: "callers", Language: "tsx", Symbol: "Button"})
	sameList(t, "callers of Button", callerSet(r.Callers), []string{
		"Panel src/components.tsx resolved", "Field src/components.tsx resolved"})
	r = run(t, issue17, Params{Mode: "references", Language: "tsx", Symbol: "Button"})
	if c := r.References.Categories[1]; c.ID != RefDirectCalls || c.Count != 2 {
		t.Errorf("JSX uses of Button: %+v", c)
	}
	if c := r.References.Categories[0]; c.Count != 0 {
		t.Errorf("<Button.Item> is not a method call on an instance: %+v", c)
	}
	r = run(t, issue17, Params{Mode: "callers", Language: "tsx", Symbol: "b"})
	if len(r.Callers) != 0 {
		t.Errorf("<b> is an intrinsic element, not a call: %+v", r.Callers)
	}
}

// TestWrappedFunctions: calls inside memo(() => ...), forwardRef(...),
// track(function X() {...}), a class field's wrapped arrow and
// object-literal methods passed as arguments belong to the name they are
// assigned to (a named function expression passed to a call that is no
// variable's value is a caller of its own), not to one <module> entry per file; an object literal's
// property holding an arrow (run: () => ...) is no caller of its own, as
// in the compiler's call hierarchy: its calls are the file's here.
func TestWrappedFunctions(t *testing.T) {
	r := run(t, issue17, Params{Mode: "callers", Language: "tsx", Symbol: "helper"})
	var names []string
	for _, n := range r.Callers {
		names = append(names, n.Name)
	}
	// chain's s.first().helper() is a method of a value, not the
	// module's function helper.
	// A named function expression is a caller of its own when it is
	// wrapped for a variable of its name (Memoed, on line 31) or passed
	// anywhere else (printIt, in usePrint).
	sameList(t, "callers of helper", names, []string{"Panel", "Field", "tracked", "onClick", "setup", "<module>", "printIt", "Memoed"})
	if n := r.Callers[7]; n.Line != 31 {
		t.Errorf("Memoed is the function expression on line 31: %+v", n)
	}
	if n := r.Callers[3]; n.Container != "C" || n.Line != 13 {
		t.Errorf("onClick is C's field at line 13: %+v", n)
	}
	if n := r.Callers[5]; n.Via != "run: () => { helper(); }," {
		t.Errorf("the file's first call, in run's arrow: %+v", n)
	}
}

// TestViaLine: via is the line of the call itself, not the first line of
// the chain it ends.
func TestViaLine(t *testing.T) {
	r := run(t, issue17, Params{Mode: "callers", Language: "tsx", Symbol: "first"})
	if len(r.Callers) != 1 {
		t.Fatalf("callers of first: %+v", r.Callers)
	}
	if n := r.Callers[0]; n.Name != "chain" || n.Via != ".first()" || n.ViaLine != 22 || n.Confidence != NameOnly {
		t.Errorf("chain's call of first: %+v", n)
	}
}

// TestExportNamespace: export namespace X {} exports X.
func TestExportNamespace(t *testing.T) {
	r := run(t, issue17, Params{Mode: "exports", Language: "typescript", Target: "src/ns.ts"})
	if len(r.Exports) != 1 || r.Exports[0].Name != "Shapes" || r.Exports[0].Kind != lNamespace {
		t.Errorf("exports of src/ns.ts: %+v\n%s", r.Exports, r.Text())
	}
	r = run(t, issue17, Params{Mode: "exports", Language: "tsx", Target: "src/components.tsx"})
	if e := r.Exports[len(r.Exports)-1]; e.Name != "NS" {
		t.Errorf("the last export of components.tsx is namespace NS: %+v", e)
	}
}

// TestCycleByNameAndFile: REQ-SA-CALLERS-004 tracks visited symbols by
// name and file, so run in b.ts calling run in a.ts is no cycle.
func TestCycleByNameAndFile(t *testing.T) {
	r := run(t, issue17, Params{Mode: "callers", Language: "typescript", Symbol: "target", Depth: 4, Path: "cycle"})
	want := `target()
  ← run()  cycle/a.ts:2
    via: target();
    ← run()  cycle/b.ts:2
      via: a.run();
      ← start()  cycle/b.ts:5
        via: run();
  (exhaustive: no site left unresolved)
`
	if got := r.Text(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDefinitionBindings: definitions include destructured bindings,
// catch bindings and named function expressions.
func TestDefinitionBindings(t *testing.T) {
	for sym, want := range map[string]string{
		"alpha": "variable alpha  src/components.tsx:26",
		"gamma": "variable gamma  src/components.tsx:26",
		"delta": "variable delta  src/components.tsx:27",
		"err":   "variable err  src/components.tsx:25",
		"named": "function named  src/components.tsx:28",
	} {
		r := run(t, issue17, Params{Mode: "definitions", Language: "tsx", Symbol: sym})
		if !strings.Contains(r.Text(), want) {
			t.Errorf("definitions of %s:\n%s", sym, r.Text())
		}
	}
	r := run(t, issue17, Params{Mode: "definitions", Language: "tsx", Symbol: "beta"})
	if len(r.Definitions) != 0 {
		t.Errorf("beta is a property read, not a binding: %+v", r.Definitions)
	}
}

// TestTimeoutWhileGrammarLoads: REQ-INFRA-006, a time limit that ends
// while the grammar is being loaded gives an empty, partial answer with
// truncated and the reason, not an error. The grammar loads once per
// process, so the check runs in a fresh one.
func TestTimeoutWhileGrammarLoads(t *testing.T) {
	if os.Getenv("LOUPE_TEST_GRAMMAR_TIMEOUT") == "1" {
		r, err := analyze(context.Background(), Config{Workspace: issue17, Timeout: time.Nanosecond},
			Params{Mode: "references", Language: "kotlin", Symbol: "x"})
		if err != nil {
			t.Fatalf("error instead of a partial answer: %v", err)
		}
		if !r.Partial || !r.Truncated || r.Reason != ReasonTimeout || r.References == nil ||
			len(r.References.Categories) != 7 {
			t.Fatalf("partial=%v truncated=%v reason=%q references=%+v", r.Partial, r.Truncated, r.Reason, r.References)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTimeoutWhileGrammarLoads$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LOUPE_TEST_GRAMMAR_TIMEOUT=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("in a fresh process: %v\n%s", err, out)
	}
}
