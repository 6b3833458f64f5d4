package astgrep

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/rule"
	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/tools/paging"
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
	ReasonMaxBytes   = "maxBytes"
	ReasonTimeout    = "timeout"
	ReasonCancelled  = "cancelled"
)

// Bounds on the bytes of a result, whatever maxResults allows: $A over a
// file of deeply nested brackets matches every bracket, each match holding
// the text of all those inside it.
const (
	// MaxTextBytes bounds one text of a match (its matched text, each
	// capture): a longer one keeps its first MaxTextBytes bytes (cut at a
	// character boundary) followed by an elision marker, "…[N bytes
	// elided]".
	MaxTextBytes = 8 << 10
	// MaxResultBytes bounds the matches of one result together (their
	// texts, captures and paths); the first match that would go over it
	// and every later one are left out, counted in TotalMatches, with
	// Reason maxBytes. The text of a result is bounded more tightly, to
	// paging.MaxTextBytes: the page ends before the first match whose
	// lines would cross it (its first match is always kept), with Reason
	// maxBytes too.
	MaxResultBytes = 1 << 20
)

// elide cuts s to MaxTextBytes bytes and marks the cut.
func elide(s string) string {
	if len(s) <= MaxTextBytes {
		return s
	}
	cut := MaxTextBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…[%d bytes elided]", s[:cut], len(s)-cut)
}

// size is the bytes m adds to a result.
func (m *Match) size() int {
	n := len(m.File) + len(m.Text) + len(m.NodeKind) + 64
	for k, v := range m.MetaVariables.Single {
		n += len(k) + len(v) + 8
	}
	for k, vs := range m.MetaVariables.Multi {
		n += len(k) + 8
		for _, v := range vs {
			n += len(v) + 4
		}
	}
	return n
}

// textSize is the bytes of the lines m adds to the text of a result.
func (m *Match) textSize() int {
	var b strings.Builder
	writeMatch(&b, m)
	return b.Len()
}

// bounded accumulates one page of matches, given every match in order:
// it passes over the first skip, then keeps up to limit, within
// MaxResultBytes and paging.MaxTextBytes. The first from matches kept are
// not counted against the byte bounds: a shard keeps every match from the
// start (it cannot tell which of its matches before the call's offset
// fall in the page) and is bounded from the offset on (see Run).
type bounded struct {
	skip, from, limit int
	seen, bytes, text int
	full              bool // a match went over a byte bound: no more are kept
	matches           []Match
}

// wants reports whether the next match would be kept if it fits, so a
// caller converts only those.
func (b *bounded) wants() bool {
	return !b.full && b.seen >= b.skip && len(b.matches) < b.limit
}

// add counts the next match and keeps it if it belongs to the page and
// fits; m is called only then.
func (b *bounded) add(m func() Match) {
	keep := b.wants()
	b.seen++
	if !keep {
		return
	}
	mm := m()
	if len(b.matches) >= b.from {
		sz, tz := mm.size(), mm.textSize()
		if b.bytes+sz > MaxResultBytes || (len(b.matches) > b.from && b.text+tz > paging.ItemBytes) {
			b.full = true
			return
		}
		b.bytes += sz
		b.text += tz
	}
	b.matches = append(b.matches, mm)
}

// reason is why matches after the page were left out ("" if none were).
func (b *bounded) reason(total int) string {
	switch {
	case b.full:
		return ReasonMaxBytes
	case total > b.skip+len(b.matches):
		return ReasonMaxResults
	}
	return ""
}

// Result is the ast_grep tool's answer.
type Result struct {
	// Matches are one page of the matches, in file order, from Offset.
	Matches []Match `json:"matches"`
	// Offset is the index of the first of Matches among all the matches.
	Offset int `json:"offset,omitempty"`
	// NextOffset is the offset of the next page, 0 on the last (or when
	// the search was stopped, as its total is then unknown).
	NextOffset    int       `json:"next_offset,omitempty"`
	Truncated     bool      `json:"truncated"`
	TotalMatches  int       `json:"totalMatches"`
	FilesSearched int       `json:"filesSearched"`
	SkippedFiles  int       `json:"skippedFiles"`
	Skipped       []Skipped `json:"skipped,omitempty"`
	// Reason says why the result is truncated: maxResults or maxBytes
	// (the page is full, NextOffset starts the next), timeout or
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
		Text:      elide(n.Text()),
		NodeKind:  n.Kind(),
		MetaVariables: MetaVars{
			Single: map[string]string{},
			Multi:  map[string][]string{},
		},
	}
	env.Singles(func(name string, v tree.Node) {
		m.MetaVariables.Single[name] = elide(v.Text())
	})
	env.Multis(func(name string, nodes []tree.Node) {
		if name == rule.SecondaryLabel {
			return // the related nodes of a relational rule, not a capture
		}
		texts := make([]string, 0, len(nodes))
		for _, v := range nodes {
			if v.IsNamed() {
				texts = append(texts, elide(v.Text()))
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
	for i := range r.Matches {
		writeMatch(&b, &r.Matches[i])
	}
	if len(r.Matches) > 0 {
		fmt.Fprintf(&b, "%d %s", r.TotalMatches, plural(r.TotalMatches, "match", "matches"))
		switch {
		case r.Offset > 0:
			fmt.Fprintf(&b, ", showing %d-%d", r.Offset+1, r.Offset+len(r.Matches))
		case r.Truncated:
			fmt.Fprintf(&b, ", showing %d", len(r.Matches))
		}
		b.WriteString(".")
	} else if r.Offset > 0 && r.Offset >= r.TotalMatches {
		b.Reset()
		fmt.Fprintf(&b, "No matches shown: offset %d is past the end: there are %d.", r.Offset, r.TotalMatches)
	}
	switch r.Reason {
	case ReasonMaxResults:
		b.WriteString(" Truncated by maxResults: narrow the path, globs or pattern, or page on.")
	case ReasonMaxBytes:
		b.WriteString(" Truncated at the size bound of a page: narrow the path, globs or pattern, match smaller nodes, or page on.")
	case ReasonTimeout:
		b.WriteString(" Stopped by the time limit: results are partial; narrow the search.")
	case ReasonCancelled:
		b.WriteString(" Cancelled: results are partial.")
	}
	if len(r.Matches) > 0 || r.Reason != "" || r.Offset > 0 {
		b.WriteByte('\n')
	}
	if m := r.page().More(); m != "" && r.NextOffset > 0 {
		b.WriteString(m + "\n")
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

// writeMatch writes one match's lines: file:line:col [kind] text, then
// one indented line per capture.
func writeMatch(b *strings.Builder, m *Match) {
	fmt.Fprintf(b, "%s:%d:%d [%s] %s\n", m.File, m.StartLine, m.StartCol, m.NodeKind, snippet(m.Text))
	for _, name := range slices.Sorted(maps.Keys(m.MetaVariables.Single)) {
		fmt.Fprintf(b, "  $%s = %s\n", name, snippet(m.MetaVariables.Single[name]))
	}
	for _, name := range slices.Sorted(maps.Keys(m.MetaVariables.Multi)) {
		fmt.Fprintf(b, "  $$$%s = %s\n", name, snippet(strings.Join(m.MetaVariables.Multi[name], ", ")))
	}
}

// page is where r's matches lie among all of them.
func (r *Result) page() paging.Page {
	return paging.Page{Offset: r.Offset, Count: len(r.Matches), Total: r.TotalMatches}
}

// setPage records that r's matches start at offset and, when the page is
// full (not stopped), where the next page starts.
func (r *Result) setPage(offset int) {
	r.Offset, r.NextOffset = offset, 0
	if r.Reason == ReasonMaxResults || r.Reason == ReasonMaxBytes {
		r.NextOffset = r.page().Next()
	}
}

// maxSnippet is the most bytes of a line the text shows of a match or a
// capture.
const maxSnippet = 400

// snippet shortens text to its first line, at most maxSnippet bytes,
// saying how much is left out.
func snippet(s string) string {
	first, rest, multi := strings.Cut(s, "\n")
	more := ""
	if multi {
		first = strings.TrimRight(first, " \t\r")
		more = fmt.Sprintf(" (+%d lines)", strings.Count(rest, "\n")+1)
	}
	if len(first) > maxSnippet {
		cut := maxSnippet
		for cut > 0 && !utf8.RuneStart(first[cut]) {
			cut--
		}
		return fmt.Sprintf("%s…[%d bytes]%s", first[:cut], len(first)-cut, more)
	}
	if multi {
		return first + " …" + more
	}
	return first
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
