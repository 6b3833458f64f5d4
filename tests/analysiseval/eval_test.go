package analysiseval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/analysis"
	"github.com/loupe-dev/loupe/tests/difftest"
)

// The projects measured, pinned: mobx's TypeScript sources (56 files;
// its classes share member names: get, set, has, keys, values, ...) and
// TanStack Query's core (23 files; caches, observers and clients sharing
// build, find, subscribe, ...) and rxjs (251 files; subjects, observers,
// subscribers and schedulers sharing next, error, complete, schedule, ...)
// and zod (332 files; schemas sharing _parse, parse, check, ...; it imports
// itself by its package name, "zod/v4/core", which its package.json
// exports under the condition "@zod/source" to its sources, so the truth
// resolves with that custom condition, as zod's own build does).
var projects = []struct {
	name, version, src string
	// conditions are the custom export conditions the truth resolves with.
	conditions []string
}{
	{"mobx", "7.1.3", "src", nil},
	{"@tanstack/query-core", "5.108.0", "src", nil},
	{"rxjs", "7.8.2", "src", nil},
	{"zod", "4.6.7", "src", []string{"@zod/source"}},
}

const (
	seed = 17
	// bounded is the sample of a plain go test run, per project.
	bounded = 8
)

// query is one sampled declaration and the compiler's answers about it.
type query struct {
	Name, Qual, Kind, File string
	Line                   int
	Callable               bool
	Callers                []string
	// Overridden, for a method, are the callers of the members it
	// overrides or implements (the same name in its class's supertypes).
	Overridden []string
	// Related, for a method, are the declarations of the members it
	// overrides or implements and of their other implementations.
	Related        []string
	RefsAll        []string `json:"refsAll"`
	RefsStructural []string `json:"refsStructural"`
	Defs           []string
	// Hierarchy, for a class or interface: its supertypes and subtypes.
	Hierarchy []string
	// SharedName: the name is shared (callers, references and definitions
	// are measured); else only the hierarchy is.
	SharedName bool `json:"sharedName"`
}

type truth struct {
	Files, Declarations, Shared int
	Queries                     []query
}

// score accumulates one mode's matches over the sample.
type score struct {
	found, correct  int // results, and those the truth holds
	wanted, covered int // truth results, and those found
}

// verbose, set by LOUPE_ANALYSIS_EVAL_VERBOSE=1, logs every miss.
var verbose = os.Getenv("LOUPE_ANALYSIS_EVAL_VERBOSE") == "1"

// misses lists what got has that all lacks, and what wanted has that got
// lacks.
func misses(got, all, wanted []string) (extra, missing []string) {
	allSet, gotSet := set(all), set(got)
	for _, g := range got {
		if !allSet[g] {
			extra = append(extra, g)
		}
	}
	for _, w := range wanted {
		if !gotSet[w] {
			missing = append(missing, w)
		}
	}
	return extra, missing
}

func (s *score) add(got []string, all, wanted []string) {
	allSet := set(all)
	gotSet := set(got)
	for _, g := range got {
		s.found++
		if allSet[g] {
			s.correct++
		}
	}
	for _, w := range wanted {
		s.wanted++
		if gotSet[w] {
			s.covered++
		}
	}
}

func (s score) String() string {
	p, r := ratio(s.correct, s.found), ratio(s.covered, s.wanted)
	return fmt.Sprintf("precision %s (%d/%d)  recall %s (%d/%d)", p, s.correct, s.found, r, s.covered, s.wanted)
}

func ratio(a, b int) string {
	if b == 0 {
		return "  -  "
	}
	return strconv.FormatFloat(float64(a)/float64(b), 'f', 2, 64)
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// way is one way of asking: by the bare name, or qualified (keeping every
// result or the resolved ones).
type way struct {
	name         string
	qualified    bool
	resolvedOnly bool
}

// modes are the modes measured.
var modes = []string{"callers", "references", "definitions", "hierarchy"}

var ways = []way{{"name matching", false, false}, {"qualified", true, false}, {"qualified, resolved only", true, true}}

func TestEval(t *testing.T) {
	for _, p := range projects {
		t.Run(p.name, func(t *testing.T) {
			measure(t, p.name, p.version, p.src, map[string]any{"customConditions": p.conditions})
		})
	}
}

// measure compares the answers of structural_analysis with the compiler's
// on one project; opts are the truth's module resolution options
// (customConditions, paths).
func measure(t *testing.T, project, version, srcDir string, opts map[string]any) {
	fetch := func() (string, error) { return difftest.NpmPackage(context.Background(), project, version) }
	measureAt(t, fetch, project, version, srcDir, opts)
}

// measureAt is measure on the project folder fetch returns.
func measureAt(t *testing.T, fetch func() (string, error), project, version, srcDir string, opts map[string]any) {
	node, root, tsDir := checker(t, "typescript")
	dir, err := fetch()
	if err != nil {
		t.Skipf("analysiseval: %s@%s could not be fetched: %v", project, version, err)
	}
	tr := askTruth(t, node, filepath.Join(root, "tests", "analysiseval", "truth.mjs"), tsDir, dir, srcDir, opts)
	compare(t, tr, dir, srcDir, "typescript", project, version)
}

// checker finds what a truth script needs: node, the module's root, and
// the checker's npm package pkg in its node_modules; the test is skipped
// without node or the package.
func checker(t *testing.T, pkg string) (node, root, pkgDir string) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("analysiseval: node is not installed")
	}
	root, err = difftest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	pkgDir = filepath.Join(root, "node_modules", pkg)
	if _, err := os.Stat(filepath.Join(pkgDir, "package.json")); err != nil {
		t.Skipf("analysiseval: node_modules/%s is missing (scripts/test-deps.sh installs it)", pkg)
	}
	return node, root, pkgDir
}

// compare scores the answers of structural_analysis in language lang on
// the project at dir against the truth tr, and logs the table.
func compare(t *testing.T, tr truth, dir, srcDir, lang, project, version string) {
	if len(tr.Queries) == 0 {
		t.Fatalf("no shared-name symbol sampled among %d declarations", tr.Declarations)
	}
	tool, err := analysis.New(analysis.Config{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(mode, symbol string) *analysis.Result {
		r, err := tool.Run(context.Background(), analysis.Params{Mode: mode, Language: lang, Path: srcDir,
			Symbol: symbol, MaxNodes: analysis.MaxMaxNodes})
		if err != nil {
			t.Fatalf("%s %s: %v", mode, symbol, err)
		}
		return r
	}
	scores := map[string]map[string]*score{} // mode -> way -> score
	for _, mode := range modes {
		scores[mode] = map[string]*score{}
		for _, w := range ways {
			scores[mode][w.name] = &score{}
		}
	}
	heuristic := &score{}
	// attributed counts the callers of bare names (found) and those
	// attributed to the right definition (correct): to the one asked
	// about when the truth has them as its callers, to another when not.
	attributed := &score{}
	// wrongDef counts the callers attributed to the wrong definition;
	// unattributed those attributed to none, and of them the truth's
	// callers of the definition asked about.
	wrongDef, unattributed, unattributedTrue := 0, 0, 0
	// wrongBy counts the qualified callers the truth does not hold, by
	// label and reason.
	wrongBy := map[string]int{}
	// dispatch counts the qualified callers labelled dispatch (found) and
	// those of them the truth has as callers of a member the symbol
	// overrides (correct).
	dispatch := &score{}
	// labelled counts the truth's callers (found) and those the qualified
	// answer labels resolved or dispatch (correct): the share that carries
	// a definite label, not name-only.
	labelled := &score{}
	// exhaustive counts, per mode, the qualified answers marked
	// exhaustive and those of them missing a result the truth has.
	// renamedExhaustive counts those whose only misses are a file's top
	// level the answer names by the variable a wrapped function literal is
	// assigned to (docs/analysis.md: a deliberate difference).
	exhaustive, wrongExhaustive, renamedExhaustive := map[string]int{}, map[string]int{}, map[string]int{}
	claim := func(mode string, r *analysis.Result, got, wanted []string, symbol string) {
		claimed, missing := claimMisses(r, got, wanted)
		if !claimed {
			return
		}
		exhaustive[mode]++
		if len(missing) == 0 {
			return
		}
		if mode == "callers" && !slices.ContainsFunc(missing, func(m string) bool { return !wrappedVariable(dir, m, got) }) {
			renamedExhaustive[mode]++
			return
		}
		wrongExhaustive[mode]++
		if verbose {
			t.Logf("%s %s marked exhaustive misses %v", mode, symbol, missing)
		}
	}
	for _, q := range tr.Queries {
		for _, w := range ways {
			symbol := q.Name
			if w.qualified {
				symbol = qualified(q)
				// A module with a dotted stem (tuple.test.ts) is named by
				// its file; told that a name matches definitions in
				// several classes or files, a model names the one it means.
				// A qualifier matching no definition (a namespace's
				// member asked by its module) is an error that names the
				// file form: the model asks again in it.
				if strings.Contains(q.Qual, ".") {
					symbol = fileForm(q)
				}
				r, err := tool.Run(context.Background(), analysis.Params{Mode: analysis.ModeDefinitions, Language: lang,
					Path: srcDir, Symbol: symbol, MaxNodes: analysis.MaxMaxNodes})
				if err != nil {
					symbol = fileForm(q)
				} else {
					for _, n := range r.Notes {
						if strings.Contains(n, "definitions in different classes or files") {
							symbol = fileForm(q)
						}
					}
				}
			}
			if q.Callable && q.SharedName {
				r := ask(analysis.ModeCallers, symbol)
				var got []string
				right := callersRight(r.Callers, q)
				for _, n := range r.Callers {
					if n.Confidence == "" {
						t.Errorf("%s: caller %s %s:%d has no confidence label", symbol, n.Name, n.File, n.Line)
					}
					if w.resolvedOnly && n.Confidence != analysis.Resolved {
						continue
					}
					got = append(got, callerKey(n))
				}
				// A caller of two definitions of a bare name is listed
				// under each: it counts once.
				scores["callers"][w.name].add(dedup(got), right, q.Callers)
				if w.qualified && !w.resolvedOnly {
					countLabels(dispatch, labelled, r.Callers, right, q.Callers)
				}
				if !w.qualified {
					w, u, ut := attribute(attributed, r.Callers, q, func(f string, a ...any) {
						if verbose {
							t.Logf("callers %s: "+f, append([]any{symbol}, a...)...)
						}
					})
					wrongDef, unattributed, unattributedTrue = wrongDef+w, unattributed+u, unattributedTrue+ut
				}
				if w.qualified && !w.resolvedOnly {
					truthSet := set(right)
					for _, n := range r.Callers {
						if !truthSet[callerKey(n)] {
							wrongBy[n.Confidence+" "+n.Reason]++
						}
					}
				}
				if w.qualified && !w.resolvedOnly {
					claim("callers", r, got, q.Callers, symbol)
				}
				if verbose && w.qualified {
					extra, missing := misses(got, right, q.Callers)
					t.Logf("callers %s (%s): %d extra, missing %v", symbol, w.name, len(extra), missing)
					nodes := map[string]analysis.CallNode{}
					for _, n := range r.Callers {
						nodes[callerKey(n)] = n
					}
					for _, k := range extra {
						n := nodes[k]
						t.Logf("  extra %s [%s %s] %s", k, n.Confidence, n.Reason, strings.TrimSpace(n.Via))
					}
					if !w.resolvedOnly {
						truthSet := set(q.Callers)
						for _, n := range r.Callers {
							if truthSet[callerKey(n)] && n.Confidence != analysis.Resolved {
								t.Logf("  unresolved true %s [%s %s] %s", callerKey(n), n.Confidence, n.Reason, strings.TrimSpace(n.Via))
							}
						}
					}
				}
			}
			if q.Hierarchy != nil {
				h := ask(analysis.ModeHierarchy, symbol).Hierarchy
				var got []string
				for _, ns := range [][]analysis.TypeNode{h.Supertypes, h.Subtypes} {
					for _, n := range ns {
						if n.Confidence == "" {
							t.Errorf("%s: type %s has no confidence label", symbol, n.Name)
						}
						if w.resolvedOnly && n.Confidence != analysis.Resolved {
							continue
						}
						k := "name:" + n.Name
						if n.File != "" {
							k = n.File + ":" + strconv.Itoa(n.Line)
						}
						got = append(got, k)
					}
				}
				scores["hierarchy"][w.name].add(dedup(got), q.Hierarchy, q.Hierarchy)
				if verbose && w.qualified && !w.resolvedOnly {
					extra, missing := misses(got, q.Hierarchy, q.Hierarchy)
					t.Logf("hierarchy %s: extra %v missing %v", symbol, extra, missing)
				}
			}
			if !q.SharedName {
				continue
			}
			r := ask(analysis.ModeReferences, symbol)
			var got []string
			for _, c := range r.References.Categories {
				for _, it := range c.Items {
					if it.Confidence == "" {
						t.Errorf("%s: reference %s:%d has no confidence label", symbol, it.File, it.Line)
					}
					k := it.File + ":" + strconv.Itoa(it.Line)
					if c.Heuristic {
						if w.resolvedOnly {
							heuristic.add([]string{k}, q.RefsAll, nil)
						}
						if w.qualified {
							continue // kept out of the resolved totals
						}
					}
					if w.resolvedOnly && it.Confidence != analysis.Resolved {
						continue
					}
					got = append(got, k)
				}
			}
			scores["references"][w.name].add(dedup(got), q.RefsAll, q.RefsStructural)
			if w.qualified && !w.resolvedOnly {
				claim("references", r, got, q.RefsStructural, symbol)
			}
			if verbose && w.qualified {
				extra, missing := misses(got, q.RefsAll, q.RefsStructural)
				t.Logf("references %s (%s): extra %v missing %v", symbol, w.name, extra, missing)
			}
			d := ask(analysis.ModeDefinitions, symbol)
			got = nil
			for _, x := range d.Definitions {
				got = append(got, x.File+":"+strconv.Itoa(x.Line))
			}
			scores["definitions"][w.name].add(dedup(got), q.Defs, q.Defs)
			if verbose && w.qualified && !w.resolvedOnly {
				extra, missing := misses(got, q.Defs, q.Defs)
				t.Logf("definitions %s: extra %v missing %v", symbol, extra, missing)
			}
		}
	}
	t.Logf("%s@%s: %d files, %d declarations, %d with a shared name; %d sampled (seed %d)",
		project, version, tr.Files, tr.Declarations, tr.Shared, len(tr.Queries), seed)
	for _, mode := range modes {
		for _, w := range ways {
			t.Logf("%-11s %-25s %s", mode, w.name, scores[mode][w.name])
		}
	}
	t.Logf("%-11s %-25s %s", "references", "heuristic category", heuristic)
	t.Logf("%-11s %-25s share %s (%d/%d), of those attributed %s; %d to another definition, %d to none (%d of them callers of the one asked about)",
		"callers", "bare name, attributed", ratio(attributed.correct, attributed.found), attributed.correct, attributed.found,
		ratio(attributed.correct, attributed.found-unattributed), wrongDef, unattributed, unattributedTrue)
	logLabels(t, dispatch, labelled)
	var labels []string
	for l := range wrongBy {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		t.Logf("callers     qualified, not in the truth: %d %s", wrongBy[l], strings.TrimSpace(l))
	}
	for _, mode := range []string{"callers", "references"} {
		t.Logf("%-11s %d qualified answers marked exhaustive, %d of them missing a result (%d more naming a file's top level by a variable)",
			mode, exhaustive[mode], wrongExhaustive[mode], renamedExhaustive[mode])
	}
	// Qualifying a shared name never costs precision: what it leaves out
	// is what resolves to another definition.
	for _, mode := range modes {
		before, after := scores[mode]["name matching"], scores[mode]["qualified"]
		if before.found > 0 && after.found > 0 && after.correct*before.found < before.correct*after.found {
			t.Errorf("%s: qualified precision %s below name matching's %s", mode, after, before)
		}
	}
}

// countLabels counts the labels of a qualified answer's callers: those
// labelled dispatch (dispatch.found) and of them those right counts right
// (dispatch.correct); the truth's callers (labelled.found) and those the
// answer labels resolved or dispatch (labelled.correct), the share that
// carries a definite label, not name-only.
func countLabels(dispatch, labelled *score, callers []analysis.CallNode, right, truth []string) {
	for _, n := range callers {
		if n.Confidence == analysis.Dispatch {
			dispatch.found++
			if slices.Contains(right, callerKey(n)) {
				dispatch.correct++
			}
		}
	}
	truthSet, seen := set(truth), map[string]bool{}
	for _, n := range callers {
		k := callerKey(n)
		if truthSet[k] && !seen[k] && (n.Confidence == analysis.Resolved || n.Confidence == analysis.Dispatch) {
			seen[k] = true
			labelled.correct++
		}
	}
	labelled.found += len(truth)
}

// logLabels logs the counts countLabels made.
func logLabels(t *testing.T, dispatch, labelled *score) {
	t.Helper()
	t.Logf("%-11s %-25s right %s (%d/%d)", "callers", "qualified, dispatch", ratio(dispatch.correct, dispatch.found),
		dispatch.correct, dispatch.found)
	t.Logf("%-11s %-25s share %s (%d/%d) of the true callers", "callers", "resolved or dispatch",
		ratio(labelled.correct, labelled.found), labelled.correct, labelled.found)
}

// attribute scores the callers of q's bare name by the definition each is
// attributed to (CallNode.Def, "Owner.name file:line"): right when it is
// q's declaration and the truth has the caller, or another definition and
// the truth has not; a caller attributed to none is not right.
// It returns the callers attributed to the wrong definition, those
// attributed to none, and of these the truth's callers; logf logs the
// wrong ones.
func attribute(s *score, callers []analysis.CallNode, q query, logf func(string, ...any)) (wrong, none, noneTrue int) {
	decl, truthSet, overridden, related := set(q.Defs), set(q.Callers), set(q.Overridden), set(q.Related)
	decl[q.File+":"+strconv.Itoa(q.Line)] = true
	// A caller of two definitions is listed under each: under another
	// definition it is right too.
	toAsked := map[string]bool{}
	for _, n := range callers {
		if n.Def != "" && decl[n.Def[strings.LastIndexByte(n.Def, ' ')+1:]] {
			toAsked[callerKey(n)] = true
		}
	}
	for _, n := range callers {
		s.found++
		if n.Def == "" {
			none++
			if truthSet[callerKey(n)] {
				noneTrue++
			}
			continue
		}
		at := n.Def[strings.LastIndexByte(n.Def, ' ')+1:]
		// Attributed to another definition, a truth's caller that the
		// truth also has as a caller of a member the asked one overrides
		// or implements, or that binds to one of those members or to
		// another implementation of them, is right: a type checker's call
		// hierarchy lists a call of one implementation under every other
		// (rxjs's subscriber.next() under ConsumerObserver.next).
		k := callerKey(n)
		if decl[at] == truthSet[k] || !decl[at] && (toAsked[k] || overridden[k] || truthSet[k] && related[at]) {
			s.correct++
			continue
		}
		wrong++
		logf("%s attributed to %s, the truth's callers of %s:%d %v", callerKey(n), n.Def, q.File, q.Line, q.Callers)
	}
	return wrong, none, noneTrue
}

// callersRight lists the callers of q's answer that count as right: the
// truth's callers, and a caller labelled dispatch (a call of a member the
// symbol overrides or implements, which reaches it when the object is of
// its class) that the truth has as a caller of one of those members. A
// type checker's call hierarchy counts a call by the member it binds to
// (the base's), and the answer says the call only may reach the symbol;
// any other caller is right only when the truth has it.
func callersRight(callers []analysis.CallNode, q query) []string {
	right := slices.Clone(q.Callers)
	overridden := set(q.Overridden)
	for _, n := range callers {
		if k := callerKey(n); n.Confidence == analysis.Dispatch && overridden[k] {
			right = append(right, k)
		}
	}
	return right
}

// qualified is how the sample's declaration is asked about: Owner.name for
// a method, module.name for a top-level declaration.
func qualified(q query) string {
	return q.Qual + "." + q.Name
}

// fileForm names q's declaration alone: its file, then its class and
// name (file.ts#Owner.name) or its name (file.ts#name).
func fileForm(q query) string {
	if q.Kind == "method" {
		return q.File + "#" + q.Qual + "." + q.Name
	}
	return q.File + "#" + q.Name
}

// wrappedVariable reports whether missing, a caller "file:module" of the
// truth, is in got as a caller of that file declared by a top-level
// variable (export const Panel = memo(() => …)), the name the analysis
// gives the file's calls inside a function literal wrapped for it.
func wrappedVariable(dir, missing string, got []string) bool {
	file, ok := strings.CutSuffix(missing, ":module")
	if !ok {
		return false
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
	if err != nil {
		return false
	}
	lines := strings.Split(string(data), "\n")
	for _, g := range got {
		rest, ok := strings.CutPrefix(g, file+":")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > len(lines) {
			continue
		}
		if l := strings.TrimPrefix(lines[n-1], "export "); strings.HasPrefix(l, "const ") || strings.HasPrefix(l, "let ") || strings.HasPrefix(l, "var ") {
			return true
		}
	}
	return false
}

// callerKey is how the compiler names a caller: the line of its name, or
// the file's top level.
// claimMisses reports whether answer r is marked exhaustive and, if so,
// the results of wanted it misses; got is what it lists.
func claimMisses(r *analysis.Result, got, wanted []string) (claimed bool, missing []string) {
	if r.Completeness == nil || !r.Completeness.Exhaustive {
		return false, nil
	}
	_, missing = misses(got, wanted, wanted)
	return true, missing
}

func callerKey(n analysis.CallNode) string {
	if n.Name == "<module>" {
		return n.File + ":module"
	}
	return n.File + ":" + strconv.Itoa(n.Line)
}

func dedup(xs []string) []string {
	sort.Strings(xs)
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// TestQualified checks the query form on its own.
func TestQualified(t *testing.T) {
	if got := qualified(query{Name: "get", Qual: "ObservableMap"}); got != "ObservableMap.get" {
		t.Error(got)
	}
	if got := strings.Join(dedup([]string{"b", "a", "b"}), ","); got != "a,b" {
		t.Error(got)
	}
}

// askTruth runs a truth script (truth.mjs, pyright.mjs) with node over
// srcDir of the project at dir, on the sample of this run (bounded, or
// every shared symbol under LOUPE_ANALYSIS_EVAL=full), and reads its answer;
// opts go into the request as they are.
func askTruth(t *testing.T, node, script, checker, dir, srcDir string, opts map[string]any) truth {
	t.Helper()
	sample := bounded
	if os.Getenv("LOUPE_ANALYSIS_EVAL") == "full" {
		sample = 0
	}
	r := map[string]any{"root": dir, "dir": srcDir, "seed": seed, "sample": sample}
	for k, v := range opts {
		r[k] = v
	}
	req, _ := json.Marshal(r)
	cmd := exec.Command(node, script, checker)
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(script), err, stderr.String())
	}
	var tr truth
	if err := json.Unmarshal(out, &tr); err != nil {
		t.Fatalf("%s's answer: %v", filepath.Base(script), err)
	}
	return tr
}

// TestDispatchRule checks how callers are scored: a caller labelled
// dispatch is right when the truth has it as a caller of an overridden
// member, never otherwise; any other label is right only when the truth
// has it as a caller of the symbol itself.
func TestDispatchRule(t *testing.T) {
	q := query{Name: "Name", Qual: "PBXProject", Kind: "method",
		Callers:    []string{"x.py:10"},
		Overridden: []string{"x.py:20", "x.py:30"}}
	cases := []struct {
		name  string
		node  analysis.CallNode
		right bool
	}{
		{"the truth's caller", analysis.CallNode{File: "x.py", Line: 10, Confidence: analysis.Resolved}, true},
		{"dispatch to an overridden member's caller", analysis.CallNode{File: "x.py", Line: 20,
			Confidence: analysis.Dispatch}, true},
		{"dispatch the truth does not have as the base's caller", analysis.CallNode{File: "x.py", Line: 40,
			Confidence: analysis.Dispatch}, false},
		{"an untyped receiver at an overridden member's caller", analysis.CallNode{File: "x.py", Line: 30,
			Confidence: analysis.NameOnly, Reason: analysis.ReasonUntypedReceiver}, false},
		{"resolved at an overridden member's caller", analysis.CallNode{File: "x.py", Line: 20,
			Confidence: analysis.Resolved}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := slices.Contains(callersRight([]analysis.CallNode{c.node}, q), callerKey(c.node))
			if got != c.right {
				t.Errorf("%s:%d [%s %s] counted right: %v, want %v", c.node.File, c.node.Line, c.node.Confidence,
					c.node.Reason, got, c.right)
			}
		})
	}
}

// TestAttributionRule checks how a bare name's callers are scored: one
// attributed to the asked definition is right when the truth has it; one
// attributed to another definition is right when the truth does not have
// it, or has it also as a caller of a member the asked one overrides or
// implements, or the definition is one of those members or another
// implementation of them (a sibling implementation's call, which a type
// checker's call hierarchy lists under every implementation).
func TestAttributionRule(t *testing.T) {
	q := query{File: "a.ts", Line: 1, Defs: []string{"a.ts:1"},
		Callers:    []string{"x.ts:10", "x.ts:20", "x.ts:30"},
		Overridden: []string{"x.ts:20"}, Related: []string{"c.ts:1"}}
	cases := []struct {
		name  string
		node  analysis.CallNode
		right bool
	}{
		{"the asked definition's caller", analysis.CallNode{File: "x.ts", Line: 10, Def: "A.m a.ts:1"}, true},
		{"the asked definition, not the truth's", analysis.CallNode{File: "x.ts", Line: 40, Def: "A.m a.ts:1"}, false},
		{"another definition, not the truth's", analysis.CallNode{File: "x.ts", Line: 40, Def: "B.m b.ts:1"}, true},
		{"a sibling's call the truth lists under the base", analysis.CallNode{File: "x.ts", Line: 20, Def: "B.m b.ts:1"}, true},
		{"another definition, the truth's caller", analysis.CallNode{File: "x.ts", Line: 30, Def: "B.m b.ts:1"}, false},
		{"a sibling implementation, the truth's caller", analysis.CallNode{File: "x.ts", Line: 30, Def: "C.m c.ts:1"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &score{}
			attribute(s, []analysis.CallNode{c.node}, q, func(string, ...any) {})
			if got := s.correct == 1; got != c.right {
				t.Errorf("%s:%d attributed to %s counted right: %v, want %v", c.node.File, c.node.Line, c.node.Def, got, c.right)
			}
		})
	}
}
