package ruletest_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"testing/fstest"

	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/ruletest"
)

// Run a project's rule tests as `loupe test` does, accept the snapshots of
// the invalid snippets (`--update-all`), and run them again.
func ExampleVerify() {
	dir, err := os.MkdirTemp("", "ruletest")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, fstest.MapFS{
		"sgconfig.yml":          {Data: []byte("ruleDirs: [rules]\ntestConfigs: [{testDir: tests}]\n")},
		"rules/no-var.yml":      {Data: []byte("id: no-var\nlanguage: js\nrule: {pattern: var $A = $B}\nfix: let $A = $B\n")},
		"tests/no-var-test.yml": {Data: []byte("id: no-var\nvalid: ['let a = 1']\ninvalid: ['var b = 2']\n")},
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
	rules := map[string]*rule.Config{}
	for _, cfg := range configs {
		rules[cfg.ID] = cfg
	}
	for run := 1; run <= 2; run++ {
		cases, snaps, err := ruletest.Read(ruletest.Dirs(p), nil, func(string) {})
		if err != nil {
			log.Fatal(err)
		}
		for _, c := range cases {
			var baseline map[string]ruletest.Snapshot
			if sf := snaps[c.ID]; sf != nil { // nil: no snapshot file yet
				baseline = sf.Snapshots
			}
			statuses, err := ruletest.Verify(ctx, rules[c.ID], c, baseline, true)
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("run %d: %s passed %t: ", run, c.ID, ruletest.Passed(statuses))
			for i, st := range statuses {
				fmt.Printf("%c", st.Kind) // as ast-grep test letters it
				if st.Kind == ruletest.Wrong {
					statuses[i].Kind = ruletest.Updated // accept it
				}
			}
			fmt.Println()
			if err := ruletest.WriteSnapshots(c, statuses, snaps[c.ID]); err != nil {
				log.Fatal(err)
			}
		}
	}
	snapshot, err := os.ReadFile(filepath.Join(dir, "tests", "__snapshots__", "no-var-snapshot.yml"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(snapshot))
	// Output:
	// run 1: no-var passed false: .W
	// run 2: no-var passed true: ..
	// id: no-var
	// snapshots:
	//   var b = 2:
	//     fixed: let b = 2
	//     labels:
	//     - source: var b = 2
	//       style: primary
	//       start: 0
	//       end: 9
}
