package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/core/search"
)

// fixtureRoot holds one fixture project per language.
const fixtureRoot = "../testdata/analysis"

func runFixture(t *testing.T, dir string, p Params) *Result {
	t.Helper()
	if p.Language == "" {
		p.Language = dir
	}
	r, err := analyze(context.Background(), Config{Workspace: filepath.Join(fixtureRoot, dir)}, p)
	if err != nil {
		t.Fatalf("%+v: %v", p, err)
	}
	return r
}

func TestParamErrors(t *testing.T) {
	root := filepath.Join(fixtureRoot, "typescript")
	outside := t.TempDir()
	cases := []struct {
		name string
		p    Params
		want []string // substrings of the error
	}{
		{"unknown mode", Params{Mode: "callgraph", Language: "ts", Symbol: "x"},
			[]string{`unsupported mode "callgraph"`, "callers, callees, definitions, hierarchy, references, dependencies, exports"}},
		{"no mode", Params{Language: "ts", Symbol: "x"}, []string{"mode is required"}},
		{"no language", Params{Mode: "callers", Symbol: "x"}, []string{"language is required", "typescript"}},
		{"unknown language", Params{Mode: "callers", Language: "cobol", Symbol: "x"}, []string{`structural analysis does not support "cobol" (supported: c, cpp,`, `unsupported language "cobol"`}},
		{"language without table", Params{Mode: "callers", Language: "json", Symbol: "x"},
			[]string{"does not support json", "supported:"}},
		{"mode not for language", Params{Mode: "hierarchy", Language: "c", Symbol: "x"},
			[]string{"mode hierarchy is not supported for c", "callers, callees, definitions, references, dependencies, exports"}},
		{"no symbol", Params{Mode: "references", Language: "ts"}, []string{"symbol is required for mode references"}},
		{"no target", Params{Mode: "exports", Language: "ts"}, []string{"target is required for mode exports"}},
		{"negative depth", Params{Mode: "callers", Language: "ts", Symbol: "x", Depth: -1}, []string{"depth must be between 1 and 5"}},
		{"negative maxNodes", Params{Mode: "callers", Language: "ts", Symbol: "x", MaxNodes: -3}, []string{"maxNodes must be positive"}},
		{"path with ..", Params{Mode: "callers", Language: "ts", Symbol: "x", Path: "src/../../python"},
			[]string{`path "src/../../python" is outside the workspace root`}},
		{"absolute path outside", Params{Mode: "callers", Language: "ts", Symbol: "x", Path: outside},
			[]string{"is outside the workspace root"}},
		{"target outside", Params{Mode: "dependencies", Language: "ts", Target: "../python/app/main.py"},
			[]string{`target "../python/app/main.py" is outside the workspace root`}},
		{"missing path", Params{Mode: "callers", Language: "ts", Symbol: "x", Path: "src/nope"},
			[]string{`path "src/nope" does not exist`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := analyze(context.Background(), Config{Workspace: root}, c.p)
			if err == nil {
				t.Fatalf("no error; result %+v", r)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestSymlinkBoundary: a symlink inside the workspace that leads out of it
// is refused as a path, and never followed by the walk.
func TestSymlinkBoundary(t *testing.T) {
	ws := t.TempDir()
	out := t.TempDir()
	write(t, filepath.Join(out, "secret.ts"), "export function leaked() { target(); }\n")
	write(t, filepath.Join(ws, "a.ts"), "export function inside() { target(); }\n")
	if err := os.Symlink(out, filepath.Join(ws, "link")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Symlink(filepath.Join(out, "secret.ts"), filepath.Join(ws, "file.ts")); err != nil {
		t.Fatal(err)
	}
	_, err := analyze(context.Background(), Config{Workspace: ws}, Params{Mode: "callers", Language: "ts", Symbol: "target", Path: "link"})
	if err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("path through a symlink out of the workspace: err = %v", err)
	}
	_, err = analyze(context.Background(), Config{Workspace: ws}, Params{Mode: "exports", Language: "ts", Target: "file.ts"})
	if err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("target through a symlink out of the workspace: err = %v", err)
	}
	r, err := analyze(context.Background(), Config{Workspace: ws}, Params{Mode: "callers", Language: "ts", Symbol: "target"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Callers) != 1 || r.Callers[0].Name != "inside" {
		t.Errorf("the walk followed a symlink out of the workspace: %+v", r.Callers)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEmptyResults: REQ-SA-007, every mode's empty answer has its
// structure (an empty list, every reference category at zero) and
// truncated false.
func TestEmptyResults(t *testing.T) {
	cases := []struct {
		p    Params
		want string // the mode's JSON section
	}{
		{Params{Mode: "callers", Symbol: "nope"}, `"callers":[]`},
		{Params{Mode: "callees", Symbol: "nope"}, `"callees":[]`},
		{Params{Mode: "definitions", Symbol: "nope"}, `"definitions":[]`},
		{Params{Mode: "hierarchy", Symbol: "nope"}, `"hierarchy":{"definitions":[],"supertypes":[],"subtypes":[]}`},
		{Params{Mode: "references", Symbol: "nope"}, `"references":{"total":0,"resolved":0,"nameOnly":0,"categories":[` +
			`{"id":"instanceMethodCalls","label":"Method calls on instances","heuristic":true,"count":0,"nameOnly":0,"items":[]},` +
			`{"id":"directCalls","label":"Direct calls","count":0,"nameOnly":0,"items":[]},` +
			`{"id":"instantiations","label":"Instantiations","count":0,"nameOnly":0,"items":[]},` +
			`{"id":"typeAnnotations","label":"Type annotations","count":0,"nameOnly":0,"items":[]},` +
			`{"id":"extendsImplements","label":"Extends/implements","count":0,"nameOnly":0,"items":[]},` +
			`{"id":"imports","label":"Imports","count":0,"nameOnly":0,"items":[]},` +
			`{"id":"reExports","label":"Re-exports","count":0,"nameOnly":0,"items":[]}]}`},
		{Params{Mode: "dependencies", Target: "src/polyfill.ts"}, `"dependencies":[{"file":"src/polyfill.ts","imports":[]}]`},
		{Params{Mode: "dependencies", Target: "src/main.ts", Reverse: true}, `"importedBy":[]`},
		{Params{Mode: "exports", Target: "src/polyfill.ts"}, `"exports":[]`},
	}
	for _, c := range cases {
		t.Run(c.p.Mode, func(t *testing.T) {
			r := runFixture(t, "typescript", c.p)
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			js := string(b)
			if !strings.Contains(js, c.want) {
				t.Errorf("JSON lacks %s:\n%s", c.want, js)
			}
			if !strings.Contains(js, `"truncated":false`) || !strings.Contains(js, `"partial":false`) || r.Reason != "" {
				t.Errorf("an empty result is not complete: %s", js)
			}
		})
	}
}

// TestCallersJSON checks the JSON of a callers tree: names, containers,
// definition lines, the via: call-site line and its line number.
func TestCallersJSON(t *testing.T) {
	r := runFixture(t, "typescript", Params{Mode: "callers", Symbol: "createRegistry", Depth: 2, Path: "src"})
	b, err := json.Marshal(r.Callers)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"init","container":"Service","file":"src/service.ts","line":9,` +
		`"via":"this.toolRegistry = createRegistry();","viaLine":10,"confidence":"resolved",` +
		`"children":[{"name":"main","file":"src/main.ts","line":4,"via":"s.init({ name: 'a' });","viaLine":6,"confidence":"resolved"}]},` +
		`{"name":"reset","container":"Service","file":"src/service.ts","line":14,"via":"createRegistry();","viaLine":16,"confidence":"resolved"},` +
		`{"name":"View","file":"src/view.tsx","line":2,"via":"const r = createRegistry();","viaLine":3,"confidence":"resolved"}]`
	if string(b) != want {
		t.Errorf("callers JSON\n got %s\nwant %s", b, want)
	}
	if r.Path != "src" || r.Depth != 2 || r.Truncated || r.Partial {
		t.Errorf("header: %+v", r)
	}
}

// TestCallersCycleAndDepth: depth bounds the tree; the recursion
// ping -> pong -> ping is cut at the repeated name, marked as a cycle.
func TestCallersCycleAndDepth(t *testing.T) {
	r1 := runFixture(t, "typescript", Params{Mode: "callers", Symbol: "ping"})
	for _, n := range r1.Callers {
		if len(n.Children) > 0 {
			t.Errorf("depth 1 has grandchildren: %+v", n)
		}
	}
	r5 := runFixture(t, "typescript", Params{Mode: "callers", Symbol: "ping", Depth: 5})
	var cycles int
	var walk func(ns []CallNode, depth int)
	walk = func(ns []CallNode, depth int) {
		for _, n := range ns {
			if depth > 5 {
				t.Errorf("node %s below depth 5", n.Name)
			}
			if n.Cycle {
				cycles++
				if len(n.Children) > 0 {
					t.Errorf("cycle node %s expanded", n.Name)
				}
			}
			walk(n.Children, depth+1)
		}
	}
	walk(r5.Callers, 1)
	if cycles != 1 {
		t.Errorf("want 1 cycle, got %d:\n%s", cycles, r5.Text())
	}
}

// TestMaxNodes: the traversal stops after maxNodes distinct symbols,
// keeping what it found, with truncated and the reason.
func TestMaxNodes(t *testing.T) {
	for _, mode := range []string{"callers", "callees", "definitions", "hierarchy", "references"} {
		sym := map[string]string{"callers": "createRegistry", "callees": "main", "definitions": "register",
			"hierarchy": "BaseRegistry", "references": "ToolRegistry"}[mode]
		full := runFixture(t, "typescript", Params{Mode: mode, Symbol: sym, Depth: 3})
		cut := runFixture(t, "typescript", Params{Mode: mode, Symbol: sym, Depth: 3, MaxNodes: 1})
		if full.Truncated {
			t.Errorf("%s: the full answer is truncated", mode)
		}
		if !cut.Truncated || cut.Reason != ReasonMaxNodes || cut.Partial {
			t.Errorf("%s with maxNodes 1: truncated=%v reason=%q partial=%v", mode, cut.Truncated, cut.Reason, cut.Partial)
		}
		if !strings.Contains(cut.Text(), "[truncated: maxNodes reached") {
			t.Errorf("%s: the text does not say it is truncated:\n%s", mode, cut.Text())
		}
		if n, m := resultSize(cut), resultSize(full); n == 0 || n >= m {
			t.Errorf("%s: the cut answer holds %d nodes, the full one %d:\n%s", mode, n, m, cut.Text())
		}
	}
	r := runFixture(t, "typescript", Params{Mode: "references", Symbol: "ToolRegistry", MaxNodes: 1})
	for _, c := range r.References.Categories {
		if len(c.Items) > 1 {
			t.Errorf("%s holds %d items", c.ID, len(c.Items))
		}
		if c.ID == RefInstanceCalls && c.Count != 2 {
			t.Errorf("counts must stay whole: %s = %d", c.ID, c.Count)
		}
	}
}

// TestQualifiedSymbol: Owner.name narrows definitions and callees to that
// owner; the name-only modes match the name and say so.
func TestQualifiedSymbol(t *testing.T) {
	d := runFixture(t, "typescript", Params{Mode: "definitions", Symbol: "ToolRegistry.register"})
	if len(d.Definitions) != 1 || d.Definitions[0].Container != "ToolRegistry" || d.Symbol != "ToolRegistry.register" {
		t.Errorf("definitions: %+v", d.Definitions)
	}
	c := runFixture(t, "typescript", Params{Mode: "callees", Symbol: "Service::init"})
	if len(c.Callees) != 1 || c.Callees[0].Container != "Service" || len(c.Callees[0].Children) != 3 {
		t.Errorf("callees:\n%s", c.Text())
	}
	r := runFixture(t, "typescript", Params{Mode: "callers", Symbol: "app.Service#init"})
	if len(r.Callers) != 1 || r.Callers[0].Name != "main" || r.Callers[0].Confidence != Resolved || len(r.Notes) != 1 ||
		!strings.Contains(r.Notes[0], "uses of init that resolve to its definitions in Service") {
		t.Errorf("callers: %+v %v", r.Callers, r.Notes)
	}
	for _, c := range []struct{ in, owner, name string }{
		{"a.b.C.m", "C", "m"}, {"C::m", "C", "m"}, {"m", "", "m"}, {".m", "", ".m"}, {"m.", "", "m."},
	} {
		if o, n := splitQualified(c.in); o != c.owner || n != c.name {
			t.Errorf("splitQualified(%q) = %q, %q", c.in, o, n)
		}
	}
}

// resultSize counts the nodes or items of a result.
func resultSize(r *Result) int {
	var calls func([]CallNode) int
	calls = func(ns []CallNode) int {
		n := len(ns)
		for _, x := range ns {
			n += calls(x.Children)
		}
		return n
	}
	var types func([]TypeNode) int
	types = func(ns []TypeNode) int {
		n := len(ns)
		for _, x := range ns {
			n += types(x.Children)
		}
		return n
	}
	n := calls(r.Callers) + calls(r.Callees) + len(r.Definitions)
	if r.Hierarchy != nil {
		n += types(r.Hierarchy.Supertypes) + types(r.Hierarchy.Subtypes)
	}
	if r.References != nil {
		for _, c := range r.References.Categories {
			n += len(c.Items)
		}
	}
	return n
}

// TestDepthLimits: depth above the maximum is lowered, with a note.
func TestDepthLimits(t *testing.T) {
	r := runFixture(t, "typescript", Params{Mode: "callers", Symbol: "ping", Depth: 9})
	if r.Depth != MaxDepth || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "lowered to the maximum, 5") {
		t.Errorf("depth 9: depth=%d notes=%v", r.Depth, r.Notes)
	}
}

// TestCancellation: a cancelled context or an elapsed timeout stops the
// call and returns what was found, partial, with the reason.
func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := analyze(ctx, Config{Workspace: filepath.Join(fixtureRoot, "typescript")},
		Params{Mode: "callers", Language: "ts", Symbol: "ping", Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial || !r.Truncated || r.Reason != ReasonCancelled {
		t.Errorf("cancelled: partial=%v truncated=%v reason=%q", r.Partial, r.Truncated, r.Reason)
	}
	if r.Callers == nil {
		t.Error("a cancelled callers result still has its (empty) list")
	}
	if !strings.Contains(r.Text(), "[partial: stopped by cancelled") {
		t.Errorf("text: %s", r.Text())
	}

	r, err = analyze(context.Background(), Config{Workspace: filepath.Join(fixtureRoot, "typescript"), Timeout: time.Nanosecond},
		Params{Mode: "references", Language: "ts", Symbol: "ToolRegistry"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial || !r.Truncated || r.Reason != ReasonTimeout {
		t.Errorf("timeout: partial=%v truncated=%v reason=%q", r.Partial, r.Truncated, r.Reason)
	}
	if r.References == nil || len(r.References.Categories) != 7 {
		t.Errorf("a timed-out references result keeps its categories: %+v", r.References)
	}
}

// TestParsedOnce: however deep the traversal, each file is parsed at most
// once per call (every parse request goes to the tree cache once), and a
// later call reuses the facts.
func TestParsedOnce(t *testing.T) {
	for _, mode := range []string{"callers", "callees", "hierarchy"} {
		sym := map[string]string{"callers": "ping", "callees": "main", "hierarchy": "BaseRegistry"}[mode]
		sharedFacts.clear()
		before := search.Default.Stats()
		r := runFixture(t, "typescript", Params{Mode: mode, Symbol: sym, Depth: 5})
		after := search.Default.Stats()
		requests := (after.Hits + after.Misses) - (before.Hits + before.Misses)
		if int(requests) != r.FilesParsed || r.FilesParsed > r.FilesInScope || r.FilesParsed == 0 {
			t.Errorf("%s depth 5: %d parse requests for %d files parsed of %d", mode, requests, r.FilesParsed, r.FilesInScope)
		}
		// The next call reuses the facts: no parsing at all.
		again := runFixture(t, "typescript", Params{Mode: mode, Symbol: sym, Depth: 5})
		if again.FilesParsed != 0 || again.FilesReused != r.FilesParsed || again.Text() != r.Text() {
			t.Errorf("%s again: parsed %d, reused %d of %d", mode, again.FilesParsed, again.FilesReused, r.FilesParsed)
		}
	}
}

// TestTSXInTypeScriptScope: a TypeScript analysis covers .tsx files, each
// parsed with its own grammar.
func TestTSXInTypeScriptScope(t *testing.T) {
	for _, lang := range []string{"typescript", "tsx"} {
		r := runFixture(t, "typescript", Params{Mode: "references", Language: lang, Symbol: "createRegistry"})
		found := false
		for _, c := range r.References.Categories {
			for _, it := range c.Items {
				if it.File == "src/view.tsx" && c.ID == RefDirectCalls {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: the call in view.tsx is missing:\n%s", lang, r.Text())
		}
	}
}

// TestCommentsAndStrings: text that looks like a call in a comment or a
// string is not one.
func TestCommentsAndStrings(t *testing.T) {
	r := runFixture(t, "typescript", Params{Mode: "references", Symbol: "createRegistry"})
	for _, c := range r.References.Categories {
		for _, it := range c.Items {
			if it.File == "src/polyfill.ts" {
				t.Errorf("matched inside a comment or string: %+v", it)
			}
		}
	}
}

func TestDescription(t *testing.T) {
	d := Description
	if got := strings.Join(SupportedLanguages(), ", "); got != descriptionLanguages {
		t.Errorf("the description lists %s; the tables are %s", descriptionLanguages, got)
	}
	for _, w := range []string{"Multi-hop", "ast_grep", "single structural pattern",
		"callers", "callees", "definitions", "hierarchy", "references", "dependencies", "exports",
		"heuristic", "types the code writes down", "exhaustive",
		"resolved", "dispatch", "name-only", "maxNodes", "truncated", "60 s", "partial", "typescript", "python", "rust"} {
		if !strings.Contains(d, w) {
			t.Errorf("the description does not mention %q", w)
		}
	}
	// The details a face shows as the guide keep every limitation.
	for _, w := range []string{"types are read as written, not checked", "No overload resolution", "Method shapes are grammar-specific",
		"\"Method calls on instances\" is a heuristic", "hierarchy sees only extends/implements", "Import resolution"} {
		if !strings.Contains(Details, w) {
			t.Errorf("the details do not mention %q", w)
		}
	}
}

func TestSchema(t *testing.T) {
	s := Schema()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	js := string(b)
	for _, w := range []string{`"required":["mode","language"]`, `"additionalProperties":false`,
		`"enum":["callers","callees","definitions","hierarchy","references","dependencies","exports"]`,
		`"depth":{"default":1,`, `"maximum":5,"minimum":1`, `"maxNodes":{"default":50,`, `"reverse":{"default":false,`} {
		if !strings.Contains(js, w) {
			t.Errorf("schema lacks %s:\n%s", w, js)
		}
	}
	props := s["properties"].(map[string]any)
	for _, name := range []string{"mode", "language", "path", "symbol", "depth", "maxNodes", "target", "reverse"} {
		p, ok := props[name].(map[string]any)
		if !ok || p["description"] == "" {
			t.Errorf("property %s is missing or undescribed", name)
		}
	}
	if Name != "structural_analysis" {
		t.Errorf("Name = %q", Name)
	}
}

func TestSupportedModes(t *testing.T) {
	all := strings.Join(Modes, ",")
	for _, lang := range []string{"typescript", "tsx", "javascript", "python", "go", "rust", "java", "csharp",
		"kotlin", "ruby", "php", "cpp"} {
		if got := strings.Join(SupportedModes(lang), ","); got != all {
			t.Errorf("%s supports %s, want every mode", lang, got)
		}
	}
	if got := strings.Join(SupportedModes("c"), ","); got != "callers,callees,definitions,references,dependencies,exports" {
		t.Errorf("c supports %s", got)
	}
	if SupportedModes("yaml") != nil || SupportedModes("nonsense") != nil {
		t.Error("modes for a language without a table")
	}
}

// analyze opens cfg's workspace and runs one call.
func analyze(ctx context.Context, cfg Config, p Params) (*Result, error) {
	t, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return t.Run(ctx, p)
}

// TestConcurrentCalls: one Tool serves concurrent calls (an MCP server
// does), sharing the facts cache; each answer is the one a lone call gets.
func TestConcurrentCalls(t *testing.T) {
	tool, err := New(Config{Workspace: filepath.Join(fixtureRoot, "typescript")})
	if err != nil {
		t.Fatal(err)
	}
	params := []Params{
		{Mode: "callers", Language: "ts", Symbol: "ping", Depth: 3},
		{Mode: "references", Language: "ts", Symbol: "ToolRegistry"},
		{Mode: "hierarchy", Language: "ts", Symbol: "BaseRegistry", Depth: 2},
		{Mode: "dependencies", Language: "ts", Target: "src/registry.ts", Reverse: true},
	}
	want := make([]string, len(params))
	for i, p := range params {
		r, err := tool.Run(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = r.Text()
	}
	sharedFacts.clear()
	errs := make(chan string, 4*len(params))
	done := make(chan struct{})
	for range 4 {
		for i, p := range params {
			go func() {
				defer func() { done <- struct{}{} }()
				r, err := tool.Run(context.Background(), p)
				if err != nil {
					errs <- err.Error()
				} else if got := r.Text(); got != want[i] {
					errs <- got
				}
			}()
		}
	}
	for range 4 * len(params) {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Errorf("a concurrent call differs: %s", e)
	}
}

// TestScreensFiles: analysis reads files through the pipeline's screen,
// as every face does: a binary file and a non-UTF-8 file that define the
// symbol are skipped (counted, never parsed), the text file is analysed.
func TestScreensFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.ts"), "export function wanted() { return 1; }\n")
	write(t, filepath.Join(dir, "bin.ts"), "export function wanted() { return 2; }\x00\n")
	write(t, filepath.Join(dir, "latin1.ts"), "export function wanted() { return '\xe9'; }\n")
	r, err := analyze(context.Background(), Config{Workspace: dir}, Params{Mode: "definitions", Language: "typescript", Symbol: "wanted"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Definitions) != 1 || r.Definitions[0].File != "a.ts" {
		t.Errorf("definitions: %+v", r.Definitions)
	}
	if r.SkippedFiles != 2 {
		t.Errorf("skipped %d files, want the binary and the non-UTF-8 one", r.SkippedFiles)
	}
}

// TestPartialOnStop: a call stopped while files are being parsed returns
// the callers found in the files parsed before the stop, marked partial,
// not an empty answer (issue 18 item 10).
func TestPartialOnStop(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "target.ts"), "export function target() { return 1; }\n")
	for i := range 40 {
		write(t, filepath.Join(dir, fmt.Sprintf("c%02d.ts", i)), fmt.Sprintf("import { target } from './target';\nexport function caller%d() { return target(); }\n", i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var parsed atomic.Int32
	testHookParsed = func() {
		if parsed.Add(1) == 10 {
			cancel()
		}
	}
	defer func() { testHookParsed = nil }()
	sharedFacts.clear()
	r, err := analyze(ctx, Config{Workspace: dir}, Params{Mode: "callers", Language: "typescript", Symbol: "target", Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial || !r.Truncated || r.Reason != ReasonCancelled {
		t.Errorf("partial %v, truncated %v, reason %q", r.Partial, r.Truncated, r.Reason)
	}
	if len(r.Callers) == 0 || len(r.Callers) >= 40 {
		t.Errorf("%d callers after a stop at 10 parsed files", len(r.Callers))
	}
}

// TestGoImportsStayInside: an import string that climbs out of the module,
// or names a package directory that is a link out of the workspace,
// resolves to nothing and lists nothing outside (issue 18 item 5).
func TestGoImportsStayInside(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "ws")
	write(t, filepath.Join(base, "outside", "secret.go"), "package outside\n")
	write(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	write(t, filepath.Join(dir, "main.go"), "package main\n\nimport (\n\t\"example.com/m/../outside\"\n\t\"example.com/m/linked\"\n)\n")
	if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	r, err := analyze(context.Background(), Config{Workspace: dir}, Params{Mode: "dependencies", Language: "go", Path: "main.go"})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(r)
	if strings.Contains(string(out), "secret") || strings.Contains(string(out), "resolved") {
		t.Errorf("the answer reaches outside: %s", out)
	}
	if len(r.Dependencies) != 1 || len(r.Dependencies[0].Imports) != 2 {
		t.Fatalf("dependencies: %s", out)
	}
}

// TestStopWhileJudging: a call cancelled once its files are parsed stops
// judging their call sites within judgedPerCheck of the stop, for callers
// and references alike, and says it was cancelled.
func TestStopWhileJudging(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("function alpha() {}\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "function f%d() { return alpha(%d); }\n", i, i)
	}
	write(t, filepath.Join(dir, "many.js"), b.String())
	for _, mode := range []string{"callers", "references"} {
		ctx, cancel := context.WithCancel(context.Background())
		testHookParsed = cancel
		sharedFacts.clear()
		r, err := analyze(ctx, Config{Workspace: dir}, Params{Mode: mode, Language: "javascript", Symbol: "alpha", MaxNodes: MaxMaxNodes})
		testHookParsed = nil
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		n := len(r.Callers)
		if r.References != nil {
			for _, c := range r.References.Categories {
				n += len(c.Items)
			}
		}
		if !r.Partial || r.Reason != ReasonCancelled || n >= judgedPerCheck {
			t.Errorf("%s: partial %v, reason %q, %d results after a stop before judging", mode, r.Partial, r.Reason, n)
		}
	}
}
