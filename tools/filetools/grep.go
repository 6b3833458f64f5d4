package filetools

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools/paging"
)

// GrepParams are grep's parameters.
type GrepParams struct {
	Pattern       string `json:"pattern" desc:"Go RE2 regular expression matched against each line, e.g. 'func\\s+New\\w*\\(' or 'TODO|FIXME'."`
	Path          string `json:"path,omitempty" desc:"File or directory to search (default: the workspace)."`
	CaseSensitive *bool  `json:"case_sensitive,omitempty" desc:"false matches regardless of case." default:"true"`
	Literal       bool   `json:"literal,omitempty" desc:"Treat pattern as plain text, not a regular expression."`
	FileType      string `json:"file_type,omitempty" desc:"Extensions or a language: 'rs', 'ts,tsx', 'python'."`
	ContextLines  *int   `json:"context_lines,omitempty" desc:"Lines shown before and after each match." min:"0" max:"10" default:"2"`
	MaxResults    int    `json:"max_results,omitempty" desc:"Most matches a page holds (over 500: 500)." min:"1" default:"50"`
	paging.Params
}

// GrepMatch is one matching line.
type GrepMatch struct {
	// File is the path relative to the workspace root.
	File string `json:"file"`
	// Line is the 1-based line number.
	Line int `json:"line"`
	// Column is the 1-based column (in characters) where the first match
	// on the line starts.
	Column int `json:"column"`
	// Text is the line, without its line break (cut after 500
	// characters).
	Text string `json:"text"`
	// Before and After are the context lines around it.
	Before []ContextLine `json:"before,omitempty"`
	After  []ContextLine `json:"after,omitempty"`
}

// ContextLine is a line shown around a match.
type ContextLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// GrepResult is grep's answer.
type GrepResult struct {
	// Pattern is the regular expression searched for.
	Pattern string `json:"pattern"`
	// Matches are the matching lines of this page, by file path then
	// line: at most MaxResults, and at most paging.MaxTextBytes of text.
	Matches []GrepMatch `json:"matches"`
	// Offset is the index of the first of Matches among all the matching
	// lines.
	Offset int `json:"offset,omitempty"`
	// NextOffset is the offset of the next page, 0 on the last.
	NextOffset int `json:"next_offset,omitempty"`
	// TotalMatches counts every matching line, also those left out.
	TotalMatches int `json:"total_matches"`
	// FilesWithMatches counts the files with at least one match.
	FilesWithMatches int `json:"files_with_matches"`
	// FilesSearched counts the files read.
	FilesSearched int `json:"files_searched"`
	// Truncated is set when matching lines were left out of this page.
	Truncated bool `json:"truncated"`
	// MaxResults is the limit applied.
	MaxResults int `json:"max_results"`
	// Message says what was found ("no matches ...", "showing N of M").
	Message string `json:"message"`
	// Suggestion says how to refine a truncated or empty search.
	Suggestion string `json:"suggestion,omitempty"`
	// Warnings list what was passed over: files too large, binary or
	// abandoned at the time limit, directories below the depth limit, a
	// lowered max_results.
	Warnings []string `json:"warnings,omitempty"`
}

// maxLineLen is how many characters of a line a result shows.
const maxLineLen = 500

// clockEvery is how many lines grep matches between looks at the clock.
const clockEvery = 16

// Grep searches file contents for a regular expression.
func (t *Tools) Grep(ctx context.Context, p GrepParams) (*GrepResult, error) {
	const tool = GrepName
	if p.Pattern == "" {
		return nil, &Error{Tool: tool, Msg: "pattern is required", Hint: "Give a regular expression such as 'func\\s+main' or set literal=true for plain text"}
	}
	limit, note, err := resultLimit(tool, p.MaxResults, DefaultGrepMaxResults)
	if err != nil {
		return nil, err
	}
	if err := paging.Check(p.Offset); err != nil {
		return nil, &Error{Tool: tool, Msg: err.Error()}
	}
	ctxLines := DefaultContextLines
	if p.ContextLines != nil {
		ctxLines = *p.ContextLines
		if ctxLines < 0 || ctxLines > MaxContextLines {
			return nil, &Error{Tool: tool, Msg: fmt.Sprintf("context_lines must be 0 to %d, got %d", MaxContextLines, ctxLines)}
		}
	}
	expr := p.Pattern
	if p.Literal {
		expr = regexp.QuoteMeta(expr)
	}
	flags := ""
	if p.CaseSensitive != nil && !*p.CaseSensitive {
		flags = "(?i)"
	}
	re, err := compileRegex(tool, expr, flags)
	if err != nil {
		return nil, err
	}
	base, err := t.resolve(ctx, tool, p.Path, true)
	if err != nil {
		return nil, err
	}
	w, err := t.walk(ctx, walkSpec{tool: tool, base: base, maxSize: t.cfg.MaxGrepFileSize})
	if err != nil {
		return nil, err
	}
	types := parseFileTypes(p.FileType)
	files := slices.DeleteFunc(slices.Clone(w.files), func(f search.File) bool { return !types.match(f.Path) })

	rd, err := search.NewReader(search.Options{Root: t.ws.Root(), MaxFileSize: t.cfg.MaxGrepFileSize})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	defer rd.Close()
	g := &grepper{re: re, context: ctxLines, limit: p.Offset + limit, clock: t.cfg.Clock, timeout: t.cfg.FileTimeout, wholeFile: unanchored(re.String())}
	res := &GrepResult{Pattern: re.String(), Matches: []GrepMatch{}, MaxResults: limit}
	var binary, badEncoding, timedOut []string
	perFile := map[string]int{}
	search.Ordered(ctx, len(files), search.OrderedLimits{Threads: t.cfg.Threads},
		func(ctx context.Context, i int) (*fileHits, int64) {
			h := g.file(ctx, rd, files[i])
			return h, int64(len(h.matches)) * 256
		},
		func(i int, h *fileHits) bool {
			switch {
			case h.skip == search.SkipBinary:
				binary = append(binary, h.path)
			case h.skip == search.SkipEncoding:
				badEncoding = append(badEncoding, h.path)
			case h.skip == search.SkipTooLarge:
				w.large = append(w.large, h.path)
			case h.skip == search.SkipEmpty:
				res.FilesSearched++
			case h.skip != "":
				w.unreadable = append(w.unreadable, h.path)
			case h.timedOut:
				timedOut = append(timedOut, h.path)
			case h.stopped: // the call was cancelled: reported below
			default:
				res.FilesSearched++
				if h.count > 0 {
					res.FilesWithMatches++
					perFile[h.path] = h.count
				}
				// h.matches are the file's first matches; those at
				// offset and after, up to the limit, are this page's.
				from := min(max(p.Offset-res.TotalMatches, 0), len(h.matches))
				room := limit - len(res.Matches)
				res.Matches = append(res.Matches, h.matches[from:min(from+room, len(h.matches))]...)
				res.TotalMatches += h.count
			}
			return true
		})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	if note != "" {
		res.Warnings = append(res.Warnings, note)
	}
	res.Warnings = append(res.Warnings, w.warnings(t.cfg.MaxDepth, t.cfg.MaxGrepFileSize)...)
	if len(timedOut) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d %s abandoned after the time limit of %s per file, matches in %s not reported (%s)",
			len(timedOut), plural(len(timedOut), "file was", "files were"), t.cfg.FileTimeout, plural(len(timedOut), "it", "them"), examples(timedOut)))
	}
	if len(binary) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d binary %s skipped (%s)", len(binary), plural(len(binary), "file", "files"), examples(binary)))
	}
	if len(badEncoding) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d %s not UTF-8 text, skipped (%s)", len(badEncoding), plural(len(badEncoding), "file is", "files are"), examples(badEncoding)))
	}
	res.Matches = res.Matches[:paging.Fit(res.Matches, limit, paging.ItemBytes, GrepMatch.size)]
	pg := paging.Page{Offset: p.Offset, Count: len(res.Matches), Total: res.TotalMatches}
	res.Offset, res.NextOffset = p.Offset, pg.Next()
	res.Truncated = res.TotalMatches > len(res.Matches)
	switch {
	case pg.PastEnd() != "":
		res.Message = fmt.Sprintf("No matches shown: %s matches (in %d files) for /%s/.", pg.PastEnd(), res.FilesWithMatches, p.Pattern)
	case res.TotalMatches == 0:
		res.Message = fmt.Sprintf("No matches for /%s/ in %d %s searched.", p.Pattern, res.FilesSearched, plural(res.FilesSearched, "file", "files"))
		res.Suggestion = grepEmptySuggestion(p, types, len(w.files), len(files))
	case res.Truncated:
		res.Message = fmt.Sprintf("Showing %s of %d matches (in %d files) for /%s/.", shown(pg), res.TotalMatches, res.FilesWithMatches, p.Pattern)
		if pg.Next() > 0 {
			res.Suggestion = fmt.Sprintf("%d matches not shown. Refine the search: a more specific pattern, a narrower path or a file_type. Most matches are in %s.",
				pg.Total-pg.Offset-pg.Count, topCounts(perFile))
			if limit < MaxResultsCap {
				res.Suggestion += fmt.Sprintf(" max_results can be raised up to %d.", MaxResultsCap)
			}
		}
	default:
		res.Message = fmt.Sprintf("Found %d %s in %d %s for /%s/ (%d files searched).", res.TotalMatches, plural(res.TotalMatches, "match", "matches"),
			res.FilesWithMatches, plural(res.FilesWithMatches, "file", "files"), p.Pattern, res.FilesSearched)
	}
	return res, nil
}

// shown names the items of a page: "50" for a first page, "51-100" for
// a later one.
func shown(pg paging.Page) string {
	if pg.Offset == 0 {
		return fmt.Sprint(pg.Count)
	}
	return fmt.Sprintf("%d-%d", pg.Offset+1, pg.Offset+pg.Count)
}

// size is at least the bytes of text m adds to a page: its line and
// context lines with their numbers, a "--" separator and its file's
// heading, counted as if it shared neither context nor heading.
func (m GrepMatch) size() int {
	const line = 16 // "  12345: " and the line break, with room to spare
	n := len(m.File) + 3 + 5 + len(m.Text) + line
	for _, c := range m.Before {
		n += len(c.Text) + line
	}
	for _, c := range m.After {
		n += len(c.Text) + line
	}
	return n
}

// grepEmptySuggestion says why a search may have found nothing.
func grepEmptySuggestion(p GrepParams, types fileTypes, walked, typed int) string {
	switch {
	case walked == 0:
		return "No files were found under the path; check it with list_directory or glob."
	case types != nil && typed == 0:
		return fmt.Sprintf("No files of type %s were found under the path; check file_type.", types)
	case p.CaseSensitive == nil || *p.CaseSensitive:
		return "Try case_sensitive=false, a shorter or more general pattern, or another path."
	}
	return "Try a shorter or more general pattern, or another path."
}

// topCounts lists the three files with the most matches.
func topCounts(perFile map[string]int) string {
	type fc struct {
		path string
		n    int
	}
	var all []fc
	for p, n := range perFile {
		all = append(all, fc{p, n})
	}
	slices.SortFunc(all, func(a, b fc) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return search.ComparePaths(a.path, b.path)
	})
	var parts []string
	for _, f := range all[:min(3, len(all))] {
		parts = append(parts, fmt.Sprintf("%s (%d)", f.path, f.n))
	}
	return strings.Join(parts, ", ")
}

// grepper searches one file at a time.
type grepper struct {
	re      *regexp.Regexp
	context int
	limit   int
	clock   func() time.Time
	timeout time.Duration
	// wholeFile: the pattern has no anchors, so a file that it does not
	// match as a whole has no matching line and is passed over after one
	// scan.
	wholeFile bool
}

// unanchored reports whether expr has no line or text anchors (^ $ \A
// \z): then it matches some line of a text only if it matches the text
// (a word boundary at a line's end sees the line break as a non-word
// character, as the end of the line is seen).
func unanchored(expr string) bool {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return false
	}
	var anchored func(*syntax.Regexp) bool
	anchored = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
			return true
		}
		return slices.ContainsFunc(re.Sub, anchored)
	}
	return !anchored(re)
}

// fileHits is the outcome of one file.
type fileHits struct {
	path     string
	matches  []GrepMatch // at most the limit
	count    int
	skip     search.SkipReason
	timedOut bool
	stopped  bool // the call was cancelled
}

// file reads one file through the pipeline's reader and screen and
// matches each line, giving up when the file's time is out (looked at
// every clockEvery lines).
func (g *grepper) file(ctx context.Context, rd *search.Reader, f search.File) *fileHits {
	h := &fileHits{path: f.Path}
	src, skip := rd.Read(f)
	if skip != nil {
		h.skip = skip.Reason
		return h
	}
	start := g.clock()
	src = bytes.TrimPrefix(src, []byte(bom))
	if g.wholeFile && !g.re.Match(src) {
		return h
	}
	lines := splitLines(src)
	for i, l := range lines {
		if i%clockEvery == 0 && g.clock().Sub(start) > g.timeout {
			h.timedOut, h.matches, h.count = true, nil, 0
			return h
		}
		if i%1024 == 1023 && ctx.Err() != nil {
			h.stopped = true
			return h
		}
		loc := g.re.FindIndex(l)
		if loc == nil {
			continue
		}
		h.count++
		if len(h.matches) >= g.limit {
			continue
		}
		m := GrepMatch{File: f.Path, Line: i + 1, Column: utf8.RuneCount(l[:loc[0]]) + 1, Text: clip(l)}
		for j := max(0, i-g.context); j < i; j++ {
			m.Before = append(m.Before, ContextLine{Line: j + 1, Text: clip(lines[j])})
		}
		for j := i + 1; j < min(len(lines), i+1+g.context); j++ {
			m.After = append(m.After, ContextLine{Line: j + 1, Text: clip(lines[j])})
		}
		h.matches = append(h.matches, m)
	}
	return h
}

// splitLines splits src into lines without their breaks ("\n" or "\r\n");
// a final break does not start another line.
func splitLines(src []byte) [][]byte {
	var out [][]byte
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			out = append(out, src)
			break
		}
		out = append(out, bytes.TrimSuffix(src[:i], []byte("\r")))
		src = src[i+1:]
	}
	return out
}

// clip is a line as a result shows it: at most maxLineLen characters.
func clip(l []byte) string {
	if utf8.RuneCount(l) <= maxLineLen {
		return string(l)
	}
	n := 0
	for i := range string(l) {
		if n == maxLineLen {
			return string(l[:i]) + " …[line cut]"
		}
		n++
	}
	return string(l)
}

// Text renders the result for the model: matches grouped by file, match
// lines marked "N:" and context lines "N-", "--" between separate parts.
func (r *GrepResult) Text() string {
	var b strings.Builder
	b.WriteString(r.Message)
	b.WriteByte('\n')
	width := 1
	for _, m := range r.Matches {
		for _, l := range append(append([]ContextLine{{Line: m.Line}}, m.Before...), m.After...) {
			width = max(width, len(fmt.Sprint(l.Line)))
		}
	}
	for i := 0; i < len(r.Matches); {
		j := i
		for j < len(r.Matches) && r.Matches[j].File == r.Matches[i].File {
			j++
		}
		b.WriteString("\n" + r.Matches[i].File + "\n")
		writeGroup(&b, r.Matches[i:j], width)
		i = j
	}
	writeMore(&b, r.Offset, len(r.Matches), r.TotalMatches)
	if r.Suggestion != "" {
		b.WriteString("\n" + r.Suggestion + "\n")
	}
	writeWarnings(&b, r.Warnings)
	return b.String()
}

// writeMore appends how to ask for the page after this one, if any.
func writeMore(b *strings.Builder, offset, count, total int) {
	if m := (paging.Page{Offset: offset, Count: count, Total: total}).More(); m != "" {
		b.WriteString("\n" + m + "\n")
	}
}

// writeGroup writes one file's matches with their context merged.
func writeGroup(b *strings.Builder, ms []GrepMatch, width int) {
	type shown struct {
		text  string
		match bool
	}
	lines := map[int]shown{}
	for _, m := range ms {
		for _, c := range append(slices.Clone(m.Before), m.After...) {
			if _, ok := lines[c.Line]; !ok {
				lines[c.Line] = shown{text: c.Text}
			}
		}
	}
	for _, m := range ms {
		lines[m.Line] = shown{text: m.Text, match: true}
	}
	nums := make([]int, 0, len(lines))
	for n := range lines {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	for k, n := range nums {
		if k > 0 && n != nums[k-1]+1 {
			b.WriteString("  --\n")
		}
		sep := "-"
		if lines[n].match {
			sep = ":"
		}
		fmt.Fprintf(b, "  %*d%s %s\n", width, n, sep, lines[n].text)
	}
}

// writeWarnings appends a result's warnings.
func writeWarnings(b *strings.Builder, warnings []string) {
	if len(warnings) == 0 {
		return
	}
	b.WriteString("\nWarnings:\n")
	for _, w := range warnings {
		b.WriteString("- " + w + "\n")
	}
}
