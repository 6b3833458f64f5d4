package search

import "context"

// ProgressFunc observes a run as it goes: Ordered (and so Run, Search and
// every pipeline over it) calls it from the delivering goroutine once when
// it starts, with done 0, and again after each item is delivered. A call
// that runs several passes reports each pass from 0 again.
type ProgressFunc func(done, total int)

type progressKey struct{}

// WithProgress returns a context under which the runs started report their
// progress to f, the way net/http/httptrace carries its hooks: no option
// needs to be threaded through the layers between a face that shows
// progress and the pipeline that makes it.
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// progressOf returns ctx's ProgressFunc, or one that does nothing.
func progressOf(ctx context.Context) ProgressFunc {
	if f, ok := ctx.Value(progressKey{}).(ProgressFunc); ok && f != nil {
		return f
	}
	return func(int, int) {}
}
