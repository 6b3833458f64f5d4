// Package ruletest is ast-grep's rule tests (`ast-grep test`) as a
// library. A test file holds YAML documents {id, valid: [code...],
// invalid: [code...]}: the rule must match nothing in each valid snippet
// and something in each invalid one. The first match of an invalid
// snippet (its labels and, for a rule with a fix, the fixed code) is
// compared with the snapshot in <testDir>/__snapshots__/<id>-snapshot.yml,
// which an update writes.
package ruletest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/project"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/core/tree"
)

// Case is one test case: a rule id and its snippets.
type Case struct {
	ID      string
	Valid   []string
	Invalid []string
	// SnapshotDir is the folder of the case's snapshot file.
	SnapshotDir string
}

// Label is a snapshot's labelled span.
type Label struct {
	Source  string  `yaml:"source"`
	Message *string `yaml:"message,omitempty"`
	Style   string  `yaml:"style"`
	Start   int     `yaml:"start"`
	End     int     `yaml:"end"`
}

// Snapshot is what the first match of an invalid snippet produced.
type Snapshot struct {
	Fixed  *string `yaml:"fixed,omitempty"`
	Labels []Label `yaml:"labels"`
}

// Equal reports whether two snapshots are the same.
func (a Snapshot) Equal(b Snapshot) bool {
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

// SnapshotFile is a rule's snapshot file: its snapshots by snippet.
type SnapshotFile struct {
	ID        string              `yaml:"id"`
	Snapshots map[string]Snapshot `yaml:"snapshots"`
}

// Kind is the outcome of one snippet, as ast-grep's test letters it.
type Kind byte

// Outcomes of a snippet.
const (
	Pass    Kind = '.' // as expected
	Wrong   Kind = 'W' // the snapshot differs from (or has no) baseline
	Updated Kind = 'U' // a wrong snapshot that was accepted
	Missing Kind = 'M' // an invalid snippet the rule does not match
	Noisy   Kind = 'N' // a valid snippet the rule matches
	Error   Kind = 'E' // the fix could not be applied
)

// Status is the outcome of one snippet.
type Status struct {
	Kind   Kind
	Source string // the snippet, for the outcomes other than Pass
	// Actual and Expected are the snapshots of a Wrong (or Updated)
	// snippet; Expected is nil when there was no baseline.
	Actual, Expected *Snapshot
}

// Passed reports whether every snippet passed (or was updated).
func Passed(ss []Status) bool {
	for _, s := range ss {
		if s.Kind != Pass && s.Kind != Updated {
			return false
		}
	}
	return true
}

// SnapshotsOnly reports whether every snippet of ss that failed failed
// on its snapshot alone (Wrong): then updating the snapshots would pass.
func SnapshotsOnly(ss []Status) bool {
	for _, s := range ss {
		if s.Kind != Pass && s.Kind != Updated && s.Kind != Wrong {
			return false
		}
	}
	return true
}

// Dirs returns the test folders of p, absolute.
func Dirs(p *project.Project) []project.TestConfig {
	var out []project.TestConfig
	for _, tc := range p.TestConfigs {
		out = append(out, project.TestConfig{TestDir: p.Path(tc.TestDir), SnapshotDir: tc.SnapshotDir})
	}
	return out
}

// Read reads the test cases and snapshots under dirs, keeping the ids
// filter matches (all when nil). warn receives a duplicate snapshot.
func Read(dirs []project.TestConfig, filter *regexp.Regexp, warn func(string)) ([]Case, map[string]*SnapshotFile, error) {
	var cases []Case
	snaps := map[string]*SnapshotFile{}
	for _, d := range dirs {
		snapDir := d.SnapshotDir
		if snapDir == "" {
			snapDir = "__snapshots__"
		}
		snapPath := filepath.Join(d.TestDir, snapDir)
		files, err := project.YAMLFiles(d.TestDir)
		if err != nil {
			return nil, nil, fmt.Errorf("read tests: %w", err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, nil, err
			}
			data = rule.FinalNewline(data)
			if strings.HasPrefix(f, snapPath+string(filepath.Separator)) {
				var sf SnapshotFile
				if err := rule.UnmarshalYAML(data, &sf); err != nil {
					return nil, nil, fmt.Errorf("cannot parse test snapshot %s: %w", f, err)
				}
				if filter != nil && !filter.MatchString(sf.ID) {
					continue
				}
				if snaps[sf.ID] != nil {
					warn(fmt.Sprintf("found duplicate test case snapshot for `%s`", sf.ID))
				}
				snaps[sf.ID] = &sf
				continue
			}
			tcs, err := parseCases(data)
			if err != nil {
				return nil, nil, fmt.Errorf("cannot parse test case %s: %w", f, err)
			}
			for _, tc := range tcs {
				if filter != nil && !filter.MatchString(tc.ID) {
					continue
				}
				tc.SnapshotDir = snapPath
				cases = append(cases, tc)
			}
		}
	}
	return cases, snaps, nil
}

func parseCases(data []byte) ([]Case, error) {
	docs, err := rule.YAMLDocuments(data)
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, doc := range docs {
		var raw struct {
			ID      *string  `yaml:"id"`
			Valid   []string `yaml:"valid"`
			Invalid []string `yaml:"invalid"`
		}
		if err := doc.Decode(&raw); err != nil {
			return nil, err
		}
		if raw.ID == nil {
			return nil, errors.New("a test case needs an id")
		}
		out = append(out, Case{ID: *raw.ID, Valid: raw.Valid, Invalid: raw.Invalid})
	}
	return out, nil
}

// Verify checks the snippets of c against cfg; with snapshots, the first
// match of each invalid snippet must equal its baseline in snaps.
func Verify(ctx context.Context, cfg *rule.Config, c Case, snaps map[string]Snapshot, withSnapshots bool) ([]Status, error) {
	var out []Status
	for _, src := range c.Valid {
		n, _, err := firstMatch(ctx, cfg, src)
		if err != nil {
			return nil, err
		}
		if n.IsZero() {
			out = append(out, Status{Kind: Pass})
		} else {
			out = append(out, Status{Kind: Noisy, Source: src})
		}
	}
	for _, src := range c.Invalid {
		n, env, err := firstMatch(ctx, cfg, src)
		if err != nil {
			return nil, err
		}
		if n.IsZero() {
			out = append(out, Status{Kind: Missing, Source: src})
			continue
		}
		if !withSnapshots {
			out = append(out, Status{Kind: Pass})
			continue
		}
		actual, err := snapshotOf(cfg, n, env)
		if err != nil {
			out = append(out, Status{Kind: Error, Source: src})
			continue
		}
		if exp, ok := snaps[src]; ok && exp.Equal(actual) {
			out = append(out, Status{Kind: Pass})
			continue
		}
		s := Status{Kind: Wrong, Source: src, Actual: &actual}
		if exp, ok := snaps[src]; ok {
			s.Expected = &exp
		}
		out = append(out, s)
	}
	return out, nil
}

// firstMatch parses src (through the pipeline's tree cache) and returns
// the rule's first match in pre-order.
func firstMatch(ctx context.Context, cfg *rule.Config, src string) (tree.Node, *match.Env, error) {
	t, err := search.Parse(ctx, cfg.Language, []byte(src))
	if err != nil {
		return tree.Node{}, nil, err
	}
	ms, err := search.FindAll(ctx, t, cfg)
	if err != nil || len(ms) == 0 {
		return tree.Node{}, nil, err
	}
	return ms[0].Node, ms[0].Env, nil
}

func snapshotOf(cfg *rule.Config, n tree.Node, env *match.Env) (Snapshot, error) {
	src := n.Tree().Source()
	s := Snapshot{Labels: []Label{}}
	for _, sp := range cfg.Spans(n, env) {
		s.Labels = append(s.Labels, Label{
			Source: string(src[sp.Start:sp.End]), Message: sp.Message, Style: string(sp.Style), Start: sp.Start, End: sp.End,
		})
	}
	if len(cfg.Fixes) > 0 {
		edit := cfg.Fixes[0].Edit(n, env)
		if err := env.Budget().Err(); err != nil {
			return s, fmt.Errorf("fix: %w", err)
		}
		fixed, err := rewrite.Apply(src, []rewrite.Edit{edit})
		if err != nil {
			return s, err
		}
		f := string(fixed)
		s.Fixed = &f
	}
	return s, nil
}

// WriteSnapshots merges the Updated snapshots of c's statuses into its
// snapshot file (existing holds its current content, if any).
func WriteSnapshots(c Case, ss []Status, existing *SnapshotFile) error {
	sf := SnapshotFile{ID: c.ID, Snapshots: map[string]Snapshot{}}
	if existing != nil {
		for k, v := range existing.Snapshots {
			sf.Snapshots[k] = v
		}
	}
	changed := false
	for _, s := range ss {
		if s.Kind == Updated && s.Actual != nil {
			sf.Snapshots[s.Source] = *s.Actual
			changed = true
		}
	}
	if !changed {
		return nil
	}
	if err := os.MkdirAll(c.SnapshotDir, 0o755); err != nil {
		return err
	}
	data, err := Marshal(sf)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(c.SnapshotDir, c.ID+"-snapshot.yml"), data, 0o644)
}

// Marshal writes a snapshot file with its sources in order.
func Marshal(sf SnapshotFile) ([]byte, error) {
	keys := make([]string, 0, len(sf.Snapshots))
	for k := range sf.Snapshots {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	snaps := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range keys {
		snaps.Content = append(snaps.Content, strNode(k), sf.Snapshots[k].node())
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		strNode("id"), strNode(sf.ID),
		strNode("snapshots"), snaps,
	}}
	return encodeYAML(doc)
}

// YAML renders a snapshot as ast-grep's test report shows it.
func (s *Snapshot) YAML() string {
	b, err := encodeYAML(s.node())
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// node is the snapshot as a YAML mapping, its keys in the order of its
// fields. It is built by hand rather than by yaml's Node.Encode, which
// writes the value out and parses it back, so that strNode chooses the
// style of every string.
func (s Snapshot) node() *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	if s.Fixed != nil {
		n.Content = append(n.Content, strNode("fixed"), strNode(*s.Fixed))
	}
	labels := &yaml.Node{Kind: yaml.SequenceNode}
	for _, l := range s.Labels {
		m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{strNode("source"), strNode(l.Source)}}
		if l.Message != nil {
			m.Content = append(m.Content, strNode("message"), strNode(*l.Message))
		}
		m.Content = append(m.Content,
			strNode("style"), strNode(l.Style),
			strNode("start"), intNode(l.Start),
			strNode("end"), intNode(l.End))
		labels.Content = append(labels.Content, m)
	}
	n.Content = append(n.Content, strNode("labels"), labels)
	return n
}

// strNode is a string's node. One of several lines that starts with a
// space, a tab or a line break is double-quoted: as a block scalar it
// needs an indentation indicator, which yaml's encoder gets wrong inside
// a sequence (the lines come out indented two spaces short of what the
// indicator says, or the file does not parse), so a source read back
// would differ from the one written. yaml chooses the style of the rest.
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.Contains(s, "\n") && strings.ContainsAny(s[:1], " \t\n") {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func intNode(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func encodeYAML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}
