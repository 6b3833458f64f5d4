package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/tree"
)

func init() {
	register(&command{
		name:    "test",
		summary: "Test rules against their valid and invalid cases",
		run:     runRuleTest,
	})
}

// A rule test file holds YAML documents {id, valid: [code...], invalid:
// [code...]}: the rule must match nothing in each valid snippet and
// something in each invalid one. The first match of an invalid snippet
// (its labels and, for a rule with a fix, the fixed code) is compared with
// the snapshot in <testDir>/__snapshots__/<id>-snapshot.yml, which
// --update-all writes. This is ast-grep's `test`.

type testCase struct {
	id      string
	valid   []string
	invalid []string
	snapDir string // where the case's snapshot file lives
}

// labelSnapshot and testSnapshot are a snapshot file's entries.
type labelSnapshot struct {
	Source  string  `yaml:"source"`
	Message *string `yaml:"message,omitempty"`
	Style   string  `yaml:"style"`
	Start   int     `yaml:"start"`
	End     int     `yaml:"end"`
}

type testSnapshot struct {
	Fixed  *string         `yaml:"fixed,omitempty"`
	Labels []labelSnapshot `yaml:"labels"`
}

type snapshotFile struct {
	ID        string                  `yaml:"id"`
	Snapshots map[string]testSnapshot `yaml:"snapshots"`
}

func (a testSnapshot) equal(b testSnapshot) bool {
	if (a.Fixed == nil) != (b.Fixed == nil) || a.Fixed != nil && *a.Fixed != *b.Fixed || len(a.Labels) != len(b.Labels) {
		return false
	}
	for i, l := range a.Labels {
		m := b.Labels[i]
		if l.Source != m.Source || l.Style != m.Style || l.Start != m.Start || l.End != m.End ||
			(l.Message == nil) != (m.Message == nil) || l.Message != nil && *l.Message != *m.Message {
			return false
		}
	}
	return true
}

// caseStatus is the outcome of one snippet.
type caseStatus struct {
	kind     byte // '.', 'W' wrong snapshot, 'U' updated, 'M' missing, 'N' noisy, 'E' error
	source   string
	actual   *testSnapshot
	expected *testSnapshot
}

type testOptions struct {
	config, testDir, snapshotDir string
	skipSnapshots, updateAll     bool
	includeOff                   bool
	filter                       *regexp.Regexp
	colour                       bool
}

func parseTestFlags(e *env, args []string) (*testOptions, bool, error) {
	fs := newFlagSet("test")
	config := fs.String('c', "config", "CONFIG_FILE", "The project configuration file (default: the sgconfig.yml found upwards)")
	testDir := fs.String('t', "test-dir", "TEST_DIR", "Read test cases from TEST_DIR instead of sgconfig's testConfigs")
	snapDir := fs.String(0, "snapshot-dir", "SNAPSHOT_DIR", "Folder of the snapshots, relative to the test folder (default: __snapshots__)")
	skip := fs.Bool(0, "skip-snapshot-tests", "Only check that valid cases do not match and invalid ones do")
	update := fs.Bool('U', "update-all", "Accept every changed snapshot")
	interactive := fs.Bool('i', "interactive", "Review snapshots interactively (not supported)")
	filter := fs.String('f', "filter", "REGEX", "Test only the rules whose ids match REGEX")
	includeOff := fs.Bool(0, "include-off", "Also test rules with severity off")
	fs.Bool(0, "follow", "Follow symbolic links")
	colour := fs.String(0, "color", "WHEN", "When to use colours: auto (default), always, ansi, never")
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
	if err := colour.oneOf("auto", "always", "ansi", "never"); err != nil {
		return nil, false, err
	}
	switch {
	case interactive.set:
		return nil, false, errors.New("interactive snapshot review (-i) is not supported; use --update-all (-U)")
	case skip.set && update.set:
		return nil, false, errors.New("the argument '--skip-snapshot-tests' cannot be used with '--update-all'")
	}
	o := &testOptions{
		config: config.value, testDir: testDir.value, snapshotDir: snapDir.value,
		skipSnapshots: skip.set, updateAll: update.set, includeOff: includeOff.set,
		colour: useColour(colour.value, e),
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
	proj, err := findProject(o.config, warn)
	if err != nil {
		return e.errorf("%v", err)
	}
	globals, err := proj.loadGlobals(ctx)
	if err != nil {
		return e.errorf("%v", err)
	}
	cfgs, err := proj.loadRules(ctx, globals)
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
	var dirs []testConfig
	if o.testDir != "" {
		wd, err := os.Getwd()
		if err != nil {
			return e.errorf("%v", err)
		}
		dirs = []testConfig{{testDir: filepath.Join(wd, o.testDir), snapshotDir: o.snapshotDir}}
	} else {
		for _, tc := range proj.testConfigs {
			dirs = append(dirs, testConfig{testDir: filepath.Join(proj.dir, tc.testDir), snapshotDir: tc.snapshotDir})
		}
	}
	cases, snaps, err := readTests(dirs, o.filter, e)
	if err != nil {
		return e.errorf("%v", err)
	}
	out := e.stdout
	fmt.Fprintf(out, "Running %d tests\n", len(cases))
	type result struct {
		c        testCase
		statuses []caseStatus
	}
	var results []result
	for _, c := range cases {
		cfg := rules[c.id]
		if cfg == nil {
			fmt.Fprintf(out, "Configuration not found! %s\n", c.id)
			continue
		}
		var snap map[string]testSnapshot
		if !o.skipSnapshots {
			if s, ok := snaps[c.id]; ok {
				snap = s.Snapshots
			}
		}
		statuses, err := verifyCase(ctx, cfg, c, snap, !o.skipSnapshots)
		if err != nil {
			return e.errorf("%v", err)
		}
		results = append(results, result{c, statuses})
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "----------- Case Details -----------")
	for i := range results {
		r := &results[i]
		if passed(r.statuses) {
			continue
		}
		for j := range r.statuses {
			if o.updateAll && r.statuses[j].kind == 'W' {
				r.statuses[j].kind = 'U'
			}
			reportDetail(out, r.c.id, r.statuses[j])
		}
	}
	if o.updateAll && !o.skipSnapshots {
		for _, r := range results {
			if err := writeSnapshots(r.c, r.statuses, snaps[r.c.id]); err != nil {
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
		case !passed(r.statuses):
			status = "FAIL"
		}
		if passed(r.statuses) {
			passedN++
		} else {
			failedN++
		}
		fmt.Fprintf(out, "%s %s  %s\n", status, r.c.id, summary(r.statuses))
	}
	fmt.Fprintln(out)
	if failedN > 0 {
		fmt.Fprintf(e.stderr, "Error: test failed. %d passed; %d failed;\n", passedN, failedN)
		fmt.Fprintln(e.stderr, "Help: You can use ast-grep playground to debug your rules and test cases.")
		fmt.Fprint(e.stderr, "See also: https://ast-grep.github.io/playground.html\n\n")
		return exitNoMatch
	}
	ok := "ok"
	if o.colour {
		ok = style{fg: 32}.paint("ok")
	}
	fmt.Fprintf(out, "test result: %s. %d passed; %d failed;\n", ok, passedN, failedN)
	return exitMatch
}

func passed(ss []caseStatus) bool {
	for _, s := range ss {
		if s.kind != '.' && s.kind != 'U' {
			return false
		}
	}
	return true
}

// summary is one letter per case, or counts for more than 40 cases.
func summary(ss []caseStatus) string {
	if len(ss) <= 40 {
		var b strings.Builder
		for _, s := range ss {
			b.WriteByte(s.kind)
		}
		return b.String()
	}
	names := []struct {
		kind  byte
		label string
	}{{'.', "Pass"}, {'U', "Updated"}, {'W', "Wrong"}, {'M', "Missing"}, {'N', "Noisy"}, {'E', "Error"}}
	var parts []string
	for _, n := range names {
		count := 0
		for _, s := range ss {
			if s.kind == n.kind {
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

// verifyCase checks the valid and invalid snippets of one test case.
func verifyCase(ctx context.Context, cfg *rule.Config, c testCase, snaps map[string]testSnapshot, withSnapshots bool) ([]caseStatus, error) {
	var out []caseStatus
	for _, src := range c.valid {
		n, _, err := firstMatch(ctx, cfg, src)
		if err != nil {
			return nil, err
		}
		if n.IsZero() {
			out = append(out, caseStatus{kind: '.'})
		} else {
			out = append(out, caseStatus{kind: 'N', source: src})
		}
	}
	for _, src := range c.invalid {
		n, env, err := firstMatch(ctx, cfg, src)
		if err != nil {
			return nil, err
		}
		if n.IsZero() {
			out = append(out, caseStatus{kind: 'M', source: src})
			continue
		}
		if !withSnapshots {
			out = append(out, caseStatus{kind: '.'})
			continue
		}
		actual, err := snapshotOf(cfg, n, env)
		if err != nil {
			out = append(out, caseStatus{kind: 'E', source: src})
			continue
		}
		if exp, ok := snaps[src]; ok && exp.equal(actual) {
			out = append(out, caseStatus{kind: '.'})
			continue
		}
		s := caseStatus{kind: 'W', source: src, actual: &actual}
		if exp, ok := snaps[src]; ok {
			s.expected = &exp
		}
		out = append(out, s)
	}
	return out, nil
}

// firstMatch parses src and returns the rule's first match in pre-order.
func firstMatch(ctx context.Context, cfg *rule.Config, src string) (tree.Node, *match.Env, error) {
	t, err := cfg.Language.Parse(ctx, []byte(src))
	if err != nil {
		return tree.Node{}, nil, err
	}
	env := &match.Env{}
	ks := cfg.Kinds()
	for i := 0; i < t.Len(); i++ {
		n := t.Node(i)
		if ks.Has(n.KindID()) && cfg.Match(n, env) {
			return n, env, nil
		}
	}
	return tree.Node{}, nil, nil
}

func snapshotOf(cfg *rule.Config, n tree.Node, env *match.Env) (testSnapshot, error) {
	src := n.Tree().Source()
	s := testSnapshot{Labels: []labelSnapshot{}}
	for _, sp := range cfg.Spans(n, env) {
		s.Labels = append(s.Labels, labelSnapshot{
			Source: string(src[sp.Start:sp.End]), Message: sp.Message, Style: string(sp.Style), Start: sp.Start, End: sp.End,
		})
	}
	if len(cfg.Fixes) > 0 {
		fixed, err := rewrite.Apply(src, []rewrite.Edit{cfg.Fixes[0].Edit(n, env)})
		if err != nil {
			return s, err
		}
		f := string(fixed)
		s.Fixed = &f
	}
	return s, nil
}

// readTests reads the test cases and snapshots under the test folders.
func readTests(dirs []testConfig, filter *regexp.Regexp, e *env) ([]testCase, map[string]*snapshotFile, error) {
	var cases []testCase
	snaps := map[string]*snapshotFile{}
	for _, d := range dirs {
		snapDir := d.snapshotDir
		if snapDir == "" {
			snapDir = "__snapshots__"
		}
		snapPath := filepath.Join(d.testDir, snapDir)
		files, err := yamlFiles(d.testDir)
		if err != nil {
			return nil, nil, fmt.Errorf("read tests: %w", err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, nil, err
			}
			if strings.HasPrefix(f, snapPath+string(filepath.Separator)) {
				var sf snapshotFile
				if err := yaml.Unmarshal(data, &sf); err != nil {
					return nil, nil, fmt.Errorf("cannot parse test snapshot %s: %w", f, err)
				}
				if filter != nil && !filter.MatchString(sf.ID) {
					continue
				}
				if snaps[sf.ID] != nil {
					fmt.Fprintf(e.stderr, "Warning: found duplicate test case snapshot for `%s`\n", sf.ID)
				}
				snaps[sf.ID] = &sf
				continue
			}
			tcs, err := parseTestFile(data)
			if err != nil {
				return nil, nil, fmt.Errorf("cannot parse test case %s: %w", f, err)
			}
			for _, tc := range tcs {
				if filter != nil && !filter.MatchString(tc.id) {
					continue
				}
				tc.snapDir = snapPath
				cases = append(cases, tc)
			}
		}
	}
	return cases, snaps, nil
}

func parseTestFile(data []byte) ([]testCase, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []testCase
	for {
		var raw struct {
			ID      *string  `yaml:"id"`
			Valid   []string `yaml:"valid"`
			Invalid []string `yaml:"invalid"`
		}
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if raw.ID == nil {
			return nil, errors.New("a test case needs an id")
		}
		out = append(out, testCase{id: *raw.ID, valid: raw.Valid, invalid: raw.Invalid})
	}
}

// writeSnapshots merges a case's accepted snapshots into its file.
func writeSnapshots(c testCase, ss []caseStatus, existing *snapshotFile) error {
	sf := snapshotFile{ID: c.id, Snapshots: map[string]testSnapshot{}}
	if existing != nil {
		for k, v := range existing.Snapshots {
			sf.Snapshots[k] = v
		}
	}
	changed := false
	for _, s := range ss {
		if s.kind == 'U' && s.actual != nil {
			sf.Snapshots[s.source] = *s.actual
			changed = true
		}
	}
	if !changed {
		return nil
	}
	if err := os.MkdirAll(c.snapDir, 0o755); err != nil {
		return err
	}
	data, err := marshalSnapshots(sf)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(c.snapDir, c.id+"-snapshot.yml"), data, 0o644)
}

// marshalSnapshots writes a snapshot file with its sources in order.
func marshalSnapshots(sf snapshotFile) ([]byte, error) {
	keys := make([]string, 0, len(sf.Snapshots))
	for k := range sf.Snapshots {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	snaps := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range keys {
		var v yaml.Node
		if err := v.Encode(sf.Snapshots[k]); err != nil {
			return nil, err
		}
		snaps.Content = append(snaps.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &v)
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "id"}, {Kind: yaml.ScalarNode, Value: sf.ID},
		{Kind: yaml.ScalarNode, Value: "snapshots"}, snaps,
	}}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

func indented(w io.Writer, text string) {
	for _, l := range rustLines(text) {
		fmt.Fprintf(w, "  %s\n", l)
	}
}

func reportDetail(w io.Writer, id string, s caseStatus) {
	switch s.kind {
	case 'U':
		fmt.Fprintf(w, "[Updated] Rule %s's snapshot baseline has been updated.\n\n", id)
		indented(w, s.source)
		fmt.Fprintln(w)
	case 'W':
		actual := snapshotYAML(s.actual)
		if s.expected != nil {
			fmt.Fprintf(w, "[Wrong] %s snapshot is different from baseline.\nDiff:\n", id)
			printDiff(w, snapshotYAML(s.expected), actual, 3, palette{})
		} else {
			fmt.Fprintf(w, "[Wrong] No %s baseline found.\nGenerated Snapshot:\n", id)
			indented(w, actual)
		}
		fmt.Fprintln(w, "For Code:")
		indented(w, s.source)
		fmt.Fprintln(w)
	case 'M':
		fmt.Fprintf(w, "[Missing] Expect rule %s to report issues, but none found in:\n\n", id)
		indented(w, s.source)
		fmt.Fprintln(w)
	case 'N':
		fmt.Fprintf(w, "[Noisy] Expect %s to report no issue, but some issues found in:\n\n", id)
		indented(w, s.source)
		fmt.Fprintln(w)
	case 'E':
		fmt.Fprintf(w, "[Error] Fail to apply fix to %s\n", id)
	}
}

// snapshotYAML renders a snapshot as the report shows it.
func snapshotYAML(s *testSnapshot) string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(s); err != nil {
		return err.Error()
	}
	enc.Close()
	return b.String()
}
