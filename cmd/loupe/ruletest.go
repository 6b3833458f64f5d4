package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/loupe-dev/loupe/core/printer"
	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/ruletest"
)

func init() {
	register(&command{
		name:    "test",
		summary: "Test rules against their valid and invalid cases",
		run:     runRuleTest,
	})
}

type testOptions struct {
	config, testDir, snapshotDir string
	customLangs                  *flagSpec // --custom-languages
	skipSnapshots, updateAll     bool
	interactive                  bool // -i: review each failing case, accepting snapshots one by one
	includeOff                   bool
	filter                       *regexp.Regexp
	colour                       bool
}

func parseTestFlags(e *env, args []string) (*testOptions, bool, error) {
	fs := newFlagSet("test")
	config := fs.String('c', "config", "CONFIG_FILE", "The project configuration file (default: the sgconfig.yml found upwards)")
	customLangs := addCustomLanguagesFlag(fs)
	testDir := fs.String('t', "test-dir", "TEST_DIR", "Read test cases from TEST_DIR instead of sgconfig's testConfigs")
	snapDir := fs.String(0, "snapshot-dir", "SNAPSHOT_DIR", "Folder of the snapshots, relative to the test folder (default: __snapshots__)")
	skip := fs.Bool(0, "skip-snapshot-tests", "Only check that valid cases do not match and invalid ones do")
	update := fs.Bool('U', "update-all", "Accept every changed snapshot")
	interactive := fs.Bool('i', "interactive", "Review each failing case in the terminal, accepting or skipping each changed snapshot")
	filter := fs.String('f', "filter", "REGEX", "Test only the rules whose ids match REGEX")
	includeOff := fs.Bool(0, "include-off", "Also test rules with severity off")
	fs.Bool(0, "follow", "Follow symbolic links")
	colour := fs.String(0, "color", "WHEN", "When to use colours: auto (default), always, ansi, never").choose(colourChoices...)
	help := fs.Bool('h', "help", "Print help")
	if err := fs.Parse(args); err != nil {
		return nil, false, err
	}
	if help.set {
		var b strings.Builder
		b.WriteString("Test rules against their valid and invalid cases (ast-grep's `test`)\n\n")
		b.WriteString("Usage: loupe test [OPTIONS]\n\nOptions:\n")
		fs.usage(&b)
		b.WriteString("\nExit status: 0 when every test passes, 1 when one fails, 2 on errors.\n")
		fmt.Fprint(e.stdout, b.String())
		return nil, true, nil
	}
	if len(fs.args) > 0 {
		return nil, false, fmt.Errorf("unexpected argument '%s'", fs.args[0])
	}
	switch {
	case skip.set && update.set:
		return nil, false, errors.New("the argument '--skip-snapshot-tests' cannot be used with '--update-all'")
	}
	o := &testOptions{
		config: config.value, customLangs: customLangs, testDir: testDir.value, snapshotDir: snapDir.value,
		skipSnapshots: skip.set, updateAll: update.set && !interactive.set, includeOff: includeOff.set,
		interactive: interactive.set,
		colour:      useColour(colour.value, e),
	}
	if filter.set {
		re, err := regexp.Compile(filter.value)
		if err != nil {
			return nil, false, fmt.Errorf("invalid value '%s' for '--filter <REGEX>': %v", filter.value, err)
		}
		o.filter = re
	}
	return o, false, nil
}

func runRuleTest(ctx context.Context, e *env, args []string) int {
	o, done, err := parseTestFlags(e, args)
	if err != nil {
		return e.errorf("%v", err)
	}
	if done {
		return exitMatch
	}
	warn := func(msg string) { fmt.Fprintf(e.stderr, "Warning: %s\n", msg) }
	proj, err := project.Find(o.config, ".")
	if errors.Is(err, project.ErrNotFound) {
		return e.noProject()
	}
	if err != nil {
		return e.errorf("%v", err)
	}
	applyCustomLanguages(o.customLangs, proj)
	checkCustomLanguages(ctx, e, proj)
	cfgs, err := proj.LoadRules(ctx)
	printProjectWarnings(e, proj)
	if err != nil {
		return e.errorf("%v", err)
	}
	rules := map[string]*rule.Config{}
	for _, c := range cfgs {
		if o.filter != nil && !o.filter.MatchString(c.ID) {
			continue
		}
		if c.Severity == rule.SeverityOff && !o.includeOff {
			continue
		}
		rules[c.ID] = c
	}
	dirs := ruletest.Dirs(proj)
	if o.testDir != "" {
		wd, err := os.Getwd()
		if err != nil {
			return e.errorf("%v", err)
		}
		dirs = []project.TestConfig{{TestDir: filepath.Join(wd, o.testDir), SnapshotDir: o.snapshotDir}}
	}
	cases, snaps, err := ruletest.Read(dirs, o.filter, warn)
	if err != nil {
		return e.errorf("%v", err)
	}
	var out io.Writer = e.stdout
	var review *session
	if o.interactive {
		// An interactive session buffers the output, flushing it before
		// each question.
		bw := bufio.NewWriter(e.stdout)
		defer bw.Flush()
		out = bw
		if review, err = newSession(e, bw, printer.Palette{}); err != nil {
			return e.errorf("%v", err)
		}
		defer review.close()
	}
	fmt.Fprintf(out, "Running %d tests\n", len(cases))
	type result struct {
		c        ruletest.Case
		statuses []ruletest.Status
	}
	var results []result
	for _, c := range cases {
		cfg := rules[c.ID]
		if cfg == nil {
			fmt.Fprintf(out, "Configuration not found! %s\n", c.ID)
			continue
		}
		var snap map[string]ruletest.Snapshot
		if !o.skipSnapshots {
			if s, ok := snaps[c.ID]; ok {
				snap = s.Snapshots
			}
		}
		statuses, err := ruletest.Verify(ctx, cfg, c, snap, !o.skipSnapshots)
		if err != nil {
			return e.errorf("%v", err)
		}
		results = append(results, result{c, statuses})
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "----------- Case Details -----------")
details:
	for i := range results {
		r := &results[i]
		if ruletest.Passed(r.statuses) {
			continue
		}
		for j := range r.statuses {
			if review != nil {
				switch err := review.snapshot(r.c.ID, &r.statuses[j]); {
				case errors.Is(err, errQuit):
					break details
				case err != nil:
					return e.errorf("%v", err)
				}
				continue
			}
			if o.updateAll && r.statuses[j].Kind == ruletest.Wrong {
				r.statuses[j].Kind = ruletest.Updated
			}
			reportDetail(out, r.c.ID, r.statuses[j])
		}
	}
	if (o.updateAll || o.interactive) && !o.skipSnapshots {
		for _, r := range results {
			if err := ruletest.WriteSnapshots(r.c, r.statuses, snaps[r.c.ID]); err != nil {
				return e.errorf("%v", err)
			}
		}
	}
	passedN, failedN := 0, 0
	for _, r := range results {
		status := "PASS"
		switch {
		case len(r.statuses) == 0:
			status = "SKIP"
		case !ruletest.Passed(r.statuses):
			status = "FAIL"
		}
		if ruletest.Passed(r.statuses) {
			passedN++
		} else {
			failedN++
		}
		fmt.Fprintf(out, "%s %s  %s\n", status, r.c.ID, summary(r.statuses))
	}
	fmt.Fprintln(out)
	if review != nil {
		if err := review.out.Flush(); err != nil {
			return e.errorf("write output: %v", err)
		}
	}
	if failedN > 0 {
		fmt.Fprintf(e.stderr, "Error: test failed. %d passed; %d failed;\n", passedN, failedN)
		snapshotsOnly := true
		for _, r := range results {
			snapshotsOnly = snapshotsOnly && ruletest.SnapshotsOnly(r.statuses)
		}
		if snapshotsOnly {
			fmt.Fprintln(e.stderr, "Help: Test failed due to mismatching snapshots. Run with `--update-all` to update all snapshots, or `--interactive` to update selectively.")
			fmt.Fprint(e.stderr, "See also: https://ast-grep.github.io/guide/test-rule.html\n\n")
		} else {
			fmt.Fprintln(e.stderr, "Help: You can use ast-grep playground to debug your rules and test cases.")
			fmt.Fprint(e.stderr, "See also: https://ast-grep.github.io/playground.html\n\n")
		}
		return exitNoMatch
	}
	ok := "ok"
	if o.colour {
		ok = printer.Style{Fg: printer.Green}.Paint("ok")
	}
	fmt.Fprintf(out, "test result: %s. %d passed; %d failed;\n", ok, passedN, failedN)
	return exitMatch
}

// summary is one letter per case, or counts for more than 40 cases.
func summary(ss []ruletest.Status) string {
	if len(ss) <= 40 {
		var b strings.Builder
		for _, s := range ss {
			b.WriteByte(byte(s.Kind))
		}
		return b.String()
	}
	names := []struct {
		kind  ruletest.Kind
		label string
	}{{ruletest.Pass, "Pass"}, {ruletest.Updated, "Updated"}, {ruletest.Wrong, "Wrong"}, {ruletest.Missing, "Missing"}, {ruletest.Noisy, "Noisy"}, {ruletest.Error, "Error"}}
	var parts []string
	for _, n := range names {
		count := 0
		for _, s := range ss {
			if s.Kind == n.kind {
				count++
			}
		}
		if count > 0 {
			parts = append(parts, fmt.Sprintf("%s × %d", n.label, count))
		}
	}
	text := strings.Join(parts, ", ")
	width := 50 - len([]rune(text))
	if width <= 0 {
		return text
	}
	return strings.Repeat(".", width/2) + text + strings.Repeat(".", width-width/2)
}

func indented(w io.Writer, text string) {
	for _, l := range printer.Lines(text) {
		fmt.Fprintf(w, "  %s\n", l)
	}
}

func reportDetail(w io.Writer, id string, s ruletest.Status) {
	switch s.Kind {
	case ruletest.Updated:
		fmt.Fprintf(w, "[Updated] Rule %s's snapshot baseline has been updated.\n\n", id)
		indented(w, s.Source)
		fmt.Fprintln(w)
	case ruletest.Wrong:
		actual := s.Actual.YAML()
		if s.Expected != nil {
			fmt.Fprintf(w, "[Wrong] %s snapshot is different from baseline.\nDiff:\n", id)
			printer.Diff(w, s.Expected.YAML(), actual, 3, printer.Palette{})
		} else {
			fmt.Fprintf(w, "[Wrong] No %s baseline found.\nGenerated Snapshot:\n", id)
			indented(w, actual)
		}
		fmt.Fprintln(w, "For Code:")
		indented(w, s.Source)
		fmt.Fprintln(w)
	case ruletest.Missing:
		fmt.Fprintf(w, "[Missing] Expect rule %s to report issues, but none found in:\n\n", id)
		indented(w, s.Source)
		fmt.Fprintln(w)
	case ruletest.Noisy:
		fmt.Fprintf(w, "[Noisy] Expect %s to report no issue, but some issues found in:\n\n", id)
		indented(w, s.Source)
		fmt.Fprintln(w)
	case ruletest.Error:
		fmt.Fprintf(w, "[Error] Fail to apply fix to %s\n", id)
	}
}
