package rule

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/rewrite"
	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/host"
)

// Finding is one match of a rule config.
type Finding struct {
	Config *Config
	Node   tree.Node
	Env    *match.Env
}

// Scanner runs rule configs of one language over syntax trees the way
// ast-grep's scan does: every node is tried against every rule whose
// kinds include it, and `ast-grep-ignore` comments suppress findings.
// Rules with severity off are skipped. A Scanner is safe for concurrent
// use.
type Scanner struct {
	configs []*Config
	// byKind lists, by kind id, the configs that may match a node of the
	// kind (a slice: a map lookup for every node of every tree was a
	// tenth of a scan's time once trees come from the cache).
	byKind [][]int
}

// NewScanner prepares configs (all of one language) for scanning.
func NewScanner(configs []*Config) *Scanner {
	s := &Scanner{}
	for _, c := range configs {
		if c.Severity == SeverityOff {
			continue
		}
		idx := len(s.configs)
		s.configs = append(s.configs, c)
		ks := c.Kinds()
		for w, bits := range ks {
			for b := 0; b < 64; b++ {
				if bits&(1<<b) != 0 {
					id := w*64 + b
					if id >= len(s.byKind) {
						s.byKind = append(s.byKind, make([][]int, id+1-len(s.byKind))...)
					}
					s.byKind[id] = append(s.byKind[id], idx)
				}
			}
		}
	}
	return s
}

// checkEvery is how many nodes Scan visits between looks at ctx.
const checkEvery = 4096

// Scan returns the findings of the scanner's rules in t, in document
// order of the matched nodes (rules in the order given for one node).
func (s *Scanner) Scan(ctx context.Context, t *tree.Tree) ([]Finding, error) {
	fs, _, err := s.ScanAll(ctx, t)
	return fs, err
}

// ScanAll is Scan that also returns the `ast-grep-ignore` comments that
// suppressed nothing.
func (s *Scanner) ScanAll(ctx context.Context, t *tree.Tree) ([]Finding, []tree.Node, error) {
	sup := collectSuppressions(t)
	if sup.file != nil && sup.file.all {
		return nil, nil, nil
	}
	var out []Finding
	budget := match.NewBudget(ctx)
	env := match.NewEnv(budget)
	done := ctx.Done()
	// The records are read directly: most nodes are of a kind no rule
	// starts at, and are passed over by their symbol alone.
	records := t.Nodes()
	for i := range records {
		if i%checkEvery == checkEvery-1 && done != nil {
			select {
			case <-done:
				return out, nil, fmt.Errorf("scan: %w", ctx.Err())
			default:
			}
		}
		k := int(records[i].Symbol)
		if k >= len(s.byKind) || len(s.byKind[k]) == 0 {
			continue
		}
		rules := s.byKind[k]
		n := t.Node(i)
		var line *suppression
		if len(sup.lines) > 0 {
			line = sup.lines[n.StartPoint().Row]
		}
		for _, idx := range rules {
			c := s.configs[idx]
			budget.Begin()
			matched := c.Match(n, env)
			if err := budget.Err(); err != nil {
				return out, nil, fmt.Errorf("scan: rule %s at line %d: %w", c.ID, n.StartPoint().Row+1, err)
			}
			if !matched {
				continue
			}
			suppressed := false
			for _, by := range []*suppression{sup.file, line} {
				if !suppressed && by.suppresses(c.ID) {
					by.used, suppressed = true, true
				}
			}
			if !suppressed {
				out = append(out, Finding{Config: c, Node: n, Env: env.Clone()})
			}
			env.Reset()
		}
	}
	var unused []tree.Node
	for _, u := range sup.all {
		if !u.used {
			unused = append(unused, u.node)
		}
	}
	return out, unused, nil
}

// UnusedSuppressionID is the rule id ast-grep reports unused
// `ast-grep-ignore` comments under.
const UnusedSuppressionID = "unused-suppression"

// UnusedSuppression returns the built-in rule config for reporting the
// unused suppression comments ScanAll returns in lang's files: a finding
// whose fix deletes the comment. It has no rule of its own.
func UnusedSuppression(lang *language.Language, severity Severity) *Config {
	return &Config{
		ID:       UnusedSuppressionID,
		Language: lang,
		Message:  "Unused 'ast-grep-ignore' directive.",
		Severity: severity,
		Fixes:    []*Fix{{template: rewrite.Compile("", nil)}},
		message:  rewrite.Compile("Unused 'ast-grep-ignore' directive.", nil),
	}
}

// suppression is one `ast-grep-ignore` comment.
type suppression struct {
	node tree.Node
	all  bool
	ids  map[string]bool
	used bool
}

func (s *suppression) suppresses(id string) bool {
	return s != nil && (s.all || s.ids[id])
}

type suppressions struct {
	file  *suppression
	lines map[int]*suppression // by the line whose findings it suppresses
	all   []*suppression       // in document order
}

const ignoreText = "ast-grep-ignore"

// ignoreTail is the end of ignoreText, which a source holding a directive
// holds: looked for from its '-', rarer in code than the 'a' that starts
// ignoreText, so the search stops at fewer places.
var ignoreTail = []byte(ignoreText[len("ast"):])

// collectSuppressions finds the `ast-grep-ignore` comments of t. A comment
// alone on its line suppresses the next line; a comment after code
// suppresses the line where that code starts; a comment on the first line
// followed by a blank line suppresses the whole file. "ast-grep-ignore"
// alone suppresses every rule, "ast-grep-ignore: a, b" the listed ones.
// As in ast-grep 0.51, the directive must be the comment's first word:
// "# type: ignore  # ast-grep-ignore" is one comment that suppresses
// nothing.
func collectSuppressions(t *tree.Tree) suppressions {
	s := suppressions{lines: map[int]*suppression{}}
	if !bytes.Contains(t.Source(), ignoreTail) {
		// A directive is in a comment, so in the source: most files have
		// none, and their comments need no look.
		return s
	}
	comments := commentKinds(t.Names())
	for i := 0; i < t.Len(); i++ {
		n := t.Node(i)
		if k := int(n.KindID()); k >= len(comments) || !comments[k] || !isDirective(n.Text()) {
			continue
		}
		sup := parseSuppression(n.Text())
		sup.node = n
		s.all = append(s.all, sup)
		line := n.StartPoint().Row
		prev := n.PrevSibling()
		trailing := !prev.IsZero() && prev.EndPoint().Row == line
		if line == 0 && !trailing {
			next := n.NextSibling()
			if next.IsZero() || next.StartPoint().Row >= 2 {
				s.file = sup
				if sup.all {
					return s
				}
				continue
			}
		}
		key := line + 1
		if trailing {
			key = prev.StartPoint().Row
		}
		s.lines[key] = sup
	}
	return s
}

// commentKindsOf caches commentKinds by name table (one per language).
var commentKindsOf sync.Map // *host.Names → []bool

// commentKinds reports, by kind id, the kinds whose name has "comment" in
// it, where suppression directives are looked for (ERROR, outside the
// table, is not one).
func commentKinds(names *host.Names) []bool {
	if c, ok := commentKindsOf.Load(names); ok {
		return c.([]bool)
	}
	c := make([]bool, len(names.Symbols))
	for id, name := range names.Symbols {
		c[id] = strings.Contains(name, "comment")
	}
	commentKindsOf.Store(names, c)
	return c
}

// isDirective reports whether a comment's first word, after its comment
// markers and any punctuation, is ast-grep-ignore.
func isDirective(comment string) bool {
	rest := strings.TrimLeftFunc(comment, func(r rune) bool {
		return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return strings.HasPrefix(rest, ignoreText)
}

func parseSuppression(text string) *suppression {
	_, after, _ := strings.Cut(strings.TrimSpace(text), ignoreText)
	after = strings.TrimSpace(after)
	_, list, ok := strings.Cut(after, ":")
	if after == "" || !ok {
		return &suppression{all: true}
	}
	sup := &suppression{ids: map[string]bool{}}
	for _, part := range strings.Split(list, ",") {
		id, _, _ := strings.Cut(strings.TrimLeft(part, " \t\n\r\v\f"), " ")
		sup.ids[id] = true
	}
	return sup
}

// SortFindings orders findings by position, then by rule id.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i].Node, fs[j].Node
		if a.StartByte() != b.StartByte() {
			return a.StartByte() < b.StartByte()
		}
		if a.EndByte() != b.EndByte() {
			return a.EndByte() > b.EndByte()
		}
		return fs[i].Config.ID < fs[j].Config.ID
	})
}
