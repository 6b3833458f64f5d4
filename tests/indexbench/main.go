//go:build !js

// Command indexbench measures the project index (make bench-index) on
// real repositories: for each directory given, it copies the tree to a
// temporary directory, builds the index there, rebuilds it after one
// source file changes, and times each of the ten project-index tools
// through the registry. It prints one Markdown table row per repository
// and one per tool.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/index"
	"github.com/loupe-dev/loupe/tools"
)

func main() {
	calls := flag.Int("calls", 100, "calls of each tool timed")
	flag.Parse()
	if flag.NArg() == 0 {
		log.Fatal("usage: indexbench [-calls N] DIR...")
	}
	fmt.Println("| repository | files | packages | symbols | build | DB size | rebuild after one change (parsed) |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	var latencies, fresh []string
	for _, dir := range flag.Args() {
		row, lat, fr, err := bench(dir, *calls)
		if err != nil {
			log.Fatalf("%s: %v", dir, err)
		}
		fmt.Println(row)
		latencies = append(latencies, lat...)
		fresh = append(fresh, fr)
	}
	fmt.Println()
	fmt.Println("Wall time, then the process's CPU time (what it costs on an idle machine, parallel parsing aside).")
	fmt.Println()
	fmt.Println("| repository | one file through Update (a write tool) | one file through the watcher | 100 files through the watcher | stat pass (Poll), nothing changed | stat pass, one file changed | directories watched |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for _, f := range fresh {
		fmt.Println(f)
	}
	fmt.Println()
	fmt.Println("| repository | tool | p50 | p95 |")
	fmt.Println("|---|---|---:|---:|")
	for _, l := range latencies {
		fmt.Println(l)
	}
}

func bench(dir string, calls int) (row string, lat []string, fresh string, err error) {
	row, lat, root, pkg, file, cleanup, err := benchBuild(dir, calls)
	if err != nil {
		return "", nil, "", err
	}
	defer cleanup()
	fresh, err = benchFresh(root, pkg, file)
	return row, lat, fresh, err
}

// benchFresh measures how soon changes reach the index: one file through
// Update (what the write tools do), one and 100 files changed by others
// through the watcher (from the first write to the last symbol visible),
// and a stat pass over an unchanged tree.
func benchFresh(root, pkg, file string) (string, error) {
	ctx := context.Background()
	u, err := index.NewUpdater(index.Options{Root: root})
	if err != nil {
		return "", err
	}
	defer u.Close()
	db, err := index.Open(index.DefaultPath(root))
	if err != nil {
		return "", err
	}
	defer db.Close()
	ext := filepath.Ext(file)
	body := func(name string) string {
		switch ext {
		case ".go":
			return "\nfunc " + name + "() {}\n"
		case ".rs":
			return "\npub fn " + name + "() {}\n"
		case ".py":
			return "\ndef " + name + "():\n    pass\n"
		}
		return "\nexport function " + name + "() {}\n"
	}
	appendTo := func(rel, name string) error {
		f, err := os.OpenFile(filepath.Join(root, rel), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteString(body(name))
		return err
	}
	visible := func(name string) bool {
		ss, err := db.Symbols(ctx, name, "")
		return err == nil && len(ss) > 0
	}
	// One file through Update.
	if err := appendTo(file, "LoupeBenchUpdate"); err != nil {
		return "", err
	}
	m := meter()
	if _, err := u.Update(ctx, []string{file}); err != nil {
		return "", err
	}
	one := m()
	if !visible("LoupeBenchUpdate") {
		return "", fmt.Errorf("the update of %s is not visible", file)
	}
	// 100 source files of the package's kind.
	ss, err := db.PackageSymbols(ctx, pkg, "")
	if err != nil {
		return "", err
	}
	var files []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s.FilePath] && filepath.Ext(s.FilePath) == ext {
			seen[s.FilePath] = true
			files = append(files, s.FilePath)
		}
	}
	if len(files) < 100 {
		// Not enough in one package: any indexed files of the kind.
		pkgs, err := db.Packages(ctx, "")
		if err != nil {
			return "", err
		}
		for _, p := range pkgs {
			ps, _ := db.PackageSymbols(ctx, p.Name, "")
			for _, s := range ps {
				if !seen[s.FilePath] && filepath.Ext(s.FilePath) == ext && len(files) < 100 {
					seen[s.FilePath] = true
					files = append(files, s.FilePath)
				}
			}
			if len(files) >= 100 {
				break
			}
		}
	}
	files = files[:min(len(files), 100)]
	w, err := index.Watch(u, nil)
	if err != nil {
		return "", err
	}
	defer w.Close()
	waitVisible := func(names ...string) {
		for {
			applied := u.Applied()
			ok := true
			for _, n := range names {
				if !visible(n) {
					ok = false
					break
				}
			}
			if ok {
				return
			}
			<-applied
		}
	}
	m = meter()
	if err := appendTo(file, "LoupeBenchWatch"); err != nil {
		return "", err
	}
	waitVisible("LoupeBenchWatch")
	watchOne := m()
	var names []string
	m = meter()
	for i, f := range files {
		n := fmt.Sprintf("LoupeBenchMany%d", i)
		names = append(names, n)
		if err := appendTo(f, n); err != nil {
			return "", err
		}
	}
	waitVisible(names...)
	watchMany := m()
	watched := w.Watched()
	if err := w.Close(); err != nil {
		return "", err
	}
	if _, err := u.Poll(ctx); err != nil { // the first pass: a refresh
		return "", err
	}
	m = meter()
	if _, err := u.Poll(ctx); err != nil {
		return "", err
	}
	stat := m()
	if err := appendTo(file, "LoupeBenchPoll"); err != nil {
		return "", err
	}
	m = meter()
	if _, err := u.Poll(ctx); err != nil {
		return "", err
	}
	statOne := m()
	if !visible("LoupeBenchPoll") {
		return "", fmt.Errorf("the stat pass missed %s", file)
	}
	return fmt.Sprintf("| %s | %s | %s | %s (%d files) | %s | %s | %d |", filepath.Base(root), one, watchOne, watchMany, len(files), stat, statOne, watched), nil
}

// measured is an operation's wall and CPU time.
type measured struct{ wall, cpu time.Duration }

func (m measured) String() string {
	return fmt.Sprintf("%d ms, CPU %d ms", m.wall.Milliseconds(), m.cpu.Milliseconds())
}

// meter starts measuring; call what it returns at the end.
func meter() func() measured {
	start, cpu := time.Now(), cpuTime()
	return func() measured { return measured{time.Since(start), cpuTime() - cpu} }
}

// benchBuild builds the index of a copy of dir, rebuilds it after one
// change and times the tools; the copy (root) stays for benchFresh until
// cleanup. pkg is a package with symbols, file one of its files.
func benchBuild(dir string, calls int) (row string, lat []string, root, pkg, file string, cleanup func(), err error) {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "indexbench-")
	if err != nil {
		return "", nil, "", "", "", nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	root = filepath.Join(tmp, filepath.Base(dir))
	if err := os.CopyFS(root, os.DirFS(dir)); err != nil {
		return "", nil, "", "", "", nil, fmt.Errorf("copying: %w", err)
	}
	st, err := index.Build(ctx, index.Options{Root: root})
	if err != nil {
		return "", nil, "", "", "", nil, err
	}
	fi, err := os.Stat(st.DB)
	if err != nil {
		return "", nil, "", "", "", nil, err
	}
	db, err := index.Open(st.DB)
	if err != nil {
		return "", nil, "", "", "", nil, err
	}
	defer db.Close()
	pkgs, err := db.Packages(ctx, "")
	if err != nil {
		return "", nil, "", "", "", nil, err
	}
	// The first package with symbols, and one of its symbols' names.
	var sym string
	for _, p := range pkgs {
		if ss, _ := db.PackageSymbols(ctx, p.Name, ""); len(ss) > 0 {
			pkg, sym, file = p.Name, ss[len(ss)/2].Name, ss[len(ss)/2].FilePath
			break
		}
	}
	if file == "" {
		return "", nil, "", "", "", nil, fmt.Errorf("no symbols indexed")
	}
	// One source file changes: a function appended.
	f, err := os.OpenFile(filepath.Join(root, file), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return "", nil, "", "", "", nil, err
	}
	fmt.Fprintln(f, "\n// changed by indexbench")
	f.Close()
	re, err := index.Build(ctx, index.Options{Root: root})
	if err != nil {
		return "", nil, "", "", "", nil, err
	}
	name := filepath.Base(dir)
	row = fmt.Sprintf("| %s | %d | %d | %d | %.1f s | %.1f MB | %d ms (%d) |", name, st.Files, st.Packages, st.Symbols,
		st.Duration.Seconds(), float64(fi.Size())/(1<<20), re.Duration.Milliseconds(), re.Parsed)

	ts, err := tools.New(tools.Config{Workspace: root})
	if err != nil {
		return "", nil, "", "", "", nil, err
	}
	word := strings.ToLower(sym)
	if len(word) > 6 {
		word = word[:6]
	}
	params := map[string]any{
		"search_packages":      map[string]any{"query": strings.Split(strings.Trim(pkg, "@/"), "/")[0]},
		"get_package":          map[string]any{"name": pkg},
		"package_dependencies": map[string]any{"name": pkg},
		"package_dependents":   map[string]any{"name": pkg},
		"dependency_graph":     map[string]any{"name": pkg, "depth": 20},
		"list_packages":        map[string]any{},
		"index_status":         map[string]any{},
		"search_symbols":       map[string]any{"query": word},
		"get_package_symbols":  map[string]any{"package": pkg},
		"get_symbol":           map[string]any{"name": sym},
	}
	for _, t := range ts {
		p, ok := params[t.Name]
		if !ok {
			continue
		}
		raw, _ := json.Marshal(p)
		var ds []time.Duration
		for range calls {
			start := time.Now()
			if _, err := t.Call(ctx, raw); err != nil {
				return "", nil, "", "", "", nil, fmt.Errorf("%s: %w", t.Name, err)
			}
			ds = append(ds, time.Since(start))
		}
		slices.Sort(ds)
		lat = append(lat, fmt.Sprintf("| %s | %s | %.2f ms | %.2f ms |", name, t.Name,
			float64(ds[len(ds)/2].Microseconds())/1000, float64(ds[len(ds)*95/100].Microseconds())/1000))
	}
	return row, lat, root, pkg, file, func() { os.RemoveAll(tmp) }, nil
}
