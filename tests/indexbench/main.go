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
	var latencies []string
	for _, dir := range flag.Args() {
		row, lat, err := bench(dir, *calls)
		if err != nil {
			log.Fatalf("%s: %v", dir, err)
		}
		fmt.Println(row)
		latencies = append(latencies, lat...)
	}
	fmt.Println()
	fmt.Println("| repository | tool | p50 | p95 |")
	fmt.Println("|---|---|---:|---:|")
	for _, l := range latencies {
		fmt.Println(l)
	}
}

func bench(dir string, calls int) (string, []string, error) {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "indexbench-")
	if err != nil {
		return "", nil, err
	}
	defer os.RemoveAll(tmp)
	root := filepath.Join(tmp, filepath.Base(dir))
	if err := os.CopyFS(root, os.DirFS(dir)); err != nil {
		return "", nil, fmt.Errorf("copying: %w", err)
	}
	st, err := index.Build(ctx, index.Options{Root: root})
	if err != nil {
		return "", nil, err
	}
	fi, err := os.Stat(st.DB)
	if err != nil {
		return "", nil, err
	}
	db, err := index.Open(st.DB)
	if err != nil {
		return "", nil, err
	}
	defer db.Close()
	pkgs, err := db.Packages(ctx, "")
	if err != nil {
		return "", nil, err
	}
	// The first package with symbols, and one of its symbols' names.
	var pkg, sym, file string
	for _, p := range pkgs {
		if ss, _ := db.PackageSymbols(ctx, p.Name, ""); len(ss) > 0 {
			pkg, sym, file = p.Name, ss[len(ss)/2].Name, ss[len(ss)/2].FilePath
			break
		}
	}
	if file == "" {
		return "", nil, fmt.Errorf("no symbols indexed")
	}
	// One source file changes: a function appended.
	f, err := os.OpenFile(filepath.Join(root, file), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return "", nil, err
	}
	fmt.Fprintln(f, "\n// changed by indexbench")
	f.Close()
	re, err := index.Build(ctx, index.Options{Root: root})
	if err != nil {
		return "", nil, err
	}
	name := filepath.Base(dir)
	row := fmt.Sprintf("| %s | %d | %d | %d | %.1f s | %.1f MB | %d ms (%d) |", name, st.Files, st.Packages, st.Symbols,
		st.Duration.Seconds(), float64(fi.Size())/(1<<20), re.Duration.Milliseconds(), re.Parsed)

	ts, err := tools.New(tools.Config{Workspace: root})
	if err != nil {
		return "", nil, err
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
	var lat []string
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
				return "", nil, fmt.Errorf("%s: %w", t.Name, err)
			}
			ds = append(ds, time.Since(start))
		}
		slices.Sort(ds)
		lat = append(lat, fmt.Sprintf("| %s | %s | %.2f ms | %.2f ms |", name, t.Name,
			float64(ds[len(ds)/2].Microseconds())/1000, float64(ds[len(ds)*95/100].Microseconds())/1000))
	}
	return row, lat, nil
}
