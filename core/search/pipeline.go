package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/loupe-dev/loupe/internal/safefs"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/core/tree"
	"github.com/loupe-dev/loupe/host"
	"github.com/loupe-dev/loupe/internal/slicepool"
)

// binaryProbe is how much of a file is looked at for a NUL byte.
const binaryProbe = 8 << 10

// Job is what one pass of the per-file pipeline does with the files it
// selects. Every face (run, scan, test, the ast_grep tool and
// structural_analysis) runs its files through this pipeline:
//
//	walk → Want → read → screen → Prefilter → tree cache → parse → Visit → Deliver
//
// Walk, read and screen are the same for all (Options and Reader);
// what differs is which files are wanted, what is done with a tree and
// what is delivered.
type Job[T any] struct {
	// Want, when set, says whether a file is worth reading at all (a
	// matcher or a rule applies to its language and path). A file it
	// declines is counted in Stats.NoMatcher and never opened; an error
	// ends the run and is returned.
	Want func(File) (bool, error)
	// Visit runs on each parsed file (on a worker goroutine) and returns
	// what is delivered for it and the bytes that value holds until it is
	// delivered. An error ends the run and is returned.
	Visit func(ctx context.Context, f File, t *tree.Tree) (v T, cost int64, err error)
	// Deliver receives the value of each visited file, in path order,
	// from the calling goroutine. An error ends the run; ErrStop ends it
	// without error.
	Deliver func(f File, v T) error
	// Held bounds the bytes of visited, undelivered values (default
	// 32 MiB): work waits while they exceed it.
	Held int64
}

// Stats summarises a pipeline run.
type Stats struct {
	Files        int       // files the walk selected
	Searched     int       // files parsed (or found in the cache) and visited
	Prefiltered  int       // files the prefilter ruled out
	Empty        int       // empty files, passed over as ast-grep does
	NoMatcher    int       // files no matcher or rule wanted
	CacheHits    int       // searched files whose tree came from the cache
	MatchedFiles int       // files with at least one match (Search only)
	Matches      int       // matches delivered to the sink (Search only)
	Skipped      []Skipped // files not searched, with the reason, by path
}

// ErrStop, returned by a sink or a Deliver, ends a run early without
// error.
var ErrStop = errors.New("search: stop")

// Run walks the files opts selects and passes each through the pipeline
// on opts.Threads goroutines, delivering in path order whatever the
// scheduling.
//
// When ctx is done, Run stops promptly: parses and visits in flight are
// abandoned, the files already finished are still delivered in order
// (the ones not finished are left out), and the returned error wraps
// ctx's error.
func Run[T any](ctx context.Context, opts Options, job Job[T]) (Stats, error) {
	files, skipped, err := Files(ctx, opts)
	if err != nil {
		return Stats{}, err
	}
	st, err := RunFiles(ctx, opts, files, job)
	st.Skipped = append(st.Skipped, skipped...)
	sort.SliceStable(st.Skipped, func(i, j int) bool { return pathLess(st.Skipped[i].Path, st.Skipped[j].Path) })
	return st, err
}

// RunFiles is Run over files already listed (by Files, in path order):
// opts gives the workspace, size cap, prefilter, cache and threads.
func RunFiles[T any](ctx context.Context, opts Options, files []File, job Job[T]) (Stats, error) {
	rd, err := NewReader(opts)
	if err != nil {
		return Stats{}, err
	}
	defer rd.Close()
	st := Stats{Files: len(files)}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var fatal, deliverErr error
	traceFile := fileFuncOf(ctx)
	work := func(ctx context.Context, i int) (*outcome[T], int64) {
		o := process(ctx, rd, &opts, &job, files[i])
		if o.err != nil {
			cancel() // stop the other workers now; the error is reported in order
		}
		return o, o.cost
	}
	deliver := func(i int, o *outcome[T]) bool {
		o.account(&st)
		o.report(traceFile, files[i])
		if o.err != nil && fatal == nil {
			fatal = o.err
		}
		if o.kind == outSearched && fatal == nil && deliverErr == nil && job.Deliver != nil {
			deliverErr = job.Deliver(files[i], o.v)
		}
		return fatal == nil && deliverErr == nil
	}
	held := job.Held
	if opts.Held > 0 {
		held = opts.Held
	}
	Ordered(runCtx, len(files), OrderedLimits{Threads: opts.threads(), Held: held}, work, deliver)
	if opts.Cache != nil {
		if st := opts.Cache.Store(); st != nil {
			// The trees this run saved, found by other processes from now
			// on; one that cannot be written costs them a parse.
			_ = st.Flush()
		}
	}
	sort.SliceStable(st.Skipped, func(i, j int) bool { return pathLess(st.Skipped[i].Path, st.Skipped[j].Path) })
	switch {
	case fatal != nil:
		return st, fatal
	case deliverErr != nil && !errors.Is(deliverErr, ErrStop):
		return st, deliverErr
	case deliverErr == nil && ctx.Err() != nil:
		return st, fmt.Errorf("search: %w", ctx.Err())
	}
	return st, nil
}

type outcomeKind uint8

const (
	outSearched outcomeKind = iota
	outSkipped
	outPrefiltered
	outEmpty
	outNoMatcher
	outAbandoned // stopped before finishing
)

type outcome[T any] struct {
	kind outcomeKind
	hit  bool
	skip Skipped
	v    T
	cost int64
	err  error // fatal to the run
}

func (o *outcome[T]) account(st *Stats) {
	switch o.kind {
	case outSearched:
		st.Searched++
		if o.hit {
			st.CacheHits++
		}
	case outSkipped:
		st.Skipped = append(st.Skipped, o.skip)
	case outPrefiltered:
		st.Prefiltered++
	case outEmpty:
		st.Empty++
	case outNoMatcher:
		st.NoMatcher++
	}
}

// process takes one file through the pipeline.
func process[T any](ctx context.Context, rd *Reader, opts *Options, job *Job[T], f File) *outcome[T] {
	if f.Lang == nil {
		// Listed by AllFiles: nothing to parse it with.
		return &outcome[T]{kind: outNoMatcher}
	}
	if job.Want != nil {
		ok, err := job.Want(f)
		if err != nil {
			return &outcome[T]{kind: outAbandoned, err: err}
		}
		if !ok {
			return &outcome[T]{kind: outNoMatcher}
		}
	}
	src, skip := rd.Read(f)
	switch {
	case skip != nil && skip.Reason == SkipEmpty:
		return &outcome[T]{kind: outEmpty}
	case skip != nil:
		return &outcome[T]{kind: outSkipped, skip: *skip}
	}
	if p := opts.Prefilter; opts.Injections && !admits(p, f.Lang, opts.Lang, src) || !opts.Injections && p != nil && !p(f.Lang, src) {
		rd.release(src)
		return &outcome[T]{kind: outPrefiltered}
	}
	t, hit, owned, err := parse(ctx, opts.Cache, f, src)
	if err != nil {
		if ctx.Err() != nil {
			return &outcome[T]{kind: outAbandoned}
		}
		reason := SkipParse
		if errors.Is(err, host.ErrTooLarge) {
			reason = SkipTooLarge
		}
		return &outcome[T]{kind: outSkipped, skip: Skipped{Path: f.Path, Reason: reason, Err: err}}
	}
	if job.Visit == nil {
		if owned {
			rd.release(t.Release())
		}
		return &outcome[T]{kind: outSearched, hit: hit}
	}
	v, cost, err := job.Visit(ctx, f, t)
	if owned && opts.Recycle {
		rd.release(t.Release())
	}
	if err != nil {
		if ctx.Err() != nil {
			return &outcome[T]{kind: outAbandoned}
		}
		return &outcome[T]{kind: outAbandoned, err: err}
	}
	return &outcome[T]{kind: outSearched, hit: hit, v: v, cost: cost}
}

// parse parses src through cache, or anew when cache is nil; owned
// reports a tree no one else holds.
func parse(ctx context.Context, cache *Cache, f File, src []byte) (t *tree.Tree, hit, owned bool, err error) {
	if cache != nil {
		return cache.acquire(ctx, f.Lang, src)
	}
	t, err = f.Lang.Parse(ctx, src)
	return t, false, err == nil, err
}

// Reader is the pipeline's read and screen stage, the one place files are
// read: inside a workspace it opens files relative to the root through
// an os.Root, so a path that a concurrent writer turned into a symlink
// leading out of the workspace is refused on what is actually opened,
// not on what the walk saw; it reads at most the size cap, and screens
// out binary and non-UTF-8 content. It is safe for concurrent use.
type Reader struct {
	root    *safefs.Root // nil without a workspace
	maxSize int64
}

// NewReader returns the read stage for opts (its Root and MaxFileSize).
// Close releases it.
func NewReader(opts Options) (*Reader, error) {
	r := &Reader{maxSize: host.MaxInput}
	if opts.MaxFileSize > 0 && opts.MaxFileSize < r.maxSize {
		r.maxSize = opts.MaxFileSize
	}
	if opts.Root != "" {
		ws, err := OpenWorkspace(opts.Root)
		if err != nil {
			return nil, err
		}
		if r.root, err = safefs.Open(ws.Root()); err != nil {
			return nil, fmt.Errorf("workspace root: %w", err)
		}
	}
	return r, nil
}

// Close releases the reader's handle on the workspace root.
func (r *Reader) Close() error {
	if r.root != nil {
		return r.root.Close()
	}
	return nil
}

// Read reads and screens f. A nil *Skipped means src is fit to parse;
// otherwise it says why the file is passed over (SkipEmpty for an empty
// file, which the pipeline counts in Stats.Empty).
func (r *Reader) Read(f File) (src []byte, skip *Skipped) {
	if r.root == nil {
		return r.readDirect(f)
	}
	return r.readOS(f)
}

// readOS is Read through package os.
func (r *Reader) readOS(f File) (src []byte, skip *Skipped) {
	fail := func(reason SkipReason, err error) ([]byte, *Skipped) {
		return nil, &Skipped{Path: f.Path, Reason: reason, Err: err}
	}
	var (
		fh  *os.File
		err error
	)
	// openFlags do not wait on a fifo swapped in for the file since the
	// walk: it is opened, found not regular, and refused.
	if r.root != nil {
		fh, err = r.root.OpenFile(filepath.FromSlash(f.Path), os.O_RDONLY, 0)
	} else {
		fh, err = os.OpenFile(f.Abs, openFlags, 0)
	}
	if err != nil {
		if escapes(err) {
			return fail(SkipOutside, nil)
		}
		return fail(SkipUnreadable, unwrapPathErr(err))
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return fail(SkipUnreadable, unwrapPathErr(err))
	}
	if !fi.Mode().IsRegular() {
		return fail(SkipUnreadable, errNotRegular)
	}
	if fi.Size() > r.maxSize {
		return fail(SkipTooLarge, nil)
	}
	src, err = readAll(io.LimitReader(fh, r.maxSize+1), r.buffer(fi.Size()+1))
	if err != nil {
		return fail(SkipUnreadable, unwrapPathErr(err))
	}
	if int64(len(src)) > r.maxSize {
		return fail(SkipTooLarge, nil)
	}
	if reason := Screen(src); reason != "" {
		return fail(reason, nil)
	}
	return src, nil
}

// buffer returns an empty buffer of at least n bytes: a source given back,
// or a new one.
func (r *Reader) buffer(n int64) []byte { return sources.Get(int(n))[:0] }

// release gives back src, which nothing holds any more, to be read into
// again.
func (r *Reader) release(src []byte) { sources.Put(src) }

// sources are the buffers files are read into, a few kept for reuse.
var sources = slicepool.Pool[byte]{Bytes: 512 << 10, Slices: 8, Max: 128 << 10}

// readAll is io.ReadAll into b, a buffer sized for the file as its Stat
// said (one more byte, to see the end in the same read), so that reading
// it allocates nothing more; a file that grew meanwhile is read whole all
// the same.
func readAll(rd io.Reader, b []byte) ([]byte, error) {
	for {
		n, err := rd.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = slices.Grow(b, len(b))
		}
	}
}

// errNotRegular is why a fifo, socket or device is not read.
var errNotRegular = safefs.ErrNotRegular

// Screen is the content screen every face applies before parsing: ""
// when src is fit to parse, else why not (empty, binary: a NUL byte in
// the first 8 KiB, or not valid UTF-8).
func Screen(src []byte) SkipReason {
	switch {
	case len(src) == 0:
		return SkipEmpty
	case bytes.IndexByte(src[:min(len(src), binaryProbe)], 0) >= 0:
		return SkipBinary
	case !utf8.Valid(src):
		return SkipEncoding
	}
	return ""
}

// escapes reports whether err is the refusal of a path that leaves the
// root (safefs's, or os.Root's in the same words).
func escapes(err error) bool {
	return errors.Is(err, safefs.ErrOutside) || err != nil && strings.Contains(err.Error(), safefs.ErrOutside.Error())
}
