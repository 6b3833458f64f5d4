package astgrep

import (
	"slices"

	"github.com/loupe-dev/loupe/core/search"
)

// ShardInfo is what a shard's result says for Merge beyond what it shows:
// which of its hints depend on the shard's own files, and, where the
// query's fallback ran (a pattern that matches nothing as written, see
// callRewrites), what the other of the two searches found, since whether a
// single tool returns the fallback's matches depends on every shard.
type ShardInfo struct {
	// NoFilesHint is set when Hints[0] says that no file of the language
	// was found: the shard had none, which the whole search may have.
	NoFilesHint bool `json:"noFilesHint,omitempty"`
	// Query, set when the result is the fallback's (the query itself
	// matched nothing in the shard), is what the query itself found.
	Query *Result `json:"query,omitempty"`
	// Fallback, set when the query matched nothing in the shard and its
	// fallback matched nothing either, is what the fallback found.
	Fallback *Result `json:"fallback,omitempty"`
}

// Merge returns the result of one call run by tools that split it between
// them, configured with Shard{Index: i, Count: len(shards)} for every i,
// exactly as a single tool over all the files returns it: the matches in
// path order (as a search delivers them), the page at offset (the call's
// Params.Offset; a negative one counts as 0) cut to maxResults (the call's
// Params.MaxResults, with Run's default and cap; a negative one counts as
// the default), MaxResultBytes and paging.MaxTextBytes, the counts summed, the skipped files in path order,
// truncated by a timeout or a cancellation if any shard was (before
// maxResults), and the hints the whole search gives. shards are not
// modified.
func Merge(shards []*Result, maxResults, offset int) *Result {
	limit, err := resultLimit(maxResults)
	if err != nil {
		limit = DefaultMaxResults
	}
	offset = max(offset, 0)
	// The query's own result in each shard, and its fallback's where it ran.
	// A single tool returns the fallback's only if the query itself matched
	// nothing and was not stopped anywhere, and the fallback matched
	// somewhere.
	own := make([]*Result, len(shards))
	alt := make([]*Result, len(shards))
	ownEmpty, altMatched := true, false
	for i, r := range shards {
		own[i] = r
		if r.Shard != nil {
			switch {
			case r.Shard.Query != nil:
				own[i], alt[i] = r.Shard.Query, r
			case r.Shard.Fallback != nil:
				alt[i] = r.Shard.Fallback
			}
		}
		ownEmpty = ownEmpty && own[i].TotalMatches == 0 && own[i].Reason == ""
		altMatched = altMatched || alt[i] != nil && alt[i].TotalMatches > 0
	}
	fallback := ownEmpty && altMatched
	parts := own
	if fallback {
		for i, r := range alt {
			if r != nil {
				parts[i] = r
			}
		}
	}

	merged := &Result{}
	var matches int
	truncated := false
	stops := map[string]bool{}
	for _, r := range parts {
		merged.TotalMatches += r.TotalMatches
		merged.FilesSearched += r.FilesSearched
		merged.SkippedFiles += r.SkippedFiles
		merged.Skipped = append(merged.Skipped, r.Skipped...)
		matches += len(r.Matches)
		truncated = truncated || r.Truncated
		stops[r.Reason] = true
	}
	// Each file's matches come from one shard, in the order a single search
	// finds them; a stable sort by path keeps that order.
	merged.Matches = make([]Match, 0, matches)
	for _, r := range parts {
		merged.Matches = append(merged.Matches, r.Matches...)
	}
	slices.SortStableFunc(merged.Matches, func(a, b Match) int { return search.ComparePaths(a.File, b.File) })
	kept := bounded{skip: offset, limit: limit}
	for _, m := range merged.Matches {
		kept.add(func() Match { return m })
	}
	merged.Matches = kept.matches
	if merged.Matches == nil {
		merged.Matches = []Match{}
	}
	slices.SortStableFunc(merged.Skipped, func(a, b Skipped) int { return search.ComparePaths(a.File, b.File) })

	switch {
	case stops[ReasonTimeout]:
		merged.Reason = ReasonTimeout
	case stops[ReasonCancelled]:
		merged.Reason = ReasonCancelled
	default:
		merged.Reason = kept.reason(merged.TotalMatches)
	}
	merged.Truncated = truncated || merged.TotalMatches > offset+len(merged.Matches)
	merged.setPage(offset)

	// Every shard computes the same hints from the query, except the one
	// saying that no file of the language was found, which holds for the
	// whole search only if it searched no file.
	switch {
	case fallback:
		for _, r := range parts {
			if r.TotalMatches > 0 {
				merged.Hints = slices.Clone(r.Hints)
				break
			}
		}
	case merged.TotalMatches == 0 && merged.Reason == "" && len(parts) > 0:
		hints := parts[0].Hints
		if parts[0].Shard != nil && parts[0].Shard.NoFilesHint && merged.FilesSearched > 0 {
			hints = hints[1:]
		}
		merged.Hints = slices.Clone(hints)
	}
	if len(merged.Hints) == 0 {
		merged.Hints = nil
	}
	return merged
}
