package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/tests/difftest"
)

// rxjs fetches rxjs@7.8.2's package (its TypeScript sources under src/)
// into the corpus cache.
func rxjs(t testing.TB) string {
	t.Helper()
	dir, err := difftest.NpmPackage(context.Background(), "rxjs", "7.8.2")
	if err != nil {
		t.Fatalf("fetching rxjs: %v", err)
	}
	return dir
}

func rxjsRun(t *testing.T, p Params) *Result {
	t.Helper()
	p.Language, p.Path = "typescript", "src"
	r, err := analyze(context.Background(), Config{Workspace: rxjs(t)}, p)
	if err != nil {
		t.Fatalf("%+v: %v", p, err)
	}
	if r.Partial || r.FilesInScope < 200 {
		t.Fatalf("%+v: partial=%v over %d files", p, r.Partial, r.FilesInScope)
	}
	return r
}

func typeNames(ns []TypeNode) map[string]TypeNode {
	out := map[string]TypeNode{}
	for _, n := range ns {
		out[n.Name] = n
	}
	return out
}

// TestRxJS runs the modes over real TypeScript code: rxjs's 251 source
// files, with answers read from its sources.
func TestRxJS(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches rxjs from the npm registry")
	}
	t.Run("hierarchy of Subscriber", func(t *testing.T) {
		h := rxjsRun(t, Params{Mode: "hierarchy", Symbol: "Subscriber"}).Hierarchy
		if len(h.Definitions) != 1 || h.Definitions[0].File != "src/internal/Subscriber.ts" {
			t.Errorf("definitions: %+v", h.Definitions)
		}
		up := typeNames(h.Supertypes)
		if len(up) != 2 || up["Subscription"].Relation != "extends" || up["Subscription"].File != "src/internal/Subscription.ts" ||
			up["Observer"].Relation != "implements" || up["Observer"].File != "src/internal/types.ts" {
			t.Errorf("supertypes: %+v", h.Supertypes)
		}
		down := typeNames(h.Subtypes)
		if len(down) != 2 || down["SafeSubscriber"].File != "src/internal/Subscriber.ts" ||
			down["OperatorSubscriber"].File != "src/internal/operators/OperatorSubscriber.ts" {
			t.Errorf("subtypes: %+v", h.Subtypes)
		}
	})
	t.Run("hierarchy of Subscription, depth 2", func(t *testing.T) {
		h := rxjsRun(t, Params{Mode: "hierarchy", Symbol: "Subscription", Depth: 2}).Hierarchy
		down := typeNames(h.Subtypes)
		sub := typeNames(down["Subscriber"].Children)
		if _, ok := sub["SafeSubscriber"]; !ok {
			t.Errorf("Subscriber's subtypes: %+v", down["Subscriber"])
		}
		if _, ok := sub["OperatorSubscriber"]; !ok {
			t.Errorf("Subscriber's subtypes: %+v", down["Subscriber"])
		}
		if _, ok := typeNames(down["Action"].Children)["AsyncAction"]; !ok {
			t.Errorf("Action's subtypes: %+v", down["Action"])
		}
		if down["SchedulerAction"].Relation != "extends" {
			t.Errorf("the SchedulerAction interface extends Subscription: %+v", down["SchedulerAction"])
		}
		if _, ok := typeNames(h.Supertypes)["SubscriptionLike"]; !ok {
			t.Errorf("supertypes: %+v", h.Supertypes)
		}
	})
	t.Run("callers of executeSchedule, depth 2", func(t *testing.T) {
		r := rxjsRun(t, Params{Mode: "callers", Symbol: "executeSchedule", Depth: 2})
		byName := map[string]CallNode{}
		for _, n := range r.Callers {
			byName[n.Name] = n
		}
		for _, want := range []string{"maybeSchedule", "startBuffer", "bufferTime", "doInnerSub", "observeOn",
			"startTimer", "startWindow", "windowTime", "scheduleAsyncIterable", "scheduleIterable"} {
			if _, ok := byName[want]; !ok {
				t.Errorf("caller %s missing:\n%s", want, r.Text())
			}
		}
		ms := byName["maybeSchedule"]
		if ms.File != "src/internal/observable/combineLatest.ts" ||
			ms.Via != "executeSchedule(subscription, scheduler, execute);" ||
			len(ms.Children) != 1 || ms.Children[0].Name != "combineLatestInit" {
			t.Errorf("maybeSchedule: %+v", ms)
		}
		cycle := false
		for _, c := range byName["doInnerSub"].Children {
			cycle = cycle || (c.Name == "doInnerSub" && c.Cycle)
		}
		if !cycle {
			t.Errorf("doInnerSub calls itself through a callback: %+v", byName["doInnerSub"])
		}
		if !strings.Contains(r.Text(), "← observeOn()  src/internal/operators/observeOn.ts:") {
			t.Errorf("text:\n%s", r.Text())
		}
	})
	t.Run("references of Subscriber", func(t *testing.T) {
		r := rxjsRun(t, Params{Mode: "references", Symbol: "Subscriber", MaxNodes: 1000})
		counts := map[string]int{}
		for _, c := range r.References.Categories {
			counts[c.ID] = c.Count
		}
		// grep: 28 files import Subscriber (2 more import only
		// SafeSubscriber from its module, which is no reference), 2
		// classes extend it, 48 lines annotate ": Subscriber" (more use it
		// as a type argument), and no code constructs one with new.
		if counts[RefTypes] < 48 || counts[RefHeritage] != 2 || counts[RefImports] != 28 || counts[RefInstantiations] != 0 ||
			counts[RefInstanceCalls] < 100 {
			t.Errorf("counts: %v", counts)
		}
	})
	t.Run("dependencies of Subscriber.ts, reverse", func(t *testing.T) {
		r := rxjsRun(t, Params{Mode: "dependencies", Target: "src/internal/Subscriber.ts", Reverse: true})
		resolved := map[string]string{}
		for _, imp := range r.Dependencies[0].Imports {
			resolved[imp.Source] = imp.Resolved
		}
		if resolved["./Subscription"] != "src/internal/Subscription.ts" || resolved["./util/isFunction"] != "src/internal/util/isFunction.ts" {
			t.Errorf("imports: %+v", r.Dependencies[0].Imports)
		}
		importers := map[string]bool{}
		for _, im := range r.ImportedBy {
			importers[im.File] = true
		}
		for _, want := range []string{"src/internal/Observable.ts", "src/internal/Subject.ts",
			"src/internal/operators/OperatorSubscriber.ts", "src/index.ts"} {
			if !importers[want] {
				t.Errorf("%s imports Subscriber.ts; importers: %v", want, importers)
			}
		}
	})
}
