package astgrep

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// Match is one matched node. Lines and columns are 1-based, as editors and
// LLMs count them; columns count characters (Unicode code points), and the
// end column is the column just past the last character. (The CLI's
// --json output stays 0-based like ast-grep's.)
type Match struct {
	File          string   `json:"file"`
	StartLine     int      `json:"startLine"`
	StartCol      int      `json:"startCol"`
	EndLine       int      `json:"endLine"`
	EndCol        int      `json:"endCol"`
	Text          string   `json:"text"`
	NodeKind      string   `json:"nodeKind"`
	MetaVariables MetaVars `json:"metaVariables"`
}

// MetaVars are a match's captures: single ($A) and multi ($$$A) by name,
// without the sigil, each as source text. A multi capture lists its named
// nodes only (the arguments of a call, not the commas between them).
type MetaVars struct {
	Single map[string]string   `json:"single"`
	Multi  map[string][]string `json:"multi"`
}

// Skipped is a file that could not be searched.
type Skipped struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// Reasons a result is incomplete.
const (
	ReasonMaxResults = "maxResults"
	ReasonTimeout    = "timeout"
	ReasonCancelled  = "cancelled"
)

// Result is the ast_grep tool's answer.
type Result struct {
	Matches       []Match   `json:"matches"`
	Truncated     bool      `json:"truncated"`
	TotalMatches  int       `json:"totalMatches"`
	FilesSearched int       `json:"filesSearched"`
	SkippedFiles  int       `json:"skippedFiles"`
	Skipped       []Skipped `json:"skipped,omitempty"`
	// Reason says why the result is truncated: maxResults, timeout or
	// cancelled (then matches are those found before the stop).
	Reason string `json:"reason,omitempty"`
	// Hints explain an empty result where the cause can be told, or
	// label results found by a rewritten query.
	Hints []string `json:"hints,omitempty"`
	// Shard is what Merge needs of a shard's result beyond what it shows.
	// Only a tool configured with a Shard of Count over 1 sets it, and
	// Merge clears it: a whole result never carries it.
	Shard *ShardInfo `json:"shard,omitempty"`
}

// newMatch converts a matched node and its environment.
func newMatch(file string, n tree.Node, env *match.Env) Match {
	t := n.Tree()
	sp, ep := n.StartPoint(), n.EndPoint()
	m := Match{
		File:      file,
		StartLine: sp.Row + 1,
		StartCol:  t.CharColumn(n.StartByte()) + 1,
		EndLine:   ep.Row + 1,
		EndCol:    t.CharColumn(n.EndByte()) + 1,
		Text:      n.Text(),
		NodeKind:  n.Kind(),
		MetaVariables: MetaVars{
			Single: map[string]string{},
			Multi:  map[string][]string{},
		},
	}
	env.Singles(func(name string, v tree.Node) {
		m.MetaVariables.Single[name] = v.Text()
	})
	env.Multis(func(name string, nodes []tree.Node) {
		texts := make([]string, 0, len(nodes))
		for _, v := range nodes {
			if v.IsNamed() {
				texts = append(texts, v.Text())
			}
		}
		m.MetaVariables.Multi[name] = texts
	})
	return m
}

// Text renders r compactly for an LLM: one line per match
// (file:line:col [kind] text), one indented line per capture, then notes on
// truncation, skipped files and hints.
func (r *Result) Text() string {
	var b strings.Builder
	if len(r.Matches) == 0 {
		b.WriteString("No matches.")
		if r.FilesSearched == 0 {
			b.WriteString(" No files of that language were searched.")
		} else {
			fmt.Fprintf(&b, " %d %s searched.", r.FilesSearched, plural(r.FilesSearched, "file", "files"))
		}
		b.WriteByte('\n')
	}
	for _, m := range r.Matches {
		fmt.Fprintf(&b, "%s:%d:%d [%s] %s\n", m.File, m.StartLine, m.StartCol, m.NodeKind, snippet(m.Text))
		for _, name := range slices.Sorted(maps.Keys(m.MetaVariables.Single)) {
			fmt.Fprintf(&b, "  $%s = %s\n", name, snippet(m.MetaVariables.Single[name]))
		}
		for _, name := range slices.Sorted(maps.Keys(m.MetaVariables.Multi)) {
			fmt.Fprintf(&b, "  $$$%s = %s\n", name, snippet(strings.Join(m.MetaVariables.Multi[name], ", ")))
		}
	}
	if len(r.Matches) > 0 {
		fmt.Fprintf(&b, "%d %s", r.TotalMatches, plural(r.TotalMatches, "match", "matches"))
		if r.Truncated {
			fmt.Fprintf(&b, ", showing %d", len(r.Matches))
		}
		b.WriteString(".")
	}
	switch r.Reason {
	case ReasonMaxResults:
		b.WriteString(" Truncated by maxResults: narrow the path, globs or pattern to see the rest.")
	case ReasonTimeout:
		b.WriteString(" Stopped by the time limit: results are partial; narrow the search.")
	case ReasonCancelled:
		b.WriteString(" Cancelled: results are partial.")
	}
	if len(r.Matches) > 0 || r.Reason != "" {
		b.WriteByte('\n')
	}
	if r.SkippedFiles > 0 {
		fmt.Fprintf(&b, "%d %s skipped:", r.SkippedFiles, plural(r.SkippedFiles, "file", "files"))
		for i, s := range r.Skipped {
			if i == 5 {
				fmt.Fprintf(&b, " …")
				break
			}
			fmt.Fprintf(&b, " %s (%s)", s.File, s.Reason)
		}
		b.WriteByte('\n')
	}
	for _, h := range r.Hints {
		b.WriteString("Hint: " + h + "\n")
	}
	return b.String()
}

// snippet shortens multi-line text to its first line plus a count.
func snippet(s string) string {
	first, rest, multi := strings.Cut(s, "\n")
	if !multi {
		return s
	}
	return fmt.Sprintf("%s … (+%d lines)", strings.TrimRight(first, " \t\r"), strings.Count(rest, "\n")+1)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
