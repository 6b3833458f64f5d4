package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/index"
	"github.com/loupe-dev/loupe/tools/toolspec"
)

// indexTools are the project-index tools, in the order faces list them.
var indexTools = []entry{searchPackagesTool, getPackageTool, packageDependenciesTool, packageDependentsTool,
	dependencyGraphTool, listPackagesTool, indexStatusTool, searchSymbolsTool, getPackageSymbolsTool, getSymbolTool}

// IndexPath is the project index the tools of cfg read: cfg.Index, else
// the default one of the workspace (index.DefaultPath).
func IndexPath(cfg Config) string {
	if cfg.Index != "" {
		return cfg.Index
	}
	return index.DefaultPath(cfg.Workspace)
}

var (
	indexMu  sync.Mutex
	indexDBs = map[string]*liveIndex{}
)

// liveIndex is one project index as this process serves it: the
// read-only DB the queries use and, once a write or a watching server
// needs it, the one Updater that writes it and the Watcher that feeds it.
type liveIndex struct {
	path string
	db   *index.DB

	mu      sync.Mutex
	up      *index.Updater
	watcher *index.Watcher
	// unwatched is set when watching failed: a stat pass (Refresh)
	// before each query stands in for it.
	unwatched bool
}

// openIndex returns the index at path, opened read-only once per process
// and shared by the tools; a missing index is not remembered, so the
// tools answer as soon as `loupe index` has built it.
func openIndex(path string) (*liveIndex, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	indexMu.Lock()
	defer indexMu.Unlock()
	if li, ok := indexDBs[abs]; ok {
		return li, nil
	}
	db, err := index.Open(abs)
	if err != nil {
		if index.IsNoIndex(err) {
			return nil, fmt.Errorf("%w; build it with `loupe index` in the repository first", err)
		}
		return nil, err
	}
	li := &liveIndex{path: abs, db: db}
	indexDBs[abs] = li
	return li, nil
}

// CloseIndexes closes the project indexes the tools opened, with their
// updaters and watchers (a server calls it as it stops).
func CloseIndexes() error {
	indexMu.Lock()
	defer indexMu.Unlock()
	var errs []error
	for path, li := range indexDBs {
		li.mu.Lock()
		if li.watcher != nil {
			errs = append(errs, li.watcher.Close())
		}
		if li.up != nil {
			errs = append(errs, li.up.Close())
		}
		li.mu.Unlock()
		errs = append(errs, li.db.Close())
		delete(indexDBs, path)
	}
	return errors.Join(errs...)
}

// updater returns the index's one writer, opened on first use; li.mu is
// held.
func (li *liveIndex) updater(ctx context.Context) (*index.Updater, error) {
	if li.up != nil {
		return li.up, nil
	}
	root, err := li.db.Root(ctx)
	if err != nil {
		return nil, err
	}
	up, err := index.NewUpdater(index.Options{Root: root, DB: li.path})
	if err != nil {
		return nil, err
	}
	li.up = up
	return up, nil
}

// fresh keeps the index up with the tree for a serving process: the
// first call starts a watcher and then brings the index up to date with
// what changed before (as loupe index does); where watching is
// unavailable, each call runs a stat pass of the tree (parsing only what
// changed) before the query.
func (li *liveIndex) fresh(ctx context.Context) error {
	li.mu.Lock()
	defer li.mu.Unlock()
	if li.watcher != nil {
		return nil
	}
	up, err := li.updater(ctx)
	if err != nil {
		return err
	}
	if !li.unwatched {
		w, err := index.Watch(up, nil)
		if err == nil {
			li.watcher = w
			// What changed before the watch began (while no server ran).
			_, err = up.Refresh(ctx)
			return err
		}
		li.unwatched = true
	}
	_, err = up.Poll(ctx)
	return err
}

// updating reports whether changes are being applied to the index.
func (li *liveIndex) updating() bool {
	li.mu.Lock()
	defer li.mu.Unlock()
	return li.up != nil && li.up.Updating()
}

// afterWrite brings the project index of cfg, when there is one, up to
// date for the file a tool wrote (rel, relative to the workspace) before
// the tool returns: the next query sees the write.
func afterWrite(ctx context.Context, cfg Config, rel string) error {
	path := IndexPath(cfg)
	if _, err := os.Stat(path); err != nil {
		return nil // no index to keep
	}
	li, err := openIndex(path)
	if err != nil {
		return err
	}
	li.mu.Lock()
	defer li.mu.Unlock()
	up, err := li.updater(ctx)
	if err != nil {
		return err
	}
	_, err = up.Update(ctx, []string{filepath.Join(cfg.Workspace, filepath.FromSlash(rel))})
	return err
}

// buildMu keeps builds the tools start one at a time.
var buildMu sync.Mutex

// buildIndex builds the index of the workspace at path (Config.BuildIndex)
// unless another call did meanwhile, and opens it.
func buildIndex(ctx context.Context, workspace, path string) (*liveIndex, error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	if li, err := openIndex(path); err == nil {
		return li, nil
	}
	if _, err := index.Build(ctx, index.Options{Root: workspace, DB: path}); err != nil {
		return nil, fmt.Errorf("building the project index of %s: %w", workspace, err)
	}
	return openIndex(path)
}

// indexResult is what a project-index tool answers: a JSON value, or a
// message instead (an empty query, a package not found).
type indexResult struct {
	Message string `json:"message,omitempty"`
	Value   any    `json:"value,omitempty"`
	// Total counts the whole answer when Value is one page of it, and
	// Next is the offset of the page after it (0: none).
	Total int `json:"total,omitempty"`
	Next  int `json:"next,omitempty"`
}

// Text is the message, or the value as JSON written for a model to read:
// <, > and & as themselves (a signature such as ZodError<T> costs no
// \u003c escapes), and no trailing newline.
func (r *indexResult) Text() string {
	if r.Message != "" {
		return r.Message
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r.Value); err != nil {
		return err.Error()
	}
	if r.Next > 0 {
		fmt.Fprintf(&b, "%d more of %d: call again with offset=%d", r.Total-r.Next, r.Total, r.Next)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// MaxIndexTextBytes bounds the JSON of one page of a project-index list
// (about 6,000 tokens): a page ends at the item that would cross it.
const MaxIndexTextBytes = 24 << 10

// listPage is the most items one page of a project-index list holds.
const listPage = 200

// pageParams are the paging parameters of the project-index tools whose
// answers have no natural bound.
type pageParams struct {
	Offset int `json:"offset,omitempty" min:"0" desc:"Skip this many items: the offset a capped answer gives."`
}

// page cuts items to the page at offset that holds at most size items and
// MaxIndexTextBytes of JSON, and says how to ask for the rest.
func page[T any](items []T, offset, size int) *indexResult {
	total := len(items)
	offset = min(max(offset, 0), total)
	rest := items[offset:]
	kept, _ := fit(rest[:min(size, len(rest))], MaxIndexTextBytes)
	switch {
	case len(kept) == 0 && len(rest) > 0:
		kept = rest[:1] // one item larger than a page still makes progress
	case kept == nil:
		kept = []T{} // an empty list is [], not null
	}
	r := &indexResult{Value: kept, Total: total}
	if end := offset + len(kept); end < total {
		r.Next = end
	}
	return r
}

// indexTool declares the common parts of a project-index tool and binds
// its query to the index of a Config.
func indexTool[P, S any](d decl[P, *indexResult, S], query func(ctx context.Context, li *liveIndex, p P) (*indexResult, error)) entry {
	d.Category = ProjectIndex
	d.Permissions = toolspec.ReadFiles
	d.Open = func(cfg Config) (func(context.Context, P) (*indexResult, error), error) {
		path := IndexPath(cfg)
		return func(ctx context.Context, p P) (*indexResult, error) {
			li, err := openIndex(path)
			if err != nil && cfg.BuildIndex && index.IsNoIndex(err) {
				li, err = buildIndex(ctx, cfg.Workspace, path)
			}
			if err != nil {
				return nil, err
			}
			if cfg.WatchIndex {
				if err := li.fresh(ctx); err != nil {
					return nil, fmt.Errorf("bringing the project index up to date: %w", err)
				}
			}
			return query(ctx, li, p)
		}, nil
	}
	return declare(d)
}

const indexTermination = "Set terminate=false when the answer leads to further steps (reading the files it names, another lookup); set terminate=true when the packages, dependencies or symbols listed are themselves the answer to present to the user."

// Parameters of the project-index tools.
type (
	searchQueryParams struct {
		Query string `json:"query" desc:"Words to find, taken as one phrase (quotes and operators are plain text)."`
	}
	packageNameParams struct {
		Name string `json:"name" desc:"The package's exact name: an npm, Cargo or Python name, a Go module path, a Maven groupId:artifactId, a Gradle project name."`
	}
	packageDepsParams struct {
		Name         string `json:"name" desc:"The package's exact name."`
		InternalOnly bool   `json:"internal_only,omitempty" desc:"Only the dependencies on other packages of this repository."`
		pageParams
	}
	dependentsParams struct {
		Name string `json:"name" desc:"The package's exact name."`
		pageParams
	}
	graphParams struct {
		Name  string `json:"name" desc:"The root package's exact name."`
		Depth int    `json:"depth,omitempty" desc:"Levels of dependencies to follow (default 3, at most 20; larger values are clamped)."`
		pageParams
	}
	kindParams struct {
		Kind string `json:"kind,omitempty" enum:"npm,go,cargo,python,maven,gradle" desc:"Only packages of this kind."`
		pageParams
	}
	noParams        struct{}
	searchSymParams struct {
		Query   string `json:"query" desc:"Words to find in symbol names and signatures, taken as one phrase."`
		Package string `json:"package,omitempty" desc:"Only symbols of this package (exact name)."`
		Kind    string `json:"kind,omitempty" desc:"Only symbols of this kind: function, method, class, interface, struct, type, variable, constant, …"`
	}
	packageSymParams struct {
		Package string `json:"package" desc:"The package's exact name."`
		Kind    string `json:"kind,omitempty" desc:"Only symbols of this kind: function, method, class, interface, struct, type, …"`
		pageParams
	}
	getSymbolParams struct {
		Name    string `json:"name" desc:"The symbol's exact name, as written (no qualifier)."`
		Package string `json:"package,omitempty" desc:"Only symbols of this package (exact name)."`
		pageParams
	}
)

// Structured outputs of the project-index tools.
type (
	packagesOutput struct {
		Packages   []index.Package `json:"packages"`
		Omitted    int             `json:"omitted,omitempty" desc:"Packages left out of this structured form by its size bound (the text lists them all)."`
		NextOffset int             `json:"next_offset,omitempty"`
		Message    string          `json:"message,omitempty" desc:"Said instead of results (an empty query)."`
	}
	packageOutput struct {
		Package *index.PackageDetail `json:"package,omitempty"`
		Message string               `json:"message,omitempty" desc:"Said when the package is not found."`
	}
	dependenciesOutput struct {
		Dependencies []index.Dependency `json:"dependencies"`
		Omitted      int                `json:"omitted,omitempty"`
		NextOffset   int                `json:"next_offset,omitempty"`
		Message      string             `json:"message,omitempty"`
	}
	graphOutput struct {
		Edges      []index.Edge `json:"edges"`
		Depth      int          `json:"depth" desc:"The depth followed, after clamping."`
		Omitted    int          `json:"omitted,omitempty"`
		NextOffset int          `json:"next_offset,omitempty"`
		Message    string       `json:"message,omitempty"`
	}
	symbolsOutput struct {
		Symbols    []index.Symbol `json:"symbols"`
		Omitted    int            `json:"omitted,omitempty"`
		NextOffset int            `json:"next_offset,omitempty"`
		Message    string         `json:"message,omitempty"`
	}
)

// boundList is a structured list within MaxStructuredBytes.
func boundList[T any](r *indexResult, wrap func(items []T, omitted int) any) (items []T, omitted int) {
	all, _ := r.Value.([]T)
	if all == nil {
		all = []T{}
	}
	items, omitted = bound(wrap(nil, 0), all)
	return items, omitted
}

func packagesStructured(r *indexResult) packagesOutput {
	items, om := boundList(r, func(p []index.Package, n int) any {
		return packagesOutput{Packages: p, Omitted: n, NextOffset: r.Next, Message: r.Message}
	})
	return packagesOutput{Packages: items, Omitted: om, NextOffset: r.Next, Message: r.Message}
}

func dependenciesStructured(r *indexResult) dependenciesOutput {
	items, om := boundList(r, func(d []index.Dependency, n int) any {
		return dependenciesOutput{Dependencies: d, Omitted: n, NextOffset: r.Next, Message: r.Message}
	})
	return dependenciesOutput{Dependencies: items, Omitted: om, NextOffset: r.Next, Message: r.Message}
}

func symbolsStructured(r *indexResult) symbolsOutput {
	items, om := boundList(r, func(s []index.Symbol, n int) any {
		return symbolsOutput{Symbols: s, Omitted: n, NextOffset: r.Next, Message: r.Message}
	})
	return symbolsOutput{Symbols: items, Omitted: om, NextOffset: r.Next, Message: r.Message}
}

// emptyQuery answers a blank query with the seed's message.
func emptyQuery(q string) (*indexResult, bool) {
	if strings.TrimSpace(q) == "" {
		return &indexResult{Message: index.ErrEmptyQuery.Error()}, true
	}
	return nil, false
}

// notFound is get_package's answer for a name no package has.
func notFound(name string) *indexResult {
	return &indexResult{Message: fmt.Sprintf("Package '%s' not found", name)}
}

var searchPackagesTool = indexTool(decl[searchQueryParams, *indexResult, packagesOutput]{
	Name:        "search_packages",
	Title:       "Search packages",
	Summary:     "Full-text search over the indexed packages' names, descriptions and paths, returning at most 20 as JSON (name, path, kind, version, description, metadata).",
	Description: "Searches the project index's packages (npm, Go, Cargo, Python, Maven, Gradle) by name, description and path, best match first, at most 20, as JSON. The query is one phrase: quotes and operators in it are plain text.",
	Guide:       "Use search_packages to find which package of a monorepo deals with something (\"billing\", \"auth\") or lives under a path; then get_package for its details.",
	Termination: indexTermination,
	Examples:    []example[searchQueryParams]{{"Packages about authentication", searchQueryParams{Query: "auth"}}},
	Structured:  packagesStructured,
}, func(ctx context.Context, li *liveIndex, p searchQueryParams) (*indexResult, error) {
	if r, ok := emptyQuery(p.Query); ok {
		return r, nil
	}
	ps, err := li.db.SearchPackages(ctx, p.Query)
	return &indexResult{Value: ps}, err
})

var getPackageTool = indexTool(decl[packageNameParams, *indexResult, packageOutput]{
	Name:        "get_package",
	Title:       "Get a package",
	Summary:     "A package's full details by exact name: path, kind, version, description, metadata, manifest and dependencies, as JSON.",
	Description: "Looks up one package of the project index by its exact name and returns it as JSON: name, path, kind, version, description, metadata, manifest and its dependencies (name, version, kind, is_internal). A name no package has answers \"Package '<name>' not found\".",
	Guide:       "Use get_package when the package's name is known (from list_packages, search_packages or a dependency list) to see where it lives and what it declares.",
	Termination: indexTermination,
	Examples:    []example[packageNameParams]{{"The details of one package", packageNameParams{Name: "@acme/core"}}},
	Structured: func(r *indexResult) packageOutput {
		out := packageOutput{Message: r.Message}
		if p, ok := r.Value.(*index.PackageDetail); ok {
			c := *p
			c.Dependencies, _ = fit(c.Dependencies, MaxStructuredBytes/2)
			out.Package = &c
		}
		return out
	},
}, func(ctx context.Context, li *liveIndex, p packageNameParams) (*indexResult, error) {
	pkg, err := li.db.Package(ctx, p.Name)
	if err != nil {
		return nil, err
	}
	if pkg == nil {
		return notFound(p.Name), nil
	}
	return &indexResult{Value: pkg}, nil
})

var packageDependenciesTool = indexTool(decl[packageDepsParams, *indexResult, dependenciesOutput]{
	Name:        "package_dependencies",
	Title:       "Package dependencies",
	Summary:     "The dependencies a package declares (name, version, kind: runtime, dev, peer, build, optional; is_internal), all or only those on packages of this repository.",
	Description: "Lists the dependencies the named package declares in its manifest, as JSON: package, name, version requirement, kind (runtime, dev, peer, build, optional) and is_internal (the dependency is another package of this repository). internal_only=true keeps only the internal ones.",
	Guide:       "Use package_dependencies to see what a package needs; internal_only=true shows how it ties into the rest of the monorepo.",
	Termination: indexTermination,
	Examples:    []example[packageDepsParams]{{"What a package uses from the rest of the repository", packageDepsParams{Name: "@acme/web", InternalOnly: true}}},
	Structured:  dependenciesStructured,
}, func(ctx context.Context, li *liveIndex, p packageDepsParams) (*indexResult, error) {
	if ok, err := li.db.HasPackage(ctx, p.Name); err != nil || !ok {
		return notFound(p.Name), err
	}
	ds, err := li.db.Dependencies(ctx, p.Name, p.InternalOnly)
	if err != nil {
		return nil, err
	}
	return page(ds, p.Offset, listPage), nil
})

var packageDependentsTool = indexTool(decl[dependentsParams, *indexResult, dependenciesOutput]{
	Name:        "package_dependents",
	Title:       "Package dependents",
	Summary:     "The packages of this repository that declare a dependency on the named package (reverse dependencies).",
	Description: "Lists every indexed package declaring a dependency on the given name (a package of this repository or an external one), as JSON: package (the dependent), name, version requirement, kind and is_internal.",
	Guide:       "Use package_dependents before changing a package's API, to see which packages of the repository use it, or to find who uses an external library.",
	Termination: indexTermination,
	Examples:    []example[dependentsParams]{{"Who depends on the core package", dependentsParams{Name: "@acme/core"}}},
	Structured:  dependenciesStructured,
}, func(ctx context.Context, li *liveIndex, p dependentsParams) (*indexResult, error) {
	ds, err := li.db.Dependents(ctx, p.Name)
	if err != nil {
		return nil, err
	}
	return page(ds, p.Offset, listPage), nil
})

var dependencyGraphTool = indexTool(decl[graphParams, *indexResult, graphOutput]{
	Name:        "dependency_graph",
	Title:       "Dependency graph",
	Summary:     "The transitive dependencies of a package, breadth-first to a depth (default 3, clamped to 20), as edges {from, to, dep_kind}.",
	Description: "Walks the dependencies of the named package breadth-first, following those that are packages of this repository, up to depth levels (default 3, at most 20: larger values are clamped), and returns each edge once as JSON: from, to, dep_kind.",
	Guide:       "Use dependency_graph to see everything a package pulls in through the monorepo, or how two packages are connected.",
	Termination: indexTermination,
	Examples:    []example[graphParams]{{"Two levels of a package's dependencies", graphParams{Name: "@acme/web", Depth: 2}}},
	Structured: func(r *indexResult) graphOutput {
		depth := 0
		if m, ok := r.Value.(graphValue); ok {
			depth = m.depth
			r = &indexResult{Message: r.Message, Value: m.edges, Total: r.Total, Next: r.Next}
		}
		items, om := boundList(r, func(e []index.Edge, n int) any {
			return graphOutput{Edges: e, Depth: depth, Omitted: n, NextOffset: r.Next, Message: r.Message}
		})
		return graphOutput{Edges: items, Depth: depth, Omitted: om, NextOffset: r.Next, Message: r.Message}
	},
}, func(ctx context.Context, li *liveIndex, p graphParams) (*indexResult, error) {
	if ok, err := li.db.HasPackage(ctx, p.Name); err != nil || !ok {
		return notFound(p.Name), err
	}
	es, err := li.db.DependencyGraph(ctx, p.Name, p.Depth)
	if err != nil {
		return nil, err
	}
	r := page(es, p.Offset, listPage)
	r.Value = graphValue{edges: r.Value.([]index.Edge), depth: index.ClampDepth(p.Depth)}
	return r, nil
})

// graphValue is dependency_graph's answer: its edges and the depth used.
type graphValue struct {
	edges []index.Edge
	depth int
}

// MarshalJSON writes the edges, the answer the seed asks for.
func (g graphValue) MarshalJSON() ([]byte, error) { return json.Marshal(g.edges) }

var listPackagesTool = indexTool(decl[kindParams, *indexResult, packagesOutput]{
	Name:        "list_packages",
	Title:       "List packages",
	Summary:     "Every indexed package ordered by name, or only those of one kind (npm, go, cargo, python, maven, gradle), as JSON.",
	Description: "Lists the packages of the project index ordered by name, as JSON {name, path, kind, version, description, metadata}; kind keeps only npm, go, cargo, python, maven or gradle packages.",
	Guide:       "Use list_packages for an overview of a monorepo's packages, or of one ecosystem's (kind).",
	Termination: indexTermination,
	Examples:    []example[kindParams]{{"Every package", kindParams{}}, {"Only the Go modules", kindParams{Kind: "go"}}},
	Structured:  packagesStructured,
}, func(ctx context.Context, li *liveIndex, p kindParams) (*indexResult, error) {
	ps, err := li.db.Packages(ctx, p.Kind)
	if err != nil {
		return nil, err
	}
	return page(ps, p.Offset, listPage), nil
})

var indexStatusTool = indexTool(decl[noParams, *indexResult, index.Status]{
	Name:        "index_status",
	Title:       "Index status",
	Summary:     "When the project index was built, from which git commit, its package count, and the files updated since.",
	Description: "Returns the project index's metadata as JSON: indexed_at (last full build, UTC RFC 3339), git_commit (at the last update; \"\" outside git), package_count, files_changed (files updated since indexed_at) and updating (changes being applied).",
	Guide:       "Use index_status to judge how current the index is before relying on it.",
	Termination: indexTermination,
	Examples:    []example[noParams]{{"How fresh the index is", noParams{}}},
	Structured: func(r *indexResult) index.Status {
		if s, ok := r.Value.(*index.Status); ok {
			return *s
		}
		return index.Status{}
	},
}, func(ctx context.Context, li *liveIndex, _ noParams) (*indexResult, error) {
	s, err := li.db.Status(ctx)
	if err != nil {
		return nil, err
	}
	s.Updating = li.updating()
	return &indexResult{Value: s}, nil
})

var searchSymbolsTool = indexTool(decl[searchSymParams, *indexResult, symbolsOutput]{
	Name:        "search_symbols",
	Title:       "Search symbols",
	Summary:     "Full-text search over the indexed symbols' names and signatures, at most 50, optionally in one package or of one kind, as JSON.",
	Description: "Searches the project index's symbols (functions, methods, classes, types, …) by name and signature, best match first, at most 50, as JSON with each one's signature, file and line; package and kind narrow the search. The query is one phrase.",
	Guide:       "Use search_symbols to find where something is defined across the repository without knowing its exact name; package and kind narrow it; get_symbol when the exact name is known.",
	Termination: indexTermination,
	Examples:    []example[searchSymParams]{{"Functions about parsing in one package", searchSymParams{Query: "parse", Package: "example.com/shop/api", Kind: "function"}}},
	Structured:  symbolsStructured,
}, func(ctx context.Context, li *liveIndex, p searchSymParams) (*indexResult, error) {
	if r, ok := emptyQuery(p.Query); ok {
		return r, nil
	}
	ss, err := li.db.SearchSymbols(ctx, p.Query, p.Package, p.Kind)
	return &indexResult{Value: ss}, err
})

var getPackageSymbolsTool = indexTool(decl[packageSymParams, *indexResult, symbolsOutput]{
	Name:        "get_package_symbols",
	Title:       "Package symbols",
	Summary:     "Every symbol of a package ordered by file path then line, optionally of one kind, as JSON.",
	Description: "Lists the symbols of the named package (its files, down to the next package) ordered by file_path then line, as JSON; kind keeps one kind (function, method, class, …). A long list comes in pages.",
	Guide:       "Use get_package_symbols for a package's outline: its types and functions file by file; kind=class or kind=function for one sort.",
	Termination: indexTermination,
	Examples:    []example[packageSymParams]{{"The classes of a package", packageSymParams{Package: "@acme/core", Kind: "class"}}},
	Structured:  symbolsStructured,
}, func(ctx context.Context, li *liveIndex, p packageSymParams) (*indexResult, error) {
	ss, err := li.db.PackageSymbols(ctx, p.Package, p.Kind)
	if err != nil {
		return nil, err
	}
	return page(ss, p.Offset, listPage), nil
})

var getSymbolTool = indexTool(decl[getSymbolParams, *indexResult, symbolsOutput]{
	Name:        "get_symbol",
	Title:       "Get a symbol",
	Summary:     "Every symbol with an exact name, optionally in one package, with its signature, file and line, as JSON.",
	Description: "Looks up the symbols named exactly name in the project index (all of them, or those of package), as JSON with each one's signature, file and line.",
	Guide:       "Use get_symbol to jump to a definition by name: its file, line and signature; package picks one package's when several define it.",
	Termination: indexTermination,
	Examples:    []example[getSymbolParams]{{"Where a type is defined", getSymbolParams{Name: "Server"}}, {"A function of one package", getSymbolParams{Name: "NewServer", Package: "example.com/shop/api"}}},
	Structured:  symbolsStructured,
}, func(ctx context.Context, li *liveIndex, p getSymbolParams) (*indexResult, error) {
	ss, err := li.db.Symbols(ctx, p.Name, p.Package)
	if err != nil {
		return nil, err
	}
	return page(ss, p.Offset, listPage), nil
})
