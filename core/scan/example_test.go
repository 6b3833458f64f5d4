package scan_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"testing/fstest"

	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/scan"
	"github.com/loupe-dev/loupe/core/search"
)

// Scan a folder with its project's rules, as `loupe scan` does: the files
// are scanned in parallel and delivered in path order, each with its
// findings; an `ast-grep-ignore` comment suppresses one.
func ExampleScan() {
	dir, err := os.MkdirTemp("", "scan")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, fstest.MapFS{
		"sgconfig.yml":         {Data: []byte("ruleDirs: [rules]\n")},
		"rules/no-console.yml": {Data: []byte("id: no-console\nlanguage: ts\nseverity: warning\nmessage: drop the logging of $A\nrule: {pattern: console.log($A)}\n")},
		"src/b.ts":             {Data: []byte("console.log(b);\n// ast-grep-ignore: no-console\nconsole.log(c);\n")},
		"src/a.ts":             {Data: []byte("export function f(a: number) {\n  console.log(a);\n  return a;\n}\n")},
		"src/c.ts":             {Data: []byte("// ast-grep-ignore: no-console\nexport const c = 1;\n")},
		"src/d.ts":             {Data: []byte("export const d = 1;\n")},
	}); err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	p, err := project.Find("", dir)
	if err != nil {
		log.Fatal(err)
	}
	configs, err := p.LoadRules(ctx)
	if err != nil {
		log.Fatal(err)
	}
	rs := scan.NewRules(configs, p.Dir, rule.SeverityHint) // unused suppressions are hints
	opts := search.Options{Root: p.Dir, LangGlobs: p.LanguageGlobs}
	// render runs on the worker goroutines, deliver on this one, in path order.
	render := func(f scan.File) (scan.File, int64) { return f, f.Tree.Bytes() }
	stats, err := scan.Scan(ctx, rs, opts, render, func(f scan.File) error {
		for _, fd := range f.Findings {
			fmt.Printf("%s:%d: %s: %s\n", f.Path, fd.Node.StartPoint().Row+1,
				fd.Config.ID, fd.Config.RenderMessage(fd.Node, fd.Env))
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d files parsed, %d ruled out unparsed\n", stats.Searched, stats.Prefiltered)
	// Output:
	// src/a.ts:2: no-console: drop the logging of a
	// src/b.ts:1: no-console: drop the logging of b
	// src/c.ts:1: unused-suppression: Unused 'ast-grep-ignore' directive.
	// 3 files parsed, 1 ruled out unparsed
}

// Scan source that is not on disk (an editor's buffer, standard input)
// with rules that have fixes, and apply every fix, as `loupe scan
// --update-all` does for a file.
func ExampleFix() {
	ctx := context.Background()
	configs, err := rule.ParseConfigs(ctx, []byte(`
id: no-console
language: ts
rule: {pattern: console.log($A)}
fix: logger.debug($A)
`), rule.Options{})
	if err != nil {
		log.Fatal(err)
	}
	rs := scan.NewRules(configs, ".", "") // "": no unused-suppression report
	src := []byte("console.log(a);\nif (ok) console.log(b + 1);\nconsole.error(c);\n")
	f, err := scan.Source(ctx, rs, configs[0].Language, src)
	if err != nil {
		log.Fatal(err)
	}
	fixed, applied, err := scan.Fix(src, f.Findings)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d findings, %d fixed:\n%s", len(f.Findings), applied, fixed)
	// Output:
	// 2 findings, 2 fixed:
	// logger.debug(a);
	// if (ok) logger.debug(b + 1);
	// console.error(c);
}
