package search

import "context"

// Outcome is what a run did with one file it selected.
type Outcome uint8

// The outcomes of a file.
const (
	Searched    Outcome = iota // parsed (or found in the cache) and visited
	Prefiltered                // read, then ruled out by the prefilter
	NotWanted                  // no matcher or rule wanted it; never opened
	Unsearched                 // read but not searched: empty, or a Skipped reason
)

// FileFunc hears of each file a run selected and what became of it, from
// the delivering goroutine, in path order, before the file's value is
// delivered; reason says why an Unsearched file was passed over
// (SkipEmpty for an empty file). Files abandoned when a run stops early
// are not reported.
type FileFunc func(f File, o Outcome, reason SkipReason)

type fileFuncKey struct{}

// WithFileFunc returns a context under which the runs started report each
// file to f, as WithProgress reports their progress: a face that traces
// its files (the CLI's --inspect) needs no option threaded through the
// layers above the pipeline.
func WithFileFunc(ctx context.Context, f FileFunc) context.Context {
	return context.WithValue(ctx, fileFuncKey{}, f)
}

// fileFuncOf returns ctx's FileFunc, or nil.
func fileFuncOf(ctx context.Context) FileFunc {
	f, _ := ctx.Value(fileFuncKey{}).(FileFunc)
	return f
}

// report tells f what became of file.
func (o *outcome[T]) report(f FileFunc, file File) {
	if f == nil {
		return
	}
	switch o.kind {
	case outSearched:
		f(file, Searched, "")
	case outPrefiltered:
		f(file, Prefiltered, "")
	case outNoMatcher:
		f(file, NotWanted, "")
	case outEmpty:
		f(file, Unsearched, SkipEmpty)
	case outSkipped:
		f(file, Unsearched, o.skip.Reason)
	}
}
