package astgrep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/search"
	"github.com/loupe-dev/loupe/tools/paging"
)

// Config sets up a Tool.
type Config struct {
	// Workspace is the root every path must stay inside (required).
	Workspace string
	// Timeout bounds one call (default 30 s); on timeout the matches found
	// so far are returned with Truncated set and Reason "timeout".
	Timeout time.Duration
	// MaxFileSize skips larger files, reported in Skipped (default 10 MiB).
	MaxFileSize int64
	// Cache keeps parsed trees between calls (default search.Default).
	Cache *search.Cache
	// Limits bound the matching of one call (see match.Limits; zero
	// fields take their defaults): a rule that would take more steps per
	// node or produce more text fails the call with an error wrapping
	// match.ErrBudget, and the tool goes on serving.
	Limits match.Limits
	// Shard, when its Count is over 1, searches only that shard of the
	// files (see search.Shard): Count tools with Index 0..Count-1 split a
	// call between them, and Merge turns their results into the whole one
	// (each carries Result.Shard for it).
	Shard search.Shard
	// LangGlobs maps a language name to file-name globs that select it
	// ahead of the extension table (sgconfig.yml's languageGlobs, see
	// search.Options.LangGlobs): with {cmake: ['CMakeLists.txt']}, a
	// search of cmake reads CMakeLists.txt files, and a path naming one
	// needs no language.
	LangGlobs map[string][]string
}

// Tool runs ast_grep calls inside one workspace. It is safe for concurrent use.
type Tool struct {
	cfg   Config
	ws    search.Workspace
	langs *search.LanguageTable // of cfg.LangGlobs
}

// New opens the workspace and returns the tool.
func New(cfg Config) (*Tool, error) {
	if cfg.Workspace == "" {
		return nil, errors.New("ast_grep: no workspace root")
	}
	ws, err := search.OpenWorkspace(cfg.Workspace)
	if err != nil {
		return nil, fmt.Errorf("ast_grep: %w", err)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxFileSize <= 0 {
		cfg.MaxFileSize = search.DefaultMaxFileSize
	}
	if cfg.Cache == nil {
		cfg.Cache = search.Default
	}
	langs, err := search.NewLanguageTable(cfg.LangGlobs)
	if err != nil {
		return nil, fmt.Errorf("ast_grep: %w", err)
	}
	return &Tool{cfg: cfg, ws: ws, langs: langs}, nil
}

// query is a compiled search: a matcher per language plus what the hints
// need to know about it.
type query struct {
	lang      *language.Language
	matcher   match.Matcher
	prefilter search.Prefilter // nil: every file is parsed
	hints     func() []string  // why an empty result may be empty, beyond "no files"
	// fallback, when set, is run if the query finds nothing: the same
	// query in a form the grammar reads as intended, its results labelled
	// with fallbackHint.
	fallback     *query
	fallbackHint string
}

// Run executes one call. Invalid parameters (both or neither of pattern and
// rule, an unknown language, a path outside the workspace, a pattern or rule
// that does not compile) are errors; a timeout or cancellation is not: the
// matches found so far come back with Truncated and Reason set.
func (t *Tool) Run(ctx context.Context, p Params) (*Result, error) {
	hasRule := p.Rule != nil && !(isString(p.Rule) && strings.TrimSpace(p.Rule.(string)) == "")
	switch {
	case p.Pattern != "" && hasRule:
		return nil, errors.New("ast_grep: provide exactly one of pattern or rule, not both")
	case p.Pattern == "" && !hasRule:
		return nil, errors.New("ast_grep: provide exactly one of pattern or rule")
	}
	maxResults, err := resultLimit(p.MaxResults)
	if err != nil {
		return nil, err
	}
	if err := paging.Check(p.Offset); err != nil {
		return nil, fmt.Errorf("ast_grep: %w", err)
	}
	// The page: a shard keeps its matches from the start, as it cannot tell
	// which of them the whole search puts before offset; Merge cuts the
	// page from them.
	page := bounded{skip: p.Offset, limit: maxResults}
	if t.cfg.Shard.Count > 1 {
		page = bounded{from: p.Offset, limit: p.Offset + maxResults}
	}
	abs, rel, err := t.ws.Resolve(p.Path)
	if err != nil {
		return nil, fmt.Errorf("ast_grep: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("ast_grep: path %q: %w", p.Path, err)
	}
	var ruleObj map[string]any
	langName := p.Language
	if hasRule {
		var ruleLang string
		if ruleObj, ruleLang, err = ruleObject(p.Rule); err != nil {
			return nil, err
		}
		if langName == "" {
			langName = ruleLang
		}
	}
	lang, err := t.pickLanguage(langName, rel, fi.IsDir())
	if err != nil {
		return nil, err
	}

	ctx, cancel := context.WithTimeout(ctx, t.cfg.Timeout)
	defer cancel()
	ctx = match.WithLimits(ctx, t.cfg.Limits)
	var q *query
	if p.Pattern != "" {
		q, err = compilePattern(ctx, lang, p.Pattern)
	} else {
		q, err = compileRule(ctx, lang, ruleObj)
	}
	if err != nil {
		if reason := stopReason(ctx.Err()); reason != "" {
			// Stopped before the search began: an empty, partial result.
			return &Result{Matches: []Match{}, Truncated: true, Reason: reason}, nil
		}
		return nil, err
	}
	res, err := t.search(ctx, q, abs, p.Globs, page)
	if err != nil {
		return nil, err
	}
	var alt *Result
	if res.TotalMatches == 0 && res.Reason == "" && q.fallback != nil {
		if alt, err = t.search(ctx, q.fallback, abs, p.Globs, page); err != nil {
			return nil, err
		}
		if alt.TotalMatches > 0 {
			if t.cfg.Shard.Count <= 1 {
				alt.setPage(p.Offset)
			}
			alt.Hints = append(alt.Hints, q.fallbackHint)
			if t.cfg.Shard.Count > 1 {
				alt.Shard = &ShardInfo{Query: res}
			}
			return alt, nil
		}
	}
	noFiles := false
	if res.TotalMatches == 0 && res.Reason == "" {
		if res.FilesSearched == 0 {
			noFiles = true
			res.Hints = append(res.Hints, fmt.Sprintf("no %s files (extensions %s) were found under path; check path, globs and language",
				lang.Name(), "."+strings.Join(lang.Extensions(), ", .")))
		}
		res.Hints = append(res.Hints, q.hints()...)
	}
	if t.cfg.Shard.Count > 1 {
		res.Shard = &ShardInfo{NoFilesHint: noFiles, Fallback: alt}
	}
	if t.cfg.Shard.Count <= 1 {
		res.setPage(p.Offset)
	}
	return res, nil
}

// resultLimit applies maxResults' default and cap.
func resultLimit(maxResults int) (int, error) {
	switch {
	case maxResults == 0:
		return DefaultMaxResults, nil
	case maxResults < 0:
		return 0, fmt.Errorf("ast_grep: maxResults must be positive, got %d", maxResults)
	case maxResults > MaxResultsCap:
		return MaxResultsCap, nil
	}
	return maxResults, nil
}

func isString(v any) bool { _, ok := v.(string); return ok }

func (t *Tool) pickLanguage(name, rel string, dir bool) (*language.Language, error) {
	if name != "" {
		l, err := language.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("ast_grep: %w", err)
		}
		return l, nil
	}
	if dir {
		return nil, errors.New("ast_grep: language is required when path is a directory (e.g. typescript, python, go)")
	}
	if l := t.langs.ForPath(rel); l != nil {
		return l, nil
	}
	if l, ok := language.ForPath(rel); ok {
		return l, nil
	}
	return nil, fmt.Errorf("ast_grep: cannot tell the language of %q from its extension; pass language", rel)
}

// search runs q and keeps the matches page (an empty bounded) takes.
func (t *Tool) search(ctx context.Context, q *query, abs string, globs []string, page bounded) (*Result, error) {
	res := &Result{Matches: []Match{}}
	opts := search.Options{
		Root:        t.ws.Root(),
		Paths:       []string{abs},
		Globs:       globs,
		Lang:        q.lang,
		MaxFileSize: t.cfg.MaxFileSize,
		Cache:       t.cfg.Cache,
		Prefilter:   q.prefilter,
		Shard:       t.cfg.Shard,
		LangGlobs:   t.cfg.LangGlobs,
	}
	matcherFor := func(l *language.Language) (match.Matcher, error) {
		if l != q.lang {
			return nil, nil
		}
		return q.matcher, nil
	}
	kept := page
	st, err := search.Search(ctx, opts, matcherFor, func(fm search.FileMatches) error {
		for _, m := range fm.Matches {
			res.TotalMatches++
			kept.add(func() Match { return newMatch(fm.File.Path, m.Node, m.Env) })
		}
		return nil
	})
	res.Matches = kept.matches
	if res.Matches == nil {
		res.Matches = []Match{}
	}
	res.FilesSearched = st.Searched + st.Prefiltered
	for _, s := range st.Skipped {
		res.Skipped = append(res.Skipped, Skipped{File: s.Path, Reason: string(s.Reason)})
	}
	res.SkippedFiles = len(res.Skipped)
	if reason := kept.reason(res.TotalMatches); reason != "" {
		res.Truncated, res.Reason = true, reason
	}
	if err != nil {
		reason := stopReason(err)
		if reason == "" {
			if errors.Is(err, match.ErrBudget) {
				return nil, fmt.Errorf("ast_grep: %w; simplify the rule or narrow the path", err)
			}
			return nil, fmt.Errorf("ast_grep: %w", err)
		}
		res.Truncated, res.Reason = true, reason
	}
	return res, nil
}

// stopReason names why a context ended: timeout, cancelled, or "" when err
// is not a context error.
func stopReason(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return ReasonTimeout
	case errors.Is(err, context.Canceled):
		return ReasonCancelled
	}
	return ""
}
