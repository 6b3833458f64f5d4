package project_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"testing/fstest"

	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rule"
)

// Find an ast-grep project from a folder inside it, as `loupe scan` does,
// load its rules and select the ones to run: a filter on ids and a
// severity override, the --filter and --error flags of the CLI.
func ExampleFind() {
	dir, err := os.MkdirTemp("", "project")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, fstest.MapFS{
		"sgconfig.yml":           {Data: []byte("ruleDirs: [rules]\n")},
		"rules/no-console.yml":   {Data: []byte("id: no-console\nlanguage: ts\nseverity: warning\nrule: {pattern: console.log($$$A)}\n")},
		"rules/no-debugger.yml":  {Data: []byte("id: no-debugger\nlanguage: ts\nrule: {kind: debugger_statement}\n")}, // no severity: hint, ast-grep's default
		"rules/python/print.yml": {Data: []byte("id: no-print\nlanguage: python\nrule: {pattern: print($$$A)}\n")},
		"src/app/main.ts":        {Data: []byte("debugger;\n")},
	}); err != nil {
		log.Fatal(err)
	}
	p, err := project.Find("", filepath.Join(dir, "src", "app")) // walks up to sgconfig.yml
	if err != nil {
		log.Fatal(err)
	}
	all, err := p.LoadRules(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range all {
		fmt.Printf("rule %s (%s, %s)\n", c.ID, c.Language.Name(), c.Severity)
	}
	selected, err := project.Select(all, project.Selection{
		Filter:     regexp.MustCompile("^no-(console|debugger)$"),
		Severities: project.Severities{ByID: map[string]rule.Severity{"no-console": rule.SeverityError}},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range selected {
		fmt.Printf("selected %s (%s)\n", c.ID, c.Severity)
	}
	// Output:
	// rule no-console (typescript, warning)
	// rule no-debugger (typescript, hint)
	// rule no-print (python, hint)
	// selected no-console (error)
	// selected no-debugger (hint)
}
