package filetools

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools/paging"
)

// SearchParams are search's parameters.
type SearchParams struct {
	Query       string   `json:"query" desc:"File name or part of one: 'registry', 'config.yaml', 'src/tools'."`
	Path        string   `json:"path,omitempty" desc:"Directory to search (default: the workspace root)."`
	FileType    string   `json:"file_type,omitempty" desc:"Extensions or a language: 'rs', 'ts,tsx', 'python'."`
	ExcludeDirs []string `json:"exclude_dirs,omitempty" desc:"Directories to skip: names at any depth ('vendor') or paths from the root ('src/generated')."`
	MaxResults  int      `json:"max_results,omitempty" desc:"Most files a page holds (over 500: 500)." min:"1" default:"50"`
	paging.Params
}

// Ranks of a file-name match, best first.
const (
	RankExact     = "exact"     // the file name, or its name without extension, is the query
	RankPrefix    = "prefix"    // the file name starts with the query
	RankSubstring = "substring" // the file name contains the query
	RankPath      = "path"      // the path contains the query (a directory name, or across a /)
	RankFuzzy     = "fuzzy"     // the query's letters and digits occur in order in the file name
)

var rankOrder = []string{RankExact, RankPrefix, RankSubstring, RankPath, RankFuzzy}

// SearchHit is one file found by name.
type SearchHit struct {
	// Path is relative to the workspace root.
	Path string `json:"path"`
	// Match is how the name matched: exact, prefix, substring, path or
	// fuzzy (see the Rank constants).
	Match string `json:"match"`
}

// SearchResult is search's answer.
type SearchResult struct {
	// Query is the query searched for.
	Query string `json:"query"`
	// Results are this page of the matching files, most relevant first:
	// at most MaxResults, and at most paging.MaxTextBytes of text.
	Results []SearchHit `json:"results"`
	// Offset is the index of the first of Results among all the
	// matching files.
	Offset int `json:"offset,omitempty"`
	// NextOffset is the offset of the next page, 0 on the last.
	NextOffset int `json:"next_offset,omitempty"`
	// TotalMatches counts every matching file, also those left out.
	TotalMatches int `json:"total_matches"`
	// Truncated is set when matching files were left out of this page.
	Truncated bool `json:"truncated"`
	// MaxResults is the limit applied.
	MaxResults int `json:"max_results"`
	// Message says what was found.
	Message string `json:"message"`
	// Suggestion says how to refine a truncated or empty result.
	Suggestion string `json:"suggestion,omitempty"`
	// Warnings list what was passed over.
	Warnings []string `json:"warnings,omitempty"`
}

// Search finds files by name, ranked by relevance: exact name, then
// prefix, substring, path and fuzzy matches; within a rank, a match in
// the query's own case first, then shallower paths, shorter names, and
// path order (for fuzzy matches, the tightest first).
func (t *Tools) Search(ctx context.Context, p SearchParams) (*SearchResult, error) {
	const tool = SearchName
	query := strings.TrimSpace(p.Query)
	if query == "" {
		return nil, &Error{Tool: tool, Msg: "query is required", Hint: "Give a file name or part of one, e.g. 'registry' or 'main.go'"}
	}
	limit, note, err := resultLimit(tool, p.MaxResults, DefaultSearchMaxResults)
	if err != nil {
		return nil, err
	}
	if err := paging.Check(p.Offset); err != nil {
		return nil, &Error{Tool: tool, Msg: err.Error()}
	}
	base, err := t.resolve(ctx, tool, p.Path, true)
	if err != nil {
		return nil, err
	}
	w, err := t.walk(ctx, walkSpec{tool: tool, base: base, excludes: p.ExcludeDirs, dirsOnly: true})
	if err != nil {
		return nil, err
	}
	if w.isFile() {
		return nil, &Error{Tool: tool, Path: p.Path, Msg: "path is a file, not a directory", Hint: "Set path to the directory to search in, or leave it out for the whole workspace"}
	}
	types := parseFileTypes(p.FileType)
	type ranked struct {
		hit   SearchHit
		score nameScore
	}
	var found []ranked
	typed := 0
	for _, f := range w.files {
		if !types.match(f.Path) {
			continue
		}
		typed++
		if s, ok := scoreName(query, f.Path); ok {
			found = append(found, ranked{SearchHit{Path: f.Path, Match: rankOrder[s.rank]}, s})
		}
	}
	slices.SortFunc(found, func(a, b ranked) int {
		if c := a.score.compare(b.score); c != 0 {
			return c
		}
		return search.ComparePaths(a.hit.Path, b.hit.Path)
	})
	res := &SearchResult{Query: query, Results: []SearchHit{}, MaxResults: limit, TotalMatches: len(found)}
	rest := found[min(p.Offset, len(found)):]
	for _, r := range rest[:paging.Fit(rest, limit, paging.ItemBytes, func(r ranked) int { return len(r.hit.Path) + len(r.hit.Match) + 5 })] {
		res.Results = append(res.Results, r.hit)
	}
	pg := paging.Page{Offset: p.Offset, Count: len(res.Results), Total: res.TotalMatches}
	res.Offset, res.NextOffset = p.Offset, pg.Next()
	res.Truncated = res.TotalMatches > len(res.Results)
	if note != "" {
		res.Warnings = append(res.Warnings, note)
	}
	res.Warnings = append(res.Warnings, w.warnings(t.cfg.MaxDepth, 0)...)
	switch {
	case pg.PastEnd() != "":
		res.Message = fmt.Sprintf("No files shown: %s files matching %q.", pg.PastEnd(), query)
	case res.TotalMatches == 0:
		res.Message = fmt.Sprintf("No file names match %q (%d files looked at).", query, typed)
		switch {
		case types != nil && typed == 0:
			res.Suggestion = fmt.Sprintf("No files of type %s were found under the path; check file_type.", types)
		default:
			res.Suggestion = "Try a shorter part of the name, drop file_type or exclude_dirs, or use grep to search file contents."
		}
	case res.Truncated:
		res.Message = fmt.Sprintf("Showing the %s most relevant of %d files matching %q.", shown(pg), res.TotalMatches, query)
		if pg.Next() > 0 {
			res.Suggestion = fmt.Sprintf("%d files not shown. Refine the query (a longer part of the name, with its extension), set file_type, path or exclude_dirs.", pg.Total-pg.Offset-pg.Count)
			if limit < MaxResultsCap {
				res.Suggestion += fmt.Sprintf(" max_results can be raised up to %d.", MaxResultsCap)
			}
		}
	default:
		res.Message = fmt.Sprintf("Found %d %s matching %q, most relevant first.", res.TotalMatches, plural(res.TotalMatches, "file", "files"), query)
	}
	return res, nil
}

// nameScore orders matches: lower is better, field by field.
type nameScore struct {
	rank     int // index in rankOrder
	caseMiss int // 0 when the query occurs in its own case
	span     int // fuzzy: how far apart the query's characters lie
	depth    int // path components
	length   int // file name length
}

func (a nameScore) compare(b nameScore) int {
	return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.caseMiss, b.caseMiss), cmp.Compare(a.span, b.span),
		cmp.Compare(a.depth, b.depth), cmp.Compare(a.length, b.length))
}

// scoreName scores file path p against query; ok is false when it does
// not match at all.
func scoreName(query, p string) (nameScore, bool) {
	name := path.Base(p)
	s := nameScore{depth: strings.Count(p, "/"), length: len(name)}
	q, lname := strings.ToLower(query), strings.ToLower(name)
	stem := lname
	if i := strings.LastIndexByte(lname, '.'); i > 0 {
		stem = lname[:i]
	}
	inCase := func(hay string) int {
		if strings.Contains(hay, query) {
			return 0
		}
		return 1
	}
	switch {
	case lname == q || stem == q:
		s.rank = 0
		s.caseMiss = inCase(name)
	case strings.HasPrefix(lname, q):
		s.rank = 1
		s.caseMiss = inCase(name)
	case strings.Contains(lname, q):
		s.rank = 2
		s.caseMiss = inCase(name)
	case strings.Contains(strings.ToLower(p), q):
		s.rank = 3
		s.caseMiss = inCase(p)
	default:
		span, ok := fuzzySpan(q, lname)
		if !ok {
			return s, false
		}
		s.rank, s.span, s.caseMiss = 4, span, 1
	}
	return s, true
}

// fuzzySpan finds the letters and digits of q, in order, in name
// (leftmost), and returns how many characters the match spans.
func fuzzySpan(q, name string) (int, bool) {
	want := []rune{}
	for _, r := range q {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			want = append(want, r)
		}
	}
	if len(want) == 0 {
		return 0, false
	}
	rs := []rune(name)
	start, k := -1, 0
	for i, r := range rs {
		if r != want[k] {
			continue
		}
		if k == 0 {
			start = i
		}
		k++
		if k == len(want) {
			return i - start + 1, true
		}
	}
	return 0, false
}

// Text renders the result for the model: one file a line with how it
// matched.
func (r *SearchResult) Text() string {
	var b strings.Builder
	b.WriteString(r.Message + "\n")
	if len(r.Results) > 0 {
		b.WriteByte('\n')
		for _, h := range r.Results {
			fmt.Fprintf(&b, "%s  (%s)\n", h.Path, h.Match)
		}
	}
	writeMore(&b, r.Offset, len(r.Results), r.TotalMatches)
	if r.Suggestion != "" {
		b.WriteString("\n" + r.Suggestion + "\n")
	}
	writeWarnings(&b, r.Warnings)
	return b.String()
}
