package analysiseval

import (
	"context"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/analysis"
)

// goCorpora are the Go measurement's projects: the standard library's
// go/... packages (the parser, the type checker and their kin: many types
// share method names such as Pos, End and String) and net/http (its
// interfaces, Handler and ResponseWriter, its Header, and sync.Pool's Get
// beside Header.Get).
var goCorpora = []string{"go", "net/http"}

// goDecl is one function or method of the corpus, with go/types' answers
// about it.
type goDecl struct {
	obj        *types.Func
	name, qual string // Name; the receiver's type or the package's name
	key        string // file:line of its name
	callers    map[string]bool
	refs       map[string]bool // every use
	callRefs   map[string]bool // uses that are calls
	// dispatch, for a method, are the callers of the interface methods
	// of its name that its type implements (types.Implements): calls
	// that may reach it, which gopls's call hierarchy lists.
	dispatch   map[string]bool
	sharedName bool
}

// goTruth type-checks every package under GOROOT/src/go and records, for
// each function and method, its callers and uses.
type goTruth struct {
	root   string // GOROOT/src
	corpus string // the folder of root measured
	fset   *token.FileSet
	pkgs   map[string]*types.Package
	infos  []*types.Info
	files  [][]*ast.File
	std    types.Importer
	decls  map[*types.Func]*goDecl
	// ifaceCalls are the callers of each interface method called in
	// the corpus (io.Writer's Write, ast.Node's Pos).
	ifaceCalls map[*types.Func]map[string]bool
	errs       []string
	// checked are the files type-checked (no tests, none built for another
	// system): answers in other files are left out of the comparison.
	checked map[string]bool
}

func (g *goTruth) Import(path string) (*types.Package, error) {
	return g.ImportFrom(path, "", 0)
}

// ImportFrom checks a corpus package itself (so every object is the one
// the corpus refers to), and leaves the others to the source importer.
func (g *goTruth) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	if p, ok := g.pkgs[path]; ok {
		return p, nil
	}
	if path != g.corpus && !strings.HasPrefix(path, g.corpus+"/") {
		return g.std.(types.ImporterFrom).ImportFrom(path, dir, mode)
	}
	return g.check(path)
}

func (g *goTruth) check(path string) (*types.Package, error) {
	bp, err := build.Default.Import(path, "", 0)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		rel, _ := filepath.Rel(g.root, filepath.Join(bp.Dir, name))
		g.checked[filepath.ToSlash(rel)] = true
		f, err := parser.ParseFile(g.fset, filepath.Join(bp.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: g, Error: func(err error) { g.errs = append(g.errs, err.Error()) }}
	pkg, _ := conf.Check(path, g.fset, files, info)
	g.pkgs[path] = pkg
	g.infos = append(g.infos, info)
	g.files = append(g.files, files)
	return pkg, nil
}

func (g *goTruth) key(pos token.Pos) string {
	p := g.fset.Position(pos)
	rel, _ := filepath.Rel(g.root, p.Filename)
	return filepath.ToSlash(rel) + ":" + strconv.Itoa(p.Line)
}

// load checks the corpus and collects the answers.
func (g *goTruth) load(t *testing.T) {
	err := filepath.WalkDir(filepath.Join(g.root, g.corpus), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(g.root, p)
			path := filepath.ToSlash(rel)
			if _, ok := g.pkgs[path]; !ok {
				if bp, err := build.Default.Import(path, "", 0); err == nil && len(bp.GoFiles) > 0 {
					if _, err := g.check(path); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	g.decls = map[*types.Func]*goDecl{}
	for i, files := range g.files {
		info := g.infos[i]
		for _, f := range files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				obj, _ := info.Defs[fd.Name].(*types.Func)
				if obj == nil {
					continue
				}
				qual := obj.Pkg().Name()
				if fd.Recv != nil && len(fd.Recv.List) > 0 {
					qual = recvName(fd.Recv.List[0].Type)
				}
				g.decls[obj] = &goDecl{obj: obj, name: fd.Name.Name, qual: qual, key: g.key(fd.Name.Pos()),
					callers: map[string]bool{}, refs: map[string]bool{}, callRefs: map[string]bool{}, dispatch: map[string]bool{}}
			}
		}
	}
	g.ifaceCalls = map[*types.Func]map[string]bool{}
	for i, files := range g.files {
		info := g.infos[i]
		for _, f := range files {
			g.uses(f, info)
		}
	}
	g.implemented()
}

// implemented records, for each method, the callers of the interface
// methods of its name that its type implements (its pointer's method set,
// as gopls compares them).
func (g *goTruth) implemented() {
	for obj, d := range g.decls {
		recv := obj.Signature().Recv()
		if recv == nil {
			continue
		}
		typ := recv.Type()
		if p, ok := typ.(*types.Pointer); ok {
			typ = p.Elem()
		}
		named, ok := typ.(*types.Named)
		if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
			continue // generic types' method sets are not compared
		}
		for fn, callers := range g.ifaceCalls {
			if fn.Name() != d.name {
				continue
			}
			iface, ok := fn.Signature().Recv().Type().Underlying().(*types.Interface)
			if ok && types.Implements(types.NewPointer(named), iface) {
				for k := range callers {
					d.dispatch[k] = true
				}
			}
		}
	}
}

// uses records every use of a corpus function: its line, and for a call
// the calling function (or the file's top level).
func (g *goTruth) uses(f *ast.File, info *types.Info) {
	var stack []ast.Node
	enclosing := func() string {
		for i := len(stack) - 1; i >= 0; i-- {
			if fd, ok := stack[i].(*ast.FuncDecl); ok {
				return g.key(fd.Name.Pos())
			}
		}
		rel, _ := filepath.Rel(g.root, g.fset.Position(f.Pos()).Filename)
		return filepath.ToSlash(rel) + ":module"
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		fn, _ := info.Uses[id].(*types.Func)
		if fn == nil {
			return true
		}
		if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
			if isCall(stack, id) {
				if g.ifaceCalls[fn] == nil {
					g.ifaceCalls[fn] = map[string]bool{}
				}
				g.ifaceCalls[fn][enclosing()] = true
			}
			return true
		}
		d := g.decls[fn.Origin()]
		if d == nil {
			return true
		}
		k := g.key(id.Pos())
		d.refs[k] = true
		if isCall(stack, id) {
			d.callRefs[k] = true
			d.callers[enclosing()] = true
		}
		return true
	})
}

// isCall reports whether identifier id, the last node of stack, is the
// callee of a call or the selected name of one (x.M()).
func isCall(stack []ast.Node, id *ast.Ident) bool {
	var callee ast.Node = id
	i := len(stack) - 2
	if i >= 0 {
		if sel, ok := stack[i].(*ast.SelectorExpr); ok && sel.Sel == id {
			callee = sel
			i--
		}
	}
	if i < 0 {
		return false
	}
	call, ok := stack[i].(*ast.CallExpr)
	return ok && call.Fun == callee
}

func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.IndexListExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return ""
}

// goSample is the Go measurement's sample: type-checking the corpus and
// asking about each symbol three ways over it takes seconds a symbol, so
// it runs under make analysis-eval only.
const goSample = 60

// TestEvalGo measures structural_analysis against go/types on the standard
// library's go/... packages: callers, references and definitions of a
// seeded sample of the functions and methods whose names are shared.
func TestEvalGo(t *testing.T) {
	if os.Getenv("LOUPE_ANALYSIS_EVAL") != "full" {
		t.Skip("analysiseval: the Go measurement runs with LOUPE_ANALYSIS_EVAL=full (make analysis-eval)")
	}
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(root, "go", "ast")); err != nil {
		t.Skip("analysiseval: the Go standard library's sources are not installed")
	}
	for _, corpus := range goCorpora {
		t.Run(corpus, func(t *testing.T) { evalGo(t, root, corpus) })
	}
}

// evalGo measures structural_analysis on the corpus folder of root.
func evalGo(t *testing.T, root, corpus string) {
	g := &goTruth{root: root, corpus: corpus, fset: token.NewFileSet(), pkgs: map[string]*types.Package{}, checked: map[string]bool{}}
	g.std = importer.ForCompiler(g.fset, "source", nil)
	g.load(t)
	byName := map[string]int{}
	var all []*goDecl
	for _, d := range g.decls {
		byName[d.name]++
		all = append(all, d)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].key < all[j].key })
	var shared []*goDecl
	seenQual := map[string]bool{}
	for _, d := range all {
		// One symbol per qualified name: Owner.name must name one thing.
		q := d.qual + "." + d.name
		if byName[d.name] > 1 && !seenQual[q] {
			seenQual[q] = true
			shared = append(shared, d)
		}
	}
	dup := map[string]int{}
	for _, d := range all {
		dup[d.qual+"."+d.name]++
	}
	var sample []*goDecl
	for _, d := range shared {
		if dup[d.qual+"."+d.name] == 1 {
			sample = append(sample, d)
		}
	}
	rand.New(rand.NewSource(seed)).Shuffle(len(sample), func(i, j int) { sample[i], sample[j] = sample[j], sample[i] })
	if len(sample) > goSample {
		sample = sample[:goSample]
	}
	tool, err := analysis.New(analysis.Config{Workspace: root})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(mode, symbol string) *analysis.Result {
		r, err := tool.Run(context.Background(), analysis.Params{Mode: mode, Language: "go", Path: corpus,
			Symbol: symbol, MaxNodes: analysis.MaxMaxNodes})
		if err != nil {
			t.Fatalf("%s %s: %v", mode, symbol, err)
		}
		return r
	}
	keys := func(m map[string]bool) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		return out
	}
	scores := map[string]map[string]*score{}
	for _, mode := range []string{"callers", "references", "definitions"} {
		scores[mode] = map[string]*score{}
		for _, w := range ways {
			scores[mode][w.name] = &score{}
		}
	}
	attributed := &score{}
	// dispatch and labelled count the labels of the qualified callers
	// (countLabels).
	dispatch, labelled := &score{}, &score{}
	// reached counts the truth's dispatch callers that are not callers of
	// the method itself (found) and those the qualified answer lists
	// (correct).
	reached := &score{}
	// exhaustive counts, per mode, the qualified answers marked exhaustive
	// and those of them missing a result the truth has.
	exhaustive, wrongExhaustive := map[string]int{}, map[string]int{}
	claim := func(mode string, r *analysis.Result, got, wanted []string, symbol string) {
		claimed, missing := claimMisses(r, got, wanted)
		if claimed {
			exhaustive[mode]++
		}
		if len(missing) > 0 {
			wrongExhaustive[mode]++
			if verbose {
				t.Logf("%s %s marked exhaustive misses %v", mode, symbol, missing)
			}
		}
	}
	for _, d := range sample {
		for _, w := range ways {
			symbol := d.name
			if w.qualified {
				symbol = d.qual + "." + d.name
			}
			var got []string
			nodes := map[string]analysis.CallNode{}
			var checked []analysis.CallNode
			rc := ask(analysis.ModeCallers, symbol)
			for _, n := range rc.Callers {
				if w.resolvedOnly && n.Confidence != analysis.Resolved || !g.checked[n.File] {
					continue
				}
				got = append(got, callerKey(n))
				nodes[callerKey(n)] = n
				checked = append(checked, n)
			}
			// A caller labelled dispatch is right when the truth has it
			// as a caller of an interface method d's type implements.
			right := callersRight(checked, query{Callers: keys(d.callers), Overridden: keys(d.dispatch)})
			scores["callers"][w.name].add(dedup(got), right, keys(d.callers))
			if w.qualified && !w.resolvedOnly {
				claim("callers", rc, got, keys(d.callers), symbol)
				countLabels(dispatch, labelled, checked, right, keys(d.callers))
				gotSet := set(got)
				for k := range d.dispatch {
					if !d.callers[k] {
						reached.found++
						if gotSet[k] {
							reached.correct++
						} else if verbose {
							t.Logf("callers %s: dispatch caller %s not listed", symbol, k)
						}
					}
				}
			}
			if !w.qualified {
				attribute(attributed, checked, query{Defs: []string{d.key}, Callers: keys(d.callers)}, func(string, ...any) {})
			}
			if verbose && w.qualified && !w.resolvedOnly {
				extra, missing := misses(got, right, keys(d.callers))
				t.Logf("callers %s: %d extra, missing %v", symbol, len(extra), missing)
				for _, k := range extra {
					n := nodes[k]
					t.Logf("  extra %s [%s %s] %s", k, n.Confidence, n.Reason, strings.TrimSpace(n.Via))
				}
			}
			got = nil
			rr := ask(analysis.ModeReferences, symbol)
			for _, c := range rr.References.Categories {
				if c.Heuristic && w.qualified {
					continue
				}
				for _, it := range c.Items {
					if w.resolvedOnly && it.Confidence != analysis.Resolved || !g.checked[it.File] {
						continue
					}
					got = append(got, it.File+":"+strconv.Itoa(it.Line))
				}
			}
			scores["references"][w.name].add(dedup(got), keys(d.refs), keys(d.callRefs))
			if w.qualified && !w.resolvedOnly {
				claim("references", rr, got, keys(d.callRefs), symbol)
			}
			got = nil
			for _, x := range ask(analysis.ModeDefinitions, symbol).Definitions {
				if g.checked[x.File] {
					got = append(got, x.File+":"+strconv.Itoa(x.Line))
				}
			}
			scores["definitions"][w.name].add(dedup(got), []string{d.key}, []string{d.key})
		}
	}
	t.Logf("GOROOT/src/%s (%s): %d packages, %d functions and methods, %d with a shared name; %d sampled (seed %d)",
		corpus, runtime.Version(), len(g.pkgs), len(all), len(shared), len(sample), seed)
	for _, mode := range []string{"callers", "references", "definitions"} {
		for _, w := range ways {
			t.Logf("%-11s %-25s %s", mode, w.name, scores[mode][w.name])
		}
		before, after := scores[mode]["name matching"], scores[mode]["qualified"]
		if before.found > 0 && after.found > 0 && after.correct*before.found < before.correct*after.found {
			t.Errorf("%s: qualified precision %s below name matching's %s", mode, after, before)
		}
	}
	t.Logf("%-11s %-25s share %s (%d/%d)", "callers", "bare name, attributed", ratio(attributed.correct, attributed.found),
		attributed.correct, attributed.found)
	logLabels(t, dispatch, labelled)
	t.Logf("%-11s %-25s %s (%d/%d) of the truth's dispatch callers listed", "callers", "qualified, dispatch",
		ratio(reached.correct, reached.found), reached.correct, reached.found)
	for _, mode := range []string{"callers", "references"} {
		t.Logf("%-11s %d qualified answers marked exhaustive, %d of them missing a result", mode, exhaustive[mode], wrongExhaustive[mode])
	}
	if len(g.errs) > 0 {
		t.Log(fmt.Sprintf("go/types reported %d errors, the first: %s", len(g.errs), g.errs[0]))
	}
}
