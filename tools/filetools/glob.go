package filetools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/loupe-dev/loupe/tools/paging"
)

// GlobParams are glob's parameters.
type GlobParams struct {
	Pattern    string   `json:"pattern" desc:"Glob relative to path: '**/*.tsx', 'src/**/*.test.ts', '*.{js,ts}'."`
	Path       string   `json:"path,omitempty" desc:"Directory the pattern starts from (default: the workspace root)."`
	Exclude    []string `json:"exclude,omitempty" desc:"More to leave out: names at any depth ('vendor', '*.min.js') or paths from the root ('src/generated')."`
	MaxResults int      `json:"max_results,omitempty" desc:"Most files a page holds (over 500: 500)." min:"1" default:"100"`
	paging.Params
}

// GlobResult is glob's answer.
type GlobResult struct {
	// Pattern is the pattern matched.
	Pattern string `json:"pattern"`
	// Files are this page of the matching files, relative to the
	// workspace root, sorted alphabetically: at most MaxResults, and at
	// most paging.MaxTextBytes of text.
	Files []string `json:"files"`
	// Offset is the index of the first of Files among all the matching
	// files.
	Offset int `json:"offset,omitempty"`
	// NextOffset is the offset of the next page, 0 on the last.
	NextOffset int `json:"next_offset,omitempty"`
	// TotalFiles counts every matching file, also those left out.
	TotalFiles int `json:"total_files"`
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

// Glob finds files whose paths match a glob pattern.
func (t *Tools) Glob(ctx context.Context, p GlobParams) (*GlobResult, error) {
	const tool = GlobName
	if err := checkGlob(p.Pattern); err != nil {
		return nil, err
	}
	limit, note, err := resultLimit(tool, p.MaxResults, DefaultGlobMaxResults)
	if err != nil {
		return nil, err
	}
	if err := paging.Check(p.Offset); err != nil {
		return nil, &Error{Tool: tool, Msg: err.Error()}
	}
	dir, err := t.resolve(ctx, tool, p.Path, true)
	if err != nil {
		return nil, err
	}
	// Walk from the pattern's literal directory only: it is searched even
	// when it lies inside a default exclusion (node_modules/react/**).
	res := &GlobResult{Pattern: p.Pattern, Files: []string{}, MaxResults: limit}
	litDir, _ := doublestar.SplitPattern(p.Pattern)
	start := dir
	if litDir != "." {
		start, err = t.resolve(ctx, tool, path.Join(dir.display(), litDir), true)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				res.Message = fmt.Sprintf("No files match %q: the directory %s does not exist.", p.Pattern, path.Join(dir.display(), litDir))
				res.Suggestion = "Check the directory part of the pattern with list_directory, or start the pattern with **/ to match at any depth."
				return res, nil
			}
			return nil, err
		}
	}
	w, err := t.walk(ctx, walkSpec{tool: tool, base: start, excludes: p.Exclude})
	if err != nil {
		return nil, err
	}
	if w.isFile() {
		if litDir == "." {
			return nil, &Error{Tool: tool, Path: p.Path, Msg: "path is a file, not a directory", Hint: "Set path to the directory to search in, or leave it out for the whole workspace"}
		}
		// The pattern's directory part names a file: nothing below it.
		w.files = nil
	}
	var matched []string
	for _, f := range w.files {
		rel := f.Path
		if dir.rel != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(f.Path, dir.rel+"/"); !ok {
				continue
			}
		}
		if doublestar.MatchUnvalidated(p.Pattern, rel) {
			matched = append(matched, f.Path)
		}
	}
	slices.Sort(matched)
	res.TotalFiles = len(matched)
	rest := matched[min(p.Offset, len(matched)):]
	res.Files = append(res.Files, rest[:paging.Fit(rest, limit, paging.ItemBytes, lineSize)]...)
	pg := paging.Page{Offset: p.Offset, Count: len(res.Files), Total: res.TotalFiles}
	res.Offset, res.NextOffset = p.Offset, pg.Next()
	res.Truncated = res.TotalFiles > len(res.Files)
	if note != "" {
		res.Warnings = append(res.Warnings, note)
	}
	res.Warnings = append(res.Warnings, w.warnings(t.cfg.MaxDepth, 0)...)
	switch {
	case pg.PastEnd() != "":
		res.Message = fmt.Sprintf("No files shown: %s files matching %q.", pg.PastEnd(), p.Pattern)
	case res.TotalFiles == 0:
		res.Message = fmt.Sprintf("No files match %q (%d files looked at).", p.Pattern, len(w.files))
		res.Suggestion = "Use **/ to match at any depth (e.g. '**/*.tsx'), check the directory part with list_directory, or try search for a file name. " +
			"Ignored files (.gitignore) and the default exclusions (node_modules, dist, build, target, caches, ...) are left out unless path or the pattern starts inside them."
	case res.Truncated:
		res.Message = fmt.Sprintf("Showing %s of %d files matching %q.", shown(pg), res.TotalFiles, p.Pattern)
		if pg.Next() > 0 {
			res.Suggestion = fmt.Sprintf("%d files not shown. Narrow the pattern (a directory prefix such as 'src/**/*.ts', a more specific name) or add exclude entries; most matches are under %s.",
				pg.Total-pg.Offset-pg.Count, topDirs(matched))
			if limit < MaxResultsCap {
				res.Suggestion += fmt.Sprintf(" max_results can be raised up to %d.", MaxResultsCap)
			}
		}
	default:
		res.Message = fmt.Sprintf("Found %d %s matching %q.", res.TotalFiles, plural(res.TotalFiles, "file", "files"), p.Pattern)
	}
	return res, nil
}

// checkGlob refuses an empty, absolute, escaping or malformed pattern,
// saying what is wrong.
func checkGlob(pattern string) error {
	const tool = GlobName
	const examples = "Valid patterns: '**/*.tsx', 'src/**/*.test.ts', '*.{js,ts}', 'lib/[a-m]*.go'; escape a literal *, ?, [ or { with a backslash"
	switch {
	case pattern == "":
		return &Error{Tool: tool, Msg: "pattern is required", Hint: examples}
	case strings.HasPrefix(pattern, "/"):
		return &Error{Tool: tool, Msg: fmt.Sprintf("invalid glob pattern %q: it must be relative to path (the workspace root by default), not absolute", pattern), Hint: examples}
	case slices.Contains(strings.Split(pattern, "/"), ".."):
		return &Error{Tool: tool, Msg: fmt.Sprintf("invalid glob pattern %q: '..' is not allowed, patterns stay inside the workspace", pattern), Hint: "Set path to the directory to search from instead. " + examples}
	}
	if doublestar.ValidatePattern(pattern) {
		return nil
	}
	return &Error{Tool: tool, Msg: fmt.Sprintf("invalid glob pattern %q: %s", pattern, globProblem(pattern)), Hint: examples}
}

// globProblem names what makes a pattern malformed.
func globProblem(p string) string {
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i+1 >= len(p) {
				return "it ends with a lone backslash"
			}
			i++
		case '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end < 0 {
				return "a '[' character class is not closed with ']'"
			}
			if end == 0 || (end == 1 && (p[i+1] == '!' || p[i+1] == '^')) {
				return "a character class '[]' is empty"
			}
			i += end + 1
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return "a '}' has no matching '{'"
			}
			depth--
		}
	}
	if depth > 0 {
		return "a '{' alternative group is not closed with '}'"
	}
	return "it is not a valid glob"
}

// lineSize is the bytes of a path on a line of its own.
func lineSize(s string) int { return len(s) + 1 }

// topDirs lists the three top-level directories with the most paths.
func topDirs(paths []string) string {
	counts := map[string]int{}
	for _, p := range paths {
		top, _, found := strings.Cut(p, "/")
		if found {
			top += "/"
		}
		counts[top]++
	}
	return topCounts(counts)
}

// Text renders the result for the model: the files, one a line.
func (r *GlobResult) Text() string {
	var b strings.Builder
	b.WriteString(r.Message + "\n")
	if len(r.Files) > 0 {
		b.WriteString("\n" + strings.Join(r.Files, "\n") + "\n")
	}
	writeMore(&b, r.Offset, len(r.Files), r.TotalFiles)
	if r.Suggestion != "" {
		b.WriteString("\n" + r.Suggestion + "\n")
	}
	writeWarnings(&b, r.Warnings)
	return b.String()
}
